// Player preferences. Signed in, they are kept with the account on the server
// (GET/PUT /api/me/settings) where the card room offers that; localStorage keeps a copy
// per account, and is the only store when signed out or on a server without it.
// Every change is stamped (`savedAt`, this browser's clock) so the newer copy wins when
// the browser's and the server's differ; a change still waiting to be sent when the page
// goes away is sent at once (pagehide, with keepalive), so a reload loses nothing.
import { api } from "./api.js";

const DEFAULTS = {
  theme: "emerald", // emerald | crimson | navy
  face: "standard", // standard | minimal | victorian | deco (deco: unlocked by an achievement)
  back: "classic", // classic | lattice | sunburst | compass | tartan (all but classic: unlocked)
  fourColor: false,
  volume: 0.6,
  muted: false,
  music: false,
  speed: 1, // animation speed multiplier; 0 turns animations off
  sort: "suit", // suit | rank | custom
  autoCall: false, // call "last card" automatically where the table leaves it to the player
  oneClick: true, // a click on a playable card plays it (else: click selects, click again plays)
  reactions: true, // show reactions at the table (off: muted for everyone)
  spectatorReactions: false, // show spectators' reactions too
  mutedReactors: [], // accounts whose reactions are not shown
  notifyOnline: false, // a notice when a friend comes online
  browserNotices: false, // notices also as browser notifications while the tab is hidden
  tutorialDone: false,
  savedAt: 0, // when these settings were last changed (ms since 1970, the changing browser's clock)
};

// the account this browser used last, so its look applies before the session is known
let accountKey = lastAccount();
let current = load(accountKey);
const listeners = new Set();
let serverSide = null; // a promise: does this card room keep settings per account?
let remote = false; // the current account's settings live on the server
let pushTimer = null;

/** Whether the server has GET and PUT /api/me/settings, read from its API description
 * (asking the endpoint itself would log a 404 on servers without it). */
function serverKeepsSettings() {
  if (!serverSide) {
    serverSide = fetch("/openapi.json", { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : null))
      .then((spec) => {
        const path = spec && spec.paths && spec.paths["/api/me/settings"];
        return !!(path && path.get && path.put);
      })
      .catch(() => false);
  }
  return serverSide;
}

function known(obj) {
  const out = {};
  if (!obj || typeof obj !== "object") return out;
  for (const k of Object.keys(DEFAULTS)) if (k in obj && typeof obj[k] === typeof DEFAULTS[k]) out[k] = obj[k];
  return out;
}

function saveLocal() {
  try {
    localStorage.setItem(`ce.settings.${accountKey}`, JSON.stringify(current));
  } catch {
    /* storage full or disabled: keep the settings for this page only */
  }
}

function lastAccount() {
  try {
    return localStorage.getItem("ce.account") || "anon";
  } catch {
    return "anon";
  }
}

let unsent = null; // the body of a PUT not sent yet
let sending = 0; // PUTs on their way

/** Say on <html data-settings> where this browser's settings stand: "browser" (kept here
 * only), "reading" (the account's copy is being read), "sending" (a change is on its
 * way), "kept" (the server holds what this browser has) or "unsaved" (a PUT failed).
 * No page needs it; it lets the browser tests wait for the moment they mean. */
function mark(state) {
  document.documentElement.dataset.settings = state;
}

/** After a read or a PUT: "kept" once nothing is waiting to go out. */
function settle(failed = false) {
  mark(unsent || sending ? "sending" : failed ? "unsaved" : "kept");
}

function send(body, keepalive = false) {
  unsent = null;
  sending += 1;
  mark("sending");
  return api("/api/me/settings", { method: "PUT", body, keepalive }).then(
    () => {
      sending -= 1;
      settle();
    },
    () => {
      sending -= 1;
      settle(true);
    },
  );
}

function push() {
  clearTimeout(pushTimer);
  const key = accountKey;
  unsent = { ...current };
  mark("sending");
  pushTimer = setTimeout(() => {
    if (key === accountKey && unsent) send(unsent);
  }, 300);
}

/** Send a change still waiting for its timer now: the page is going away. */
function flush() {
  if (!unsent) return;
  clearTimeout(pushTimer);
  send(unsent, true);
}
window.addEventListener("pagehide", flush);
document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && flush());

function load(key) {
  try {
    const own = localStorage.getItem(`ce.settings.${key}`);
    if (own) return { ...DEFAULTS, ...JSON.parse(own) };
    // an account new to this browser starts from the signed-out settings, but they are
    // not the account's: any copy the account keeps on the server is newer
    const anon = localStorage.getItem("ce.settings.anon");
    return { ...DEFAULTS, ...(anon ? JSON.parse(anon) : {}), savedAt: 0 };
  } catch {
    return { ...DEFAULTS };
  }
}

export async function useAccount(account) {
  const key = account ? String(account.id) : "anon";
  const changed = key !== accountKey;
  if (changed) flush();
  accountKey = key;
  try {
    localStorage.setItem("ce.account", key);
  } catch {
    /* storage disabled */
  }
  remote = false;
  if (changed) {
    current = load(key);
    apply();
    for (const fn of listeners) fn(current, {});
  }
  if (!account) return mark("browser");
  mark("reading");
  if (!(await serverKeepsSettings())) return mark("browser");
  let data;
  try {
    data = await api("/api/me/settings");
  } catch {
    return mark("browser");
  }
  if (key !== accountKey) return; // another account's turn: it says where it stands
  remote = true;
  const stored = known(data && data.settings !== undefined ? data.settings : data);
  if (!Object.keys(stored).length || (stored.savedAt || 0) < current.savedAt) {
    // a first visit with server storage, or a change the server has not heard of yet
    // (made just before a reload): this browser's copy is the newer one
    push();
    return;
  }
  if ((stored.savedAt || 0) === current.savedAt && !changed) return settle();
  current = { ...current, ...stored };
  saveLocal();
  apply();
  for (const fn of listeners) fn(current, stored);
  settle();
}

/** Where the settings are kept now: "account" (the server) or "browser". */
export function storedIn() {
  return remote ? "account" : "browser";
}

export function get() {
  return current;
}

export function set(changes) {
  current = { ...current, ...changes, savedAt: Math.max(Date.now(), current.savedAt + 1) };
  saveLocal();
  if (remote) push();
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
  root.dataset.back = current.back;
  root.classList.toggle("four-color", !!current.fourColor);
  root.classList.toggle("no-motion", reducedMotion());
  try {
    // read by the first script of index.html, before anything is drawn on the next load
    localStorage.setItem("ce.look", JSON.stringify({ theme: current.theme, face: current.face, fourColor: !!current.fourColor }));
  } catch {
    /* storage disabled */
  }
}

apply();

export const THEMES = [
  ["emerald", "Classic Emerald"],
  ["crimson", "Royal Crimson"],
  ["navy", "Midnight Navy"],
];
export const FACES = [
  ["standard", "Standard"],
  ["minimal", "Modern Minimalist"],
  ["victorian", "Vintage Victorian"],
  ["deco", "Art Deco"],
];
export const BACK_NAMES = [
  ["classic", "Classic"],
  ["lattice", "Gold lattice"],
  ["sunburst", "Sunburst"],
  ["compass", "Compass rose"],
  ["tartan", "Tartan"],
];

/** Settings that choose a deck item this account has not unlocked (`locked`: a set of
 * "face:deco", "back:lattice"... ids) fall back to the defaults, so a locked deck is
 * never drawn nor sent to the server (which refuses it). */
export function dropLocked(locked) {
  const changes = {};
  if (locked.has(`face:${current.face}`)) changes.face = DEFAULTS.face;
  if (locked.has(`back:${current.back}`)) changes.back = DEFAULTS.back;
  if (Object.keys(changes).length) set(changes);
}
