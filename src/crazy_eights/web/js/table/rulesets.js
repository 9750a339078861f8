// How each ruleset's table is drawn: the one place the table names a ruleset. Words and
// layout only: what may be played, whether a last-card call counts and what wins the
// game come from the server (the legal moves, `view.call_matters`, `view.goal`).
import { SUIT_NAMES } from "../cards.js";

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A shedding table (classic, ultimate, OpenSpiel's): a discard pile and scores. */
const SHEDDING = {
  center: "pile", // the stock beside a discard pile (cycles: the cycle's cards)
  facts: (p) => [`${p.score} pts`], // what a player's panel says beside the card count
  scoreHead: "Score",
  score: (p) => String(p.score),
  unit: "points", // what the final standings count
  /** Where the game stands, before the goal on the scoreboard (null: nothing to say). */
  progress: (v) => (v.rules && v.rules.mode === "match" ? `Round ${v.round}` : null),
  /** The turn line's words for your turn when no other case applies (null: "Your turn"). */
  turn: () => null,
  /** A final standing in words: "49 points". */
  standing: (pts) => `${pts} point${pts === 1 ? "" : "s"}`,
  /** How the game ended, under the standings: "3 rounds · the last ended in a blockade". */
  ending: (r) => {
    const how = { blockade: "ended in a blockade", out: "ended with a player out", turn_limit: "ended at the turn limit", move_limit: "reached the limit of 10,000 moves" }[r.reason] || "";
    const rounds = r.rounds || 1;
    if (rounds === 1) return `One round, ${how}`;
    return `${rounds} rounds \u00b7 the last ${how}`;
  },
};

const LOOKS = {
  classic: SHEDDING,
  ultimate: { ...SHEDDING, unit: "penalty points" },
  countdown: {
    ...SHEDDING,
    facts: (p) => [`No. ${p.number}`, `wild ${p.wild === "T" ? "10" : p.wild}`],
    scoreHead: "Number",
    score: (p) => `No. ${p.number}`,
    unit: "number",
    standing: (n) => `No. ${n}`,
  },
  cycles: {
    center: "cycle",
    facts: () => [],
    scoreHead: "Hand",
    score: (p) => plural(p.cards, "card"),
    unit: "hand value",
    standing: (v) => (v ? `hand value ${v}` : "no cards left"),
    ending: (r) => ({ out: "A player went out", cycle_limit: "The cycles ran out: the lowest hand wins", blocked: "Nobody could lead or draw: the lowest hand wins" }[r.reason] || ""),
    progress: (v) => `${plural(v.cycles_left, "cycle")} left`,
    turn: (v) => (v.phase === "lead" ? "Your lead: play any card to start the cycle" : `Your turn: follow ${SUIT_NAMES[v.lead_suit] || "the lead"} or play a joker that fits`),
  },
};

/** The looks of a view's ruleset (a shedding table's for one not listed). */
export const looks = (view) => LOOKS[view.ruleset] || SHEDDING;

/** The scoreboard's line: where the game stands and what wins it, in the engine's words. */
export function goalLine(view) {
  const text = [looks(view).progress(view), view.goal].filter(Boolean).join(" \u00b7 ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
