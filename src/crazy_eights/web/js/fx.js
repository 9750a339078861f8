// Motion: cards flying between places, the particle flourish, confetti. All of it is
// skipped when the player turned animations off or the system asks for reduced motion.
import * as settings from "./settings.js";

let layer = null;
function fxLayer() {
  if (!layer || !layer.isConnected) {
    layer = document.createElement("div");
    layer.className = "fx-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
  }
  return layer;
}

/** Fly a card (SVG markup) from one rectangle to another, after `delay` ms. A card
 * waiting for its turn is not on the table yet (no stack of shadows at the stock). */
export function fly(html, from, to, { ms = 320, delay = 0, rotate = 0 } = {}) {
  const time = settings.duration(ms);
  if (!time || !from || !to) return Promise.resolve();
  const wait = settings.duration(delay);
  if (wait > 0) return new Promise((resolve) => setTimeout(resolve, wait)).then(() => fly(html, from, to, { ms, rotate }));
  const el = document.createElement("div");
  el.className = "fly-card";
  el.innerHTML = html;
  const w = to.width || from.width;
  const h = to.height || from.height;
  Object.assign(el.style, { width: `${w}px`, height: `${h}px`, left: `${to.left}px`, top: `${to.top}px` });
  fxLayer().append(el);
  const dx = from.left + from.width / 2 - (to.left + w / 2);
  const dy = from.top + from.height / 2 - (to.top + h / 2);
  const scale = from.width && w ? from.width / w : 1;
  const anim = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(${rotate}deg)`, opacity: 0.95 },
      { transform: "translate(0, 0) scale(1) rotate(0deg)", opacity: 1 },
    ],
    { duration: time, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  return anim.finished.then(() => el.remove(), () => el.remove());
}

/** A burst of coloured sparks around a rectangle: the flourish for a wild card. */
export function flourish(rect, colors = ["#ffd54a", "#ff6f61", "#6fd3ff", "#b0ff7a", "#ffffff"]) {
  const time = settings.duration(900);
  if (!time || !rect) return;
  const cx = rect.left + rect.width / 2;
  const cy = rect.top + rect.height / 2;
  const box = fxLayer();
  for (let i = 0; i < 36; i++) {
    const p = document.createElement("span");
    p.className = "spark";
    const angle = (Math.PI * 2 * i) / 36 + Math.random() * 0.3;
    const dist = 60 + Math.random() * 90;
    p.style.left = `${cx}px`;
    p.style.top = `${cy}px`;
    p.style.background = colors[i % colors.length];
    box.append(p);
    p.animate(
      [
        { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
        { transform: `translate(calc(-50% + ${Math.cos(angle) * dist}px), calc(-50% + ${Math.sin(angle) * dist}px)) scale(0.2)`, opacity: 0 },
      ],
      { duration: time * (0.7 + Math.random() * 0.5), easing: "cubic-bezier(.1,.8,.3,1)" },
    ).finished.then(() => p.remove(), () => p.remove());
  }
}

/** Confetti falling over the whole window (the victory screen). */
export function confetti() {
  const time = settings.duration(2600);
  if (!time) return;
  const box = fxLayer();
  const colors = ["#ffd54a", "#ff6f61", "#6fd3ff", "#b0ff7a", "#f7a8ff"];
  for (let i = 0; i < 80; i++) {
    const p = document.createElement("span");
    p.className = "confetti";
    p.style.left = `${Math.random() * 100}vw`;
    p.style.background = colors[i % colors.length];
    box.append(p);
    p.animate(
      [
        { transform: `translateY(-20px) rotate(0deg)`, opacity: 1 },
        { transform: `translateY(105vh) rotate(${360 + Math.random() * 720}deg)`, opacity: 0.8 },
      ],
      { duration: time * (0.6 + Math.random() * 0.6), delay: Math.random() * 600, easing: "ease-in", fill: "backwards" },
    ).finished.then(() => p.remove(), () => p.remove());
  }
}

/** Turn a card over where it lies (the starter): it shows its face after `delay` ms. */
export function turnOver(el, delay = 0) {
  const time = settings.duration(300);
  if (!time || !el) return;
  el.animate(
    [{ transform: "perspective(400px) rotateY(90deg)", filter: "brightness(.7)" }, { transform: "perspective(400px) rotateY(0deg)", filter: "brightness(1)" }],
    { duration: time, delay, easing: "ease-out", fill: "backwards" },
  );
}

export function pulse(el) {
  const time = settings.duration(500);
  if (!time || !el) return;
  el.animate([{ transform: "scale(1.25)" }, { transform: "scale(1)" }], { duration: time, easing: "ease-out" });
}

export function shake(el) {
  const time = settings.duration(300);
  if (!time || !el) return;
  el.animate(
    [{ transform: "translateX(0)" }, { transform: "translateX(-6px)" }, { transform: "translateX(6px)" }, { transform: "translateX(0)" }],
    { duration: time },
  );
}
