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
  if (!pause || !c.view || c.view.over) return t.summary.hide();
  const s = settings.get();
  t.summary.show(pause, { mySeat: c.mySeat, ruleset: c.view.ruleset, cards: { face: s.face, fourColor: s.fourColor, label: false } });
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
  const r = v.result || {};
  const won = r.winner !== null && r.winner === c.mySeat;
  if (won || r.winner !== null) sound.fanfare();
  fx.confetti();
  t.summary.hide();
  t.ending = matchEnd({ view: v, name: (seat) => c.name(seat), mySeat: c.mySeat, me: c.you && c.you.account, ratings: c.ratings, rematch: c.rematch, unit: looks(v).unit });
  const choice = await t.ending.choice;
  t.ending = null;
  if (choice === "again") playAgain(t);
  else if (choice === "replay") t.navigate(`#/replay/${c.id}`);
  else if (choice === "lobby") t.navigate("#/");
}
