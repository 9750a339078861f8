// What counts down between messages: the turn clock on the player's panel and the
// countdowns of absent seats. Redrawn four times a second.
import { fmtTime } from "../../ui.js";
import { awayText } from "./panels.js";

export function renderTimers(ctrl, root) {
  for (const c of root.querySelectorAll(".away-countdown")) c.textContent = awayText(Number(c.dataset.until));
  const left = ctrl.clockLeft();
  if (left === null) {
    for (const t of root.querySelectorAll(".timer")) t.hidden = true;
    return;
  }
  const frac = ctrl.clock.timer ? left / ctrl.clock.timer : 0;
  const seat = ctrl.clock.seat;
  for (const t of root.querySelectorAll(".player .timer, .me-panel .timer")) {
    const panel = t.closest(".player");
    const s = panel ? Number(panel.dataset.seat) : ctrl.mySeat;
    t.hidden = s !== seat;
    if (s === seat) {
      t.firstChild.style.width = `${(frac * 100).toFixed(1)}%`;
      t.classList.toggle("low", left < 10);
      t.title = `${fmtTime(left)} left`;
      t.dataset.left = fmtTime(left);
    }
  }
}
