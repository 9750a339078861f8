// What the table tells you without the log: each player's last card played (with the
// suit declared), how many cards a draw took, and penalties as a notice on the felt.
// It reads the events the server sends (their types and fields); it decides no rule.
import { cardName, cardSVG, SUIT_NAMES, suitIcon } from "./cards.js";
import { h } from "./ui.js";

const NOTICE_MS = 3200;

/** Why a penalty event happened, in words, or null when the event is no penalty. */
export function penaltyWhy(ev) {
  if (ev.type === "penalty") return ev.reason === "draw_two" ? "the draw-two run" : ev.reason === "last_card" ? "not calling last card" : "a penalty";
  if (ev.type === "picked_up" && ev.reason === "last_card") return "not calling last card";
  if (ev.type === "false_call") return "a false call";
  return null;
}

export class Tells {
  constructor() {
    this.plays = new Map(); // seat -> {card, declared}
    this.draws = new Map(); // seat -> cards taken in the seat's latest turn
    this.lastSeat = null;
  }

  /** A new round: nobody has played or drawn in it yet. */
  reset() {
    this.plays.clear();
    this.draws.clear();
    this.lastSeat = null;
  }

  /** Take in one event (in order); a welcome replays the round's log through here.
   * A seat's draws count within its turn: its first event of a new turn starts afresh. */
  note(ev) {
    if (ev.type === "round" || ev.type === "game") {
      this.reset();
      return;
    }
    if (!["played", "drew", "penalty", "passed"].includes(ev.type) || ev.seat === undefined) return;
    if (ev.seat !== this.lastSeat) this.draws.delete(ev.seat);
    this.lastSeat = ev.seat;
    if (ev.type === "played") this.plays.set(ev.seat, { card: ev.cards && ev.cards[0], declared: ev.declared || null });
    else if (ev.type !== "passed") this.draws.set(ev.seat, (this.draws.get(ev.seat) || 0) + (ev.count || 0));
  }

  /** The panel's tell: the last card the seat played (and the suit it named), and
   * "drew N" after a draw; null when there is nothing to tell. */
  badge(seat, { face, fourColor }) {
    const play = this.plays.get(seat);
    const drew = this.draws.get(seat);
    if (!play && !drew) return null;
    const parts = [];
    let label = "";
    if (play && play.card) {
      parts.push(h("span", { class: "tell-card", html: cardSVG(play.card, { face, fourColor, label: false }) }));
      label = `last played the ${cardName(play.card)}`;
      if (play.declared) {
        parts.push(h("span", { class: "tell-suit", title: `named ${SUIT_NAMES[play.declared]}`, html: suitIcon(play.declared, { fourColor, size: 18 }) }));
        label += `, named ${SUIT_NAMES[play.declared]}`;
      }
    }
    if (drew) {
      parts.push(h("span", { class: "tell-drew", text: `drew ${drew}` }));
      label += `${label ? "; " : ""}drew ${drew} card${drew === 1 ? "" : "s"}`;
    }
    return h("span", { class: "tell", role: "note", "aria-label": label, title: label, dataset: { tell: String(seat) } }, ...parts);
  }
}

/** Show a penalty notice on the felt for a few seconds: who pays, how many, and why. */
export function showNotice(felt, text) {
  let box = felt.querySelector(".penalty-notices");
  if (!box) {
    box = h("div", { class: "penalty-notices", role: "status", "aria-live": "assertive" });
    felt.append(box);
  }
  const item = h("div", { class: "penalty-notice", text });
  box.append(item);
  setTimeout(() => item.remove(), NOTICE_MS);
  return item;
}
