// The replay of a finished game, move by move.
import { api } from "./api.js";
import { backSVG, cardName, cardSVG, SUIT_NAMES } from "./cards.js";
import { RULESET_TITLES } from "./howto.js";
import { lengthWords } from "./lengths.js";
import { nameWithBadges } from "./people.js";
import * as settings from "./settings.js";
import { h } from "./ui.js";
import { show, errorBox, onLeave, session } from "./shell.js";
import { analysisPanel } from "./analysis.js";

export async function replayPage(id) {
  const box = h("section", { class: "page replay" }, h("h1", { text: "Replay" }));
  show(box);
  let data;
  try {
    data = await api(`/api/tables/${id}/replay`);
  } catch (e) {
    box.append(errorBox(e));
    return;
  }
  const s = settings.get();
  // the server names each bot as the table did; two people of one name get their seat
  const names = data.seats.map((x) => {
    const name = x.name || `Seat ${x.seat + 1}`;
    return data.seats.filter((y) => y.name === x.name).length > 1 ? `${name} ${x.seat + 1}` : name;
  });
  // a move in words, from the structured data the server sends with it
  const describe = ({ kind, card, suit, call }) => {
    if (kind === "draw") return "draws";
    if (kind === "pass") return "passes";
    if (kind === "timeout") return "runs out of time";
    if (kind === "declare") return `names ${SUIT_NAMES[suit]}`;
    return `plays the ${cardName(card)}${suit ? ` and names ${SUIT_NAMES[suit]}` : ""}${call ? ", calling last card" : ""}`;
  };
  let k = 0;
  let timer = null;
  const hooks = []; // called after each drawing with (step, stage): the analysis marks cards
  const stage = h("div", { class: "replay-stage felt" });
  const slider = h("input", { type: "range", min: 0, max: data.steps.length - 1, value: 0, "aria-label": "Move number" });
  const label = h("span", { class: "muted", "aria-live": "polite" });
  const draw = () => {
    const step = data.steps[k];
    const v = step.view;
    slider.value = k;
    const what = step.data === null ? "Start of the game" : `Move ${k}: ${names[step.by] || "The table"} ${describe(step.data)}`;
    label.textContent = what;
    const center = v.ruleset === "cycles"
      ? h("div", { class: "cycle-cards" }, (v.cycle || []).map((c) => h("figure", { class: "cycle-card" }, h("div", { class: "cardbox", html: cardSVG(c.card, { face: s.face, fourColor: s.fourColor }) }), h("figcaption", { text: c.seat === "host" ? "Host" : names[c.seat] }))))
      : h("div", { class: "piles" }, h("div", { class: "pile stock", html: backSVG() }, h("span", { class: "pile-count", text: v.stock })), h("div", { class: "pile discard" }, h("div", { class: "top", html: cardSVG(v.top, { face: s.face, fourColor: s.fourColor }) })),
        v.declared ? h("div", { class: "suit-indicator", text: `Suit: ${SUIT_NAMES[v.active_suit]}` }) : null);
    stage.replaceChildren(center, h("div", { class: "replay-hands" }, (step.hands || []).map((hand, seat) => h("div", { class: `replay-hand${v.current === seat ? " current" : ""}` },
      h("div", { class: "pname" }, nameWithBadges(names[seat], data.seats[seat] || {}), v.players && v.players[seat] && v.players[seat].score !== undefined ? ` \u00b7 ${v.players[seat].score} pts` : ""),
      h("div", { class: "mini-hand" }, hand.map((c) => h("span", { class: "mini-card", "data-card": c, html: cardSVG(c, { face: s.face, fourColor: s.fourColor }) })))))));
    stage.dataset.step = k;
    for (const hook of hooks) hook(k, stage);
  };
  const go = (n) => {
    k = Math.max(0, Math.min(data.steps.length - 1, n));
    draw();
  };
  const play = h("button", { class: "btn", type: "button", text: "\u25B6 Play", onclick: () => {
    if (timer) {
      clearInterval(timer);
      timer = null;
      play.textContent = "\u25B6 Play";
      return;
    }
    play.textContent = "\u275A\u275A Pause";
    timer = setInterval(() => {
      if (k >= data.steps.length - 1) play.click();
      else go(k + 1);
    }, 700);
  } });
  slider.addEventListener("input", () => go(Number(slider.value)));
  box.append(h("p", { class: "muted", text: `${RULESET_TITLES[data.rules.ruleset]} \u00b7 ${lengthWords(data.rules)}` }),
    h("ul", { class: "seat-names replay-seats", "aria-label": "Players" }, data.seats.map((x, seat) => h("li", {}, nameWithBadges(names[seat], x)))),
    h("div", { class: "row controls" },
      h("button", { class: "btn", type: "button", text: "|\u25C0", "aria-label": "First move", onclick: () => go(0) }),
      h("button", { class: "btn", type: "button", text: "\u25C0", "aria-label": "Previous move", onclick: () => go(k - 1) }),
      play,
      h("button", { class: "btn", type: "button", text: "\u25B6\u25B6", "aria-label": "Next move", onclick: () => go(k + 1) }),
      h("button", { class: "btn", type: "button", text: "\u25B6|", "aria-label": "Last move", onclick: () => go(data.steps.length - 1) }),
      slider, label), stage);
  // a game you played: the analysis of your seat
  const mine = session.account && data.seats.find((x) => x.account === session.account.id && !x.bot);
  if (mine) box.append(analysisPanel({ tableId: id, seat: mine.seat, ruleset: data.rules.ruleset, steps: data.steps.length, go, hooks, rounds: roundStarts(data.steps) }));
  draw();
  onLeave(() => timer && clearInterval(timer));
}

/** The steps where each round starts: `{step, round}` wherever the view's round changes
 * (the first is step 0; a game without rounds, cycles, has that one only). */
export function roundStarts(steps) {
  const out = [];
  steps.forEach((s, k) => {
    const round = s.view && s.view.round;
    if (round !== undefined && (!out.length || out[out.length - 1].round !== round)) out.push({ step: k, round });
  });
  return out;
}
