// The suit picker: a dialog offering exactly the suits the legal moves name, with the
// keys S, H, D and C. Resolves to the suit letter, or a falsy value when cancelled.
import { cardName, SUIT_NAMES, suitIcon, SUITS } from "../cards.js";
import * as settings from "../settings.js";
import { h, modal } from "../ui.js";

/** The suits a choice of moves names (one card's, or the starter eight's), in order. */
export const suitsOf = (moves) => [...new Set(moves.map((m) => m.suit).filter(Boolean))];

export function pickSuit(suits, card, title = null) {
  const s = settings.get();
  const body = h("p", { class: "muted", text: `Which suit must the next player follow? Keys: S, H, D, C.` });
  const buttons = SUITS.filter((x) => suits.includes(x)).map((x) => ({
    value: x, class: `btn suit-btn suit-${x}`, label: SUIT_NAMES[x],
    html: `${suitIcon(x, { fourColor: s.fourColor, size: 44 })}<span>${SUIT_NAMES[x]}</span>`,
  }));
  const p = modal({ title: title || `Name a suit for the ${cardName(card)}`, body, buttons, className: "suit-picker" });
  const box = document.querySelector(".suit-picker");
  if (box) {
    box.addEventListener("modalkey", (e) => {
      const key = e.detail.event.key.toUpperCase();
      if (suits.includes(key)) {
        e.detail.event.preventDefault();
        e.detail.close(key);
      }
    });
  }
  return p;
}
