// Your hand: the cards fanned out in your chosen order, the playable ones glowing, the
// selected one raised, and the keyboard's focus kept in it from turn to turn.
import { cardName, cardSVG } from "../../cards.js";
import * as settings from "../../settings.js";
import { h } from "../../ui.js";

export function renderHand(ctrl, el) {
  const v = ctrl.view;
  const s = settings.get();
  if (ctrl.mySeat === null) {
    el.hand.replaceChildren();
    return;
  }
  // keep a keyboard player in the hand: focus stays on the card, or moves to the next
  // playable one when the focused card was just played
  const inHand = document.activeElement && el.hand.contains(document.activeElement);
  const focused = inHand ? document.activeElement.dataset.card : null;
  const keepFocus = inHand || (ctrl.keyboard && (!document.activeElement || document.activeElement === document.body));
  const counts = {};
  const cards = ctrl.handOrder().map((card) => {
    counts[card] = (counts[card] || 0) + 1;
    const playable = ctrl.movesFor(card).length > 0;
    return h("button", {
      class: `card${playable ? " legal" : ""}${ctrl.selected === card ? " selected" : ""}${ctrl.undealt.has(card) ? " dealing" : ""}`,
      type: "button",
      dataset: { card, copy: String(counts[card]) },
      "aria-label": `${cardName(card)}${playable ? ", playable" : ""}`,
      "aria-pressed": ctrl.selected === card ? "true" : null,
      tabindex: "-1",
      html: cardSVG(card, { face: s.face, fourColor: s.fourColor, label: false }),
    });
  });
  el.hand.replaceChildren(...cards);
  const target = cards.find((c) => c.dataset.card === focused) || cards.find((c) => c.classList.contains("legal")) || cards[0];
  if (target) target.tabIndex = 0;
  if (keepFocus && target) target.focus({ preventScroll: true });
  layoutHand(el.hand);
  if (v.drawn) {
    const drawn = cards.find((c) => c.dataset.card === v.drawn);
    if (drawn) drawn.classList.add("just-drawn");
  }
}

/** Fan the hand to fit its width: the overlap, and each card's tilt and lift. */
export function layoutHand(hand) {
  const cards = [...hand.children];
  if (!cards.length) return;
  const width = hand.clientWidth || 300;
  const cw = cards[0].offsetWidth || 80;
  const n = cards.length;
  const step = n > 1 ? Math.min(cw * 0.62, (width - cw - 8) / (n - 1)) : cw;
  hand.style.setProperty("--overlap", `${Math.round(step - cw)}px`);
  const mid = (n - 1) / 2;
  const spread = Math.min(3, 24 / n);
  cards.forEach((c, i) => {
    const off = i - mid;
    c.style.setProperty("--rot", `${(off * spread).toFixed(2)}deg`);
    c.style.setProperty("--lift", `${(Math.abs(off) ** 1.6 * 0.8).toFixed(1)}px`);
  });
}
