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
  done: ["Well played!", "That is the whole game. Classic tables play a match to 500 points; try Quick play in the lobby, or read How to play for the other rulesets."],
};

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
      this.show("done", table, "", true);
      this.onDone();
      return;
    }
    if (!prev) this.show("welcome", table);
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
