// The table's state as this browser knows it, and the questions the views and the input
// ask of it. No DOM and no socket here. The answers about rules come from the server:
// the legal moves as data, and the view's `call_matters` and `goal` (the engine's).
import { sortHand } from "../cards.js";
import * as settings from "../settings.js";

export class TableCtrl {
  constructor({ tableId, code = null, account = null }) {
    this.stoodIn = 0; // moves a stand-in played for you, from the welcome (once)
    this.id = tableId;
    this.code = code;
    this.account = account;
    this.info = null;
    this.you = { seat: null, role: "spectator" };
    this.state = null;
    this.clock = null;
    this.clockAt = 0;
    this.chat = [];
    this.custom = []; // your own order of the hand ("Own" sort)
    this.undealt = new Set(); // cards of the deal still flying to your hand
    this.selected = null;
    this.pending = false;
    this.unanswered = null; // { seq, move } of the move on its way, until the table answers
    this.called = false;
    this.declaring = false; // the starter's suit picker is open
    this.keyboard = false; // the player plays from the keyboard: keep the focus in the hand
    this.shownOver = false;
    this.hint = null; // {version, move, data}: the search bot's suggestion for this position
    this.hintAsked = null; // the version a hint was asked for and not yet answered
    this.ratings = null;
    this.rematch = null; // the finished table's follow-up ("Play again"), from the server
  }

  get view() {
    return this.state ? this.state.view : null;
  }

  get mySeat() {
    return this.you && this.you.role === "player" ? this.you.seat : null;
  }

  /** The seat at the bottom of the table: yours, or seat 1's when you are watching. */
  get viewSeat() {
    return this.mySeat === null ? 0 : this.mySeat;
  }

  /** Whether it is your turn in a running game. */
  get myTurn() {
    const v = this.view;
    return this.mySeat !== null && !!v && v.current === this.mySeat && !v.over;
  }

  /** Your legal moves now, as the server sends them: `{kind, card, suit, call, wild,
   * text}` each (none while a move is on its way or between rounds). The client reads
   * these fields and sends `text` back; it never reads or writes move text itself. */
  get legal() {
    return this.state && !this.pending && !this.state.pause ? this.state.moves || [] : [];
  }

  /** Your legal move of this kind now (`draw`, `pass`), or undefined. */
  offered(kind) {
    return this.legal.find((m) => m.kind === kind);
  }

  movesFor(card) {
    return this.legal.filter((m) => m.card === card);
  }

  /** What the table knows of a seat (name, avatar, bot, presence), or undefined. */
  seatInfo(seat) {
    return this.info ? this.info.seats.find((s) => s.seat === seat) : undefined;
  }

  name(seat) {
    if (seat === "host") return "The host";
    if (seat === null || seat === undefined) return "The table";
    if (seat === this.mySeat) return "You";
    const s = this.seatInfo(seat);
    if (!s || !s.name) return `Seat ${seat + 1}`;
    // bots of one level share an account and a name: tell them apart by seat
    const twins = this.info.seats.filter((x) => x.name === s.name).length > 1;
    return twins ? `${s.name} ${seat + 1}` : s.name;
  }

  /** Your hand in the order the sort setting asks for ("Own": as you arranged it). */
  handOrder() {
    const hand = (this.view && this.view.hand) || [];
    const mode = settings.get().sort;
    if (mode !== "custom") return sortHand(hand, mode);
    const left = [...hand];
    const out = [];
    for (const c of this.custom) {
      const i = left.indexOf(c);
      if (i >= 0) {
        out.push(c);
        left.splice(i, 1);
      }
    }
    return out.concat(sortHand(left, "suit"));
  }

  /** Whether a last-card call can matter now: the engine says a call counts with your
   * next play (`view.call_matters`) and a play is offered with the call. */
  callMatters() {
    const v = this.view;
    return !!v && v.call_matters === true && this.legal.some((m) => m.call);
  }

  /** The table's last-card setting (`manual`, `auto` or `off`): whether there is a
   * button to press at all. */
  lastCardMode() {
    const v = this.view;
    if (!v) return "off";
    return (v.rules && v.rules.last_card) || v.last_card || "off";
  }

  /** Whether the starter's suit is yours to name now and nobody is naming it yet. */
  wantsDeclare() {
    const v = this.view;
    return this.myTurn && !this.state.pause && v.phase === "declare" && !this.pending && !this.declaring;
  }

  /** Note when each absent seat's stand-in is due, from the seconds the server sent. */
  stampAway(seats) {
    const now = performance.now();
    for (const s of seats || []) if (s.away_left !== null && s.away_left !== undefined) s.awayUntil = now + s.away_left * 1000;
  }

  /** Take the clock a message brings (every message may). */
  noteClock(msg) {
    if (msg.clock === undefined) return;
    this.clock = msg.clock;
    this.clockAt = performance.now();
  }

  /** Seconds left on the running clock now, or null when none runs. */
  clockLeft() {
    if (!this.clock || !this.view || this.view.over) return null;
    return Math.max(0, this.clock.left - (performance.now() - this.clockAt) / 1000);
  }
}
