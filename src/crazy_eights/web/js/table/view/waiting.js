// Before the game: the seats (with "Sit here" for an open one), the invite link for the
// table's creator, and "Start now".
import { nameWithBadges } from "../../people.js";
import { avatarSVG, h, toast } from "../../ui.js";

/** `on`: `{sit(seat), start()}`. */
export function renderWaiting(ctrl, el, on) {
  const info = ctrl.info;
  const account = ctrl.account;
  const mine = account && info.creator === account.id;
  const seated = info.seats.some((s) => account && s.account === account.id);
  const list = h("ul", { class: "seat-list" },
    info.seats.map((s) => h("li", {},
      h("span", { html: avatarSVG(s.avatar || "default", s.name || "", 28) }),
      s.name ? nameWithBadges(s.name, s) : h("span", { class: "muted", text: "Open seat" }),
      !s.name && !seated && account ? h("button", { class: "btn small", type: "button", text: "Sit here", onclick: () => on.sit(s.seat) }) : null)));
  const parts = [h("h2", { text: info.status === "open" ? "Waiting for players" : `This game is ${info.status}` }), list];
  if (info.invite) {
    const link = `${location.origin}/#/invite/${info.invite}`;
    parts.push(h("p", {}, "Invite link: ", h("input", { class: "invite", readonly: true, value: link, "aria-label": "Invite link", onfocus: (e) => e.target.select() }),
      h("button", { class: "btn small", type: "button", text: "Copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Invite link copied")) })));
  }
  if (mine && info.status === "open") {
    parts.push(h("button", { class: "btn primary", type: "button", text: "Start now (bots fill empty seats)", onclick: on.start }));
  }
  el.waiting.replaceChildren(...parts);
}
