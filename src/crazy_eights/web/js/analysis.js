// The game analysis on the replay page: the search bot's opinion of each of your moves.
// The server judges every decision (GET/POST /api/tables/{id}/analysis?seat=); this
// draws its round-win chance over the game, marks the costly moves, shows the better
// move on the cards and jumps the replay there. No rule is applied here.
import { api } from "./api.js";
import { cardName, cardSVG, SUIT_NAMES } from "./cards.js";
import { STRATEGY_RULESETS, TECHNIQUE_TITLES } from "./howto.js";
import * as settings from "./settings.js";
import { h } from "./ui.js";
import { errorBox, onLeave } from "./shell.js";

export const MARKS = {
  inaccuracy: { icon: "?!", label: "Inaccuracy" },
  mistake: { icon: "?", label: "Mistake" },
  blunder: { icon: "??", label: "Blunder" },
};

const POLL_MS = 1000;
const W = 640;
const H = 150;
const PAD = 22;

/** What a move did, in words, from its structured data. */
export function moveWords(m) {
  if (m.kind === "draw") return "draw";
  if (m.kind === "pass") return "pass";
  if (m.kind === "declare") return `name ${SUIT_NAMES[m.suit]}`;
  if (m.kind !== "play") return m.kind;
  return `the ${cardName(m.card)}${m.suit ? ` naming ${SUIT_NAMES[m.suit]}` : ""}`;
}

const pct = (x) => `${Math.round(100 * x)}%`;

/** A loss of win chance in a player's words: "−9% win chance". */
export const lossWords = (x) => `\u2212${Math.round(100 * x)}% win chance`;

/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st. */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/**
 * The analysis panel for `seat` of a finished table. `steps` is the replay's length,
 * `go(k)` moves the replay to step k; `decorate` is called by the replay after each
 * drawing with (step, stage) so the better move can be shown on the cards. `rounds`
 * are the steps where each round starts (`{step, round}`, from the replay's views),
 * marked on the graph; a move is named as the player counts it: "your 24th move".
 */
export function analysisPanel({ tableId, seat, ruleset, steps, go, hooks, rounds = [] }) {
  const box = h("section", { class: "analysis", "aria-label": "Game analysis" });
  let selected = null;
  let timer = null;
  const stop = () => timer && clearInterval(timer);
  onLeave(stop);

  const render = (res) => {
    if (res.status === "done") return box.replaceChildren(...result(res.analysis));
    if (res.status === "running") {
      const progress = res.total ? ` (${res.done} of ${res.total} moves)` : "";
      return box.replaceChildren(h("p", { class: "muted analysis-status", "aria-live": "polite", text: `Analysing your moves\u2026${progress}` }));
    }
    if (res.status === "failed") box.replaceChildren(h("p", { class: "error", text: "The analysis failed. Try again." }), button());
    else box.replaceChildren(button());
  };
  const load = async () => {
    try {
      const res = await api(`/api/tables/${tableId}/analysis?seat=${seat}`);
      render(res);
      if (res.status === "running" && !timer) timer = setInterval(poll, POLL_MS);
      if (res.status !== "running") stop();
    } catch (e) {
      stop();
      box.replaceChildren(errorBox(e));
    }
  };
  const poll = () => load();
  const button = () => h("button", { class: "btn primary analyse", type: "button", text: "Analyse my moves", onclick: async (ev) => {
    ev.target.disabled = true;
    try {
      render(await api(`/api/tables/${tableId}/analysis?seat=${seat}`, { method: "POST" }));
      load();
    } catch (e) {
      box.replaceChildren(errorBox(e), button());
    }
  } });

  let order = new Map(); // a decision's move number -> its place among yours
  const roundOf = (n) => rounds.filter((r) => r.step <= n - 1).map((r) => r.round).pop();
  const moveName = (d) => {
    const round = rounds.length > 1 ? roundOf(d.n) : null;
    return `your ${ordinal(order.get(d.n) || 1)} move${round ? ` (round ${round})` : ""}`;
  };
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  const select = (d) => {
    selected = d;
    go(d.n - 1); // the position the move was chosen in
    box.querySelectorAll(".mark-dot, .analysis-mark").forEach((el) => el.classList.toggle("selected", Number(el.dataset.n) === d.n));
    const detail = box.querySelector(".analysis-detail");
    if (detail) detail.replaceChildren(...details(d));
  };

  const details = (d) => {
    const s = settings.get();
    const card = (m) => (m.card ? h("span", { class: "mini-card", html: cardSVG(m.card, { face: s.face, fourColor: s.fourColor }) }) : null);
    const mark = MARKS[d.mark];
    const technique = d.technique && STRATEGY_RULESETS.includes(ruleset)
      ? h("p", { class: "technique-link" }, "Technique: ", h("a", { href: `#/howto/${ruleset}?technique=${d.technique}`, text: TECHNIQUE_TITLES[d.technique] }))
      : null;
    return [
      h("h3", { class: `mark-title ${d.mark || "good"}` }, mark ? `${mark.icon} ${mark.label}: ${moveName(d)}` : cap(moveName(d))),
      h("p", {}, `Your chance to win the round: ${pct(d.before)} with the best move, ${pct(d.after)} after yours.`),
      h("div", { class: "compare" },
        h("figure", { class: "played" }, card(d.played_move), h("figcaption", { text: `You played ${moveWords(d.played_move)}` })),
        h("figure", { class: "better" }, card(d.best_move), h("figcaption", { text: `Better: ${moveWords(d.best_move)}` }))),
      technique,
    ];
  };

  const result = (a) => {
    order = new Map(a.decisions.map((d, i) => [d.n, i + 1]));
    const marked = a.decisions.filter((d) => d.mark);
    const list = marked.length
      ? h("ol", { class: "analysis-marks", "aria-label": "Marked moves" }, marked.map((d) => h("li", {},
        h("button", { class: `analysis-mark ${d.mark}`, type: "button", "data-n": d.n, onclick: () => select(d) },
          h("span", { class: "mark-icon", text: MARKS[d.mark].icon }), ` ${cap(moveName(d))}: ${MARKS[d.mark].label}, ${lossWords(d.loss)}`))))
      : h("p", { class: "muted", text: "No move cost you much: well played." });
    const t = a.thresholds;
    return [
      h("h2", { text: "Analysis of your moves" }),
      graph(a.decisions),
      h("p", { class: "muted legend" }, `Your chance to win the round, move by move, as the search bot sees it from your cards only. Marked: `,
        ...Object.entries(MARKS).map(([k, m]) => h("span", { class: `legend-item ${k}`, text: ` ${m.icon} ${m.label} (${lossWords(t[k])} or more)` }))),
      list,
      h("div", { class: "analysis-detail", "aria-live": "polite" }),
    ];
  };

  const graph = (decisions) => {
    const last = Math.max(1, steps - 1);
    const x = (n) => PAD + ((W - 2 * PAD) * n) / last;
    const y = (p) => H - PAD - (H - 2 * PAD) * p;
    const points = decisions.flatMap((d) => [[x(d.n - 1), y(d.before)], [x(d.n), y(d.after)]]);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "win-graph");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Chance to win the round over the game");
    const el = (name, attrs, text) => {
      const e = document.createElementNS(ns, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text) e.textContent = text;
      svg.append(e);
      return e;
    };
    for (const p of [0, 0.5, 1]) {
      el("line", { x1: PAD, x2: W - PAD, y1: y(p), y2: y(p), class: "grid" });
      el("text", { x: 2, y: y(p) + 4, class: "axis" }, pct(p));
    }
    // where each round starts (from the second): a dashed line and its number
    for (const r of rounds.filter((r) => r.step > 0)) {
      el("line", { x1: x(r.step), x2: x(r.step), y1: PAD - 8, y2: H - PAD, class: "round-start", "data-round": r.round });
      el("text", { x: x(r.step) + 3, y: PAD - 10, class: "axis round-label" }, `Round ${r.round}`);
    }
    el("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "chance" });
    for (const d of decisions.filter((d) => d.mark)) {
      const dot = el("g", { class: `mark-dot ${d.mark}`, "data-n": d.n, tabindex: 0, role: "button", "aria-label": `${cap(moveName(d))}: ${MARKS[d.mark].label}` });
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", x(d.n));
      c.setAttribute("cy", y(d.after));
      c.setAttribute("r", 8);
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", x(d.n));
      t.setAttribute("y", y(d.after) + 4);
      t.textContent = MARKS[d.mark].icon;
      dot.append(c, t);
      dot.addEventListener("click", () => select(d));
      dot.addEventListener("keydown", (ev) => (ev.key === "Enter" || ev.key === " ") && select(d));
    }
    return svg;
  };

  // after each drawing of the replay: the better move and the move played, on the cards
  hooks.push((k, stage) => {
    if (!selected || k !== selected.n - 1) return;
    const hand = stage.querySelectorAll(".replay-hand")[seat];
    if (!hand) return;
    hand.classList.add("analysed");
    for (const [m, cls] of [[selected.best_move, "better"], [selected.played_move, "played"]]) {
      const c = m.card && hand.querySelector(`.mini-card[data-card="${m.card}"]:not(.better)`);
      if (c) c.classList.add(cls);
    }
    if (!selected.best_move.card) hand.append(h("span", { class: "better-move", text: `Better: ${moveWords(selected.best_move)}` }));
  });

  load();
  return box;
}
