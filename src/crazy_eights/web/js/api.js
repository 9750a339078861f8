// HTTP helpers for the card room API (docs/protocol.md); errors carry the server's detail.

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const init = { method, headers: {}, credentials: "same-origin" };
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

export function socketURL(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
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
