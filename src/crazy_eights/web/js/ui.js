// Small DOM helpers shared by the pages: element builder, toasts, announcements, dialogs.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "html") el.innerHTML = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Tell screen-reader users something (polite live region). */
export function announce(text) {
  const live = document.getElementById("live");
  if (!live) return;
  live.textContent = "";
  setTimeout(() => {
    live.textContent = text;
  }, 30);
}

let toastTimer = null;
export function toast(text, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.dataset.kind = kind;
  el.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 3200);
}

/** A modal dialog; resolves with the value of the button pressed (null on Escape). */
export function modal({ title, body, buttons = [], className = "" }) {
  return new Promise((resolve) => {
    const prev = document.activeElement;
    const id = `m${Math.random().toString(36).slice(2, 8)}`;
    const box = h("div", { class: `modal ${className}`, role: "dialog", "aria-modal": "true", "aria-labelledby": id });
    const close = (value) => {
      backdrop.remove();
      document.removeEventListener("keydown", onKey, true);
      if (prev && prev.focus) prev.focus();
      resolve(value);
    };
    const onKey = (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close(null);
      } else if (e.key === "Tab") {
        const items = [...box.querySelectorAll("button, a, input, select, textarea")];
        if (!items.length) return;
        const first = items[0], last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
      box.dispatchEvent(new CustomEvent("modalkey", { detail: { event: e, close } }));
    };
    box.append(h("h2", { id, text: title }));
    // a button inside the body may answer the dialog too: it dispatches "modalclose"
    box.addEventListener("modalclose", (e) => close(e.detail));
    if (body) box.append(body);
    const row = h("div", { class: "modal-buttons" });
    for (const b of buttons.filter(Boolean)) {
      row.append(h("button", { class: b.class || "btn", type: "button", onclick: () => close(b.value), "aria-label": b.label || null, html: b.html || null, text: b.html ? null : b.text }));
    }
    box.append(row);
    const backdrop = h("div", { class: "backdrop" }, box);
    backdrop.addEventListener("click", (e) => {
      if (e.target === backdrop) close(null);
    });
    document.body.append(backdrop);
    document.addEventListener("keydown", onKey, true);
    // focus without scrolling: a long dialog opens at its top, not at its buttons
    const focus = box.querySelector("[autofocus]") || row.querySelector("button");
    if (focus) focus.focus({ preventScroll: true });
    box.scrollTop = 0;
    box._close = close;
  });
}

/** Show a button as busy (disabled, "Signing in\u2026") while `work` runs; returns its result. */
export async function busy(button, text, work) {
  const label = [...button.childNodes]; // restored as they were (a label may have parts)
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  button.classList.add("busy");
  button.textContent = text;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    button.classList.remove("busy");
    button.replaceChildren(...label);
  }
}

const AVATAR_GLYPHS = {
  default: "\u2660", fox: "F", owl: "O", cat: "C", bear: "B", star: "\u2605", moon: "\u263E", bot: "\u2699",
};
export const AVATARS = ["default", "fox", "owl", "cat", "bear", "star", "moon"];
const AVATAR_COLORS = ["#e76f51", "#2a9d8f", "#e9c46a", "#8e7dbe", "#f4a261", "#4d96ff", "#6a994e", "#c05299"];

/** An avatar drawn as SVG from its id and the player's name. */
export function avatarSVG(avatar, name = "", size = 40) {
  let hash = 0;
  for (const ch of `${avatar}${name}`) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const color = avatar === "bot" ? "#5c6b7a" : AVATAR_COLORS[hash % AVATAR_COLORS.length];
  const glyph = AVATAR_GLYPHS[avatar] || (name ? name[0].toUpperCase() : "?");
  const letter = avatar === "default" && name ? name[0].toUpperCase() : glyph;
  return `<svg class="avatar" viewBox="0 0 40 40" width="${size}" height="${size}" aria-hidden="true" focusable="false"><circle cx="20" cy="20" r="19" fill="${color}" stroke="rgba(255,255,255,.7)" stroke-width="2"/><text x="20" y="26.5" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" font-size="18" fill="#fff">${letter}</text></svg>`;
}

export function fmtTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
