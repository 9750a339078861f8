// Friends: the lobby's friends panel (friends, requests to and from you, add by name, the
// two settings) and "Add friend" from any name shown in the room. A name that can be
// befriended carries `data-person` (the account id) and `data-person-name`; one click
// handler on the document opens the little dialog for it. Everything the server refuses
// comes back as its sentence (a guest hears "register to add friends").
import { api } from "./api.js";
import { RULESET_TITLES } from "./howto.js";
import { myOpenTables } from "./notices.js";
import { reportPerson } from "./moderation.js";
import * as settings from "./settings.js";
import { toggleMute } from "./table/reactions.js";
import { navigate, RULESETS, session } from "./shell.js";
import { avatarSVG, h, modal, toast } from "./ui.js";

/** The attributes that make a shown name open the person's dialog: Add friend (not for
 * guests), Block and Report (none for bots and yourself). */
export function personAttrs(account, name, { bot = null, guest = false } = {}) {
  if (!account || bot || (session.account && session.account.id === account)) return {};
  return { "data-person": String(account), "data-person-name": name, "data-person-guest": guest ? "1" : null, role: "button", tabindex: "0", title: guest ? `${name}: block or report` : `${name}: add as a friend, block or report` };
}

/** Send a friend request; says what happened in a toast. */
export async function askFriend(body, name) {
  try {
    const out = await api("/api/friends/requests", { method: "POST", body });
    toast(out.status === "friends" ? `You and ${out.person.display_name} are friends now.` : `Friend request sent to ${out.person.display_name}.`);
    document.dispatchEvent(new CustomEvent("friends-changed"));
    return out;
  } catch (e) {
    toast(e.message || `Could not ask ${name}.`, "error");
    return null;
  }
}

/** Block a person: their requests refused, their chat hidden, never matched together. */
export async function blockPerson(account, name) {
  try {
    await api("/api/blocks", { method: "POST", body: { account } });
    toast(`You blocked ${name}: their chat is hidden from you (from your next visit to a table) and quick play keeps you apart.`);
    document.dispatchEvent(new CustomEvent("friends-changed"));
  } catch (e) {
    toast(e.message, "error");
  }
}

async function openPerson(el) {
  const account = Number(el.dataset.person);
  const name = el.dataset.personName || "this player";
  const meGuest = session.account && session.account.guest;
  const themGuest = !!el.dataset.personGuest;
  const words = meGuest ? "Guests can't have friends: register to add friends (your games are kept)."
    : themGuest ? `${name} is a guest: guests can have friends once they register.` : `Send ${name} a friend request?`;
  const choice = await modal({
    title: name,
    className: "person-dialog",
    body: h("p", { class: "muted", text: words }),
    buttons: [meGuest || themGuest ? null : { text: "Add friend", value: "add", class: "btn primary" },
      { text: (settings.get().mutedReactors || []).includes(account) ? "Show reactions" : "Mute reactions", value: "mute", class: "btn" },
      { text: "Block", value: "block", class: "btn danger" }, { text: "Report", value: "report", class: "btn" }, { text: "Close", value: null, class: "btn ghost" }],
  });
  if (choice === "add") await askFriend({ account }, name);
  else if (choice === "mute") toast(toggleMute(account) ? `${name}'s reactions are muted.` : `${name}'s reactions are shown again.`);
  else if (choice === "block") await blockPerson(account, name);
  else if (choice === "report") await reportPerson(account, name);
}

/** Listen once, on the document, for clicks (and Enter) on befriendable names. */
export function listenForNames() {
  const open = (e) => {
    const el = e.target.closest && e.target.closest("[data-person]");
    if (!el || !session.account || el.closest("a")) return; // a link (leaderboard) goes on
    if (e.type === "keydown" && e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();
    openPerson(el);
  };
  document.addEventListener("click", open);
  document.addEventListener("keydown", open);
}

/** Invite a friend to one of your open tables or to a new one, or challenge them: the
 * dialog's choices of ruleset, players and length make the new table or the challenge. */
export async function playWith(p) {
  const ruleset = h("select", { name: "ruleset", "aria-label": "Ruleset" }, RULESETS.map((r) => h("option", { value: r, text: RULESET_TITLES[r] })));
  const players = h("input", { type: "number", name: "players", min: "2", max: "11", value: "2", "aria-label": "Players" });
  const length = h("select", { name: "length", "aria-label": "Length" }, h("option", { value: "round", text: "One round" }), h("option", { value: "match", text: "A short match" }));
  const tables = myOpenTables();
  const choice = await modal({
    title: `Play with ${p.display_name}`,
    className: "play-dialog",
    body: h("div", { class: "stack" },
      h("p", { class: "muted", text: "Invite them to a table (a seat is held for them for a minute), or challenge them: on accepting, you both sit at a new table and bots fill the other seats." }),
      h("label", { class: "field" }, h("span", { class: "flabel", text: "Ruleset" }), ruleset),
      h("label", { class: "field" }, h("span", { class: "flabel", text: "Players" }), players),
      h("label", { class: "field" }, h("span", { class: "flabel", text: "Length (challenge)" }), length)),
    buttons: [{ text: "Challenge", value: "challenge", class: "btn primary" }, { text: "Invite to a new table", value: "new", class: "btn" },
      ...tables.map((t) => ({ text: `Invite to ${t.name}`, value: t.id, class: "btn" })), { text: "Cancel", value: null, class: "btn ghost" }],
  });
  if (!choice) return;
  try {
    if (choice === "challenge") {
      await api("/api/challenges", { method: "POST", body: { account: p.account, ruleset: ruleset.value, players: Number(players.value), length: length.value } });
      toast(`Challenge sent to ${p.display_name}: it stays open for a minute.`);
      return;
    }
    let table = choice;
    if (choice === "new") {
      const made = await api("/api/tables", { method: "POST", body: { rules: { ruleset: ruleset.value, players: Number(players.value) }, public: false } });
      if (made.invite) sessionStorage.setItem(`ce.invite.${made.id}`, made.invite);
      table = made.id;
    }
    await api("/api/invitations", { method: "POST", body: { account: p.account, table } });
    toast(`${p.display_name} is invited: their seat is held for a minute.`);
    navigate(`#/table/${table}`);
  } catch (e) {
    toast(e.message, "error");
  }
}

const ago = (t) => {
  const days = Math.floor((Date.now() / 1000 - t) / 86400);
  return days < 1 ? "today" : days === 1 ? "yesterday" : `${days} days ago`;
};

function personRow(p, ...actions) {
  return h("li", { class: "friend", dataset: { account: String(p.account) } },
    h("span", { html: avatarSVG(p.avatar, p.display_name, 28) }),
    h("span", { class: "friend-name" }, h("strong", { text: p.display_name }), p.display_name !== p.name ? h("span", { class: "muted", text: ` (${p.name})` }) : null),
    h("span", { class: "friend-status" }),
    h("span", { class: "row friend-actions" }, actions));
}

/** The lobby's friends panel in `box`; returns { refresh, presence } for the lobby's
 * socket (presence is filled in by the presence messages). */
export function friendsPanel(box) {
  const state = { data: null, blocked: [] };
  const act = async (path, method, done) => {
    try {
      await api(path, { method });
      if (done) toast(done);
      await refresh();
    } catch (e) {
      toast(e.message, "error");
      await refresh();
    }
  };
  const button = (text, onclick, cls = "btn small") => h("button", { class: cls, type: "button", text, onclick });
  const blockedList = () => state.blocked.length ? h("div", { class: "blocked" }, h("h3", { text: "Blocked" }), h("ul", { class: "friend-list" }, state.blocked.map((p) => personRow({ ...p, avatar: "default" },
    button("Unblock", () => act(`/api/blocks/${p.account}`, "DELETE", `${p.display_name} is no longer blocked.`), "btn small ghost"))))) : null;
  const draw = () => {
    const d = state.data;
    if (session.account && session.account.guest) {
      box.replaceChildren(...[h("h2", { text: "Friends" }), h("p", { class: "muted guest-friends", text: "Guests can't have friends: register to add friends. Registering keeps your games." }), h("a", { class: "btn small", href: "#/profile", text: "Register" }), blockedList()].filter(Boolean));
      return;
    }
    if (!d) return;
    const input = h("input", { name: "friend", maxlength: "32", placeholder: "Player's name", "aria-label": "Player's name to add as a friend", autocomplete: "off" });
    const form = h("form", { class: "row add-friend", onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      if (await askFriend({ name }, name)) input.value = "";
      await refresh();
    } }, input, h("button", { class: "btn small", type: "submit", text: "Add friend" }));
    const toggle = (key, text) => h("label", { class: "check" }, h("input", { type: "checkbox", name: key, checked: d.settings[key], onchange: async (e) => {
      try {
        d.settings = await api("/api/friends/settings", { method: "PUT", body: { ...d.settings, [key]: e.target.checked } });
      } catch (x) {
        toast(x.message, "error");
        e.target.checked = !e.target.checked;
      }
    } }), ` ${text}`);
    const friends = d.friends.length ? d.friends.map((p) => personRow(p, h("button", { class: "btn small primary play-with", type: "button", text: "Play", "aria-label": `Invite or challenge ${p.display_name}`, onclick: () => playWith(p) }), button("Remove", () => act(`/api/friends/${p.account}`, "DELETE", `${p.display_name} is no longer your friend.`), "btn small ghost")))
      : [h("li", { class: "muted", text: "No friends yet: add one by name, or click a player's name at a table." })];
    box.replaceChildren(...[
      h("h2", { text: "Friends" }),
      d.incoming.length ? h("div", { class: "requests incoming" }, h("h3", { text: "Friend requests" }), h("ul", { class: "friend-list" }, d.incoming.map((p) => personRow(p,
        button("Accept", () => act(`/api/friends/requests/${p.account}/accept`, "POST", `You and ${p.display_name} are friends now.`), "btn small primary"),
        button("Decline", () => act(`/api/friends/requests/${p.account}/decline`, "POST"), "btn small ghost"))))) : null,
      h("ul", { class: "friend-list friends", "aria-label": "Your friends" }, friends),
      d.outgoing.length ? h("div", { class: "requests outgoing" }, h("h3", { text: "Waiting for an answer" }), h("ul", { class: "friend-list" }, d.outgoing.map((p) => personRow(p,
        h("span", { class: "muted", text: `asked ${ago(p.at)}` }),
        button("Cancel", () => act(`/api/friends/requests/${p.account}`, "DELETE"), "btn small ghost"))))) : null,
      form,
      blockedList(),
      h("div", { class: "friend-settings" }, toggle("refuse_requests", "Refuse all friend requests"), toggle("appear_offline", "Appear offline")),
      h("p", { class: "muted small", text: `At most ${d.limits.friends} friends and ${d.limits.outgoing} requests waiting; a request expires after ${d.limits.request_days} days.` })].filter(Boolean));
    drawPresence();
  };
  const presence = new Map();
  const drawPresence = () => {
    for (const li of box.querySelectorAll(".friends .friend")) {
      const p = presence.get(Number(li.dataset.account));
      const cell = li.querySelector(".friend-status");
      if (!p || !cell) continue; // not known yet
      cell.replaceChildren(...statusParts(p));
      li.dataset.status = p.status;
    }
  };
  const refresh = async () => {
    if (!session.account) return draw();
    try {
      state.blocked = await api("/api/blocks");
      if (session.account.guest) return draw();
      state.data = await api("/api/friends");
    } catch (e) {
      box.replaceChildren(h("h2", { text: "Friends" }), h("p", { class: "error", text: e.message }));
      return;
    }
    draw();
  };
  document.addEventListener("friends-changed", refresh);
  refresh();
  return {
    refresh,
    stop: () => document.removeEventListener("friends-changed", refresh),
    presence: (list) => {
      for (const p of list) presence.set(p.account, p);
      drawPresence();
    },
  };
}

const STATUS_WORDS = { online: "online", playing: "playing", queue: "in the queue", away: "away", offline: "offline" };

/** A friend's presence as shown: a dot and words, "playing" with the table and Watch,
 * "offline" with when they were last seen. */
function statusParts(p) {
  const status = p.status;
  const words = status === "offline" && p.last_seen ? `offline, last seen ${ago(p.last_seen)}` : STATUS_WORDS[status] || status;
  const parts = [h("span", { class: `dot ${status}`, "aria-hidden": "true" }), h("span", { class: "status-words", text: words })];
  if (status === "playing" && p.table) parts.push(h("a", { class: "btn small ghost watch", href: `#/table/${p.table}`, text: "Watch" }));
  return parts;
}
