// Between rounds and at the end: the round summary the table pauses on (every hand
// face up, points, running totals against the target, how the round ended, "Next round"
// and who is still to press it) and the match end (standings, rating changes, "Play
// again", "Back to the lobby"). Everything shown comes from the server's pause,
// round_over event, result and ratings; nothing here is a rule.
import { cardSVG, sortHand } from "./cards.js";
import { h, modal } from "./ui.js";

/** How a round ended, in a sentence. */
export function roundEnding(ev, name) {
  const winner = ev.seat === undefined || ev.seat === null ? null : name(ev.seat);
  const verb = (who) => (who === "You" ? "win" : "wins");
  if (ev.reason === "blockade") {
    const who = winner ? ` ${winner} ${verb(winner)} the round on points.` : " Nobody wins the round.";
    return `Blockade: the stock is locked and nobody can play.${who}`;
  }
  return winner ? `${winner} went out and ${verb(winner)} round ${ev.round}.` : `Round ${ev.round} is over.`;
}

export class RoundSummary {
  /** `name(seat)` names a seat; `onNext()` sends "next_round". */
  constructor({ name, onNext }) {
    this.name = name;
    this.onNext = onNext;
    this.box = null;
    this.pause = null;
    this.at = 0;
  }

  get open() {
    return !!this.box;
  }

  /** Show (or update) the summary of `pause` for `mySeat`; `cards` are the face options. */
  show(pause, { mySeat, ruleset, cards }) {
    this.pause = pause;
    this.at = performance.now();
    const ev = pause.summary;
    const first = !this.box;
    if (first) {
      this.box = h("section", { class: "round-summary", role: "dialog", "aria-modal": "false", "aria-labelledby": "round-summary-title" });
      document.body.append(this.box);
    }
    const countdown = ruleset === "countdown";
    const penalty = ruleset === "ultimate";
    const head = ["Player", "Hand", "In hand", countdown ? "Number next" : penalty ? "Penalty" : "Scored", countdown ? null : ev.target ? `Total / ${ev.target}` : "Total"].filter(Boolean);
    const rows = ev.hands.map((hand, seat) => h("tr", { class: seat === ev.seat ? "winner" : "", dataset: { seat: String(seat) } },
      h("th", { scope: "row", text: this.name(seat) }),
      h("td", { class: "hand-cell" }, hand.length
        ? h("span", { class: "summary-hand", "aria-label": `${hand.length} card${hand.length === 1 ? "" : "s"}` },
          sortHand(hand, "suit").map((c) => h("span", { class: "mini-card", html: cardSVG(c, cards) })))
        : h("span", { class: "out", text: "out" })),
      h("td", { text: String(ev.points[seat]) }),
      h("td", { text: countdown ? String((ev.numbers || [])[seat] ?? "") : ev.scored[seat] ? `+${ev.scored[seat]}` : "0" }),
      countdown ? null : h("td", { class: "total", text: String(ev.scores[seat]) })));
    const waiting = pause.waiting || [];
    const mine = mySeat !== null && waiting.includes(mySeat);
    this.next = h("button", { class: "btn primary", type: "button", text: mine ? "Next round" : "Ready \u2713", disabled: !mine, onclick: () => this.press() });
    this.left = h("span", { class: "round-countdown" });
    const who = waiting.filter((s) => s !== mySeat).map((s) => this.name(s));
    this.box.replaceChildren(
      h("h2", { id: "round-summary-title", text: `Round ${ev.round} is over` }),
      h("p", { class: "how", text: roundEnding(ev, this.name) }),
      h("div", { class: "summary-scroll" }, h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col", text: t })))), h("tbody", {}, rows))),
      h("div", { class: "summary-foot" }, this.next,
        h("span", { class: "round-waiting", text: who.length ? `Waiting for ${who.join(", ")}` : mine ? "" : "Everyone is ready" }),
        this.left));
    this.tick();
    if (first && mine) this.next.focus({ preventScroll: true });
  }

  press() {
    if (this.next.disabled) return;
    this.next.disabled = true;
    this.next.textContent = "Ready \u2713";
    this.onNext();
  }

  /** Count the seconds down until the table goes on by itself. */
  tick() {
    if (!this.box || !this.pause) return;
    const left = Math.max(0, this.pause.left - (performance.now() - this.at) / 1000);
    this.left.textContent = `Next round in ${Math.ceil(left)} s`;
  }

  hide() {
    if (this.box) this.box.remove();
    this.box = null;
    this.pause = null;
  }
}

/** The match end: who won, the final standings, each person's rating change (filled
 * in when the server's `ratings` message arrives), another player's rematch offer
 * (live, from `rematch` messages) and what to do next. `me` is the viewer's account. */
export function matchEnd({ view, name, mySeat, me, ratings, rematch, unit }) {
  const r = view.result || {};
  const won = r.winner !== null && r.winner !== undefined && r.winner === mySeat;
  const points = r.points || [];
  const ratingBox = h("div", { class: "rating-changes", "aria-live": "polite" });
  showRatings(ratingBox, ratings, name, mySeat);
  const offerBox = h("div", { class: "rematch-offer", "aria-live": "polite", hidden: true });
  if (mySeat !== null) showOffer(offerBox, rematch, me);
  const body = h("div", { class: "victory-body" },
    h("p", { class: "big", text: won ? "You win!" : r.winner === null || r.winner === undefined ? "No winner this time." : `${name(r.winner)} wins.` }),
    h("ol", { class: "standings" }, (r.standings || []).map((seat, i) => h("li", {}, h("span", { class: "place", text: `${i + 1}.` }), h("span", { text: name(seat) }), h("span", { class: "pts", text: `${points[seat] ?? ""} ${unit}` })))),
    h("p", { class: "muted", text: `${r.rounds || 1} round${r.rounds === 1 ? "" : "s"} \u00b7 ${r.reason === "blockade" ? "the last round ended in a blockade" : r.reason === "out" ? "the last round ended with a player out" : r.reason === "move_limit" ? "the game reached its limit of 10,000 moves" : r.reason || ""}` }),
    ratingBox, offerBox);
  const shown = modal({
    title: won ? "Victory!" : "Game over",
    body,
    className: "victory",
    buttons: [
      mySeat !== null ? { text: "Play again", value: "again", class: "btn primary" } : null,
      { text: "Replay", value: "replay", class: "btn" },
      { text: "Back to the lobby", value: "lobby", class: "btn" },
    ],
  });
  return {
    choice: shown,
    ratings: (msg) => showRatings(ratingBox, msg, name, mySeat),
    rematch: (offer) => { if (mySeat !== null) showOffer(offerBox, offer, me); },
  };
}

/** "Ann wants to play again — Join", and who of this table is at the new one; the
 * button answers the dialog with "again", as "Play again" does. */
export function showOffer(box, offer, me) {
  if (!offer) return;
  const mine = offer.accounts.includes(me);
  const join = h("button", {
    class: "btn primary small", type: "button", text: mine ? "Go to the table" : "Join",
    onclick: () => join.dispatchEvent(new CustomEvent("modalclose", { bubbles: true, detail: "again" })),
  });
  const others = offer.seated.filter((n) => n !== offer.by);
  box.hidden = false;
  const line = h("p", { class: "rematch-line" }, h("span", { text: mine ? "You are at the new table." : `${offer.by} wants to play again \u2014 ` }), join);
  const joined = others.length ? [h("p", { class: "muted", text: `Joined: ${others.join(", ")}` })] : [];
  box.replaceChildren(line, ...joined);
}

/** The rating changes as lines: "You: 1000 → 1032 (+32)". */
export function showRatings(box, msg, name, mySeat) {
  if (!msg) {
    box.replaceChildren(h("p", { class: "muted", text: "Recording the game\u2026" }));
    return;
  }
  if (!msg.rated) {
    box.replaceChildren(h("p", { class: "muted", text: "This table has hints on, so the game is not rated." }));
    return;
  }
  const lines = msg.changes.map((c) => {
    const d = c.after - c.before;
    return h("li", { class: c.seat === mySeat ? "mine" : "", dataset: { seat: String(c.seat) } },
      h("span", { text: name(c.seat) }),
      h("span", { class: "rating", text: `${c.before} \u2192 ${c.after}` }),
      h("span", { class: d >= 0 ? "delta up" : "delta down", text: `${d >= 0 ? "+" : "\u2212"}${Math.abs(d)}` }));
  });
  box.replaceChildren(h("h3", { text: "Rating" }), h("ul", { class: "rating-list" }, lines));
}
