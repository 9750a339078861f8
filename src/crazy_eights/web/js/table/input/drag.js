// Playing by dragging (pointer events: mouse, pen and touch): a card onto the discard
// pile plays it, within the hand rearranges it ("Own" sort); the stock onto your hand
// (or your panel) draws. `t` is the table (`TableView`).
import { backSVG, cardName } from "../../cards.js";
import * as settings from "../../settings.js";
import { announce, h } from "../../ui.js";
import { draw, play } from "../actions.js";

const SLOP = 8; // pixels a pointer moves before a press becomes a drag

export function bindDrag(t) {
  const { el } = t;
  el.felt.addEventListener("pointerdown", () => {
    t.ctrl.keyboard = false;
  });
  el.hand.addEventListener("pointerdown", (e) => startDrag(t, e, "card"));
  el.stock.addEventListener("pointerdown", (e) => startDrag(t, e, "stock"));
}

function startDrag(t, e, kind) {
  const { el } = t;
  if (e.button !== 0 && e.pointerType === "mouse") return;
  const src = e.currentTarget === el.stock ? el.stock : e.target.closest(".card");
  if (!src) return;
  const card = kind === "card" ? src.dataset.card : null;
  const x0 = e.clientX, y0 = e.clientY;
  const rect = src.getBoundingClientRect();
  let ghost = null;
  const move = (ev) => {
    if (ev.pointerId !== e.pointerId) return;
    const dx = ev.clientX - x0, dy = ev.clientY - y0;
    if (!ghost && Math.hypot(dx, dy) < SLOP) return;
    if (!ghost) {
      if (kind === "stock" && !t.ctrl.offered("draw")) return;
      ghost = h("div", { class: "drag-ghost", html: kind === "card" ? src.innerHTML : backSVG() });
      Object.assign(ghost.style, { width: `${rect.width}px`, height: `${rect.height}px` });
      document.body.append(ghost);
      src.classList.add("dragging");
      el.felt.classList.add(kind === "card" ? "drag-card" : "drag-stock");
    }
    ghost.style.transform = `translate(${rect.left + dx}px, ${rect.top + dy}px) rotate(${Math.max(-12, Math.min(12, dx / 20))}deg)`;
    const over = dropTarget(el, ev.clientX, ev.clientY);
    el.discard.classList.toggle("drop-hover", over === "discard" && kind === "card");
    el.hand.classList.toggle("drop-hover", over === "hand" && kind === "stock");
  };
  const up = (ev) => {
    if (ev.pointerId !== e.pointerId) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    if (!ghost) return;
    t.ctrl.suppressClick = true;
    setTimeout(() => {
      t.ctrl.suppressClick = false;
    }, 50);
    ghost.remove();
    src.classList.remove("dragging");
    el.felt.classList.remove("drag-card", "drag-stock");
    el.discard.classList.remove("drop-hover");
    el.hand.classList.remove("drop-hover");
    if (ev.type === "pointercancel") return;
    const over = dropTarget(el, ev.clientX, ev.clientY);
    if (kind === "card" && over === "discard") play(t, card);
    else if (kind === "card" && over === "hand") reorder(t, card, src, ev.clientX);
    else if (kind === "stock" && (over === "hand" || over === "me")) draw(t);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}

/** What lies under the pointer: the discard pile (or the cycle), the hand, your panel. */
function dropTarget(el, x, y) {
  const inside = (node, pad = 0) => {
    if (!node || node.hidden) return false;
    const r = node.getBoundingClientRect();
    return x >= r.left - pad && x <= r.right + pad && y >= r.top - pad && y <= r.bottom + pad;
  };
  if (inside(el.discard, 24) || inside(el.cycle, 0)) return "discard";
  if (inside(el.hand, 10)) return "hand";
  if (inside(el.me, 0)) return "me";
  return null;
}

/** Put a dragged card where it was dropped in the hand, and keep that order ("Own"). */
function reorder(t, card, src, x) {
  const cards = [...t.el.hand.children].filter((c) => c !== src);
  let index = cards.findIndex((c) => {
    const r = c.getBoundingClientRect();
    return x < r.left + r.width / 2;
  });
  if (index < 0) index = cards.length;
  const order = cards.map((c) => c.dataset.card);
  order.splice(index, 0, card);
  t.ctrl.custom = order;
  if (settings.get().sort !== "custom") settings.set({ sort: "custom" });
  else t.render();
  announce(`Moved the ${cardName(card)} to position ${index + 1}.`);
}
