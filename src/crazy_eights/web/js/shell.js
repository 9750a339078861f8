// The app shell that every page shares: who is signed in, navigation, and showing a page.
import { api } from "./api.js";
import * as settings from "./settings.js";
import { avatarSVG, h } from "./ui.js";

export const RULESETS = ["classic", "ultimate", "countdown", "cycles"];
const main = document.getElementById("main");

/** Who is signed in (null when nobody is). */
export const session = { account: null, roles: [] };

let leaving = null; // the current page's cleanup
let router = () => {};

/** The function that shows the page of the current address (set by main.js). */
export function setRouter(fn) {
  router = fn;
}

/** Run ``fn`` when the page now shown is left. */
export function onLeave(fn) {
  leaving = fn;
}

/** Leave the page now shown: run its cleanup. */
export function leave() {
  if (!leaving) return;
  try {
    leaving();
  } catch {
    /* a page that cannot clean up must not stop the next one */
  }
  leaving = null;
}

export function navigate(hash) {
  if (location.hash === hash) router();
  else location.hash = hash;
}

export function setAccount(acc) {
  session.account = acc;
  session.roles = [];
  if (acc && !acc.guest) { // a moderator's menu has the moderation page
    api("/api/me/roles").then((r) => {
      if (session.account === acc) {
        session.roles = r.roles;
        renderNav();
      }
    }).catch(() => {});
  }
  // Only ask /api/me when a session may exist: a 401 shows as a console error.
  if (acc) localStorage.setItem("ce.session", "1");
  else localStorage.removeItem("ce.session");
  renderNav();
  document.dispatchEvent(new CustomEvent("account-changed"));
  return settings.useAccount(acc);
}

const NAV = [["#/", "Lobby", "Lobby"], ["#/leaders/classic", "Leaderboards", "Leaders"], ["#/history", "History", "History"], ["#/howto/classic", "How to play", "Rules"], ["#/settings", "Settings", "Settings"]];

/** On a narrow screen the navigation may still scroll sideways: fade the edge that has
 * more links behind it, so it shows that it scrolls. */
export function navHint() {
  const nav = document.getElementById("nav");
  const more = nav.scrollWidth - nav.clientWidth - nav.scrollLeft > 2;
  nav.classList.toggle("more-right", more);
  nav.classList.toggle("more-left", nav.scrollLeft > 2);
}

export function renderNav() {
  const nav = document.getElementById("nav");
  // phones show the short names (all five fit at 360 px); the link keeps the full name
  const links = session.roles.includes("moderator") ? [...NAV, ["#/moderation", "Moderation", "Mod"]] : NAV;
  nav.replaceChildren(...links.map(([href, text, short]) => text === short ? h("a", { href, text }) : h("a", { href, "aria-label": text },
    h("span", { class: "long", text }), h("span", { class: "short", "aria-hidden": "true", text: short }))));
  requestAnimationFrame(navHint);
  const me = document.getElementById("me");
  if (session.account) {
    me.replaceChildren(h("a", { href: "#/profile", class: "me-link", "aria-label": `Profile of ${session.account.display_name}` }, h("span", { html: avatarSVG(session.account.avatar, session.account.display_name, 28) }), h("span", { class: "me-name", text: session.account.display_name })));
  } else {
    me.replaceChildren(h("a", { href: "#/signin", class: "btn small", text: "Sign in" }));
  }
  const current = location.hash || "#/";
  for (const a of nav.children) a.toggleAttribute("aria-current", current.startsWith(a.getAttribute("href").replace(/\/classic$/, "")) && a.getAttribute("href") !== "#/" ? true : current === a.getAttribute("href"));
}

export async function needAccount(next) {
  if (session.account) return true;
  sessionStorage.setItem("ce.next", next || location.hash);
  navigate("#/signin");
  return false;
}

export function show(...nodes) {
  main.replaceChildren(...nodes);
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

export function errorBox(err) {
  return h("p", { class: "error", role: "alert", text: err.message || String(err) });
}
