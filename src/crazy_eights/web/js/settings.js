// Player preferences: kept in localStorage per account (the card room has no place for them).

const DEFAULTS = {
  theme: "emerald", // emerald | crimson | navy
  face: "standard", // standard | minimal | victorian
  fourColor: false,
  volume: 0.6,
  muted: false,
  music: false,
  speed: 1, // animation speed multiplier; 0 turns animations off
  sort: "suit", // suit | rank | custom
  autoCall: false, // call "last card" automatically where the table leaves it to the player
  oneClick: true, // a click on a playable card plays it (else: click selects, click again plays)
  tutorialDone: false,
};

let accountKey = "anon";
let current = load("anon");
const listeners = new Set();

function load(key) {
  try {
    const raw = localStorage.getItem(`ce.settings.${key}`) || localStorage.getItem("ce.settings.anon");
    return { ...DEFAULTS, ...(raw ? JSON.parse(raw) : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

export function useAccount(account) {
  accountKey = account ? String(account.id) : "anon";
  current = load(accountKey);
  apply();
}

export function get() {
  return current;
}

export function set(changes) {
  current = { ...current, ...changes };
  try {
    localStorage.setItem(`ce.settings.${accountKey}`, JSON.stringify(current));
  } catch {
    /* storage full or disabled: keep the settings for this page only */
  }
  apply();
  for (const fn of listeners) fn(current, changes);
}

export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function reducedMotion() {
  return current.speed === 0 || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Milliseconds for an animation of `ms` at the chosen speed (0 when motion is off). */
export function duration(ms) {
  return reducedMotion() ? 0 : Math.round(ms / (current.speed || 1));
}

function apply() {
  const root = document.documentElement;
  root.dataset.theme = current.theme;
  root.dataset.face = current.face;
  root.classList.toggle("four-color", !!current.fourColor);
  root.classList.toggle("no-motion", reducedMotion());
}

export const THEMES = [
  ["emerald", "Classic Emerald"],
  ["crimson", "Royal Crimson"],
  ["navy", "Midnight Navy"],
];
export const FACES = [
  ["standard", "Standard"],
  ["minimal", "Modern Minimalist"],
  ["victorian", "Vintage Victorian"],
];
