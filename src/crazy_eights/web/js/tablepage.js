// The table page, an invitation to a table, and the guided tutorial.
import { api } from "./api.js";
import { nameWithBadges } from "./people.js";
import * as settings from "./settings.js";
import { TableView } from "./table/index.js";
import { Coach } from "./tutorial.js";
import { h } from "./ui.js";
import { session, navigate, needAccount, show, errorBox, onLeave } from "./shell.js";

export function tablePage(id, query, coach = null) {
  const root = h("div", { class: "table-root" });
  show(root);
  document.body.classList.add("at-table");
  const view = new TableView(root, { tableId: id, code: query.get("code"), account: session.account, coach, navigate });
  onLeave(() => {
    view.destroy();
    document.body.classList.remove("at-table");
    if (coach) coach.destroy();
  });
}

export async function invitePage(code) {
  if (!(await needAccount(`#/invite/${code}`))) return;
  show(h("section", { class: "page" }, h("p", { text: "Opening the invitation\u2026" })));
  let t;
  try {
    t = await api(`/api/invite/${encodeURIComponent(code)}`);
  } catch (e) {
    show(h("section", { class: "page" }, h("h1", { text: "Invitation" }), errorBox(e), h("a", { href: "#/", text: "Back to the lobby" })));
    return;
  }
  const watch = `#/table/${t.id}?code=${encodeURIComponent(code)}`;
  if (t.seats.some((s) => s.account === session.account.id)) return navigate(watch);
  const started = t.status !== "open";
  let problem = started ? "This game has already started, so there is no seat for you; you can watch it." : null;
  if (!problem && t.seats.every((s) => s.name)) problem = "Every seat at this table is taken; you can watch the game.";
  if (!problem) {
    try {
      await api(`/api/tables/${t.id}/sit`, { method: "POST", body: { code } });
      return navigate(watch);
    } catch (e) {
      problem = e.status === 409 ? "There is no seat left for you at this table; you can watch the game." : e.message;
    }
  }
  // a started or full table: the invitation still lets you watch
  show(h("section", { class: "page invite-closed" }, h("h1", { text: t.name }),
    h("p", { class: "lead", text: problem }),
    h("ul", { class: "seat-names" }, t.seats.filter((s) => s.name).map((s) => h("li", {}, nameWithBadges(s.name, s)))),
    h("div", { class: "row" }, h("a", { class: "btn primary", href: watch, text: "Watch" }), h("a", { class: "btn ghost", href: "#/", text: "Back to the lobby" }))));
}

export async function tutorialPage() {
  if (!(await needAccount("#/tutorial"))) return;
  try {
    const t = await api("/api/tables", {
      method: "POST",
      body: {
        // the discards are reshuffled into a new stock, so a first game never ends in a
        // blockade of passes with nothing to draw
        rules: { ruleset: "classic", players: 2, mode: "single", last_card: "manual", turn_timer: 3600, stock_empty: "reshuffle" },
        bots: [{ seat: 1, level: "random" }],
        public: false,
        hints: true,
        name: "Tutorial",
      },
    });
    tablePage(t.id, new URLSearchParams(), new Coach(() => settings.set({ tutorialDone: true })));
  } catch (e) {
    show(h("section", { class: "page" }, errorBox(e)));
  }
}
