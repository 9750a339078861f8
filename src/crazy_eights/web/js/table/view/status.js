// The turn line above your hand: whose turn it is and, on yours, what you can do.
import { cardName } from "../../cards.js";
import { looks } from "../rulesets.js";

export function renderStatus(ctrl, el) {
  const v = ctrl.view;
  if (v.over) {
    el.status.textContent = "The game is over.";
    return;
  }
  if (ctrl.state.pause) {
    el.status.classList.remove("mine");
    el.status.textContent = "Round over: the next round starts when everyone is ready.";
    return;
  }
  if (ctrl.myTurn) {
    el.status.textContent = yourTurn(ctrl);
    el.status.classList.add("mine");
    return;
  }
  el.status.classList.remove("mine");
  const seat = ctrl.seatInfo(v.current);
  const away = seat && seat.awayUntil && !seat.connected && !seat.standin;
  el.status.textContent = v.current === null || v.current === undefined ? "" : away ? `${ctrl.name(v.current)} is away: waiting for them, or a bot in a moment\u2026` : `${ctrl.name(v.current)} ${v.current === ctrl.mySeat ? "are" : "is"} playing\u2026`;
}

/** The words for your turn, from the moves offered and the view. */
function yourTurn(ctrl) {
  const v = ctrl.view;
  const legal = ctrl.legal;
  if (ctrl.pending) return "Your move is on its way\u2026";
  if (v.phase === "declare") return "Your turn: name the suit of the starter eight";
  if (legal.length === 1 && legal[0].kind === "pass") return "Your turn: nothing to play, pass";
  const words = ctrl.state.words || {};
  if (words.answer) return `Your turn: ${words.answer}`; // a pending draw-two, in the engine's words
  if (legal.every((m) => m.kind === "draw" || m.kind === "pass")) return "Your turn: no playable card, draw from the stock";
  if (v.drawn) return "Your turn: play the card you drew or pass";
  if (v.forced_card) return `Your turn: you must play the ${cardName(v.forced_card)}`;
  return looks(v).turn(v) || "Your turn";
}
