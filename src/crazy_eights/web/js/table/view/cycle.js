// The cycle on the table (cycles): the lead suit, where the game stands, and each card
// played in this cycle with who played it, the lead, the host's card and the winner.
import { cardName, cardSVG, SUIT_NAMES, suitIcon } from "../../cards.js";
import * as settings from "../../settings.js";
import { h } from "../../ui.js";

export function renderCycle(ctrl, el) {
  const v = ctrl.view;
  const s = settings.get();
  el.suit.hidden = !v.lead_suit;
  if (v.lead_suit) {
    el.suit.className = `suit-indicator suit-${v.lead_suit}`;
    el.suit.innerHTML = `${suitIcon(v.lead_suit, { fourColor: s.fourColor, size: 44 })}<span>lead ${SUIT_NAMES[v.lead_suit]}</span>`;
    el.suit.setAttribute("aria-label", `Lead suit: ${SUIT_NAMES[v.lead_suit]}`);
  }
  el.direction.textContent = `Cycle ${v.cycle_number} \u00b7 ${v.cycles_left} cycle${v.cycles_left === 1 ? "" : "s"} left \u00b7 ${v.removed.length} removed`;
  el.pendingDraw.hidden = true;
  const leader = v.leader === null ? null : v.leader;
  const cards = v.cycle.map((c, i) => {
    const isHost = c.seat === "host";
    const tags = [];
    if (i === 0) tags.push("lead");
    if (isHost) tags.push("host's card");
    if (v.winning === c.seat) tags.push("winning");
    return h("figure", { class: `cycle-card${v.winning === c.seat ? " winning" : ""}${isHost ? " host" : ""}`, "aria-label": `${ctrl.name(c.seat)}: ${cardName(c.card)}${tags.length ? " (" + tags.join(", ") + ")" : ""}` },
      h("div", { class: "cardbox", html: cardSVG(c.card, { face: s.face, fourColor: s.fourColor, label: false }) }),
      h("figcaption", {}, h("span", { text: ctrl.name(c.seat) }), tags.length ? h("small", { text: tags.join(" \u00b7 ") }) : null));
  });
  el.cycle.replaceChildren(
    h("p", { class: "cycle-head", text: leader === null ? "" : `Leader: ${ctrl.name(leader)}${v.turns_left ? ` \u00b7 ${v.turns_left} to play` : ""}` }),
    h("div", { class: "cycle-cards", role: "list" }, cards.length ? cards : h("p", { class: "muted", text: v.current === ctrl.mySeat ? "Lead a card from your hand." : `Waiting for ${ctrl.name(v.current)} to lead.` })));
}
