// The players around the table: each opponent's panel in playing order, and your own
// panel (or, watching, the bottom seat's) below the felt.
import { personAttrs } from "../../friends.js";
import { archonBadge, botBadge } from "../../people.js";
import * as settings from "../../settings.js";
import { avatarSVG, h } from "../../ui.js";
import { bubble } from "../reactions.js";
import { looks } from "../rulesets.js";

/** The countdown on an absent player's seat: seconds until a stand-in bot plays it. */
export const awayText = (until) => `bot in ${Math.max(0, Math.ceil((until - performance.now()) / 1000))} s`;

const cardCount = (n) => `${n} card${n === 1 ? "" : "s"}`;

/** The other seats in playing order, starting at the bottom seat's left. */
function seatOrder(ctrl) {
  const n = ctrl.view.players.length;
  const me = ctrl.viewSeat;
  const out = [];
  for (let i = 0; i < n; i++) {
    const seat = (me + 1 + i) % n;
    if (seat !== me) out.push(seat);
  }
  return out;
}

/** What a player's panel says beside the card count: score or number, revealed cards. */
function playerFacts(ctrl, p) {
  const facts = [...looks(ctrl.view).facts(p)];
  if (p.revealed !== undefined && p.revealed !== null) facts.push(`${p.revealed} of lead suit`);
  return facts;
}

/** A player's panel: avatar, name and badges, cards, facts, timer, fan of backs. */
function playerPanel(ctrl, tells, seat, extraClass = "") {
  const v = ctrl.view;
  const p = v.players[seat];
  const info = ctrl.seatInfo(seat) || {};
  const current = v.current === seat;
  const tags = [];
  if (info.standin) tags.push("bot playing");
  if (!info.connected && !info.bot) tags.push("away");
  if (info.left) tags.push("left");
  const countdown = info.awayUntil && !info.standin && !info.connected
    ? h("span", { class: "tag away-countdown", dataset: { until: String(info.awayUntil) }, title: "A bot plays this seat when the countdown ends, until the player returns", text: awayText(info.awayUntil) })
    : null;
  const fan = h("span", { class: "mini-fan", "aria-hidden": "true" },
    Array.from({ length: Math.min(p.cards, 8) }, () => h("span", { class: "mini-back" })));
  const facts = playerFacts(ctrl, p);
  const who = [info.bot ? "bot" : null, ...tags, countdown ? `a bot takes the seat ${countdown.textContent.replace("bot ", "")}` : null].filter(Boolean);
  const label = `${ctrl.name(seat)}${who.length ? ` (${who.join(", ")})` : ""}, ${cardCount(p.cards)}${facts.length ? ", " + facts.join(", ") : ""}${current ? ", to play" : ""}${p.cards === 1 ? ", last card" : ""}${v.dealer === seat ? ", dealer" : ""}`;
  return h("div", { class: `player${current ? " current" : ""}${v.dealer === seat ? " dealer" : ""}${extraClass}`, role: "listitem", "aria-label": label, dataset: { seat: String(seat) } },
    h("span", { class: "turn-marker", "aria-hidden": "true", text: "\u25B6" }),
    h("span", { html: avatarSVG(info.avatar || "default", info.name || "", 40) }),
    h("div", { class: "pinfo" },
      h("div", { class: "pname", text: ctrl.name(seat), ...personAttrs(info.account, ctrl.name(seat), info) }),
      tells.badge(seat, settings.get()),
      h("div", { class: "pfacts" }, info.bot ? botBadge(info.bot) : archonBadge(info.archon), h("span", { class: "count", text: cardCount(p.cards) }), facts.map((f) => h("span", { text: f })), tags.map((t) => h("span", { class: "tag", text: t })), countdown),
      h("div", { class: "timer", "aria-hidden": "true" }, h("span"))),
    fan,
    p.cards === 1 ? h("span", { class: "badge-last", text: "Last card!" }) : null,
    v.dealer === seat ? h("span", { class: "dealer-chip", title: "Dealer", text: "D" }) : null,
    bubble(ctrl, seat));
}

/** Your own panel under the felt: avatar, name, cards, facts, timer, the armed call. */
function myPanel(ctrl, el) {
  const v = ctrl.view;
  const me = ctrl.mySeat;
  const p = v.players[me];
  const info = ctrl.seatInfo(me) || {};
  el.me.className = `me-panel${v.current === me ? " current" : ""}${v.dealer === me ? " dealer" : ""}`;
  el.me.replaceChildren(...[ // (no nulls: replaceChildren would write them as text)
    h("span", { html: avatarSVG(info.avatar || "default", info.name || "", 36) }),
    h("div", { class: "pinfo" },
      h("div", { class: "pname", text: info.name || "You" }),
      h("div", { class: "pfacts" }, archonBadge(info.archon), h("span", { text: cardCount(p.cards) }), playerFacts(ctrl, p).map((f) => h("span", { text: f }))),
      h("div", { class: "timer", "aria-hidden": "true" }, h("span"))),
    ...(ctrl.called ? [h("span", { class: "badge-called", role: "status", text: "Last card armed" })] : []),
    v.dealer === me ? h("span", { class: "dealer-chip", title: "Dealer: you deal", text: "D" }) : null,
    bubble(ctrl, me)].filter(Boolean));
}

/** Every panel: opponents left, across and right; yours (or the watched seat's) below. */
export function renderPlayers(ctrl, el, tells) {
  const panels = seatOrder(ctrl).map((seat) => playerPanel(ctrl, tells, seat));
  const n = panels.length;
  const side = n === 2 ? 1 : n <= 5 ? Math.min(1, n - 1) : Math.floor(n / 3);
  el.oppLeft.replaceChildren(...panels.slice(0, side));
  el.oppTop.replaceChildren(...panels.slice(side, n - side));
  el.oppRight.replaceChildren(...panels.slice(n - side));
  el.opponents.dataset.count = String(n);
  el.opponents.classList.toggle("sides", side > 0);
  // a spectator watches from behind seat 1, whose panel sits at the bottom
  if (ctrl.mySeat !== null) return myPanel(ctrl, el);
  el.me.className = "me-panel spectator-seat";
  el.me.replaceChildren(h("div", { role: "list", "aria-label": "Player at the bottom of the table" }, playerPanel(ctrl, tells, ctrl.viewSeat, " bottom-seat")),
    h("span", { class: "spectating", text: "You are watching this table." }));
}
