// Game length in words: what quick play offers and what the create-table form names.
//
// The minutes are measured in the card room itself: bench/room_pace.py starts a room
// with its default settings (0.8 s bot pause, "Next round" pressed after 5 s of reading)
// and plays each length at tables of a scripted person and three Medium bots; the person
// takes 1.5 s to see a turn, 0.3 s per playable card to weigh, 1 s to name a suit, 1 s
// for a turn with nothing but draw. Its figures (mean of 2 games each, 2026-12-02; the
// rounds vary a lot): classic one round 0.3 min, to 100 points 3.4; ultimate one round
// 0.9, to 100 points 2.6; countdown one round 3.5 (0.8 to 6.1), from number three 7.6;
// a game of cycles 0.5. Shown rounded, never under a minute.

/** Quick play per ruleset: the lengths the card room offers (`length` of /api/match; the
 * server says what each sets: server/lengths.py), in words, and about how long each takes. */
export const QUICK_LENGTHS = {
  classic: [
    { key: "round", label: "One round", minutes: 1 },
    { key: "match", label: "Short match", detail: "to 100 points", minutes: 3 },
  ],
  ultimate: [
    { key: "round", label: "One round", minutes: 1 },
    { key: "match", label: "Short match", detail: "to 100 points", minutes: 3 },
  ],
  countdown: [
    { key: "round", label: "One round", minutes: 4 },
    { key: "match", label: "Short match", detail: "from number three", minutes: 8 },
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
