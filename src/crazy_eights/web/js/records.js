// Records: leaderboards, the match history, and how to play.
import { api, rulesets } from "./api.js";
import { howToPlay, RULESET_TITLES } from "./howto.js";
import { ARCHON, archonBadge, nameWithBadges } from "./people.js";
import { h } from "./ui.js";
import { RULESETS, session, needAccount, show, errorBox } from "./shell.js";

/** A rating people read: the server's display figure (never negative), with a "?"
 * while it is provisional (fewer rated games than the room's `provisional_games`). */
export function ratingText(rating) {
  return `${rating.display ?? ""}${rating.provisional ? "?" : ""}`;
}

export async function leadersPage(ruleset) {
  if (!RULESETS.includes(ruleset)) ruleset = "classic";
  const box = h("section", { class: "page" }, h("h1", { text: "Leaderboards" }),
    h("nav", { class: "tabs", "aria-label": "Rulesets" }, RULESETS.map((r) => h("a", { href: `#/leaders/${r}`, text: RULESET_TITLES[r], "aria-current": r === ruleset ? "page" : null }))));
  show(box);
  try {
    const rows = await api(`/api/leaderboard/${ruleset}?limit=100`);
    box.append(rows.length ? h("div", { class: "scroll-x" }, h("table", { class: "data leaders" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Wins", "Win rate"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows.map((r) => h("tr", { class: session.account && r.account === session.account.id ? "me" : "" },
        h("td", { text: r.rank }),
        h("td", {}, r.bot ? nameWithBadges(r.name, r) : h("a", { href: `#/profile/${r.account}` }, nameWithBadges(r.name, r))),
        h("td", { class: "rating", text: ratingText(r.rating) }), h("td", { text: r.games }), h("td", { text: r.wins }), h("td", { text: `${Math.round(r.win_rate * 100)}%` })))))) : h("p", { class: "muted", text: "No rated games in this ruleset yet." }));
    if (rows.length) box.append(h("p", { class: "muted small", text: "Ratings start at 1000 and rise as a player's results become surer and better (openskill, rated tables only). A rating with a ? is provisional: it is listed here once settled, after enough rated games. Guests' games are not rated. Bots are rated for their level." }));
    box.append(await archonRule(ruleset, rows));
  } catch (e) {
    box.append(errorBox(e));
  }
}

/** The title's rule as the server states it, and who holds it now. */
async function archonRule(ruleset, rows) {
  const panel = h("section", { class: "panel archon-rule", "aria-label": ARCHON }, h("h2", {}, archonBadge([ruleset]), ` ${ARCHON}`));
  try {
    const rule = await api(`/api/leaderboard/${ruleset}/archon`);
    const holder = rows.find((r) => r.account === rule.holder);
    panel.append(h("p", { class: "rule", text: rule.text }),
      h("p", { class: "holder" }, rule.holder === null ? `Nobody holds the title in ${RULESET_TITLES[ruleset]} yet.` : holder ? [`Held by `, nameWithBadges(holder.name, holder), "."] : "Held by a player below this list."));
  } catch (e) {
    panel.append(errorBox(e));
  }
  return panel;
}

export async function historyPage() {
  if (!(await needAccount("#/history"))) return;
  const box = h("section", { class: "page" }, h("h1", { text: "Match history" }));
  show(box);
  try {
    const games = await api(`/api/accounts/${session.account.id}/history?limit=50`);
    box.append(games.length ? h("ul", { class: "history" }, games.map((g) => h("li", { class: g.won ? "won" : "lost" },
      h("span", { class: "result", text: g.won ? "Won" : g.left ? "Left" : "Lost" }),
      h("span", {}, h("strong", { text: g.name }), h("span", { class: "muted", text: ` ${RULESET_TITLES[g.ruleset]} \u00b7 ${g.finished_at ? new Date(typeof g.finished_at === "number" ? g.finished_at * 1000 : g.finished_at).toLocaleString() : ""}${g.rated ? " \u00b7 rated" : ""}` })),
      h("a", { class: "btn small", href: `#/replay/${g.table}`, text: "Replay" })))) : h("p", { class: "muted", text: "No finished games yet." }));
  } catch (e) {
    box.append(errorBox(e));
  }
}

export async function howtoPage(ruleset, technique = null) {
  if (!RULESETS.includes(ruleset)) ruleset = "classic";
  const all = await rulesets().catch(() => ({}));
  show(h("section", { class: "page" }, h("h1", { text: "How to play" }),
    h("nav", { class: "tabs", "aria-label": "Rulesets" }, RULESETS.map((r) => h("a", { href: `#/howto/${r}`, text: RULESET_TITLES[r], "aria-current": r === ruleset ? "page" : null }))),
    howToPlay(ruleset, all[ruleset]),
    h("p", {}, h("a", { class: "btn primary", href: "#/tutorial", text: "Try the guided tutorial" }))));
  // a link from a game analysis (#/howto/classic?technique=wilds) opens at that technique
  const target = technique && document.getElementById(`technique-${technique}`);
  if (target) {
    target.classList.add("focus");
    target.scrollIntoView({ block: "center" });
  }
}
