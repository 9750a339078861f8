// What you do at the table, sent over the socket: a move (a card, with its suit and the
// last-card call as the server offers them; a draw; a pass), the last-card call, a hint,
// a chat line. `t` is the table (`TableView`): its state, elements and socket.
import { cardName } from "../cards.js";
import * as fx from "../fx.js";
import * as settings from "../settings.js";
import * as sound from "../sound.js";
import { announce, toast } from "../ui.js";
import { pickSuit, suitsOf } from "./suitpicker.js";
import { renderActions } from "./view/actions.js";

export function sendMove(t, move) {
  const c = t.ctrl;
  if (c.pending || !c.state) return;
  sound.unlock();
  if (t.send({ type: "move", seq: c.state.version, move })) {
    c.pending = true;
    c.unanswered = { seq: c.state.version, move };
    c.selected = null;
    t.render();
  }
}

/** A move sent just before the connection broke may never have reached the table (its
 * server went down with it): after the reconnect, send it again if the table is still at
 * the position it was sent from and still offers it. The version in `seq` makes a second
 * copy harmless: a move the table did take has moved it on, and a stale one is refused. */
export function resend(t, state) {
  const move = t.ctrl.unanswered;
  t.ctrl.unanswered = null;
  if (move && state && state.version === move.seq && (state.moves || []).some((m) => m.text === move.move)) {
    sendMove(t, move.move);
  }
}

/** Play a card: one of the moves offered with it, asking for a suit when they differ by
 * suit, and with the last-card call when the table may call for you. */
export async function play(t, card) {
  const c = t.ctrl;
  const moves = c.movesFor(card);
  if (!moves.length) {
    fx.shake(t.el.hand.querySelector(`[data-card="${card}"]`));
    if (c.view && c.view.current === c.mySeat) toast(`The ${cardName(card)} cannot be played now.`);
    else toast("Wait for your turn.");
    return;
  }
  const autoCall = settings.get().autoCall && c.info && c.info.hints;
  // the same card with and without the last-card call: call it when the table may
  // call for you and you have not armed the call yourself
  const calls = moves.filter((m) => m.call);
  let pool = moves.filter((m) => !m.call);
  if (calls.length && autoCall && !c.called) pool = calls;
  if (!pool.length) pool = moves;
  const suits = suitsOf(pool);
  if (!suits.length) return sendMove(t, pool[0].text);
  const suit = await pickSuit(suits, card);
  if (!suit) return;
  const move = pool.find((m) => m.suit === suit);
  if (move) sendMove(t, move.text);
}

/** Name the suit of a starter eight (you are the dealer and it is yours to name). */
export async function declareStarter(t) {
  const c = t.ctrl;
  c.declaring = true;
  const legal = c.legal;
  const withCard = legal.find((m) => m.card);
  const suit = await pickSuit(suitsOf(legal), withCard ? withCard.card : c.view.top, "Name the suit of the starter eight");
  c.declaring = false;
  if (suit) {
    const move = legal.find((m) => m.suit === suit);
    if (move) sendMove(t, move.text);
  }
}

export function draw(t) {
  const c = t.ctrl;
  const move = c.offered("draw");
  if (!move) {
    if (c.view && c.view.current === c.mySeat) toast("You cannot draw now.");
    return;
  }
  sendMove(t, move.text);
}

export function pass(t) {
  const move = t.ctrl.offered("pass");
  if (move) sendMove(t, move.text);
}

export function callLastCard(t) {
  sound.unlock();
  if (t.ctrl.called) {
    toast("Last card is already armed: it goes with your next play.");
    return;
  }
  if (!t.ctrl.callMatters()) {
    toast("Last card counts only with a play that leaves you one card; not now.");
    return;
  }
  if (t.send({ type: "call" })) announce("Last card: your next play calls it.");
}

/** The server armed your call (the button, or a chat line that is the call): say
 * whether it will count, as the engine says (`view.call_matters`). */
export function called(t) {
  const c = t.ctrl;
  c.called = true;
  t.render();
  const mode = c.lastCardMode();
  if (c.view && c.view.call_matters) announce("Last card called for your next play.");
  else if (mode === "manual") toast("Last card is armed for your next play, but that play will not leave you one card, so it would be a false call.", "error");
  else toast(`Last card is armed, but ${mode === "auto" ? "the table calls it for you" : "this table plays without it"}, so it will not count.`, "error");
}

/** Ask the server for the search bot's move (only offered at tables with hints). */
export function askHint(t) {
  const c = t.ctrl;
  if (!c.state || (c.hint && c.hint.version === c.state.version)) {
    if (c.hint) showHint(t, c.hint);
    return;
  }
  if (t.send({ type: "hint" })) {
    c.hintAsked = c.state.version;
    renderActions(c, t.el);
  }
}

/** The hint arrived: mark it on the table and say it. */
export function showHint(t, { version, move, data }) {
  const c = t.ctrl;
  if (!c.state || version !== c.state.version) return; // the game moved on
  c.hint = { version, move, data };
  c.hintAsked = null;
  renderActions(c, t.el);
  const { kind, card } = data;
  const el = t.el;
  const target = kind === "draw" ? el.stock : kind === "pass" ? el.pass : card ? el.hand.querySelector(`[data-card="${card}"]`) : null;
  if (target) fx.pulse(target);
  toast(`Hint: ${kind === "draw" ? "draw a card" : kind === "pass" ? "pass" : card ? `play the ${cardName(card)}` : "name a suit"}`);
}

export function sendChat(t, e) {
  e.preventDefault();
  const input = t.el.chatInput;
  const text = input.value.trim();
  if (!text) return;
  if (t.send({ type: "chat", text })) input.value = "";
}
