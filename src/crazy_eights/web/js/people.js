// How players are shown everywhere: a bot's level in words (Easy, Medium, Hard) with a
// small bot badge, a guest mark, and the Master Card Archon title (the rulesets whose
// title the player holds, as the server sends them with every name: `archon`). The name
// itself is whatever the server sends.
import { RULESET_TITLES } from "./howto.js";
import { personAttrs } from "./friends.js";
import { h } from "./ui.js";

/** The bot levels of the server (GET /api/rulesets "bot_levels") in words. */
export const LEVEL_NAMES = { random: "Easy", heuristic: "Medium", ismcts: "Hard" };
const LEVEL_HELP = {
  random: "plays any legal card",
  heuristic: "plays sensible cards",
  ismcts: "searches ahead for the best play",
};

export function levelName(level) {
  return LEVEL_NAMES[level] || (level ? level[0].toUpperCase() + level.slice(1) : "");
}

export function levelHelp(level) {
  return LEVEL_HELP[level] || "";
}

const BOT_ICON = `<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false"><rect x="2.5" y="5" width="11" height="8.5" rx="2.5" fill="currentColor"/><rect x="7.2" y="1.5" width="1.6" height="3.5" fill="currentColor"/><circle cx="8" cy="1.8" r="1.3" fill="currentColor"/><circle cx="6" cy="9" r="1.2" fill="var(--badge-bg, #1c2a36)"/><circle cx="10" cy="9" r="1.2" fill="var(--badge-bg, #1c2a36)"/></svg>`;

/** The small badge of a bot seat or account: a robot head and the level in words
 * (screen readers hear "bot, Medium"). */
export function botBadge(level) {
  const word = levelName(level);
  return h("span", { class: `badge bot-badge level-${level || "unknown"}`, title: `Bot, ${word}: ${levelHelp(level)}`, "aria-label": `bot, ${word}` },
    h("span", { class: "badge-icon", html: BOT_ICON }), h("span", { text: word || "Bot" }));
}

/** The mark of a guest account (no password yet). */
export function guestBadge() {
  return h("span", { class: "badge guest-badge", title: "Guest: plays without a password", "aria-label": "guest", text: "Guest" });
}

export const ARCHON = "Master Card Archon";
const CROWN = `<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false"><path d="M1.5 12.5L2.5 4.5L5.8 8L8 2.5L10.2 8L13.5 4.5L14.5 12.5Z" fill="currentColor"/><rect x="1.5" y="13" width="13" height="1.6" rx=".6" fill="currentColor"/></svg>`;

/** The Master Card Archon badge for the rulesets whose title a player holds (null for none). */
export function archonBadge(rulesets) {
  if (!rulesets || !rulesets.length) return null;
  const where = rulesets.map((r) => RULESET_TITLES[r] || r).join(", ");
  return h("span", { class: "badge archon-badge", title: `${ARCHON}: top of the ${where} leaderboard`, "aria-label": `${ARCHON} of ${where}` },
    h("span", { class: "badge-icon", html: CROWN }), h("span", { text: rulesets.length > 1 ? `Archon ×${rulesets.length}` : `Archon · ${where}` }));
}

/** A player's name followed by their badges: `who` carries bot (a level), guest and
 * archon (the rulesets whose title they hold); pass a seat, a row or an account as is. */
export function nameWithBadges(name, { bot = null, guest = false, archon = [], account = null } = {}, tag = "span") {
  return h(tag, { class: "who" }, h("span", { class: "who-name", text: name, ...personAttrs(account, name, { bot, guest }) }), bot ? botBadge(bot) : null, guest ? guestBadge() : null, bot ? null : archonBadge(archon));
}
