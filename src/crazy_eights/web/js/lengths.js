// Game length in words: what quick play offers and what the create-table form names.
//
// The minutes are measured, not guessed: bench/game_length.py plays heuristic bots at a
// four-player table (quick play's table) and counts the moves of each length; a person's
// move is taken as 4 s, a bot's as 0.9 s (the card room's 0.8 s pause and its thinking)
// and 6 s between rounds. Its figures, rounded: classic one round 0.9 min, to 100 points
// 4.2; ultimate one round 0.9, to 100 points 4.9; countdown one round 2.1, from number
// three 5.6 to 6.9; a game of cycles 1.2.

/** Quick play per ruleset: the lengths the card room offers (`length` of /api/match; the
 * server says what each sets: server/lengths.py), in words, and about how long each takes. */
export const QUICK_LENGTHS = {
  classic: [
    { key: "round", label: "One round", minutes: 1 },
    { key: "match", label: "Short match", detail: "to 100 points", minutes: 4 },
  ],
  ultimate: [
    { key: "round", label: "One round", minutes: 1 },
    { key: "match", label: "Short match", detail: "to 100 points", minutes: 5 },
  ],
  countdown: [
    { key: "round", label: "One round", minutes: 2 },
    { key: "match", label: "Short match", detail: "from number three", minutes: 6 },
  ],
  cycles: [
    { key: "round", label: "One game", detail: "up to 30 cycles", minutes: 1 },
  ],
};

export function aboutMinutes(minutes) {
  return `about ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

const TARGET_PRESETS = [100, 200, 300, 500];

/** The create form's "Game length" choices for a ruleset's settings (null: none). */
export function lengthChoices(info) {
  if (!info || !info.mode) return null;
  if (!info.target) {
    return [["single", "Single round"], ["match", "Whole game (win a round on number 1)"]];
  }
  return [["single", "Single round"], ...TARGET_PRESETS.map((t) => [`match:${t}`, `Match to ${t} points`]), ["match:other", "Match to another score\u2026"]];
}

/** The choice that stands for a ruleset's defaults. */
export function defaultLength(info) {
  if (info.mode.default === "single") return "single";
  if (!info.target) return "match";
  return TARGET_PRESETS.includes(info.target.default) ? `match:${info.target.default}` : "match:other";
}

/** The rules a length choice sets: `{mode}` or `{mode, target}`; `other` is the typed score. */
export function lengthRules(choice, other) {
  if (choice === "single") return { mode: "single" };
  if (choice === "match") return { mode: "match" };
  const target = choice === "match:other" ? Number(other) : Number(choice.split(":")[1]);
  return { mode: "match", target };
}

/** A table's length in words, from its rules. */
export function lengthWords(rules) {
  if (!rules || rules.ruleset === "cycles") return rules ? `up to ${rules.cycle_limit} cycles` : "";
  if (rules.mode === "single") return "single round";
  if (rules.ruleset === "countdown") return `whole game from number ${rules.start}`;
  return `match to ${rules.target} points`;
}
