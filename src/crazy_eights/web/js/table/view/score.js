// The scoreboard: each player's score (or number, or cards) and a line saying where the
// game stands and what wins it, in the engine's words (`view.goal`).
import { h } from "../../ui.js";
import { goalLine, looks } from "../rulesets.js";

export function renderScore(ctrl, el) {
  const v = ctrl.view;
  if (!v || !ctrl.info) {
    el.score.replaceChildren(h("h2", { text: "Scoreboard" }), h("p", { class: "muted", text: "The game has not started." }));
    return;
  }
  const look = looks(v);
  const rows = v.players.map((p) =>
    h("tr", { class: v.current === p.seat ? "current" : "" }, h("th", { scope: "row", text: ctrl.name(p.seat) }), h("td", { text: look.score(p) })));
  el.score.replaceChildren(h("h2", { text: "Scoreboard" }), h("p", { class: "muted", text: goalLine(v) }),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { text: "Player" }), h("th", { text: look.scoreHead }))), h("tbody", {}, rows)));
}
