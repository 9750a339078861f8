// The middle of the felt: the stock, and either the discard pile with the named suit,
// the direction and a pending draw, or (cycles) the cycle on the table.
import { cardName, cardSVG, SUIT_NAMES, suitIcon } from "../../cards.js";
import * as settings from "../../settings.js";
import { h } from "../../ui.js";
import { looks } from "../rulesets.js";
import { renderCycle } from "./cycle.js";

export function renderCenter(ctrl, el) {
  const v = ctrl.view;
  const cycles = looks(v).center === "cycle";
  renderStock(ctrl, el);
  el.discard.hidden = cycles;
  el.center.classList.toggle("cycles", cycles);
  el.cycle.hidden = !cycles;
  if (cycles) renderCycle(ctrl, el);
  else renderPile(ctrl, el);
}

function renderStock(ctrl, el) {
  const v = ctrl.view;
  el.stockCount.textContent = String(v.stock);
  const canDraw = Boolean(ctrl.offered("draw"));
  el.stock.disabled = !canDraw;
  el.stock.classList.toggle("can-draw", canDraw);
  el.stock.classList.toggle("empty", v.stock === 0);
  el.stock.setAttribute("aria-label", `Stock, ${v.stock} card${v.stock === 1 ? "" : "s"}${canDraw ? ". Draw a card" : ""}`);
}

/** The discard pile (its top card and two under it), the suit an eight named, the
 * direction of play and a draw-two run waiting to be paid. */
function renderPile(ctrl, el) {
  const v = ctrl.view;
  const s = settings.get();
  const face = { face: s.face, fourColor: s.fourColor, label: false };
  const under = (v.discard || []).slice(-3, -1);
  el.discard.replaceChildren(
    ...under.map((c, i) => h("div", { class: "under", style: `transform: rotate(${(i - 1) * 7}deg)`, html: cardSVG(c, face) })),
    h("div", { class: "top", html: cardSVG(v.top, face) }));
  el.discard.setAttribute("aria-label", `Discard pile, top card ${cardName(v.top)}`);
  el.discard.classList.toggle("drop-ok", !!ctrl.selected);
  if (v.declared) {
    el.suit.hidden = false;
    el.suit.className = `suit-indicator suit-${v.active_suit}`;
    el.suit.innerHTML = `${suitIcon(v.active_suit, { fourColor: s.fourColor, size: 52 })}<span>${SUIT_NAMES[v.active_suit]}</span>`;
    el.suit.setAttribute("aria-label", `Declared suit: ${SUIT_NAMES[v.active_suit]}`);
  } else {
    el.suit.hidden = true;
    el.suit.textContent = "";
  }
  el.direction.textContent = v.direction === -1 ? "\u21BA counter-clockwise" : "\u21BB clockwise";
  el.pendingDraw.hidden = !v.pending_draw;
  el.pendingDraw.textContent = v.pending_draw ? `Draw ${v.pending_draw} pending` : "";
}
