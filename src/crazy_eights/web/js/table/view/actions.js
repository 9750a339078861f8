// The actions bar under the felt: Draw, Pass, Last card (only when the engine says a
// call counts, and while it is armed) and Hint, with the hint's mark on the table.
export function renderActions(ctrl, el) {
  const legal = ctrl.legal;
  const myTurn = ctrl.myTurn;
  el.drawBtn.hidden = !legal.some((m) => m.kind === "draw");
  el.pass.hidden = !legal.some((m) => m.kind === "pass");
  // Last card shows only when it can matter, and stays (armed) until the play
  const matters = myTurn && ctrl.callMatters();
  const over = ctrl.view.over;
  el.lastCard.hidden = !(matters || (ctrl.called && !over));
  el.lastCard.classList.toggle("armed", ctrl.called);
  el.lastCard.setAttribute("aria-pressed", String(ctrl.called));
  el.lastCard.textContent = ctrl.called ? "Last card armed \u2713" : "Last card!";
  el.lastCard.classList.toggle("suggest", matters && !ctrl.called);
  const version = ctrl.state.version;
  el.hintBtn.hidden = !(myTurn && ctrl.info.hints);
  el.hintBtn.disabled = ctrl.hintAsked === version;
  el.hintBtn.textContent = ctrl.hintAsked === version ? "Thinking\u2026" : "Hint";
  markHint(ctrl, el);
}

/** Highlight the suggested card, or the stock for a draw, or Pass, for this position. */
function markHint(ctrl, el) {
  const hint = ctrl.hint && ctrl.state && ctrl.hint.version === ctrl.state.version ? ctrl.hint.data : null;
  for (const b of el.hand.querySelectorAll(".hinted")) b.classList.remove("hinted");
  el.stock.classList.toggle("hinted", Boolean(hint) && hint.kind === "draw");
  el.pass.classList.toggle("hinted", Boolean(hint) && hint.kind === "pass");
  if (hint && hint.card) {
    const card = el.hand.querySelector(`[data-card="${hint.card}"]`);
    if (card) card.classList.add("hinted");
  }
}
