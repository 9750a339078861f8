// HTTP helpers for the card room API (docs/protocol.md); errors carry the server's detail.

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(sentence(detail || code || `the card room answered ${status}`));
    this.status = status;
    this.code = code;
  }
}

const FIELD_NAMES = {
  name: "The name",
  password: "The password",
  display_name: "The display name",
  avatar: "The avatar",
  rules: "The rules",
  seat: "The seat",
};

/** One piece of validation text ("name: String should have at least 3 characters") as
 * a sentence a person reads ("The name needs at least 3 characters."). */
function fieldSentence(part) {
  const m = /^([a-z_.0-9]+): (.*)$/s.exec(part.trim());
  const field = m ? FIELD_NAMES[m[1].split(".").pop()] || `The ${m[1].split(".").pop().replaceAll("_", " ")}` : null;
  let text = (m ? m[2] : part).trim().replace(/^Value error, /, "");
  const rewrites = [
    [/^String should have at least (\d+) characters?$/, (n) => `needs at least ${n} characters`],
    [/^String should have at most (\d+) characters?$/, (n) => `can have at most ${n} characters`],
    [/^Field required$/, () => "is missing"],
    [/^Input should be a valid (\w+)$/, (t) => `must be a ${t}`],
    [/^Input should be (greater|less) than or equal to (\S+)$/, (w, n) => `must be at ${w === "greater" ? "least" : "most"} ${n}`],
  ];
  for (const [re, fn] of rewrites) {
    const r = re.exec(text);
    if (r) return `${field || "This"} ${fn(...r.slice(1))}.`;
  }
  return sentence(text);
}

/** Any message from the card room as a sentence: a capital letter and a full stop, and
 * validation lists turned into one sentence per field. */
export function sentence(text) {
  const raw = String(text || "").trim();
  if (!raw) return "";
  if (raw.includes(": ") && /^[a-z_.0-9]+: /.test(raw)) return raw.split("; ").map(fieldSentence).join(" ");
  const first = raw[0].toUpperCase() + raw.slice(1);
  return /[.!?\u2026]$/.test(first) ? first : `${first}.`;
}

export async function api(path, { method = "GET", body, keepalive = false } = {}) {
  const init = { method, headers: {}, credentials: "same-origin", keepalive };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (res.status === 204) return null;
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: text };
    }
  }
  if (!res.ok) throw new ApiError(res.status, data && data.error, data && data.detail);
  return data;
}

/** The signed-in account, or null (GET /api/session answers 200 either way). */
export async function currentAccount() {
  const data = await api("/api/session");
  return data ? data.account : null;
}

/** The close code of a banned person's sockets (server/ejection.py). */
export const BANNED = 4030;

/** A socket closed because its person is banned: tell the page (main.js signs out and
 * shows why). True when that was the reason: the caller then does not reconnect. */
export function closedForBan(event) {
  if (event.code !== BANNED) return false;
  document.dispatchEvent(new CustomEvent("ce-banned", { detail: event.reason || "You are banned." }));
  return true;
}

export function socketURL(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

/** Close a socket the page no longer needs. One still connecting is closed once it
 * opens: closing it before makes the browser log "WebSocket is closed before the
 * connection is established" (leaving the lobby as quick play seats you at once). Its
 * handlers are dropped first, so that nothing reconnects or reads it any more. */
export function closeSocket(ws) {
  ws.onmessage = null;
  ws.onclose = null;
  ws.onerror = null;
  if (ws.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close();
  else ws.close();
}

let rulesetsCache = null;
async function rulesetsData() {
  if (!rulesetsCache) rulesetsCache = await api("/api/rulesets");
  return rulesetsCache;
}

/** Every ruleset's settings, by ruleset name. */
export async function rulesets() {
  return (await rulesetsData()).rulesets;
}

/** The levels a bot seat can have. */
export async function botLevels() {
  return (await rulesetsData()).bot_levels;
}

/** The server's HTML-escaped chat text back to plain text (shown with textContent). */
export function unescapeHTML(text) {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${text}`, "text/html");
  return doc.body.textContent || "";
}
