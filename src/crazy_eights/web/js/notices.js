// Notices on every page: the one lobby socket of the app, kept open whatever page is
// shown (the lobby, a table, a replay), and what it carries for the person. The lobby
// page reads the tables and friends' presence from it (lobbyFeed); everything else here
// is shown as a notice in a tray at the top right, with a count on the menu:
// invitations to a table (Join, Decline) and challenges (Accept, Decline), friend
// requests, and, when the person chose it, a friend coming online. When the tab is
// hidden and the person allowed it, a notice is also a browser notification.
import { api, closeSocket, closedForBan, socketURL } from "./api.js";
import { RULESET_TITLES } from "./howto.js";
import * as settings from "./settings.js";
import { navigate, session } from "./shell.js";
import { h, toast } from "./ui.js";

const feeds = new Set(); // the lobby page's listeners
const latest = { tables: new Map(), presence: new Map() };
const open = new Map(); // notice key -> { el, timer }
let ws = null;
let closed = false;
let retry = null;
let lastActive = 0;
let friendNames = null; // account -> display name, read when first needed

/** Listen to the lobby socket's messages (the tables and friends' presence as they are
 * now are told at once); returns the function that stops listening. */
export function lobbyFeed(fn) {
  feeds.add(fn);
  fn({ type: "tables", tables: [...latest.tables.values()] });
  if (latest.presence.size) fn({ type: "presence", presence: [...latest.presence.values()] });
  return () => feeds.delete(fn);
}

/** The open tables of the lobby's list where the person sits (to invite a friend to). */
export function myOpenTables() {
  const me = session.account && session.account.id;
  return [...latest.tables.values()].filter((t) => t.status === "open" && t.seats.some((s) => s.account === me));
}

let socketFor; // the account the socket was opened for ("id guest", or "")

/** Open the app's lobby socket (again when the account changed or a guest registered,
 * not when only a name or an avatar did) and read the invitations already waiting. */
export function startNotices() {
  const who = session.account ? `${session.account.id} ${!!session.account.guest}` : "";
  if (who === socketFor && ws) return;
  socketFor = who;
  stopSocket();
  closed = false;
  latest.tables.clear();
  latest.presence.clear();
  friendNames = null;
  for (const key of [...open.keys()]) drop(key);
  connect();
  if (session.account && !session.account.guest) {
    api("/api/invitations").then((mine) => mine.incoming.forEach(invitation)).catch(() => {});
    friendsChanged();
  }
}

function stopSocket() {
  closed = true;
  clearTimeout(retry);
  if (ws) closeSocket(ws);
  ws = null;
}

function connect() {
  const socket = new WebSocket(socketURL("/ws/lobby"));
  ws = socket;
  socket.onmessage = (e) => heard(JSON.parse(e.data));
  socket.onclose = (e) => {
    if (closedForBan(e)) return; // banned: told once (moderation.js), never reopened
    if (!closed && ws === socket) retry = setTimeout(() => !closed && connect(), 2000);
  };
}

function heard(msg) {
  if (msg.type === "tables") {
    latest.tables.clear();
    for (const t of msg.tables) latest.tables.set(t.id, t);
  } else if (msg.type === "table") latest.tables.set(msg.table.id, msg.table);
  else if (msg.type === "removed") latest.tables.delete(msg.id);
  else if (msg.type === "presence") presence(msg.presence);
  else if (msg.type === "friends_changed") friendsChanged();
  else if (msg.type === "invitation") invitation(msg.invitation);
  else if (msg.type === "invitation_withdrawn") drop(`i${msg.id}`);
  else if (msg.type === "invitation_answered") answered(msg);
  for (const fn of feeds) fn(msg);
}

/** Say "active" (ends "away" for friends) when the person does something, once a minute. */
function active() {
  if (Date.now() - lastActive < 60_000 || !ws || ws.readyState !== WebSocket.OPEN) return;
  lastActive = Date.now();
  ws.send(JSON.stringify({ type: "active" }));
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, active, { passive: true });

async function nameOf(account) {
  if (!friendNames) {
    friendNames = new Map();
    try {
      for (const f of (await api("/api/friends")).friends) friendNames.set(f.account, f.display_name);
    } catch {
      /* names are a nicety */
    }
  }
  return friendNames.get(account) || "A friend";
}

function presence(list) {
  for (const p of list) {
    const before = latest.presence.get(p.account);
    latest.presence.set(p.account, p);
    const cameOnline = before && before.status === "offline" && p.status !== "offline";
    if (cameOnline && settings.get().notifyOnline) {
      nameOf(p.account).then((name) => notice(`o${p.account}`, { text: `${name} is online.`, seconds: 8 }));
    }
  }
}

/** The friends list changed: names are read again, and the notice of friend requests
 * waiting says how many there are (none: it goes). One request is answered in the notice
 * itself (Accept, Decline), on whatever page; several are seen in the lobby's panel. */
async function friendsChanged() {
  friendNames = null;
  if (!session.account || session.account.guest) return;
  let incoming = [];
  try {
    incoming = (await api("/api/friends")).incoming;
  } catch {
    return;
  }
  const shown = open.get("friend-request");
  if (!incoming.length) return drop("friend-request");
  const one = incoming.length === 1 ? incoming[0] : null;
  const who = one ? `a${one.account}` : `n${incoming.length}`;
  if (shown && shown.who === who) return;
  const text = one ? `${one.display_name} sent you a friend request.` : `You have ${incoming.length} friend requests.`;
  const actions = one ? [{ text: "Accept", primary: true, run: () => answerRequest(one, "accept") }, { text: "Decline", run: () => answerRequest(one, "decline") }]
    : [{ text: "See", primary: true, run: () => navigate("#/") }];
  notice("friend-request", { text, actions });
  open.get("friend-request").who = who;
}

/** Accept or decline a friend request from its notice; the friends panel (if shown)
 * reads the list again. */
async function answerRequest(person, how) {
  try {
    await api(`/api/friends/requests/${person.account}/${how}`, { method: "POST" });
    if (how === "accept") toast(`You and ${person.display_name} are friends now.`);
  } catch (e) {
    toast(e.message, "error");
  }
  document.dispatchEvent(new CustomEvent("friends-changed"));
}

function lengthWords(rules) {
  const length = rules.length === "match" ? "a match" : "one round";
  return `${RULESET_TITLES[rules.ruleset] || rules.ruleset}, ${rules.players} players, ${length}`;
}

function invitation(iv) {
  const from = iv.from.display_name;
  const challenge = iv.kind === "challenge";
  const text = challenge ? `${from} challenges you: ${lengthWords(iv.rules)}.` : `${from} invites you to ${iv.table_name || "a table"}.`;
  notice(`i${iv.id}`, {
    text,
    seconds: iv.expires_in,
    actions: [
      { text: challenge ? "Accept" : "Join", primary: true, run: () => answer(iv, "accept") },
      { text: "Decline", run: () => answer(iv, "decline") },
    ],
  });
}

async function answer(iv, how) {
  drop(`i${iv.id}`);
  try {
    const info = await api(`/api/invitations/${iv.id}/${how}`, { method: "POST" });
    if (how === "accept") navigate(`#/table/${info.id}`);
  } catch (e) {
    toast(e.message, "error");
  }
}

/** A friend answered: a declined one is said; an accepted challenge takes the
 * challenger to the new table, where both are seated. */
function answered(msg) {
  const what = msg.kind === "challenge" ? "challenge" : "invitation";
  if (msg.answer === "declined") return toast(`${msg.by} declined your ${what}.`);
  if (msg.kind === "challenge") {
    toast(`${msg.by} accepted your challenge.`);
    if (!location.hash.startsWith(`#/table/${msg.table}`)) navigate(`#/table/${msg.table}`);
  } else toast(`${msg.by} accepted your invitation.`);
}

/** Show a notice (replacing one of the same key); gone after `seconds` if given. */
function notice(key, { text, actions = [], seconds = null }) {
  drop(key);
  const el = h("div", { class: "notice", role: "status", dataset: { key } },
    h("p", { text }),
    actions.length ? h("div", { class: "row" }, actions.map((a) => h("button", { class: `btn small ${a.primary ? "primary" : "ghost"}`, type: "button", text: a.text, onclick: () => {
      drop(key);
      a.run();
    } }))) : null,
    h("button", { class: "notice-close", type: "button", "aria-label": "Dismiss", text: "\u00d7", onclick: () => drop(key) }));
  tray().append(el);
  const timer = seconds ? setTimeout(() => drop(key), seconds * 1000) : null;
  open.set(key, { el, timer });
  count();
  tellBrowser(text);
}

function drop(key) {
  const item = open.get(key);
  if (!item) return;
  clearTimeout(item.timer);
  item.el.remove();
  open.delete(key);
  count();
}

function tray() {
  let el = document.getElementById("notices");
  if (!el) {
    el = h("div", { id: "notices", "aria-live": "polite", "aria-label": "Notices" });
    document.body.append(el);
  }
  return el;
}

/** The count of notices on the menu (hidden at none). */
export function count() {
  const me = document.getElementById("me");
  if (!me) return;
  let badge = document.getElementById("notice-count");
  if (!badge) {
    badge = h("span", { id: "notice-count", class: "notice-count", "aria-label": "Notices waiting" });
    me.prepend(badge);
  }
  badge.textContent = String(open.size);
  badge.hidden = open.size === 0;
}

function tellBrowser(text) {
  if (!document.hidden || !settings.get().browserNotices) return;
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    new Notification("Crazy Eights", { body: text, tag: "crazy-eights" });
  } catch {
    /* some browsers allow notifications from a service worker only */
  }
}

/** Ask the browser for permission to notify (from the settings' checkbox). */
export async function allowBrowserNotices() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  return (await Notification.requestPermission()) === "granted";
}
