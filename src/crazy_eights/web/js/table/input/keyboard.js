// Playing from the keyboard: the hand is a toolbar (arrows, Home, End; Enter or Space
// plays), D draws, P passes, L calls last card, I asks for a hint, H goes to the hand,
// ? opens the rules. Returns the listener for `document`'s keydown.
import { askHint, callLastCard, draw, pass, play } from "../actions.js";
import { showHelp } from "../page.js";

const MOVES = new Set(["ArrowRight", "ArrowLeft", "Home", "End"]);

export function keyHandler(t) {
  return (e) => {
    if (document.querySelector(".backdrop")) return;
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const c = t.ctrl;
    const cards = [...t.el.hand.children];
    const idx = cards.indexOf(document.activeElement);
    const key = e.key;
    c.keyboard = true;
    if (MOVES.has(key) && cards.length) {
      e.preventDefault();
      focusCard(cards, nextIndex(key, idx, cards.length));
      return;
    }
    if ((key === "Enter" || key === " ") && idx >= 0) {
      e.preventDefault();
      play(t, cards[idx].dataset.card);
      return;
    }
    const lower = key.toLowerCase();
    if (lower === "d") draw(t);
    else if (lower === "i" && c.mySeat !== null && c.info && c.info.hints) askHint(t);
    else if (lower === "p") pass(t);
    else if (lower === "l" && c.mySeat !== null && c.lastCardMode() === "manual") callLastCard(t);
    else if (lower === "h" && cards.length) (cards.find((b) => b.tabIndex === 0) || cards[0]).focus();
    else if (key === "?") showHelp(t);
    else return;
    e.preventDefault();
  };
}

/** The card an arrow, Home or End key moves to from `idx` (-1: none focused), round. */
function nextIndex(key, idx, n) {
  let next = idx < 0 ? 0 : idx + (key === "ArrowRight" ? 1 : key === "ArrowLeft" ? -1 : 0);
  if (key === "Home") next = 0;
  if (key === "End") next = n - 1;
  return (next + n) % n;
}

/** Make one card the hand's tab stop and focus it. */
function focusCard(cards, i) {
  for (const b of cards) b.tabIndex = -1;
  cards[i].tabIndex = 0;
  cards[i].focus();
}
