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

/** The signed-in account, or null (a 401 is not an error here). */
export async function currentAccount() {
  try {
    const me = await api("/api/me");
    // a signed-out-safe session answer ({account: null}) as well as the account itself
    if (me && me.id === undefined && "account" in me) return me.account || null;
    return me;
  } catch (err) {
    if (err.status === 401) return null;
    throw err;
  }
}

export function socketURL(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

let rulesetsCache = null;
export async function rulesets() {
  if (!rulesetsCache) {
    // the rulesets by name and the bot levels, whether the levels sit beside the
    // rulesets or the rulesets are under their own key
    const data = await api("/api/rulesets");
    rulesetsCache = data && data.rulesets ? { ...data.rulesets, bot_levels: data.bot_levels } : data;
  }
  return rulesetsCache;
}

/** The server's HTML-escaped chat text back to plain text (shown with textContent). */
export function unescapeHTML(text) {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${text}`, "text/html");
  return doc.body.textContent || "";
}
