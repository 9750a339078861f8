// Signing in: as a guest, with a name and password, or a new account.
import { api } from "./api.js";
import { cardSVG } from "./cards.js";
import * as settings from "./settings.js";
import { busy, h } from "./ui.js";
import { session, navigate, setAccount, show } from "./shell.js";
import { bannedNotice } from "./moderation.js";

// What the card room accepts for a name and a password (auth.py), checked before sending
// so that a mistake is told as a sentence at once.
const NAME_RULE = /^[A-Za-z0-9_.-]{3,32}$/;

export function credentialProblem(name, password, mode) {
  if (!name) return "Please enter your name.";
  if (mode === "register" && !NAME_RULE.test(name)) return "A name has 3 to 32 letters, digits, dots, dashes or underscores, and no spaces.";
  if (!password) return "Please enter your password.";
  if (mode === "register" && password.length < 8) return "Choose a password of at least 8 characters.";
  return null;
}

export function signInPage() {
  const err = h("p", { class: "error", role: "alert" });
  const done = (acc) => {
    setAccount(acc);
    const next = sessionStorage.getItem("ce.next");
    sessionStorage.removeItem("ce.next");
    navigate(next && !next.startsWith("#/signin") ? next : "#/");
  };
  const guest = h("button", { class: "btn primary big", type: "button", text: "Play as guest", onclick: () => busy(guest, "Opening the card room\u2026", async () => {
    try {
      done(await api("/api/auth/guest", { method: "POST" }));
    } catch (e) {
      err.textContent = e.message;
    }
  }) });
  const form = (mode) => {
    const name = h("input", { name: "name", required: true, autocomplete: "username", maxlength: "32" });
    const pw = h("input", { name: "password", type: "password", required: true, maxlength: "200", autocomplete: mode === "login" ? "current-password" : "new-password" });
    const submit = h("button", { class: "btn", type: "submit", text: mode === "login" ? "Sign in" : "Create account" });
    const formErr = h("p", { class: "error", role: "alert" });
    return h("form", { class: "stack", novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      formErr.textContent = credentialProblem(name.value.trim(), pw.value, mode) || "";
      if (formErr.textContent) return;
      await busy(submit, mode === "login" ? "Signing in\u2026" : "Creating your account\u2026", async () => {
        try {
          done(await api(mode === "login" ? "/api/auth/login" : "/api/auth/register", { method: "POST", body: { name: name.value.trim(), password: pw.value } }));
        } catch (x) {
          formErr.textContent = x.status === 401 ? "That name and password do not match an account." : x.message;
        }
      });
    } },
      h("h2", { text: mode === "login" ? "Sign in" : "Create an account" }),
      h("label", {}, "Name", name), h("label", {}, "Password", pw), formErr, submit);
  };
  show(h("section", { class: "page signin" },
    h("div", { class: "hero" }, h("div", { class: "hero-cards", html: ["8S", "8H", "8D", "8C"].map((c) => `<span>${cardSVG(c, { face: settings.get().face })}</span>`).join("") }),
      h("h1", { text: "Crazy Eights" }), h("p", { text: "Match the suit or the rank. Eights are wild. Empty your hand first." }), guest),
    bannedNotice(), err, h("div", { class: "two-col" }, form("login"), form("register"))));
}
