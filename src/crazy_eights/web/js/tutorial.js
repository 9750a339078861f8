// The first-game tutorial: a classic round against one bot, with a coach that explains
// legal cards, eights, drawing and the last-card call the first time each comes up.
// It reads only what the server sends (the legal moves as data, hand, events): no rule
// lives here, and no move text is read.
import { cardName } from "./cards.js";
import { h } from "./ui.js";

const TIPS = {
  welcome: ["Welcome to Crazy Eights!", "Your aim: get rid of all your cards before the bot does. Your hand is at the bottom; the discard pile sits in the middle beside the stock."],
  legal: ["Glowing cards are playable", "A card is playable when it matches the top card of the discard pile by suit or by rank. Click a glowing card (or drag it onto the pile) to play it."],
  eight: ["Eights are wild", "You hold an eight: it can be played on anything. When you play it you choose the suit the next player must follow."],
  declared: ["A suit was named", "An eight was played and a suit named: the big suit sign beside the pile shows what must be followed now. Play that suit or an eight."],
  draw: ["Nothing to play? Draw", "None of your cards fits. Click the stock (or drag it to your hand) to draw a card. If the card you draw fits, you may play it at once."],
  drawn: ["You drew a card", "If the new card glows you can play it now; otherwise press Pass to end your turn."],
  last: ["Last card!", "Your next play leaves you a single card. Press the Last card! button before you play, or you draw two penalty cards."],
  won: ["You won!", "You went out first: that is the whole game. Classic tables play a match to 500 points; try Quick play in the lobby, or read How to play for the other rulesets."],
  lost: ["The bot won this time", "It got rid of its cards first. That happens: the deal matters, and so do a few habits. Keep your eights for when nothing else fits, and play your high cards early. Play again, or try Quick play in the lobby."],
};

/** What the coach's box must leave in view: the piles, your hand and panel, the action
 * and sort buttons, the chat, the summaries; the players' panels and the top line if it
 * can (on a phone the box sits over them: nothing else is free there). */
const KEEP_CLEAR = [".pile.stock", ".discard", ".suit-indicator", ".hand", ".me-panel", ".actions", ".sort", ".side .chat", ".turn-banner", ".round-summary", ".modal"];
const RATHER_CLEAR = [".opponents .player", ".topline"];
const GAP = 12;

export class Coach {
  constructor(onDone) {
    this.seen = new Set();
    this.queue = [];
    this.onDone = onDone;
    this.box = null;
    this.table = null;
    this.current = null; // the key of the tip on show
    this.button = null;
  }

  destroy() {
    if (this.box) this.box.hidden = true;
  }

  /** Queue a tip the first time its moment comes; tips show one at a time. An urgent
   * tip (what to do on this very turn) goes first and takes the place of the tip on
   * show, except the welcome: that stays until the player closes it, the urgent tip
   * right behind it, so the first thing a newcomer reads is always the welcome. */
  show(key, table, extra = "", urgent = false) {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    this.table = table;
    if (urgent) this.queue.unshift([key, extra]);
    else this.queue.push([key, extra]);
    const free = !this.box || this.box.hidden;
    if (free || (urgent && this.current !== "welcome")) this.next();
    else this.label();
    return true;
  }

  /** Show the next queued tip, or hide the box when none is left. */
  next() {
    const box = this.table.el.coach;
    this.box = box;
    const item = this.queue.shift();
    if (!item) {
      this.current = null;
      delete box.dataset.tip;
      box.hidden = true;
      return;
    }
    const [key, extra] = item;
    const [title, text] = TIPS[key];
    this.current = key;
    box.dataset.tip = key; // which tip is on show, for the browser tests
    box.hidden = false;
    this.button = h("button", { class: "btn small", type: "button", onclick: () => this.next() });
    box.replaceChildren(h("strong", { text: title }), h("p", { text: `${text}${extra}` }), this.button);
    this.label();
    this.place();
  }

  /** Put the box where it covers nothing the player needs (`KEEP_CLEAR`): beside the
   * piles on the felt's left, else its right (narrowed to the room there), else under
   * the felt; the place that covers least when none is free. */
  place() {
    const box = this.box;
    if (!box || box.hidden || !this.table) return;
    const felt = this.table.el.felt.getBoundingClientRect();
    const rects = (sels, weight) => sels.flatMap((sel) => [...document.querySelectorAll(sel)]).map((e) => [e.getBoundingClientRect(), weight]).filter(([r]) => r.width && r.height);
    const keep = [...rects(KEEP_CLEAR, 1), ...rects(RATHER_CLEAR, 0.05)];
    const covered = ([x, y, width, height]) => keep.reduce((sum, [r, w]) => sum + w * Math.max(0, Math.min(x + width, r.right) - Math.max(x, r.left)) * Math.max(0, Math.min(y + height, r.bottom) - Math.max(y, r.top)), 0);
    const best = this.spots(felt).map((spot) => [spot, covered(spot)]).sort((a, b) => a[1] - b[1])[0][0];
    this.put(best[2]);
    box.style.left = `${Math.round(best[0])}px`;
    box.style.top = `${Math.round(best[1])}px`;
  }

  /** The places the box may go, as [left, top, width, height] at the width each allows. */
  spots(felt) {
    const phone = felt.width < 600;
    const wide = phone ? felt.width - 2 * GAP : Math.max(200, Math.min(320, felt.width / 3));
    const piles = this.table.el.piles.getBoundingClientRect();
    const line = document.querySelector(".topline");
    const beside = (room) => Math.max(200, Math.min(wide, room - 2 * GAP - 8));
    const spots = [];
    const add = (width, at) => {
      const size = this.put(width);
      spots.push([...at(size), size.width, size.height]);
    };
    const middle = (h) => felt.top + Math.max(GAP, (felt.height - h) / 2);
    if (phone) add(wide, () => [felt.left + GAP, (line ? line.getBoundingClientRect().bottom : felt.top) + 6]);
    add(wide, ({ height }) => [felt.left + GAP + 8, middle(height)]);
    add(beside(piles.left - felt.left), ({ height }) => [felt.left + GAP + 8, middle(height)]);
    add(wide, ({ width, height }) => [felt.right - width - GAP - 8, middle(height)]);
    add(beside(felt.right - piles.right), ({ width, height }) => [felt.right - width - GAP - 8, middle(height)]);
    add(wide, ({ height }) => [felt.left + GAP, Math.min(innerHeight - height - GAP, felt.bottom + GAP)]);
    add(wide, ({ height }) => [GAP, innerHeight - height - GAP]);
    return spots;
  }

  /** Lay the box out at the top left at ``width`` at most; the size it takes there. */
  put(width) {
    const style = this.box.style;
    Object.assign(style, { left: "0px", top: "0px", right: "auto", bottom: "auto", maxWidth: `${width}px` });
    return this.box.getBoundingClientRect();
  }

  /** The button says whether another tip waits behind the one on show. */
  label() {
    if (this.button) this.button.textContent = this.queue.length ? "Next tip" : "Got it";
  }

  update(table, prev) {
    const st = table.state;
    const v = st.view;
    if (v.over) {
      this.queue = [];
      this.current = null; // the end of the game is shown whatever tip is open
      const won = v.result && v.result.winner === table.mySeat;
      this.show(won ? "won" : "lost", table, "", true);
      this.onDone();
      return;
    }
    if (!prev) this.show("welcome", table);
    this.place(); // the table moved under the box: keep it clear of what is in play
    const events = st.events || [];
    if (events.some((e) => e.type === "played" && e.declared && e.seat !== table.mySeat)) this.show("declared", table);
    if (v.current !== table.mySeat) return;
    const legal = st.moves || [];
    const cards = legal.filter((m) => m.card);
    if (v.drawn) this.show("drawn", table, "", true);
    if (!cards.length && legal.some((m) => m.kind === "draw")) this.show("draw", table, "", true);
    if (cards.length) this.show("legal", table, ` Right now, for example, the ${cardName(cards[0].card)} can be played.`);
    if (cards.some((m) => m.wild)) this.show("eight", table);
    if (legal.some((m) => m.call)) this.show("last", table, "", true);
  }
}
