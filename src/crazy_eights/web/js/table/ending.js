// How a round and the game end on screen: the round summary the table pauses on, a
// round's toast when there is no pause, and the match end with its choices.
import * as fx from "../fx.js";
import * as settings from "../settings.js";
import * as sound from "../sound.js";
import { matchEnd } from "../summary.js";
import { toast } from "../ui.js";
import { playAgain } from "./page.js";
import { looks } from "./rulesets.js";
import { describe } from "./view/log.js";

/** Between rounds: the summary stays until the server says the table goes on. */
export function renderPause(t) {
  const c = t.ctrl;
  const pause = c.state && c.state.pause;
  if (t.summary.last) return; // the game's last round, until "See the result"
  if (!pause || !c.view || c.view.over) return t.summary.hide();
  t.summary.show(pause, { mySeat: c.mySeat, ...summaryLooks(c) });
}

/** What a round summary needs of the table: the ruleset, the card faces, and the
 * engine's words for who wins a blockade. */
function summaryLooks(c) {
  const s = settings.get();
  return { ruleset: c.view.ruleset, cards: { face: s.face, fourColor: s.fourColor, label: false }, blockade: (c.state.words && c.state.words.blockade) || "" };
}

/** The `round_over` event of the game's last round, from the last state's events or
 * (after a reload) the round's log; null for a game without rounds (cycles). */
function lastRound(state) {
  const events = [...((state && state.view && state.view.log) || []), ...((state && state.events) || [])];
  return events.filter((e) => e.type === "round_over").pop() || null;
}

/** The end of the game, heard and seen once: the winner gets the fanfare and confetti,
 * a player who lost a quiet sound, a spectator neither. */
export function celebrate(c) {
  const r = (c.view && c.view.result) || {};
  if (c.mySeat === null || c.mySeat === undefined) return "none";
  if (r.winner !== null && r.winner !== undefined && r.winner === c.mySeat) {
    sound.fanfare();
    fx.confetti();
    return "win";
  }
  sound.loss();
  return "loss";
}

/** A round ended without a pause to show it in: say so, with the points in each hand. */
export function roundSummary(t, ev) {
  const c = t.ctrl;
  if (c.state && c.state.pause) return; // the summary overlay shows it
  const lines = (ev.points || []).map((pts, seat) => `${c.name(seat)}: ${pts} in hand`);
  toast(`${describe(ev, c)} ${lines.join(" \u00b7 ")}`);
}

/** The game is over: the match end with standings, ratings and what to do next. */
export async function victory(t) {
  const c = t.ctrl;
  const v = c.view;
  t.summary.hide();
  const last = lastRound(c.state);
  if (last) {
    const read = t.summary.final(last, summaryLooks(c));
    if (t.coach) t.coach.place(); // the coach's last word stays clear of the summary
    await read;
    if (t.gone) return;
  }
  celebrate(c);
  t.ending = matchEnd({ view: v, name: (seat) => c.name(seat), mySeat: c.mySeat, me: c.you && c.you.account, ratings: c.ratings, rematch: c.rematch, standing: looks(v).standing, ending: looks(v).ending });
  if (t.coach) t.coach.place();
  const choice = await t.ending.choice;
  t.ending = null;
  if (choice === "again") playAgain(t);
  else if (choice === "replay") t.navigate(`#/replay/${c.id}`);
  else if (choice === "lobby") t.navigate("#/");
}
