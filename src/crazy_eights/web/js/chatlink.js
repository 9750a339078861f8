// !link: the page a chat host's one-time link opens (#/link/TOKEN). It says which nick
// on which network the link ties to an account, asks the signed-in person to confirm,
// and uses the link (POST /api/chat-links/TOKEN); signed out, it sends them to sign in
// and back here.
import { api } from "./api.js";
import { errorBox, needAccount, session, show } from "./shell.js";
import { busy, h } from "./ui.js";

// The channel of a place: "irc:irc.example.net:#cards" is "#cards" (a Matrix room keeps
// its own colon: "#cards:example").
export function channelOf(place) {
  for (let i = 1; i < place.length; i++) {
    if ("#&!".includes(place[i]) && place[i - 1] === ":") return place.slice(i);
  }
  return place.slice(place.lastIndexOf(":") + 1);
}

export async function linkPage(token) {
  const page = h("section", { class: "page chat-link" }, h("h1", { text: "Link a chat name" }));
  show(page);
  let offer;
  try {
    offer = await api(`/api/chat-links/${encodeURIComponent(token)}`);
  } catch (e) {
    page.append(errorBox(e));
    return;
  }
  const what = `${offer.nick} on ${offer.network}`;
  if (!session.account) {
    page.append(
      h("p", { text: `Sign in to tie ${what} to your account.` }),
      h("button", { class: "btn primary", type: "button", text: "Sign in", onclick: () => needAccount(`#/link/${token}`) }));
    return;
  }
  const result = h("div", { "aria-live": "polite" });
  const button = h("button", { class: "btn primary", type: "button", text: `Link ${offer.nick}`, onclick: () => busy(button, "Linking\u2026", async () => {
    try {
      await api(`/api/chat-links/${encodeURIComponent(token)}`, { method: "POST" });
      button.remove();
      result.replaceChildren(h("p", { text: `Done: from now on the games ${what} plays count for ${session.account.display_name}.` }));
    } catch (e) {
      result.replaceChildren(errorBox(e));
    }
  }) });
  page.append(
    h("p", { text: `Tie ${what} to your account, ${session.account.display_name}? Games that nick plays from now on count in your records and ratings. The link works once.` }),
    button,
    result);
}
