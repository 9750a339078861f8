// The event log: each event of the engine as a sentence, from your point of view
// ("You play", "Ann plays"), appended to the log and announced to screen readers.
import { cardName, SUIT_NAMES } from "../../cards.js";
import { penaltyWhy } from "../../tells.js";
import { announce, h } from "../../ui.js";

const MAX_LINES = 200;

/** One event as a sentence, or null for one not worth a line. `table`: `{name(seat),
 * mySeat}` (the table's names, and your seat or null). */
export function describe(ev, table) {
  const { mySeat } = table;
  const name = (seat) => table.name(seat);
  const who = name(ev.seat);
  const s = ev.seat === mySeat ? "" : "s"; // "You play" / "Ann plays"
  const cards = ev.cards ? ev.cards.map(cardName).join(", ") : null;
  const n = ev.count;
  switch (ev.type) {
    case "round": return `Round ${ev.round}: ${name(ev.dealer)} deal${ev.dealer === mySeat ? "" : "s"}.`;
    case "game": return `A game of cycles for ${ev.players} players, ${ev.cycles_left} cycles at most.`;
    case "deal": return ev.seat === mySeat ? `You are dealt ${n} cards.` : null;
    case "starter": return `The starter is the ${cards}.`;
    case "declared": return `${who} name${s} ${SUIT_NAMES[ev.suit]}.`;
    case "played": return `${who} play${s} the ${cards}${ev.declared ? ` and name${s} ${SUIT_NAMES[ev.declared]}` : ""}${ev.lead ? " to lead" : ""}.`;
    case "last_card": return `${who} call${s} \u201clast card!\u201d${ev.auto ? " (automatic)" : ""}`;
    case "penalty": if (!n) return `${who} should draw penalty cards for ${penaltyWhy(ev)}, but the stock is empty.`;
      return `${who} draw${s} ${n} penalty card${n === 1 ? "" : "s"} for ${penaltyWhy(ev)}${cards ? `: ${cards}` : ""}.`;
    case "skipped": return `${who} ${ev.seat === mySeat ? "are" : "is"} skipped.`;
    case "direction": return `Play now goes ${ev.direction === -1 ? "counter-clockwise" : "clockwise"}.`;
    case "reshuffled": return `The discards are shuffled into a new stock (${ev.count} cards).`;
    case "drew": return `${who} draw${s} ${n === 1 ? "a card" : `${n} cards`}${cards ? `: ${cards}` : ""}.`;
    case "passed": return `${who} pass${ev.seat === mySeat ? "" : "es"}.`;
    case "timeout": return `${who} ran out of time.`;
    case "round_over": if (ev.reason !== "blockade") return `${who} went out and win${s} round ${ev.round}!`;
      return ev.seat === undefined || ev.seat === null ? `Round ${ev.round} is blocked: nobody wins it.` : `Round ${ev.round} is blocked; ${who} win${s} it${table.state && table.state.words && table.state.words.blockade ? ` (${table.state.words.blockade})` : ""}.`;
    case "game_over": return ev.winner === null || ev.winner === undefined ? "The game is over." : `Game over: ${name(ev.winner)} win${ev.winner === mySeat ? "" : "s"}!`;
    case "host_lead": return `The host leads the ${cards}.`;
    case "lead": return `${who} lead${s} cycle ${ev.cycle}.`;
    case "first_player": return `${who} play${s} first${ev.tie_break ? " (tie broken at random)" : ""}.`;
    case "cycle_won": return `${ev.seat === undefined ? "The host" : who} win${s} the cycle.`;
    case "picked_up": {
      const m = ev.cards ? ev.cards.length : n;
      const why = ev.reason === "no_last_card_call" ? " for not calling last card" : ev.reason === "stock_empty" ? ": the stock is empty" : "";
      return `${who} pick${s} up the cycle (${m} card${m === 1 ? "" : "s"})${why}.`;
    }
    case "cycle_over": return `Cycle ${ev.cycle} is over${ev.completed ? "" : " unfinished"}; ${ev.cycles_left} cycle${ev.cycles_left === 1 ? "" : "s"} left.`;
    case "starter_returned": return `The ${cards} goes back into the stock.`;
    case "false_call": return `False call! ${who} hold${s} ${ev.count} ${SUIT_NAMES[ev.suit]}.`;
    case "lead_passed": return `The lead passes to ${name(ev.to)}.`;
    case "joker_to_bottom": return "A joker turned by the host goes to the bottom of the stock.";
    case "host_cannot_lead": return "The stock is empty: the host cannot lead.";
    default: return `${ev.seat !== undefined ? who + ": " : ""}${ev.type.replaceAll("_", " ")}${cards ? ` (${cards})` : ""}.`;
  }
}

/** "A bot played 3 moves for you." */
export const standinLine = (moves) => `A bot played ${moves} move${moves === 1 ? "" : "s"} for you while you were away.`;

const MOVE_EVENTS = new Set(["played", "drew", "passed", "declared"]);
const WITH_A_MOVE = new Set(["last_card", "timeout", "lead"]);

/** Which of a round's events (the welcome's log) a stand-in made for `seat` in its last
 * `moves` moves: the seat's last move events and what went with them (its calls), so the
 * log says "A bot played 3 moves for you" instead of "You play...". The line goes
 * after the event `last` (-1: nowhere). */
export function standinEvents(events, seat, moves) {
  const hidden = new Set();
  if (!moves || seat === null || seat === undefined) return { hidden, last: -1 };
  let left = moves;
  for (let i = events.length - 1; i >= 0 && left > 0; i--) {
    const ev = events[i];
    if (ev.seat !== seat) continue;
    if (ev.type === "round") break; // the round's start: nothing earlier is in this log
    if (MOVE_EVENTS.has(ev.type)) left -= 1;
    if (MOVE_EVENTS.has(ev.type) || WITH_A_MOVE.has(ev.type)) hidden.add(i);
  }
  return { hidden, last: hidden.size ? Math.max(...hidden) : events.length - 1 };
}

/** A line of the table's own (not an engine event) in the log, announced. */
export function addLine(ctrl, el, text, kind) {
  el.log.append(h("li", { class: kind, text }));
  while (el.log.children.length > MAX_LINES) el.log.firstChild.remove();
  el.log.scrollTop = el.log.scrollHeight;
  announce(text);
}

/** Add an event's line to the log (keeping the last lines) and announce what others did
 * and how rounds end. */
export function addLog(ctrl, el, ev) {
  const text = describe(ev, ctrl);
  if (!text) return;
  el.log.append(h("li", { class: `ev-${ev.type}`, text }));
  while (el.log.children.length > MAX_LINES) el.log.firstChild.remove();
  el.log.scrollTop = el.log.scrollHeight;
  if (ev.seat !== ctrl.mySeat || ev.type === "round_over" || ev.type === "game_over") announce(text);
}
