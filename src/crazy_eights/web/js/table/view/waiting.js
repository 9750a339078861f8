// Before the game: the seats (with "Sit here" for an open one, "held" for one kept for
// an invited friend), the invite link for the table's creator, "Invite a friend" for
// whoever sits here, and "Start now".
import { api } from "../../api.js";
import { nameWithBadges } from "../../people.js";
import { avatarSVG, h, modal, toast } from "../../ui.js";

/** Pick a friend to invite to this table: their seat is held for a minute. */
async function inviteFriend(tableId) {
  let friends = [];
  try {
    friends = (await api("/api/friends")).friends;
  } catch (e) {
    return toast(e.message, "error");
  }
  const choice = await modal({
    title: "Invite a friend",
    className: "invite-dialog",
    body: friends.length ? null : h("p", { class: "muted", text: "No friends yet: add one from the lobby." }),
    buttons: [...friends.map((f) => ({ text: f.display_name, value: f.account, class: "btn" })), { text: "Cancel", value: null, class: "btn ghost" }],
  });
  if (!choice) return;
  try {
    await api("/api/invitations", { method: "POST", body: { account: choice, table: tableId } });
    toast("Invited: their seat is held for a minute.");
  } catch (e) {
    toast(e.message, "error");
  }
}

/** `on`: `{sit(seat), start()}`. */
export function renderWaiting(ctrl, el, on) {
  const info = ctrl.info;
  const account = ctrl.account;
  const mine = account && info.creator === account.id;
  const seated = info.seats.some((s) => account && s.account === account.id);
  const list = h("ul", { class: "seat-list" },
    info.seats.map((s) => h("li", {},
      h("span", { html: avatarSVG(s.avatar || "default", s.name || "", 28) }),
      s.name ? nameWithBadges(s.name, s) : h("span", { class: "muted", text: s.held_left != null ? "Held for an invited friend" : "Open seat" }),
      !s.name && !seated && account && s.held_left == null ? h("button", { class: "btn small", type: "button", text: "Sit here", onclick: () => on.sit(s.seat) }) : null)));
  const parts = [h("h2", { text: info.status === "open" ? "Waiting for players" : `This game is ${info.status}` }), list];
  if (info.invite) {
    const link = `${location.origin}/#/invite/${info.invite}`;
    parts.push(h("p", {}, "Invite link: ", h("input", { class: "invite", readonly: true, value: link, "aria-label": "Invite link", onfocus: (e) => e.target.select() }),
      h("button", { class: "btn small", type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Invite link copied")) })));
  }
  if (seated && info.status === "open" && account && !account.guest) {
    parts.push(h("button", { class: "btn", type: "button", text: "Invite a friend", onclick: () => inviteFriend(info.id) }));
  }
  if (mine && info.status === "open") {
    parts.push(h("button", { class: "btn primary", type: "button", text: "Start now (bots fill empty seats)", onclick: on.start }));
  }
  el.waiting.replaceChildren(...parts);
}
