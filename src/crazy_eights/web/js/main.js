// The app: the hash router and start-up. Each page lives in a module of its own, and
// shell.js holds what they share (who is signed in, navigation, showing a page).
import { currentAccount } from "./api.js";
import { linkPage } from "./chatlink.js";
import { profilePage, settingsPage } from "./account.js";
import { listenForNames } from "./friends.js";
import { lobbyPage } from "./lobby.js";
import { count as countNotices, startNotices } from "./notices.js";
import { listenForBans, moderationPage } from "./moderation.js";
import { historyPage, howtoPage, leadersPage } from "./records.js";
import { replayPage } from "./replay.js";
import { errorBox, leave, navHint, renderNav, session, setAccount, setRouter, show } from "./shell.js";
import { signInPage } from "./signin.js";
import * as sound from "./sound.js";
import { invitePage, tablePage, tutorialPage } from "./tablepage.js";
import { h } from "./ui.js";

async function route() {
  leave();
  document.querySelectorAll(".backdrop").forEach((b) => b.remove());
  document.querySelectorAll(".fx-layer").forEach((l) => l.replaceChildren()); // no confetti left over
  const raw = (location.hash || "#/").slice(1);
  const [path, qs] = raw.split("?");
  const query = new URLSearchParams(qs || "");
  const parts = path.split("/").filter(Boolean);
  renderNav();
  countNotices(); // the menu was drawn again: its count of notices too
  try {
    switch (parts[0]) {
      case undefined:
        if (!session.account) return signInPage();
        return lobbyPage();
      case "signin":
        return signInPage();
      case "table": {
        if (!query.get("code")) {
          const code = sessionStorage.getItem(`ce.invite.${parts[1]}`);
          if (code) query.set("code", code);
        }
        return tablePage(parts[1], query);
      }
      case "invite":
        return invitePage(parts[1]);
      case "tutorial":
        return tutorialPage();
      case "howto":
        return howtoPage(parts[1], query.get("technique"));
      case "profile":
        return profilePage(parts[1]);
      case "leaders":
        return leadersPage(parts[1]);
      case "history":
        return historyPage();
      case "replay":
        return replayPage(parts[1]);
      case "link":
        return linkPage(parts[1]);
      case "settings":
        return settingsPage();
      case "moderation":
        return moderationPage();
      default:
        show(h("section", { class: "page" }, h("h1", { text: "Not found" }), h("a", { href: "#/", text: "Back to the lobby" })));
    }
  } catch (e) {
    show(h("section", { class: "page" }, errorBox(e)));
  }
}

async function boot() {
  setRouter(route);
  // one lobby socket for the whole app, opened again for each account: notices reach
  // every page, a table's included
  document.addEventListener("account-changed", startNotices);
  try {
    await setAccount(localStorage.getItem("ce.session") ? await currentAccount() : null);
  } catch {
    await setAccount(null);
  }
  window.addEventListener("hashchange", route);
  listenForNames();
  listenForBans();
  document.getElementById("nav").addEventListener("scroll", navHint, { passive: true });
  window.addEventListener("resize", navHint);
  document.addEventListener("pointerdown", () => sound.unlock(), { once: true });
  document.addEventListener("keydown", () => sound.unlock(), { once: true });
  route();
}

boot();
