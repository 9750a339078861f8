// Playing by pointer clicks: a click on a card plays it (or, with "one click plays" off,
// selects it first), a double-click plays it, a click on the pile plays the selected
// card. `t` is the table (`TableView`).
import { cardName } from "../../cards.js";
import * as settings from "../../settings.js";
import { announce } from "../../ui.js";
import { play } from "../actions.js";

export function bindClicks(t) {
  const { el } = t;
  const cardOf = (e) => {
    const b = e.target.closest(".card");
    return b && el.hand.contains(b) ? b.dataset.card : null;
  };
  el.hand.addEventListener("click", (e) => {
    const card = cardOf(e);
    if (card) cardClick(t, e, card);
  });
  el.hand.addEventListener("dblclick", (e) => {
    const card = cardOf(e);
    if (card) play(t, card);
  });
  el.discard.addEventListener("click", () => t.ctrl.selected && play(t, t.ctrl.selected));
}

function cardClick(t, e, card) {
  const c = t.ctrl;
  if (c.suppressClick) {
    c.suppressClick = false;
    return;
  }
  if (e.detail > 1) return; // the second click of a double-click is the dblclick's
  const playable = c.movesFor(card).length > 0;
  // one click plays; or (setting off) the first click selects and a second click on
  // the selected card plays it, while a second click on an unplayable one lets go
  if (playable && (settings.get().oneClick || c.selected === card)) {
    play(t, card);
    return;
  }
  c.selected = c.selected === card ? null : card;
  t.render();
  if (c.selected) announce(`${cardName(card)} selected${playable ? "; press Enter or click the discard pile to play it" : ", not playable now"}`);
}
