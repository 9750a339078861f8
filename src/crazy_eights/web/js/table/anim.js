// The table in motion: cards flying for the deal, each play and each draw, with their
// sounds, and the penalty notices on the felt. Drawn after the state is, from where the
// cards were before it (`snapshot`).
import { backSVG, cardSVG } from "../cards.js";
import * as fx from "../fx.js";
import * as settings from "../settings.js";
import * as sound from "../sound.js";
import { penaltyWhy, showNotice } from "../tells.js";
import { looks } from "./rulesets.js";

/** Where your cards and the players' panels are now, before the next state is drawn. */
export function snapshot(el) {
  const out = { hand: {}, panels: {} };
  for (const c of el.hand.children) out.hand[c.dataset.card] = c.getBoundingClientRect();
  for (const p of el.felt.querySelectorAll(".player")) out.panels[p.dataset.seat] = p.getBoundingClientRect();
  return out;
}

/** A card-sized rectangle at a seat: the middle of its panel, or of the hand. */
function seatRect(ctrl, el, seat, before) {
  const p = seat === ctrl.mySeat ? el.hand : el.felt.querySelector(`.player[data-seat="${seat}"]`);
  const r = p ? p.getBoundingClientRect() : before.panels[seat];
  if (!r) return null;
  const w = el.stock.getBoundingClientRect().width * 0.6 || 50;
  return { left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - w * 0.7, width: w, height: w * 1.4 };
}

/** Animate a state's events in turn; `onRoundOver(ev)` tells the end of a round. */
export function animate(ctrl, el, events, before, onRoundOver) {
  const s = settings.get();
  const discard = el.discard.hidden ? el.cycle.getBoundingClientRect() : el.discard.querySelector(".top")?.getBoundingClientRect();
  const stock = el.stock.getBoundingClientRect();
  const secs = (ms) => settings.duration(ms) / 1000;
  let delay = 0;
  for (const ev of events) {
    if (ev.type === "played" || ev.type === "host_lead") {
      const card = ev.cards && ev.cards[0];
      let from = ev.type === "host_lead" ? stock : ev.seat === ctrl.mySeat ? before.hand[card] : seatRect(ctrl, el, ev.seat, before);
      if (!from) from = seatRect(ctrl, el, ev.seat, before);
      let to = discard;
      if (looks(ctrl.view).center === "cycle") {
        const fig = [...el.cycle.querySelectorAll(".cycle-card .cardbox")].pop();
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
          fx.pulse(el.suit);
        }
      });
      delay += 120;
    } else if (ev.type === "drew" || ev.type === "penalty") {
      if (ev.type === "penalty") penaltyNotice(ctrl, el, ev);
      const to = seatRect(ctrl, el, ev.seat, before);
      const n = Math.min(ev.count || 1, 6);
      const mine = ev.seat === ctrl.mySeat && ev.cards;
      sound.slide(secs(delay));
      for (let i = 0; i < n; i++) {
        const target = mine ? el.hand.querySelector(`[data-card="${ev.cards[i]}"]`)?.getBoundingClientRect() || to : to;
        // your own drawn cards turn face up as they reach your hand
        if (target) fx.fly(backSVG(), stock, target, { delay: delay + i * 90 }).then(() => (mine ? sound.flip() : i === n - 1 && sound.thud()));
      }
      delay += 90 * n;
    } else if (ev.type === "false_call") {
      penaltyNotice(ctrl, el, ev);
    } else if (ev.type === "picked_up") {
      if (penaltyWhy(ev)) penaltyNotice(ctrl, el, ev);
      sound.slide(secs(delay));
      sound.thud();
    } else if (ev.type === "round" || ev.type === "game") {
      animateDeal(ctrl, el);
    } else if (ev.type === "round_over") {
      // a round of a match: the fanfare for its winner, a quiet sound for the others;
      // the game's last round is heard once, with the end of the game (ending.js)
      if (!ctrl.view.over && ctrl.mySeat !== null) (ev.seat === ctrl.mySeat ? sound.fanfare : sound.loss)();
      if (!ctrl.view.over) onRoundOver(ev);
    } else if (ev.type === "last_card") {
      fx.pulse(el.felt.querySelector(`.player[data-seat="${ev.seat}"] .badge-last`));
    } else if (ev.type === "reshuffled") {
      sound.shuffle();
    }
  }
}

/** The deal, seen: cards fly from the stock to each seat in turn (your own cards show
 * as they land), with the sound of cards sliding, then the starter is turned over. */
export function animateDeal(ctrl, el) {
  sound.shuffle();
  const v = ctrl.view;
  if (!v) return;
  const stock = el.stock.getBoundingClientRect();
  const seats = v.players.map((p) => p.seat);
  const per = Math.min(8, Math.max(...v.players.map((p) => p.cards)));
  const hand = [...el.hand.children];
  const motion = settings.duration(260) > 0;
  let i = 0;
  for (let round = 0; round < per; round++) {
    for (const seat of seats) {
      if (round >= v.players[seat].cards) continue;
      const card = seat === ctrl.mySeat ? hand[round] : null;
      const to = card ? card.getBoundingClientRect() : seatRect(ctrl, el, seat, { panels: {} });
      if (!to) continue;
      if (card && motion) {
        ctrl.undealt.add(card.dataset.card);
        card.classList.add("dealing");
      }
      if (i % 3 === 0) sound.slide(settings.duration(i * 45) / 1000);
      fx.fly(backSVG(), stock, to, { delay: i * 45, ms: 260 }).then(() => card && landed(ctrl, el, card.dataset.card));
      i += 1;
    }
  }
  // the starter is turned face up once everyone has their cards
  const top = el.discard.hidden ? null : el.discard.querySelector(".top");
  const end = settings.duration(i * 45 + 260);
  sound.flip(end / 1000);
  if (top) fx.turnOver(top, end);
}

/** Whether this welcome shows a deal this tab has not seen: the round's log has the
 * deal and you have not moved since (bots may have played before the page opened). */
export function dealIsNews(ctrl, state, events) {
  if (!state || !events.some((e) => e.type === "deal")) return false;
  const round = events.filter((e) => e.type === "round").length;
  const key = `ce.dealt.${ctrl.id}.${state.view.round ?? round}`;
  let seen = false;
  try {
    seen = !!sessionStorage.getItem(key);
    sessionStorage.setItem(key, "1");
  } catch {
    /* storage disabled */
  }
  if (seen) return false;
  if (ctrl.mySeat === null) return state.version <= 1;
  return !events.some((e) => e.seat === ctrl.mySeat && ["played", "drew", "passed", "declared"].includes(e.type));
}

/** A dealt card reached your hand: show it (the hand may have been redrawn since). */
function landed(ctrl, el, card) {
  ctrl.undealt.delete(card);
  for (const b of el.hand.querySelectorAll(`[data-card="${card}"]`)) b.classList.remove("dealing");
}

/** A penalty as a notice on the felt: who pays and why (the log line says it too). */
function penaltyNotice(ctrl, el, ev) {
  const n = ev.count || (ev.cards ? ev.cards.length : 0);
  const who = ctrl.name(ev.seat);
  const mine = ev.seat === ctrl.mySeat;
  let text = `${who} ${mine ? "draw" : "draws"} ${n} for ${penaltyWhy(ev)}`;
  if (ev.type === "false_call") text = `False call by ${who}!`;
  else if (!n) text = `${who} ${mine ? "owe" : "owes"} a penalty for ${penaltyWhy(ev)}; the stock is empty`;
  showNotice(el.felt, text);
}
