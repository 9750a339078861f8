// The table page: it builds the table (`view/layout.js`), keeps its state (`ctrl.js`),
// listens to its socket (`socket.js`) and, on each message, updates the state, redraws
// (`view/*.js`) and animates (`anim.js`). Playing lives in `actions.js` and `input/`.
// The client implements no rule: the server sends the legal moves, whether a last-card
// call counts and what wins the game; the client offers and draws them.
import { RULESET_TITLES } from "../howto.js";
import * as settings from "../settings.js";
import { RoundSummary } from "../summary.js";
import { Tells } from "../tells.js";
import * as actions from "./actions.js";
import { animate, animateDeal, dealIsNews, snapshot } from "./anim.js";
import { TableCtrl } from "./ctrl.js";
import { renderPause, roundSummary, victory } from "./ending.js";
import { bindClicks } from "./input/click.js";
import { bindDrag } from "./input/drag.js";
import { keyHandler } from "./input/keyboard.js";
import { leave, showHelp, sit, startGame } from "./page.js";
import { receive } from "./receive.js";
import { TableSocket } from "./socket.js";
import { renderActions } from "./view/actions.js";
import { renderCenter } from "./view/felt.js";
import { layoutHand, renderHand } from "./view/hand.js";
import { buildTable, renderTopline } from "./view/layout.js";
import { addLine, addLog, standinEvents, standinLine } from "./view/log.js";
import { renderPlayers } from "./view/panels.js";
import { renderScore } from "./view/score.js";
import { renderStatus } from "./view/status.js";
import { renderTimers } from "./view/timers.js";
import { renderWaiting } from "./view/waiting.js";

/** The table's title: its name, the ruleset unless the name says it already ("Quick
 * classic", not "Quick classic · Classic"), and whether hints are on. */
export function tableTitle(info) {
  const ruleset = RULESET_TITLES[info.ruleset] || info.ruleset;
  const named = (info.name || "").toLowerCase().includes(String(ruleset).toLowerCase());
  return [info.name, named ? null : ruleset, info.hints ? "hints, unrated" : null].filter(Boolean).join(" \u00b7 ");
}

export class TableView {
  constructor(root, { tableId, code = null, account = null, coach = null, navigate }) {
    this.root = root;
    this.coach = coach;
    this.navigate = navigate;
    this.ctrl = new TableCtrl({ tableId, code, account });
    this.tells = new Tells();
    this.summary = new RoundSummary({ name: (seat) => this.ctrl.name(seat), onNext: () => this.send({ type: "next_round" }) });
    this.ending = null; // the match end's dialog while it is open
    this.el = buildTable(root, {
      help: () => showHelp(this),
      leave: () => leave(this),
      draw: () => actions.draw(this),
      pass: () => actions.pass(this),
      call: () => actions.callLastCard(this),
      hint: () => actions.askHint(this),
      chat: (e) => actions.sendChat(this, e),
      react: (reaction) => this.send({ type: "react", reaction }),
    });
    bindDrag(this);
    bindClicks(this);
    this.render();
    this.unsub = settings.onChange(() => this.render());
    this.tick = setInterval(() => this.updateTimers(), 250);
    this.onKey = keyHandler(this);
    document.addEventListener("keydown", this.onKey);
    this.onResize = () => {
      layoutHand(this.el.hand);
      if (this.coach) this.coach.place();
    };
    window.addEventListener("resize", this.onResize);
    this.socket = new TableSocket(this.socketPath(), {
      message: (msg) => this.receive(msg),
      open: () => {
        this.el.conn.hidden = true;
      },
      lost: () => {
        this.el.conn.hidden = false;
      },
      refused: (text) => {
        this.el.status.textContent = text;
      },
    });
  }

  destroy() {
    this.gone = true;
    clearInterval(this.tick);
    this.unsub();
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    this.summary.hide();
    this.socket.close();
  }

  socketPath() {
    const { id, code } = this.ctrl;
    const q = code ? `?code=${encodeURIComponent(code)}` : "";
    return `/ws/tables/${encodeURIComponent(id)}${q}`;
  }

  // what the tutorial's coach reads of the table
  get state() {
    return this.ctrl.state;
  }

  get mySeat() {
    return this.ctrl.mySeat;
  }

  send(msg) {
    return this.socket.send(msg);
  }

  receive(msg) {
    receive(this, msg);
  }

  /** A new state: draw it, then animate its events from where the cards were; a fresh
   * one (a welcome) brings the round's whole log instead. */
  setState(state, fresh) {
    const c = this.ctrl;
    const before = snapshot(this.el);
    const prev = c.state;
    c.state = state;
    c.called = state ? !!state.called : false;
    if (c.selected && state && !(state.view.hand || []).includes(c.selected)) c.selected = null;
    let dealNow = false;
    if (fresh) {
      const events = state && state.view && state.view.log ? state.view.log : [];
      this.tells.reset();
      for (const ev of events) this.tells.note(ev);
      const standin = standinEvents(events, c.mySeat, c.stoodIn);
      for (const [i, ev] of events.entries()) {
        if (!standin.hidden.has(i)) addLog(c, this.el, ev);
        if (i === standin.last) addLine(c, this.el, standinLine(c.stoodIn), "ev-standin");
      }
      c.stoodIn = 0;
      dealNow = dealIsNews(c, state, events);
    } else if (state) {
      for (const ev of state.events || []) this.tells.note(ev);
    }
    this.render();
    // the deal is drawn onto the table as it is: after the first render, so it is seen
    if (dealNow) animateDeal(c, this.el);
    if (!fresh && state) {
      animate(c, this.el, state.events || [], before, (ev) => roundSummary(this, ev));
      for (const ev of state.events || []) addLog(c, this.el, ev);
    }
    if (state && state.view.over && !c.shownOver) {
      c.shownOver = true;
      setTimeout(() => victory(this), fresh ? 0 : settings.duration(700));
    }
    if (this.coach && state) this.coach.update(this, prev);
  }

  // -- drawing --------------------------------------------------------------------------

  render() {
    const { el, ctrl: c } = this;
    renderTopline(el);
    const info = c.info;
    if (!info) {
      el.status.textContent = "Connecting\u2026";
      return;
    }
    el.title.textContent = tableTitle(info);
    const v = c.view;
    const playing = !!v;
    el.waiting.hidden = playing;
    el.center.hidden = !playing;
    el.meRow.hidden = !playing;
    if (!playing) {
      renderWaiting(c, el, { sit: (seat) => sit(this, seat), start: () => startGame(this) });
      for (const g of [el.oppLeft, el.oppTop, el.oppRight]) g.replaceChildren();
      el.hand.replaceChildren();
      el.me.replaceChildren();
      el.actions.hidden = true;
      el.status.textContent = info.status === "open" ? "Waiting for players to sit down" : "";
      renderScore(c, el);
      return;
    }
    el.actions.hidden = c.mySeat === null;
    el.felt.dataset.version = String(c.state.version);
    el.felt.dataset.turn = v.over ? "over" : c.state.pause ? "pause" : c.myTurn ? (c.pending ? "sent" : "me") : "other";
    renderPlayers(c, el, this.tells);
    renderCenter(c, el);
    renderHand(c, el);
    renderActions(c, el);
    renderScore(c, el);
    renderStatus(c, el);
    renderPause(this);
    this.updateTimers();
    if (c.wantsDeclare()) actions.declareStarter(this);
  }

  updateTimers() {
    renderTimers(this.ctrl, this.root);
    this.summary.tick();
  }
}
