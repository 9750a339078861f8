// The table: socket, drawing, and every way to play (click, double-click, drag, keyboard).
// The client implements no rule: the server sends the legal moves, the client offers them.
import { api, socketURL, rulesets, unescapeHTML } from "./api.js";
import { backSVG, cardName, cardSVG, SUIT_NAMES, suitIcon, sortHand, SUITS } from "./cards.js";
import * as fx from "./fx.js";
import { howToPlay, RULESET_TITLES } from "./howto.js";
import { lengthWords } from "./lengths.js";
import { archonBadge, botBadge, nameWithBadges } from "./people.js";
import * as settings from "./settings.js";
import * as sound from "./sound.js";
import { matchEnd, RoundSummary } from "./summary.js";
import { penaltyWhy, showNotice, Tells } from "./tells.js";
import { announce, avatarSVG, fmtTime, h, modal, toast } from "./ui.js";

/** The suits a choice of moves names (one card's, or the starter eight's), in order. */
const suitsOf = (moves) => [...new Set(moves.map((m) => m.suit).filter(Boolean))];
const HEARTBEAT_MS = 3000; // a ping this often, to notice a server that stopped answering
const SILENT_MS = 12000; // nothing heard for this long: the connection is dead, reconnect

/** The countdown on an absent player's seat: seconds until a stand-in bot plays it. */
const awayText = (until) => `bot in ${Math.max(0, Math.ceil((until - performance.now()) / 1000))} s`;

function speakerIcon(muted) {
  const waves = muted
    ? `<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>`
    : `<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>`;
  return `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>${waves}</svg>`;
}

export class TableView {
  constructor(root, { tableId, code = null, account = null, coach = null, navigate }) {
    this.root = root;
    this.id = tableId;
    this.code = code;
    this.account = account;
    this.coach = coach;
    this.navigate = navigate;
    this.info = null;
    this.you = { seat: null, role: "spectator" };
    this.state = null;
    this.clock = null;
    this.clockAt = 0;
    this.chat = [];
    this.log = [];
    this.custom = [];
    this.undealt = new Set(); // cards of the deal still flying to your hand
    this.selected = null;
    this.pending = false;
    this.unanswered = null; // { seq, move } of the move on its way, until the table answers
    this.called = false;
    this.shownOver = false;
    this.closed = false;
    this.retry = 0;
    this.heard = 0; // when the socket last brought anything (performance.now())
    this.hint = null; // {version, move}: the search bot's suggestion for this position
    this.hintAsked = null; // the version a hint was asked for and not yet answered
    this.tells = new Tells();
    this.summary = new RoundSummary({ name: (seat) => this.name(seat), onNext: () => this.send({ type: "next_round" }) });
    this.ratings = null;
    this.rematch = null; // the finished table's follow-up ("Play again"), from the server
    this.ending = null;
    this.build();
    this.unsub = settings.onChange(() => this.render());
    this.tick = setInterval(() => this.updateTimers(), 250);
    this.beat = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.onKey = (e) => this.keydown(e);
    document.addEventListener("keydown", this.onKey);
    this.onResize = () => this.layoutHand();
    window.addEventListener("resize", this.onResize);
    this.connect();
  }

  destroy() {
    this.closed = true;
    clearInterval(this.tick);
    clearInterval(this.beat);
    this.unsub();
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    this.summary.hide();
    if (this.ws) this.ws.close();
  }

  // -- the socket ---------------------------------------------------------------------

  connect() {
    const q = this.code ? `?code=${encodeURIComponent(this.code)}` : "";
    const ws = new WebSocket(socketURL(`/ws/tables/${encodeURIComponent(this.id)}${q}`));
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.heard = performance.now();
      this.el.conn.hidden = true;
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (e) => {
      if (this.closed) return;
      if (e.code === 4004 || e.code === 4003) {
        this.el.status.textContent = e.code === 4004 ? "There is no such table." : "This table is private: you need its invite link.";
        return;
      }
      if (e.code === 4029 || e.code === 4001) {
        // 4029: the table is full of watchers (or tabs); 4001: signed out
        this.el.status.textContent = e.reason || "The table closed this connection.";
        return;
      }
      this.el.conn.hidden = false;
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => !this.closed && this.connect(), 300 * 2 ** this.retry);
    };
  }

  /** Ping every few seconds: a socket that brings nothing back for long is taken for
   * dead here, closed and reconnected. (The server's own heartbeat is WebSocket ping
   * frames, which the browser answers by itself.) */
  heartbeat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (performance.now() - this.heard > SILENT_MS) {
      ws.close();
      return;
    }
    ws.send(JSON.stringify({ type: "ping", t: Date.now() / 1000 }));
  }

  /** Note when each absent seat's stand-in is due, from the seconds the server sent. */
  stampAway(seats) {
    const now = performance.now();
    for (const s of seats || []) if (s.away_left !== null && s.away_left !== undefined) s.awayUntil = now + s.away_left * 1000;
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    toast("Not connected; reconnecting\u2026", "error");
    return false;
  }

  receive(msg) {
    this.heard = performance.now();
    if (msg.info) this.stampAway(msg.info.seats);
    if (msg.type === "presence") this.stampAway(msg.seats);
    if (msg.clock !== undefined) {
      this.clock = msg.clock;
      this.clockAt = performance.now();
    }
    switch (msg.type) {
      case "welcome":
        this.info = msg.info;
        this.you = msg.you;
        this.chat = (msg.chat || []).map((c) => ({ ...c }));
        this.ratings = msg.ratings ? { rated: msg.info.rated, changes: msg.ratings } : this.ratings;
        this.rematch = msg.rematch || this.rematch;
        if (this.ending && this.rematch) this.ending.rematch(this.rematch);
        this.pending = false;
        this.setState(msg.state, true);
        this.renderChat();
        this.resend(msg.state);
        break;
      case "state":
        this.pending = false;
        this.unanswered = null;
        this.setState(msg.state, false);
        break;
      case "table":
        this.info = msg.info;
        this.render();
        break;
      case "presence":
        if (this.info) {
          this.info.seats = this.info.seats.map((s) => msg.seats.find((x) => x.seat === s.seat) || s);
          this.info.spectators = msg.spectators;
          this.render();
        }
        break;
      case "chat":
        this.chat.push(msg);
        this.renderChat();
        break;
      case "called":
        this.called = true;
        this.render();
        if ((this.view && (this.view.hand || []).length) === 2) announce("Last card called for your next play.");
        else toast(`Last card is armed for your next play, but that play will not leave you one card${this.view && this.view.ruleset === "cycles" ? ", so it would be a false call" : ", so it will not count"}.`, "error");
        break;
      case "hint":
        this.showHint(msg);
        break;
      case "pause":
        if (this.state) this.state.pause = msg.pause;
        this.render();
        break;
      case "ratings":
        this.ratings = msg;
        if (this.ending) this.ending.ratings(msg);
        break;
      case "rematch":
        this.rematch = msg.rematch;
        if (this.ending) this.ending.rematch(msg.rematch);
        else if (this.mySeat !== null && !msg.rematch.accounts.includes(this.you && this.you.account)) toast(`${msg.rematch.by} wants to play again`);
        break;
      case "error":
        this.pending = false;
        this.unanswered = null;
        this.hintAsked = null;
        if (msg.code === "stale") this.send({ type: "sync" });
        else if (msg.code !== "duplicate") toast(msg.reason || msg.code, "error");
        this.render();
        break;
      default:
        break;
    }
  }

  setState(state, fresh) {
    const before = this.snapshot();
    const prev = this.state;
    this.state = state;
    this.called = state ? !!state.called : false;
    if (this.selected && state && !(state.view.hand || []).includes(this.selected)) this.selected = null;
    let dealNow = false;
    if (fresh) {
      this.log = [];
      const events = state && state.view && state.view.log ? state.view.log : [];
      this.tells.reset();
      for (const ev of events) this.tells.note(ev);
      for (const ev of events) this.addLog(ev);
      dealNow = this.dealIsNews(state, events);
    } else if (state) {
      for (const ev of state.events || []) this.tells.note(ev);
    }
    this.render();
    // the deal is drawn onto the table as it is: after the first render, so it is seen
    if (dealNow) this.animateDeal(state.view.log);
    if (!fresh && state) {
      this.animate(state.events || [], before);
      for (const ev of state.events || []) this.addLog(ev);
    }
    if (state && state.view.over && !this.shownOver) {
      this.shownOver = true;
      setTimeout(() => this.victory(), fresh ? 0 : settings.duration(700));
    }
    if (this.coach && state) this.coach.update(this, prev);
  }

  // -- helpers over the state -----------------------------------------------------------

  get view() {
    return this.state ? this.state.view : null;
  }

  get mySeat() {
    return this.you && this.you.role === "player" ? this.you.seat : null;
  }

  /** The seat at the bottom of the table: yours, or seat 1's when you are watching. */
  get viewSeat() {
    return this.mySeat === null ? 0 : this.mySeat;
  }

  /** Your legal moves now, as the server sends them: `{kind, card, suit, call, wild,
   * text}` each (none while a move is on its way or between rounds). The client reads
   * these fields and sends `text` back; it never reads or writes move text itself. */
  get legal() {
    return this.state && !this.pending && !this.state.pause ? this.state.moves || [] : [];
  }

  /** Your legal move of this kind now (`draw`, `pass`), or undefined. */
  offered(kind) {
    return this.legal.find((m) => m.kind === kind);
  }

  name(seat) {
    if (seat === "host") return "The host";
    if (seat === null || seat === undefined) return "The table";
    if (seat === this.mySeat) return "You";
    const s = this.info && this.info.seats.find((x) => x.seat === seat);
    if (!s || !s.name) return `Seat ${seat + 1}`;
    // bots of one level share an account and a name: tell them apart by seat
    const twins = this.info.seats.filter((x) => x.name === s.name).length > 1;
    return twins ? `${s.name} ${seat + 1}` : s.name;
  }

  movesFor(card) {
    return this.legal.filter((m) => m.card === card);
  }

  handOrder() {
    const hand = (this.view && this.view.hand) || [];
    const mode = settings.get().sort;
    if (mode !== "custom") return sortHand(hand, mode);
    const left = [...hand];
    const out = [];
    for (const c of this.custom) {
      const i = left.indexOf(c);
      if (i >= 0) {
        out.push(c);
        left.splice(i, 1);
      }
    }
    return out.concat(sortHand(left, "suit"));
  }

  /** Whether a last-card call can matter now: it is your turn and a play would leave
   * you one card (the server offers that play with `call: true`). */
  callMatters() {
    const v = this.view;
    if (!v || v.over || this.mySeat === null || v.current !== this.mySeat || this.lastCardMode() !== "manual") return false;
    return (v.hand || []).length === 2 && this.legal.some((m) => m.call);
  }

  lastCardMode() {
    const v = this.view;
    if (!v) return "off";
    return (v.rules && v.rules.last_card) || v.last_card || "off";
  }

  // -- building the page ----------------------------------------------------------------

  build() {
    const el = {};
    this.el = el;
    el.title = h("h1", { class: "table-title", text: "Table" });
    el.help = h("button", { class: "icon-btn", type: "button", "aria-label": "How to play", title: "How to play", text: "?", onclick: () => this.showHelp() });
    el.mute = h("button", { class: "icon-btn", type: "button", onclick: () => settings.set({ muted: !settings.get().muted }) });
    el.leave = h("button", { class: "btn small ghost", type: "button", text: "Leave", onclick: () => this.leave() });
    el.conn = h("span", { class: "conn", text: "Reconnecting\u2026", hidden: true });
    // on a phone the log, scores and chat are a drawer opened from the table's top line
    el.drawer = h("button", { class: "btn small drawer-btn", type: "button", text: "Log & chat", "aria-controls": "table-side", "aria-expanded": "false", onclick: () => this.toggleDrawer() });
    // opponents sit around the table in playing order (clockwise): up your left side,
    // across the top, down your right side
    el.oppLeft = h("div", { class: "opponents opp-left", role: "list", "aria-label": "Players on your left" });
    el.oppTop = h("div", { class: "opponents opp-top", role: "list", "aria-label": "Players across the table" });
    el.oppRight = h("div", { class: "opponents opp-right", role: "list", "aria-label": "Players on your right" });
    el.opponents = h("div", { class: "arena" });
    el.stock = h("button", { class: "pile stock", type: "button", "aria-label": "Stock", onclick: () => this.draw() });
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
    el.lastCard = h("button", { class: "btn last-card", type: "button", text: "Last card!", hidden: true, onclick: () => this.callLastCard(), "aria-keyshortcuts": "L" });
    el.pass = h("button", { class: "btn", type: "button", text: "Pass", onclick: () => this.pass(), "aria-keyshortcuts": "P" });
    el.drawBtn = h("button", { class: "btn", type: "button", text: "Draw", onclick: () => this.draw(), "aria-keyshortcuts": "D" });
    el.hintBtn = h("button", { class: "btn hint-btn", type: "button", text: "Hint", title: "Ask the Hard bot for a suggestion (this table is unrated)", onclick: () => this.askHint(), "aria-keyshortcuts": "I" });
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
    el.chatForm = h("form", { class: "chat-form", onsubmit: (e) => this.sendChat(e) }, el.chatInput, h("button", { class: "btn small", type: "submit", text: "Send" }));
    el.side = h("aside", { class: "side", id: "table-side", "aria-label": "Scores, events and chat" },
      h("button", { class: "btn small drawer-close", type: "button", text: "Close", onclick: () => this.toggleDrawer(false) }),
      el.score,
      h("section", { class: "panel" }, h("h2", { text: "Events" }), el.log),
      h("section", { class: "panel chat" }, h("h2", { text: "Chat" }), el.chatList, el.chatForm));
    el.coach = h("div", { class: "coach", hidden: true, role: "note" });
    el.page = h("div", { class: "table-page" }, el.felt, el.side);
    this.root.replaceChildren(el.page, el.coach);
    this.bindDrag();
    el.discard.addEventListener("click", () => this.selected && this.play(this.selected));
    el.stock.innerHTML = backSVG();
    el.stock.append(el.stockCount);
    this.render();
  }

  /** Open or close the phone's drawer of scores, events and chat. */
  toggleDrawer(open = !this.el.page.classList.contains("drawer-open")) {
    this.el.page.classList.toggle("drawer-open", open);
    this.el.drawer.setAttribute("aria-expanded", String(open));
    if (open) this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  // -- drawing ----------------------------------------------------------------------------

  render() {
    const el = this.el;
    const s = settings.get();
    el.mute.innerHTML = speakerIcon(s.muted);
    el.mute.setAttribute("aria-label", s.muted ? "Sound off: turn on" : "Sound on: mute");
    for (const b of el.sort.children) b.setAttribute("aria-pressed", String(b.dataset.sort === s.sort));
    const info = this.info;
    if (!info) {
      el.status.textContent = "Connecting\u2026";
      return;
    }
    el.title.textContent = `${info.name} \u00b7 ${RULESET_TITLES[info.ruleset] || info.ruleset}${info.hints ? " \u00b7 hints, unrated" : ""}`;
    const v = this.view;
    const playing = !!v;
    el.waiting.hidden = playing;
    el.center.hidden = !playing;
    el.meRow.hidden = !playing;
    if (!playing) {
      this.renderWaiting();
      for (const g of [el.oppLeft, el.oppTop, el.oppRight]) g.replaceChildren();
      el.hand.replaceChildren();
      el.me.replaceChildren();
      el.actions.hidden = true;
      el.status.textContent = info.status === "open" ? "Waiting for players to sit down" : "";
      this.renderScore();
      return;
    }
    el.actions.hidden = this.mySeat === null;
    el.felt.dataset.version = String(this.state.version);
    el.felt.dataset.turn = v.over ? "over" : this.state.pause ? "pause" : v.current === this.mySeat && this.mySeat !== null ? (this.pending ? "sent" : "me") : "other";
    this.renderPlayers();
    this.renderCenter();
    this.renderHand();
    this.renderActions();
    this.renderScore();
    this.renderStatus();
    this.renderPause();
    this.updateTimers();
  }

  renderWaiting() {
    const info = this.info;
    const el = this.el;
    const mine = this.account && info.creator === this.account.id;
    const seated = info.seats.some((s) => this.account && s.account === this.account.id);
    const list = h("ul", { class: "seat-list" },
      info.seats.map((s) => h("li", {},
        h("span", { html: avatarSVG(s.avatar || "default", s.name || "", 28) }),
        s.name ? nameWithBadges(s.name, s) : h("span", { class: "muted", text: "Open seat" }),
        !s.name && !seated && this.account ? h("button", { class: "btn small", type: "button", text: "Sit here", onclick: () => this.sit(s.seat) }) : null)));
    const parts = [h("h2", { text: info.status === "open" ? "Waiting for players" : `This game is ${info.status}` }), list];
    if (info.invite) {
      const link = `${location.origin}/#/invite/${info.invite}`;
      parts.push(h("p", {}, "Invite link: ", h("input", { class: "invite", readonly: true, value: link, "aria-label": "Invite link", onfocus: (e) => e.target.select() }),
        h("button", { class: "btn small", type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Invite link copied")) })));
    }
    if (mine && info.status === "open") {
      parts.push(h("button", { class: "btn primary", type: "button", text: "Start now (bots fill empty seats)", onclick: () => this.startGame() }));
    }
    el.waiting.replaceChildren(...parts);
  }

  seatOrder() {
    const n = this.view.players.length;
    const me = this.viewSeat;
    const start = me + 1;
    const out = [];
    for (let i = 0; i < n; i++) {
      const seat = (start + i) % n;
      if (seat !== me) out.push(seat);
    }
    return out;
  }

  playerFacts(p) {
    const v = this.view;
    const facts = [];
    if (v.ruleset === "countdown") facts.push(`No. ${p.number}`, `wild ${p.wild === "T" ? "10" : p.wild}`);
    else if (v.ruleset !== "cycles") facts.push(`${p.score} pts`);
    if (p.revealed !== undefined && p.revealed !== null) facts.push(`${p.revealed} of lead suit`);
    return facts;
  }

  /** A player's panel: avatar, name and badges, cards, facts, timer, fan of backs. */
  playerPanel(seat, extraClass = "") {
    const v = this.view;
    const p = v.players[seat];
    const info = this.info.seats.find((s) => s.seat === seat) || {};
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
    const facts = this.playerFacts(p);
    const who = [info.bot ? "bot" : null, ...tags, countdown ? `a bot takes the seat ${countdown.textContent.replace("bot ", "")}` : null].filter(Boolean);
    const label = `${this.name(seat)}${who.length ? ` (${who.join(", ")})` : ""}, ${p.cards} card${p.cards === 1 ? "" : "s"}${facts.length ? ", " + facts.join(", ") : ""}${current ? ", to play" : ""}${p.cards === 1 ? ", last card" : ""}${v.dealer === seat ? ", dealer" : ""}`;
    return h("div", { class: `player${current ? " current" : ""}${v.dealer === seat ? " dealer" : ""}${extraClass}`, role: "listitem", "aria-label": label, dataset: { seat: String(seat) } },
      h("span", { class: "turn-marker", "aria-hidden": "true", text: "\u25B6" }),
      h("span", { html: avatarSVG(info.avatar || "default", info.name || "", 40) }),
      h("div", { class: "pinfo" },
        h("div", { class: "pname", text: this.name(seat) }),
        this.tells.badge(seat, settings.get()),
        h("div", { class: "pfacts" }, info.bot ? botBadge(info.bot) : archonBadge(info.archon), h("span", { class: "count", text: `${p.cards} card${p.cards === 1 ? "" : "s"}` }), facts.map((f) => h("span", { text: f })), tags.map((t) => h("span", { class: "tag", text: t })), countdown),
        h("div", { class: "timer", "aria-hidden": "true" }, h("span"))),
      fan,
      p.cards === 1 ? h("span", { class: "badge-last", text: "Last card!" }) : null,
      v.dealer === seat ? h("span", { class: "dealer-chip", title: "Dealer", text: "D" }) : null);
  }

  renderPlayers() {
    const v = this.view;
    const el = this.el;
    const panels = this.seatOrder().map((seat) => this.playerPanel(seat));
    const n = panels.length;
    const side = n === 2 ? 1 : n <= 5 ? Math.min(1, n - 1) : Math.floor(n / 3);
    el.oppLeft.replaceChildren(...panels.slice(0, side));
    el.oppTop.replaceChildren(...panels.slice(side, n - side));
    el.oppRight.replaceChildren(...panels.slice(n - side));
    el.opponents.dataset.count = String(n);
    el.opponents.classList.toggle("sides", side > 0);
    // my own panel; a spectator watches from behind seat 1, whose panel sits at the bottom
    const me = this.mySeat;
    if (me === null) {
      el.me.className = "me-panel spectator-seat";
      el.me.replaceChildren(h("div", { role: "list", "aria-label": "Player at the bottom of the table" }, this.playerPanel(this.viewSeat, " bottom-seat")),
        h("span", { class: "spectating", text: "You are watching this table." }));
      return;
    }
    const p = v.players[me];
    const info = this.info.seats.find((s) => s.seat === me) || {};
    el.me.className = `me-panel${v.current === me ? " current" : ""}`;
    el.me.replaceChildren(
      h("span", { html: avatarSVG(info.avatar || "default", info.name || "", 36) }),
      h("div", { class: "pinfo" },
        h("div", { class: "pname", text: info.name || "You" }),
        h("div", { class: "pfacts" }, archonBadge(info.archon), h("span", { text: `${p.cards} card${p.cards === 1 ? "" : "s"}` }), this.playerFacts(p).map((f) => h("span", { text: f }))),
        h("div", { class: "timer", "aria-hidden": "true" }, h("span"))),
      ...(this.called ? [h("span", { class: "badge-called", role: "status", text: "Last card armed" })] : []));
  }

  renderCenter() {
    const v = this.view;
    const el = this.el;
    const s = settings.get();
    const cycles = v.ruleset === "cycles";
    el.stockCount.textContent = String(v.stock);
    const canDraw = Boolean(this.offered("draw"));
    el.stock.disabled = !canDraw;
    el.stock.classList.toggle("can-draw", canDraw);
    el.stock.classList.toggle("empty", v.stock === 0);
    el.stock.setAttribute("aria-label", `Stock, ${v.stock} card${v.stock === 1 ? "" : "s"}${canDraw ? ". Draw a card" : ""}`);
    el.discard.hidden = cycles;
    el.center.classList.toggle("cycles", cycles);
    el.cycle.hidden = !cycles;
    if (!cycles) {
      const under = (v.discard || []).slice(-3, -1);
      el.discard.replaceChildren(
        ...under.map((c, i) => h("div", { class: "under", style: `transform: rotate(${(i - 1) * 7}deg)`, html: cardSVG(c, { face: s.face, fourColor: s.fourColor, label: false }) })),
        h("div", { class: "top", html: cardSVG(v.top, { face: s.face, fourColor: s.fourColor, label: false }) }));
      el.discard.setAttribute("aria-label", `Discard pile, top card ${cardName(v.top)}`);
      el.discard.classList.toggle("drop-ok", !!this.selected);
      if (v.declared) {
        el.suit.hidden = false;
        el.suit.className = `suit-indicator suit-${v.active_suit}`;
        el.suit.innerHTML = `${suitIcon(v.active_suit, { fourColor: s.fourColor, size: 52 })}<span>${SUIT_NAMES[v.active_suit]}</span>`;
        el.suit.setAttribute("aria-label", `Declared suit: ${SUIT_NAMES[v.active_suit]}`);
      } else {
        el.suit.hidden = true;
        el.suit.textContent = "";
      }
      el.direction.textContent = v.direction === -1 ? "\u21BA counter-clockwise" : "\u21BB clockwise";
      el.pendingDraw.hidden = !v.pending_draw;
      el.pendingDraw.textContent = v.pending_draw ? `Draw ${v.pending_draw} pending` : "";
    } else {
      el.suit.hidden = !v.lead_suit;
      if (v.lead_suit) {
        el.suit.className = `suit-indicator suit-${v.lead_suit}`;
        el.suit.innerHTML = `${suitIcon(v.lead_suit, { fourColor: s.fourColor, size: 44 })}<span>lead ${SUIT_NAMES[v.lead_suit]}</span>`;
        el.suit.setAttribute("aria-label", `Lead suit: ${SUIT_NAMES[v.lead_suit]}`);
      }
      el.direction.textContent = `Cycle ${v.cycle_number} \u00b7 ${v.cycles_left} cycle${v.cycles_left === 1 ? "" : "s"} left \u00b7 ${v.removed.length} removed`;
      el.pendingDraw.hidden = true;
      const leader = v.leader === null ? null : v.leader;
      const cards = v.cycle.map((c, i) => {
        const isHost = c.seat === "host";
        const tags = [];
        if (i === 0) tags.push("lead");
        if (isHost) tags.push("host's card");
        if (v.winning === c.seat) tags.push("winning");
        return h("figure", { class: `cycle-card${v.winning === c.seat ? " winning" : ""}${isHost ? " host" : ""}`, "aria-label": `${this.name(c.seat)}: ${cardName(c.card)}${tags.length ? " (" + tags.join(", ") + ")" : ""}` },
          h("div", { class: "cardbox", html: cardSVG(c.card, { face: s.face, fourColor: s.fourColor, label: false }) }),
          h("figcaption", {}, h("span", { text: this.name(c.seat) }), tags.length ? h("small", { text: tags.join(" \u00b7 ") }) : null));
      });
      el.cycle.replaceChildren(
        h("p", { class: "cycle-head", text: leader === null ? "" : `Leader: ${this.name(leader)}${v.turns_left ? ` \u00b7 ${v.turns_left} to play` : ""}` }),
        h("div", { class: "cycle-cards", role: "list" }, cards.length ? cards : h("p", { class: "muted", text: v.current === this.mySeat ? "Lead a card from your hand." : `Waiting for ${this.name(v.current)} to lead.` })));
    }
  }

  renderHand() {
    const v = this.view;
    const el = this.el;
    const s = settings.get();
    if (this.mySeat === null) {
      el.hand.replaceChildren();
      return;
    }
    // keep a keyboard player in the hand: focus stays on the card, or moves to the next
    // playable one when the focused card was just played
    const inHand = document.activeElement && el.hand.contains(document.activeElement);
    const focused = inHand ? document.activeElement.dataset.card : null;
    const keepFocus = inHand || (this.keyboard && (!document.activeElement || document.activeElement === document.body));
    const order = this.handOrder();
    const counts = {};
    const cards = order.map((card) => {
      counts[card] = (counts[card] || 0) + 1;
      const playable = this.movesFor(card).length > 0;
      const b = h("button", {
        class: `card${playable ? " legal" : ""}${this.selected === card ? " selected" : ""}${this.undealt.has(card) ? " dealing" : ""}`,
        type: "button",
        dataset: { card, copy: String(counts[card]) },
        "aria-label": `${cardName(card)}${playable ? ", playable" : ""}`,
        "aria-pressed": this.selected === card ? "true" : null,
        tabindex: "-1",
        html: cardSVG(card, { face: s.face, fourColor: s.fourColor, label: false }),
      });
      b.addEventListener("click", (e) => this.cardClick(e, card));
      b.addEventListener("dblclick", () => this.play(card));
      return b;
    });
    el.hand.replaceChildren(...cards);
    const target = cards.find((c) => c.dataset.card === focused) || cards.find((c) => c.classList.contains("legal")) || cards[0];
    if (target) target.tabIndex = 0;
    if (keepFocus && target) target.focus({ preventScroll: true });
    this.layoutHand();
    if (v.drawn) {
      const drawn = cards.find((c) => c.dataset.card === v.drawn);
      if (drawn) drawn.classList.add("just-drawn");
    }
  }

  layoutHand() {
    const hand = this.el.hand;
    const cards = [...hand.children];
    if (!cards.length) return;
    const width = hand.clientWidth || 300;
    const cw = cards[0].offsetWidth || 80;
    const n = cards.length;
    const step = n > 1 ? Math.min(cw * 0.62, (width - cw - 8) / (n - 1)) : cw;
    hand.style.setProperty("--overlap", `${Math.round(step - cw)}px`);
    const mid = (n - 1) / 2;
    const spread = Math.min(3, 24 / n);
    cards.forEach((c, i) => {
      const off = i - mid;
      c.style.setProperty("--rot", `${(off * spread).toFixed(2)}deg`);
      c.style.setProperty("--lift", `${(Math.abs(off) ** 1.6 * 0.8).toFixed(1)}px`);
    });
  }

  renderActions() {
    const el = this.el;
    const legal = this.legal;
    const myTurn = this.mySeat !== null && this.view.current === this.mySeat && !this.view.over;
    el.drawBtn.hidden = !legal.some((m) => m.kind === "draw");
    el.pass.hidden = !legal.some((m) => m.kind === "pass");
    // Last card shows only when it can matter, and stays (armed) until the play
    const matters = myTurn && this.callMatters();
    el.lastCard.hidden = !(matters || (this.called && !this.view.over));
    el.lastCard.classList.toggle("armed", this.called);
    el.lastCard.setAttribute("aria-pressed", String(this.called));
    el.lastCard.textContent = this.called ? "Last card armed \u2713" : "Last card!";
    el.lastCard.classList.toggle("suggest", matters && !this.called);
    const version = this.state.version;
    el.hintBtn.hidden = !(myTurn && this.info.hints);
    el.hintBtn.disabled = this.hintAsked === version;
    el.hintBtn.textContent = this.hintAsked === version ? "Thinking\u2026" : "Hint";
    this.markHint();
  }

  /** Ask the server for the search bot's move (only offered at tables with hints). */
  askHint() {
    if (!this.state || (this.hint && this.hint.version === this.state.version)) {
      if (this.hint) this.showHint(this.hint);
      return;
    }
    if (this.send({ type: "hint" })) {
      this.hintAsked = this.state.version;
      this.renderActions();
    }
  }

  /** Highlight the suggested card, or the stock for a draw, or Pass, for this position. */
  markHint() {
    const el = this.el;
    const hint = this.hint && this.state && this.hint.version === this.state.version ? this.hint.data : null;
    for (const b of el.hand.querySelectorAll(".hinted")) b.classList.remove("hinted");
    el.stock.classList.toggle("hinted", Boolean(hint) && hint.kind === "draw");
    el.pass.classList.toggle("hinted", Boolean(hint) && hint.kind === "pass");
    if (hint && hint.card) {
      const card = el.hand.querySelector(`[data-card="${hint.card}"]`);
      if (card) card.classList.add("hinted");
    }
  }

  renderStatus() {
    const v = this.view;
    const el = this.el;
    if (v.over) {
      el.status.textContent = "The game is over.";
      return;
    }
    if (this.state.pause) {
      el.status.classList.remove("mine");
      el.status.textContent = "Round over: the next round starts when everyone is ready.";
      return;
    }
    if (v.current === this.mySeat && this.mySeat !== null) {
      const legal = this.legal;
      let text = "Your turn";
      if (this.pending) text = "Your move is on its way\u2026";
      else if (v.phase === "declare") text = "Your turn: name the suit of the starter eight";
      else if (legal.length === 1 && legal[0].kind === "pass") text = "Your turn: nothing to play, pass";
      else if (legal.every((m) => m.kind === "draw" || m.kind === "pass")) text = "Your turn: no playable card, draw from the stock";
      else if (v.drawn) text = `Your turn: play the card you drew or pass`;
      else if (v.forced_card) text = `Your turn: you must play the ${cardName(v.forced_card)}`;
      else if (v.ruleset === "cycles" && v.phase === "lead") text = "Your lead: play any card to start the cycle";
      else if (v.ruleset === "cycles") text = `Your turn: follow ${SUIT_NAMES[v.lead_suit] || "the lead"} or play a joker that fits`;
      el.status.textContent = text;
      el.status.classList.add("mine");
      if (v.phase === "declare" && !this.pending && !this.declaring) this.declareStarter();
    } else {
      el.status.classList.remove("mine");
      const seat = this.info.seats.find((x) => x.seat === v.current);
      const away = seat && seat.awayUntil && !seat.connected && !seat.standin;
      el.status.textContent = v.current === null || v.current === undefined ? "" : away ? `${this.name(v.current)} is away: waiting for them, or a bot in a moment\u2026` : `${this.name(v.current)} ${v.current === this.mySeat ? "are" : "is"} playing\u2026`;
    }
  }

  renderScore() {
    const el = this.el;
    const v = this.view;
    const info = this.info;
    if (!v || !info) {
      el.score.replaceChildren(h("h2", { text: "Scoreboard" }), h("p", { class: "muted", text: "The game has not started." }));
      return;
    }
    const rows = v.players.map((p) => {
      let value;
      if (v.ruleset === "countdown") value = `No. ${p.number}`;
      else if (v.ruleset === "cycles") value = `${p.cards} card${p.cards === 1 ? "" : "s"}`;
      else value = String(p.score);
      return h("tr", { class: v.current === p.seat ? "current" : "" }, h("th", { scope: "row", text: this.name(p.seat) }), h("td", { text: value }));
    });
    let note = "";
    if (v.ruleset === "classic") note = v.target ? `Round ${v.round} \u00b7 first to ${v.target} wins` : `Single round`;
    else if (v.ruleset === "ultimate") note = v.target ? `Round ${v.round} \u00b7 penalty points; at ${v.target} the lowest wins` : "Single round";
    else if (v.ruleset === "countdown") note = `Round ${v.round} \u00b7 win a round on number 1 to win`;
    else note = `${v.cycles_left} cycles left \u00b7 stock ${v.stock}`;
    const head = v.ruleset === "countdown" ? "Number" : v.ruleset === "cycles" ? "Hand" : "Score";
    el.score.replaceChildren(h("h2", { text: "Scoreboard" }), h("p", { class: "muted", text: note }),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { text: "Player" }), h("th", { text: head }))), h("tbody", {}, rows)));
  }

  renderChat() {
    const items = this.chat.map((c) => h("li", { class: c.call ? "call" : "" }, h("b", { text: `${c.name}: ` }), h("span", { text: unescapeHTML(c.text) })));
    this.el.chatList.replaceChildren(...items);
    this.el.chatList.scrollTop = this.el.chatList.scrollHeight;
  }

  updateTimers() {
    for (const c of this.root.querySelectorAll(".away-countdown")) c.textContent = awayText(Number(c.dataset.until));
    this.summary.tick();
    if (!this.clock || !this.view || this.view.over) {
      for (const t of this.root.querySelectorAll(".timer")) t.hidden = true;
      return;
    }
    const left = Math.max(0, this.clock.left - (performance.now() - this.clockAt) / 1000);
    const frac = this.clock.timer ? left / this.clock.timer : 0;
    const seat = this.clock.seat;
    for (const t of this.root.querySelectorAll(".player .timer, .me-panel .timer")) {
      const panel = t.closest(".player");
      const s = panel ? Number(panel.dataset.seat) : this.mySeat;
      t.hidden = s !== seat;
      if (s === seat) {
        t.firstChild.style.width = `${(frac * 100).toFixed(1)}%`;
        t.classList.toggle("low", left < 10);
        t.title = `${fmtTime(left)} left`;
        t.dataset.left = fmtTime(left);
      }
    }
  }

  // -- the log -------------------------------------------------------------------------

  describe(ev) {
    const who = this.name(ev.seat);
    const cards = ev.cards ? ev.cards.map(cardName).join(", ") : null;
    const n = ev.count;
    switch (ev.type) {
      case "round": return `Round ${ev.round}: ${this.name(ev.dealer)} deal${ev.dealer === this.mySeat ? "" : "s"}.`;
      case "game": return `A game of cycles for ${ev.players} players, ${ev.cycles_left} cycles at most.`;
      case "deal": return ev.seat === this.mySeat ? `You are dealt ${n} cards.` : null;
      case "starter": return `The starter is the ${cards}.`;
      case "declared": return `${who} name${ev.seat === this.mySeat ? "" : "s"} ${SUIT_NAMES[ev.suit]}.`;
      case "played": return `${who} play${ev.seat === this.mySeat ? "" : "s"} the ${cards}${ev.declared ? ` and name${ev.seat === this.mySeat ? "" : "s"} ${SUIT_NAMES[ev.declared]}` : ""}${ev.lead ? " to lead" : ""}.`;
      case "last_card": return `${who} call${ev.seat === this.mySeat ? "" : "s"} \u201clast card!\u201d${ev.auto ? " (automatic)" : ""}`;
      case "penalty": if (!n) return `${who} should draw penalty cards for ${penaltyWhy(ev)}, but the stock is empty.`;
        return `${who} draw${ev.seat === this.mySeat ? "" : "s"} ${n} penalty card${n === 1 ? "" : "s"} for ${penaltyWhy(ev)}${cards ? `: ${cards}` : ""}.`;
      case "skipped": return `${who} ${ev.seat === this.mySeat ? "are" : "is"} skipped.`;
      case "direction": return `Play now goes ${ev.direction === -1 ? "counter-clockwise" : "clockwise"}.`;
      case "reshuffled": return `The discards are shuffled into a new stock (${ev.count} cards).`;
      case "drew": return `${who} draw${ev.seat === this.mySeat ? "" : "s"} ${n === 1 ? "a card" : `${n} cards`}${cards ? `: ${cards}` : ""}.`;
      case "passed": return `${who} pass${ev.seat === this.mySeat ? "" : "es"}.`;
      case "timeout": return `${who} ran out of time.`;
      case "round_over": return ev.reason === "blockade" ? `Round ${ev.round} is blocked; ${this.name(ev.seat)} win${ev.seat === this.mySeat ? "" : "s"} on points.` : `${who} went out and win${ev.seat === this.mySeat ? "" : "s"} round ${ev.round}!`;
      case "game_over": return ev.winner === null || ev.winner === undefined ? "The game is over." : `Game over: ${this.name(ev.winner)} win${ev.winner === this.mySeat ? "" : "s"}!`;
      case "host_lead": return `The host leads the ${cards}.`;
      case "lead": return `${who} lead${ev.seat === this.mySeat ? "" : "s"} cycle ${ev.cycle}.`;
      case "first_player": return `${who} play${ev.seat === this.mySeat ? "" : "s"} first${ev.tie_break ? " (tie broken at random)" : ""}.`;
      case "cycle_won": return `${ev.seat === undefined ? "The host" : who} win${ev.seat === this.mySeat ? "" : "s"} the cycle.`;
      case "picked_up": {
        const m = ev.cards ? ev.cards.length : n;
        const why = ev.reason === "no_last_card_call" ? " for not calling last card" : ev.reason === "stock_empty" ? ": the stock is empty" : "";
        return `${who} pick${ev.seat === this.mySeat ? "" : "s"} up the cycle (${m} card${m === 1 ? "" : "s"})${why}.`;
      }
      case "cycle_over": return `Cycle ${ev.cycle} is over${ev.completed ? "" : " unfinished"}; ${ev.cycles_left} cycle${ev.cycles_left === 1 ? "" : "s"} left.`;
      case "starter_returned": return `The ${cards} goes back into the stock.`;
      case "false_call": return `False call! ${who} hold${ev.seat === this.mySeat ? "" : "s"} ${ev.count} ${SUIT_NAMES[ev.suit]}.`;
      case "lead_passed": return `The lead passes to ${this.name(ev.to)}.`;
      case "joker_to_bottom": return "A joker turned by the host goes to the bottom of the stock.";
      case "host_cannot_lead": return "The stock is empty: the host cannot lead.";
      default: return `${ev.seat !== undefined ? who + ": " : ""}${ev.type.replaceAll("_", " ")}${cards ? ` (${cards})` : ""}.`;
    }
  }

  addLog(ev) {
    const text = this.describe(ev);
    if (!text) return;
    this.log.push(text);
    if (this.log.length > 200) this.log.shift();
    const li = h("li", { class: `ev-${ev.type}`, text });
    this.el.log.append(li);
    while (this.el.log.children.length > 200) this.el.log.firstChild.remove();
    this.el.log.scrollTop = this.el.log.scrollHeight;
    if (ev.seat !== this.mySeat || ev.type === "round_over" || ev.type === "game_over") announce(text);
  }

  // -- animation ---------------------------------------------------------------------------

  snapshot() {
    const out = { hand: {}, panels: {} };
    for (const c of this.el.hand.children) out.hand[c.dataset.card] = c.getBoundingClientRect();
    for (const p of this.el.felt.querySelectorAll(".player")) out.panels[p.dataset.seat] = p.getBoundingClientRect();
    return out;
  }

  /** A card-sized rectangle at a seat: the middle of its panel, or of the hand. */
  seatRect(seat, before) {
    const p = seat === this.mySeat ? this.el.hand : this.el.felt.querySelector(`.player[data-seat="${seat}"]`);
    const r = p ? p.getBoundingClientRect() : before.panels[seat];
    if (!r) return null;
    const w = this.el.stock.getBoundingClientRect().width * 0.6 || 50;
    return { left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - w * 0.7, width: w, height: w * 1.4 };
  }

  animate(events, before) {
    const s = settings.get();
    const discard = this.el.discard.hidden ? this.el.cycle.getBoundingClientRect() : this.el.discard.querySelector(".top")?.getBoundingClientRect();
    const stock = this.el.stock.getBoundingClientRect();
    const secs = (ms) => settings.duration(ms) / 1000;
    let delay = 0;
    for (const ev of events) {
      if (ev.type === "played" || ev.type === "host_lead") {
        const card = ev.cards && ev.cards[0];
        let from = ev.type === "host_lead" ? stock : ev.seat === this.mySeat ? before.hand[card] : this.seatRect(ev.seat, before);
        if (!from) from = this.seatRect(ev.seat, before);
        let to = discard;
        if (this.view.ruleset === "cycles") {
          const fig = [...this.el.cycle.querySelectorAll(".cycle-card .cardbox")].pop();
          if (fig) to = fig.getBoundingClientRect();
        }
        const html = cardSVG(card, { face: s.face, fourColor: s.fourColor, label: false });
        // the host's card is turned from the stock; a played card slides over the felt
        if (ev.type === "host_lead") sound.flip(secs(delay));
        sound.slide(secs(delay));
        const wild = Boolean(ev.declared); // a suit was named: the engine's event says so
        fx.fly(html, from, to, { delay, rotate: -12 }).then(() => {
          sound.snap();
          if (wild) {
            fx.flourish(to);
            fx.pulse(this.el.suit);
          }
        });
        delay += 120;
      } else if (ev.type === "drew" || ev.type === "penalty") {
        if (ev.type === "penalty") this.penaltyNotice(ev);
        const to = this.seatRect(ev.seat, before);
        const n = Math.min(ev.count || 1, 6);
        const mine = ev.seat === this.mySeat && ev.cards;
        sound.slide(secs(delay));
        for (let i = 0; i < n; i++) {
          const target = mine ? this.el.hand.querySelector(`[data-card="${ev.cards[i]}"]`)?.getBoundingClientRect() || to : to;
          // your own drawn cards turn face up as they reach your hand
          if (target) fx.fly(backSVG(), stock, target, { delay: delay + i * 90 }).then(() => (mine ? sound.flip() : i === n - 1 && sound.thud()));
        }
        delay += 90 * n;
      } else if (ev.type === "false_call") {
        this.penaltyNotice(ev);
      } else if (ev.type === "picked_up") {
        if (penaltyWhy(ev)) this.penaltyNotice(ev);
        sound.slide(secs(delay));
        sound.thud();
      } else if (ev.type === "round" || ev.type === "game") {
        this.animateDeal();
      } else if (ev.type === "round_over" || ev.type === "game_over") {
        if (ev.type === "round_over") {
          sound.fanfare();
          if (!this.view.over) this.roundSummary(ev);
        }
      } else if (ev.type === "last_card") {
        fx.pulse(this.el.felt.querySelector(`.player[data-seat="${ev.seat}"] .badge-last`));
      } else if (ev.type === "reshuffled") {
        sound.shuffle();
      }
    }
  }

  /** The deal, seen: cards fly from the stock to each seat in turn (your own cards show
   * as they land), with the sound of cards sliding, then the starter is turned over. */
  animateDeal() {
    sound.shuffle();
    if (!this.view) return;
    const stock = this.el.stock.getBoundingClientRect();
    const seats = this.view.players.map((p) => p.seat);
    const per = Math.min(8, Math.max(...this.view.players.map((p) => p.cards)));
    const hand = [...this.el.hand.children];
    const motion = settings.duration(260) > 0;
    let i = 0;
    for (let round = 0; round < per; round++) {
      for (const seat of seats) {
        if (round >= this.view.players[seat].cards) continue;
        const card = seat === this.mySeat ? hand[round] : null;
        const to = card ? card.getBoundingClientRect() : this.seatRect(seat, { panels: {} });
        if (!to) continue;
        if (card && motion) {
          this.undealt.add(card.dataset.card);
          card.classList.add("dealing");
        }
        if (i % 3 === 0) sound.slide(settings.duration(i * 45) / 1000);
        fx.fly(backSVG(), stock, to, { delay: i * 45, ms: 260 }).then(() => card && this.landed(card.dataset.card));
        i += 1;
      }
    }
    // the starter is turned face up once everyone has their cards
    const top = this.el.discard.hidden ? null : this.el.discard.querySelector(".top");
    const end = settings.duration(i * 45 + 260);
    sound.flip(end / 1000);
    if (top) fx.turnOver(top, end);
  }

  /** Whether this welcome shows a deal this tab has not seen: the round's log has the
   * deal and you have not moved since (bots may have played before the page opened). */
  dealIsNews(state, events) {
    if (!state || !events.some((e) => e.type === "deal")) return false;
    const round = events.filter((e) => e.type === "round").length;
    const key = `ce.dealt.${this.id}.${state.view.round ?? round}`;
    let seen = false;
    try {
      seen = !!sessionStorage.getItem(key);
      sessionStorage.setItem(key, "1");
    } catch {
      /* storage disabled */
    }
    if (seen) return false;
    if (this.mySeat === null) return state.version <= 1;
    return !events.some((e) => e.seat === this.mySeat && ["played", "drew", "passed", "declared"].includes(e.type));
  }

  /** A dealt card reached your hand: show it (the hand may have been redrawn since). */
  landed(card) {
    this.undealt.delete(card);
    for (const b of this.el.hand.querySelectorAll(`[data-card="${card}"]`)) b.classList.remove("dealing");
  }

  /** A penalty as a notice on the felt: who pays and why (the log line says it too). */
  penaltyNotice(ev) {
    const n = ev.count || (ev.cards ? ev.cards.length : 0);
    const who = this.name(ev.seat);
    const mine = ev.seat === this.mySeat;
    let text = `${who} ${mine ? "draw" : "draws"} ${n} for ${penaltyWhy(ev)}`;
    if (ev.type === "false_call") text = `False call by ${who}!`;
    else if (!n) text = `${who} ${mine ? "owe" : "owes"} a penalty for ${penaltyWhy(ev)}; the stock is empty`;
    showNotice(this.el.felt, text);
  }

  /** Between rounds: the summary stays until the server says the table goes on. */
  renderPause() {
    const pause = this.state && this.state.pause;
    if (!pause || !this.view || this.view.over) return this.summary.hide();
    const s = settings.get();
    this.summary.show(pause, { mySeat: this.mySeat, ruleset: this.view.ruleset, cards: { face: s.face, fourColor: s.fourColor, label: false } });
  }

  roundSummary(ev) {
    if (this.state && this.state.pause) return; // the summary overlay shows it
    const lines = (ev.points || []).map((pts, seat) => `${this.name(seat)}: ${pts} in hand`);
    toast(`${this.describe(ev)} ${lines.join(" \u00b7 ")}`);
  }

  async victory() {
    const v = this.view;
    const r = v.result || {};
    const won = r.winner !== null && r.winner === this.mySeat;
    if (won || r.winner !== null) sound.fanfare();
    fx.confetti();
    this.summary.hide();
    const unit = v.ruleset === "countdown" ? "number" : v.ruleset === "cycles" ? "hand value" : v.ruleset === "ultimate" ? "penalty points" : "points";
    this.ending = matchEnd({ view: v, name: (seat) => this.name(seat), mySeat: this.mySeat, me: this.you && this.you.account, ratings: this.ratings, rematch: this.rematch, unit });
    const choice = await this.ending.choice;
    this.ending = null;
    if (choice === "again") this.playAgain();
    else if (choice === "replay") this.navigate(`#/replay/${this.id}`);
    else if (choice === "lobby") this.navigate("#/");
  }

  /** The same game again with the same people: the server makes this finished table's
   * follow-up for the first player to ask (same rules, bots and settings) and seats
   * every later one there; each goes to it. */
  async playAgain() {
    try {
      const t = await api(`/api/tables/${encodeURIComponent(this.id)}/rematch`, { method: "POST" });
      if (t.invite) sessionStorage.setItem(`ce.invite.${t.id}`, t.invite);
      this.navigate(`#/table/${t.id}`);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  // -- actions ---------------------------------------------------------------------------

  sendMove(move) {
    if (this.pending || !this.state) return;
    sound.unlock();
    if (this.send({ type: "move", seq: this.state.version, move })) {
      this.pending = true;
      this.unanswered = { seq: this.state.version, move };
      this.selected = null;
      this.render();
    }
  }

  /** A move sent just before the connection broke may never have reached the table (its
   * server went down with it): after the reconnect, send it again if the table is still at
   * the position it was sent from and still offers it. The version in `seq` makes a second
   * copy harmless: a move the table did take has moved it on, and a stale one is refused. */
  resend(state) {
    const move = this.unanswered;
    this.unanswered = null;
    if (move && state && state.version === move.seq && (state.moves || []).some((m) => m.text === move.move)) {
      this.sendMove(move.move);
    }
  }

  cardClick(e, card) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    if (e.detail > 1) return; // the second click of a double-click is the dblclick's
    const playable = this.movesFor(card).length > 0;
    // one click plays; or (setting off) the first click selects and a second click on
    // the selected card plays it, while a second click on an unplayable one lets go
    if (playable && (settings.get().oneClick || this.selected === card)) {
      this.play(card);
      return;
    }
    this.selected = this.selected === card ? null : card;
    if (!this.selected) return this.render();
    this.render();
    announce(`${cardName(card)} selected${playable ? "; press Enter or click the discard pile to play it" : ", not playable now"}`);
  }

  async play(card) {
    const moves = this.movesFor(card);
    if (!moves.length) {
      const btn = this.el.hand.querySelector(`[data-card="${card}"]`);
      fx.shake(btn);
      if (this.view && this.view.current === this.mySeat) toast(`The ${cardName(card)} cannot be played now.`);
      else toast("Wait for your turn.");
      return;
    }
    const autoCall = settings.get().autoCall && this.info && this.info.hints;
    // the same card with and without the last-card call: call it when the table may
    // call for you and you have not armed the call yourself
    const calls = moves.filter((m) => m.call);
    let pool = moves.filter((m) => !m.call);
    if (calls.length && autoCall && !this.called) pool = calls;
    if (!pool.length) pool = moves;
    const suits = suitsOf(pool);
    if (!suits.length) return this.sendMove(pool[0].text);
    const suit = await this.pickSuit(suits, card);
    if (!suit) return;
    const move = pool.find((m) => m.suit === suit);
    if (move) this.sendMove(move.text);
  }

  async declareStarter() {
    this.declaring = true;
    const legal = this.legal;
    const suits = suitsOf(legal);
    const withCard = legal.find((m) => m.card);
    const suit = await this.pickSuit(suits, withCard ? withCard.card : this.view.top, "Name the suit of the starter eight");
    this.declaring = false;
    if (suit) {
      const move = legal.find((m) => m.suit === suit);
      if (move) this.sendMove(move.text);
    }
  }

  pickSuit(suits, card, title = null) {
    const s = settings.get();
    const body = h("p", { class: "muted", text: `Which suit must the next player follow? Keys: S, H, D, C.` });
    const buttons = SUITS.filter((x) => suits.includes(x)).map((x) => ({
      value: x, class: `btn suit-btn suit-${x}`, label: SUIT_NAMES[x],
      html: `${suitIcon(x, { fourColor: s.fourColor, size: 44 })}<span>${SUIT_NAMES[x]}</span>`,
    }));
    const p = modal({ title: title || `Name a suit for the ${cardName(card)}`, body, buttons, className: "suit-picker" });
    const box = document.querySelector(".suit-picker");
    if (box) {
      box.addEventListener("modalkey", (e) => {
        const key = e.detail.event.key.toUpperCase();
        if (suits.includes(key)) {
          e.detail.event.preventDefault();
          e.detail.close(key);
        }
      });
    }
    return p;
  }

  draw() {
    const move = this.offered("draw");
    if (!move) {
      if (this.view && this.view.current === this.mySeat) toast("You cannot draw now.");
      return;
    }
    this.sendMove(move.text);
  }

  pass() {
    const move = this.offered("pass");
    if (move) this.sendMove(move.text);
  }

  callLastCard() {
    sound.unlock();
    if (this.called) {
      toast("Last card is already armed: it goes with your next play.");
      return;
    }
    if (!this.callMatters()) {
      toast("Last card counts only with a play that leaves you one card; not now.");
      return;
    }
    if (this.send({ type: "call" })) announce("Last card: your next play calls it.");
  }

  sendChat(e) {
    e.preventDefault();
    const text = this.el.chatInput.value.trim();
    if (!text) return;
    if (this.send({ type: "chat", text })) this.el.chatInput.value = "";
  }

  showHint({ version, move, data }) {
    if (!this.state || version !== this.state.version) return; // the game moved on
    this.hint = { version, move, data };
    this.hintAsked = null;
    this.renderActions();
    const { kind, card } = data;
    const target = kind === "draw" ? this.el.stock : kind === "pass" ? this.el.pass : card ? this.el.hand.querySelector(`[data-card="${card}"]`) : null;
    if (target) fx.pulse(target);
    toast(`Hint: ${kind === "draw" ? "draw a card" : kind === "pass" ? "pass" : card ? `play the ${cardName(card)}` : "name a suit"}`);
  }

  async sit(seat) {
    try {
      this.info = await api(`/api/tables/${this.id}/sit`, { method: "POST", body: { seat, code: this.code } });
      this.ws.close();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async startGame() {
    try {
      this.info = await api(`/api/tables/${this.id}/start`, { method: "POST" });
      this.render();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async leave() {
    const running = this.view && !this.view.over && this.mySeat !== null;
    if (running) {
      const ok = await modal({ title: "Leave the game?", body: h("p", { text: "Leaving a running game counts as a loss; a bot finishes it for you." }), buttons: [{ text: "Stay", value: false, class: "btn" }, { text: "Leave", value: true, class: "btn danger" }] });
      if (!ok) return;
    }
    if (this.mySeat !== null && this.info && this.info.status !== "finished") {
      try {
        await api(`/api/tables/${this.id}/leave`, { method: "POST" });
      } catch {
        /* already gone */
      }
    }
    this.navigate("#/");
  }

  async showHelp() {
    const rs = this.info ? this.info.ruleset : "classic";
    const all = await rulesets();
    await modal({ title: "How to play", body: howToPlay(rs, all[rs], this.view ? this.view.rules : this.info && this.info.rules), buttons: [{ text: "Close", value: true, class: "btn" }], className: "wide" });
  }

  // -- keyboard ------------------------------------------------------------------------

  keydown(e) {
    if (document.querySelector(".backdrop")) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const cards = [...this.el.hand.children];
    const idx = cards.indexOf(document.activeElement);
    const key = e.key;
    this.keyboard = true;
    if ((key === "ArrowRight" || key === "ArrowLeft" || key === "Home" || key === "End") && cards.length) {
      e.preventDefault();
      let next = idx < 0 ? 0 : idx + (key === "ArrowRight" ? 1 : key === "ArrowLeft" ? -1 : 0);
      if (key === "Home") next = 0;
      if (key === "End") next = cards.length - 1;
      next = (next + cards.length) % cards.length;
      for (const c of cards) c.tabIndex = -1;
      cards[next].tabIndex = 0;
      cards[next].focus();
      return;
    }
    if ((key === "Enter" || key === " ") && idx >= 0) {
      e.preventDefault();
      this.play(cards[idx].dataset.card);
      return;
    }
    const lower = key.toLowerCase();
    if (lower === "d") this.draw();
    else if (lower === "i" && this.mySeat !== null && this.info && this.info.hints) this.askHint();
    else if (lower === "p") this.pass();
    else if (lower === "l" && this.mySeat !== null && this.lastCardMode() === "manual") this.callLastCard();
    else if (lower === "h" && cards.length) (cards.find((c) => c.tabIndex === 0) || cards[0]).focus();
    else if (key === "?") this.showHelp();
    else return;
    e.preventDefault();
  }

  // -- dragging (pointer events: mouse, pen and touch) ------------------------------------------

  bindDrag() {
    const start = (e, kind) => {
      if (e.button !== 0 && e.pointerType === "mouse") return;
      const src = e.currentTarget === this.el.stock ? this.el.stock : e.target.closest(".card");
      if (!src) return;
      const card = kind === "card" ? src.dataset.card : null;
      const x0 = e.clientX, y0 = e.clientY;
      const rect = src.getBoundingClientRect();
      let ghost = null;
      const move = (ev) => {
        if (ev.pointerId !== e.pointerId) return;
        const dx = ev.clientX - x0, dy = ev.clientY - y0;
        if (!ghost && Math.hypot(dx, dy) < 8) return;
        if (!ghost) {
          if (kind === "stock" && !this.offered("draw")) return;
          ghost = h("div", { class: "drag-ghost", html: kind === "card" ? src.innerHTML : backSVG() });
          Object.assign(ghost.style, { width: `${rect.width}px`, height: `${rect.height}px` });
          document.body.append(ghost);
          src.classList.add("dragging");
          this.el.felt.classList.add(kind === "card" ? "drag-card" : "drag-stock");
        }
        ghost.style.transform = `translate(${rect.left + dx}px, ${rect.top + dy}px) rotate(${Math.max(-12, Math.min(12, dx / 20))}deg)`;
        const over = this.dropTarget(ev.clientX, ev.clientY);
        this.el.discard.classList.toggle("drop-hover", over === "discard" && kind === "card");
        this.el.hand.classList.toggle("drop-hover", over === "hand" && kind === "stock");
      };
      const up = (ev) => {
        if (ev.pointerId !== e.pointerId) return;
        window.removeEventListener("pointermove", move);
        window.removeEventListener("pointerup", up);
        window.removeEventListener("pointercancel", up);
        if (!ghost) return;
        this.suppressClick = true;
        setTimeout(() => {
          this.suppressClick = false;
        }, 50);
        ghost.remove();
        src.classList.remove("dragging");
        this.el.felt.classList.remove("drag-card", "drag-stock");
        this.el.discard.classList.remove("drop-hover");
        this.el.hand.classList.remove("drop-hover");
        if (ev.type === "pointercancel") return;
        const over = this.dropTarget(ev.clientX, ev.clientY);
        if (kind === "card" && over === "discard") this.play(card);
        else if (kind === "card" && over === "hand") this.reorder(card, src, ev.clientX);
        else if (kind === "stock" && (over === "hand" || over === "me")) this.draw();
      };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up);
      window.addEventListener("pointercancel", up);
    };
    this.el.felt.addEventListener("pointerdown", () => {
      this.keyboard = false;
    });
    this.el.hand.addEventListener("pointerdown", (e) => start(e, "card"));
    this.el.stock.addEventListener("pointerdown", (e) => start(e, "stock"));
  }

  dropTarget(x, y) {
    const inside = (el, pad = 0) => {
      if (!el || el.hidden) return false;
      const r = el.getBoundingClientRect();
      return x >= r.left - pad && x <= r.right + pad && y >= r.top - pad && y <= r.bottom + pad;
    };
    if (inside(this.el.discard, 24) || inside(this.el.cycle, 0)) return "discard";
    if (inside(this.el.hand, 10)) return "hand";
    if (inside(this.el.me, 0)) return "me";
    return null;
  }

  reorder(card, src, x) {
    const cards = [...this.el.hand.children].filter((c) => c !== src);
    let index = cards.findIndex((c) => {
      const r = c.getBoundingClientRect();
      return x < r.left + r.width / 2;
    });
    if (index < 0) index = cards.length;
    const order = cards.map((c) => c.dataset.card);
    order.splice(index, 0, card);
    this.custom = order;
    if (settings.get().sort !== "custom") settings.set({ sort: "custom" });
    else this.render();
    announce(`Moved the ${cardName(card)} to position ${index + 1}.`);
  }
}
