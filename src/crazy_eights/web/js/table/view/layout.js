// The table page's frame: every element the views draw into, built once, with the
// buttons wired to the handlers given. The top line (sound, sort) is drawn here too.
import { backSVG } from "../../cards.js";
import * as settings from "../../settings.js";
import { reactionBar } from "../reactions.js";
import { h } from "../../ui.js";

function speakerIcon(muted) {
  const waves = muted
    ? `<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>`
    : `<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>`;
  return `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${waves}</svg>`;
}

/** Build the table into `root`; `on` holds the handlers of its buttons: `help`,
 * `leave`, `draw`, `pass`, `call`, `hint`, `chat(event)`. Returns the elements. */
export function buildTable(root, on) {
  const el = {};
  el.title = h("h1", { class: "table-title", text: "Table" });
  el.help = h("button", { class: "icon-btn", type: "button", "aria-label": "How to play", title: "How to play", text: "?", onclick: on.help });
  el.mute = h("button", { class: "icon-btn", type: "button", onclick: () => settings.set({ muted: !settings.get().muted }) });
  el.leave = h("button", { class: "btn small ghost", type: "button", text: "Leave", onclick: on.leave });
  el.conn = h("span", { class: "conn", text: "Reconnecting\u2026", hidden: true });
  // on a phone the log, scores and chat are a drawer opened from the table's top line
  el.drawer = h("button", { class: "btn small drawer-btn", type: "button", text: "Log & chat", "aria-controls": "table-side", "aria-expanded": "false", onclick: () => toggleDrawer(el) });
  // opponents sit around the table in playing order (clockwise): up your left side,
  // across the top, down your right side
  el.oppLeft = h("div", { class: "opponents opp-left", role: "list", "aria-label": "Players on your left" });
  el.oppTop = h("div", { class: "opponents opp-top", role: "list", "aria-label": "Players across the table" });
  el.oppRight = h("div", { class: "opponents opp-right", role: "list", "aria-label": "Players on your right" });
  el.opponents = h("div", { class: "arena" });
  el.stock = h("button", { class: "pile stock", type: "button", "aria-label": "Stock", onclick: on.draw });
  el.stockCount = h("span", { class: "pile-count" });
  el.discard = h("div", { class: "pile discard", role: "img", "aria-label": "Discard pile" });
  el.suit = h("div", { class: "suit-indicator", role: "status", "aria-live": "polite", hidden: true });
  el.pendingDraw = h("div", { class: "pending-draw", hidden: true });
  el.direction = h("div", { class: "direction", "aria-hidden": "true" });
  el.cycle = h("div", { class: "cycle-area", hidden: true });
  el.piles = h("div", { class: "piles" }, el.stock, el.discard, el.suit);
  el.center = h("div", { class: "center" }, el.direction, h("div", { class: "center-row" }, el.piles, el.cycle), el.pendingDraw);
  el.opponents.append(el.oppLeft, el.oppTop, el.center, el.oppRight);
  el.status = h("p", { class: "turn-banner", role: "status", "aria-live": "polite" });
  el.waiting = h("div", { class: "waiting", hidden: true });
  el.me = h("div", { class: "me-panel" });
  el.lastCard = h("button", { class: "btn last-card", type: "button", text: "Last card!", hidden: true, onclick: on.call, "aria-keyshortcuts": "L" });
  el.pass = h("button", { class: "btn", type: "button", text: "Pass", onclick: on.pass, "aria-keyshortcuts": "P" });
  el.drawBtn = h("button", { class: "btn", type: "button", text: "Draw", onclick: on.draw, "aria-keyshortcuts": "D" });
  el.hintBtn = h("button", { class: "btn hint-btn", type: "button", text: "Hint", title: "Ask the Hard bot for a suggestion (this table is unrated)", onclick: on.hint, "aria-keyshortcuts": "I" });
  el.sort = h("div", { class: "sort", role: "group", "aria-label": "Sort hand" },
    ...[["suit", "Suit"], ["rank", "Rank"], ["custom", "Own"]].map(([k, t]) =>
      h("button", { class: "chip", type: "button", dataset: { sort: k }, text: t, onclick: () => settings.set({ sort: k }) })));
  el.actions = h("div", { class: "actions" }, el.hintBtn, el.drawBtn, el.pass, el.lastCard, el.sort);
  el.hand = h("div", { class: "hand", role: "toolbar", "aria-label": "Your hand", "aria-orientation": "horizontal" });
  el.felt = h("div", { class: "felt" },
    h("div", { class: "topline" }, el.title, el.conn, h("span", { class: "spacer" }), el.drawer, el.mute, el.help, el.leave),
    el.opponents, el.status, el.waiting,
    el.meRow = h("div", { class: "me-row" }, el.me, el.actions), el.hand);
  el.score = h("section", { class: "panel scoreboard", "aria-label": "Scoreboard" });
  el.log = h("ol", { class: "log", "aria-label": "Event log" });
  el.chatList = h("ol", { class: "chat-list", "aria-live": "polite", "aria-label": "Chat messages" });
  el.chatInput = h("input", { type: "text", maxlength: "200", placeholder: "Say something\u2026", "aria-label": "Chat message" });
  el.chatForm = h("form", { class: "chat-form", onsubmit: on.chat }, el.chatInput, h("button", { class: "btn small", type: "submit", text: "Send" }));
  el.side = h("aside", { class: "side", id: "table-side", "aria-label": "Scores, events and chat" },
    h("button", { class: "btn small drawer-close", type: "button", text: "Close", onclick: () => toggleDrawer(el, false) }),
    el.score,
    h("section", { class: "panel" }, h("h2", { text: "Events" }), el.log),
    h("section", { class: "panel chat" }, h("h2", { text: "Chat" }), el.chatList, el.chatForm, reactionBar(on.react)));
  el.coach = h("div", { class: "coach", hidden: true, role: "note" });
  el.page = h("div", { class: "table-page" }, el.felt, el.side);
  root.replaceChildren(el.page, el.coach);
  el.stock.innerHTML = backSVG();
  el.stock.append(el.stockCount);
  return el;
}

/** Open or close the phone's drawer of scores, events and chat. */
export function toggleDrawer(el, open = !el.page.classList.contains("drawer-open")) {
  el.page.classList.toggle("drawer-open", open);
  el.drawer.setAttribute("aria-expanded", String(open));
  if (open) el.log.scrollTop = el.log.scrollHeight;
}

/** The top line's sound button and the sort chips, from the settings. */
export function renderTopline(el) {
  const s = settings.get();
  el.mute.innerHTML = speakerIcon(s.muted);
  el.mute.setAttribute("aria-label", s.muted ? "Sound off: turn on" : "Sound on: mute");
  for (const b of el.sort.children) b.setAttribute("aria-pressed", String(b.dataset.sort === s.sort));
}
