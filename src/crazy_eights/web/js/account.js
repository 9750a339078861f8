// An account's pages: the profile (records, upgrade, sign out) and the settings.
import { api } from "./api.js";
import { backSVG, cardSVG } from "./cards.js";
import { askFriend } from "./friends.js";
import { RULESET_TITLES } from "./howto.js";
import { allowBrowserNotices } from "./notices.js";
import * as settings from "./settings.js";
import * as sound from "./sound.js";
import { AVATARS, avatarSVG, busy, h, modal, toast } from "./ui.js";
import { archonBadge, levelName } from "./people.js";
import { ratingText } from "./records.js";
import { RULESETS, session, navigate, setAccount, needAccount, show, errorBox } from "./shell.js";
import { credentialProblem } from "./signin.js";

export async function profilePage(id) {
  if (!id && !(await needAccount("#/profile"))) return;
  const accountId = id ? Number(id) : session.account.id;
  const own = session.account && accountId === session.account.id;
  const box = h("section", { class: "page profile" }, h("h1", { text: own ? "Your profile" : "Profile" }));
  show(box);
  if (own) {
    const name = h("input", { value: session.account.display_name, maxlength: "32", "aria-label": "Display name" });
    const avatars = h("div", { class: "avatars", role: "radiogroup", "aria-label": "Avatar" }, AVATARS.map((a) => h("button", {
      type: "button", class: `avatar-pick${a === session.account.avatar ? " on" : ""}`, role: "radio", "aria-checked": String(a === session.account.avatar), "aria-label": a, dataset: { avatar: a },
      html: avatarSVG(a, session.account.display_name, 40),
      onclick: (e) => {
        for (const b of avatars.children) {
          b.classList.toggle("on", b === e.currentTarget);
          b.setAttribute("aria-checked", String(b === e.currentTarget));
        }
      },
    })));
    const save = h("button", { class: "btn primary", type: "button", text: "Save", onclick: async () => {
      try {
        const avatar = avatars.querySelector(".on")?.dataset.avatar || session.account.avatar;
        setAccount(await api("/api/me", { method: "PATCH", body: { display_name: name.value, avatar } }));
        toast("Saved");
      } catch (e) {
        toast(e.message, "error");
      }
    } });
    box.append(h("div", { class: "panel stack" }, h("div", { class: "row" }, h("span", { html: avatarSVG(session.account.avatar, session.account.display_name, 64) }), h("div", {}, h("strong", { text: session.account.display_name }), h("div", { class: "muted", text: `${session.account.name}${session.account.guest ? " (guest)" : ""}` }))),
      h("label", { class: "field" }, "Display name", name), avatars, save));
    if (session.account.guest) box.append(upgradeForm());
  }
  // statistics sit in their place before anything below is added, whenever they arrive
  const stats = h("section", { class: "panel stats" }, h("h2", { text: "Statistics" }), h("p", { class: "muted", text: "Loading\u2026" }));
  box.append(stats);
  const evaluation = h("section", { class: "panel evaluation" }, h("h2", { text: "Evaluation" }), h("p", { class: "muted", text: "Loading\u2026" }));
  const progress = h("section", { class: "panel achievements" }, h("h2", { text: "Achievements and unlocks" }), h("p", { class: "muted", text: "Loading\u2026" }));
  box.append(evaluation, progress);
  if (!own && session.account) box.append(h("div", { class: "row" }, h("button", { class: "btn", type: "button", text: "Add friend", onclick: () => askFriend({ account: accountId }, "this player") })));
  if (own) box.append(h("div", { class: "signout-row" }, h("button", { class: "btn ghost", type: "button", text: "Sign out", onclick: () => signOut() })));
  try {
    const rec = await api(`/api/accounts/${accountId}/records`);
    const rows = (rec.records || []).map((r) => h("tr", {}, h("th", { scope: "row", text: RULESET_TITLES[r.ruleset] || r.ruleset }), h("td", { text: r.games }), h("td", { text: r.wins }), h("td", { text: `${Math.round(r.win_rate * 100)}%` }), h("td", { text: r.points }), h("td", { text: r.streak }), h("td", { text: r.best_streak }), h("td", { text: r.rating ? ratingText(r.rating) : "" })));
    const titled = archonBadge(rec.archon);
    stats.replaceChildren(h("h2", { text: "Statistics" }, titled ? " " : null, titled),
      rows.length ? h("div", { class: "scroll-x" }, h("table", { class: "data" }, h("thead", {}, h("tr", {}, ["Ruleset", "Games", "Wins", "Win rate", "Points", "Streak", "Best streak", "Rating"].map((t) => h("th", { scope: "col", text: t })))), h("tbody", {}, rows))) : h("p", { class: "muted", text: "No finished games yet." }));
    const played = [...(rec.records || [])].sort((a, b) => b.games - a.games)[0];
    showEvaluation(evaluation, accountId, played ? played.ruleset : "classic");
  } catch (e) {
    stats.replaceChildren(h("h2", { text: "Statistics" }), errorBox(e));
    evaluation.remove();
  }
  showProgress(progress, accountId, own);
}

const LEVELS = ["random", "heuristic", "ismcts"];

function figureText(value, unit) {
  if (value === null || value === undefined) return "\u2013";
  return unit === "share" ? `${Math.round(value * 100)}%` : String(Math.round(value * 100) / 100);
}

/** The evaluation in one ruleset: each measure's sentence and its figures beside the
 * room's median and each bot level (all computed by the server). */
async function showEvaluation(box, accountId, ruleset) {
  const pick = h("select", { name: "evaluation-ruleset", "aria-label": "Ruleset of the evaluation", onchange: () => showEvaluation(box, accountId, pick.value) },
    RULESETS.map((r) => h("option", { value: r, text: RULESET_TITLES[r] || r, selected: r === ruleset })));
  const head = h("div", { class: "row" }, h("h2", { text: "Evaluation" }), pick);
  try {
    const ev = await api(`/api/accounts/${accountId}/evaluation?ruleset=${ruleset}`);
    const measures = ev.measures.map((m) => h("div", { class: "measure", dataset: { measure: m.key } },
      h("h3", { text: m.title }), h("p", { class: "about muted small", text: m.about }), h("p", { class: "sentence", text: m.sentence }),
      h("div", { class: "scroll-x" }, h("table", { class: "data figures" },
        h("thead", {}, h("tr", {}, ["", "Player", "Room median", ...LEVELS.map((l) => `${levelName(l)} bot`)].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, m.figures.map((f) => h("tr", { dataset: { figure: f.key } },
          h("th", { scope: "row", text: `${f.label} (${f.better} is better)` }),
          h("td", { class: "you", text: figureText(f.value, f.unit) }), h("td", { text: figureText(f.median, f.unit) }),
          LEVELS.map((l) => h("td", { text: figureText(f.bots[l], f.unit) })))))))));
    box.replaceChildren(head,
      h("p", { class: "muted small", text: `${ev.games} game${ev.games === 1 ? "" : "s"} of ${RULESET_TITLES[ruleset] || ruleset} measured; the room's median is of the ${ev.people} player${ev.people === 1 ? "" : "s"} with ${ev.min_games} game${ev.min_games === 1 ? "" : "s"} or more.` }),
      ...measures,
      h("div", { class: "measure", dataset: { measure: "accuracy" } }, h("h3", { text: "Accuracy" }), h("p", { class: `sentence${ev.accuracy.analysed ? "" : " muted"}`, text: ev.accuracy.sentence })));
  } catch (e) {
    box.replaceChildren(head, errorBox(e));
  }
}

/** A small picture of a deck item: a card face or a back. */
function deckPreview(id) {
  const [kind, name] = id.split(":");
  return kind === "back" ? backSVG({ back: name }) : cardSVG("KH", { face: name });
}

/** Achievements, earned or locked (with what earns them and how far along), and what
 * each unlocks. */
async function showProgress(box, accountId, own) {
  try {
    const p = await api(`/api/accounts/${accountId}/achievements`);
    const decks = Object.fromEntries(p.decks.map((d) => [d.id, d]));
    box.replaceChildren(h("h2", { text: "Achievements and unlocks" }),
      h("ul", { class: "achievement-list" }, p.achievements.map((a) => {
        const item = a.unlocks ? decks[a.unlocks] : null;
        return h("li", { class: `achievement ${a.earned ? "earned" : "locked"}`, dataset: { achievement: a.id } },
          item ? h("span", { class: "mini-card", html: deckPreview(item.id), "aria-hidden": "true" }) : h("span", { class: "medal", "aria-hidden": "true", text: a.earned ? "\u2605" : "\u2606" }),
          h("div", {}, h("strong", { text: a.title }), h("span", { class: "state", text: a.earned ? " \u00b7 earned" : ` \u00b7 ${a.progress}/${a.need}` }),
            h("div", { class: "muted small", text: a.how }),
            item ? h("div", { class: "unlock small", text: a.earned ? `Unlocked: ${item.title}${own ? " (choose it in Settings)" : ""}` : `Locked: ${item.title}` }) : null));
      })));
  } catch (e) {
    box.replaceChildren(h("h2", { text: "Achievements and unlocks" }), errorBox(e));
  }
}

/** A guest keeps the record by choosing a name, a password and the name others see. */
function upgradeForm() {
  const un = h("input", { name: "username", autocomplete: "username", maxlength: "32" });
  const pw = h("input", { name: "new-password", type: "password", autocomplete: "new-password", maxlength: "200" });
  const shown = h("input", { name: "display_name", maxlength: "40", placeholder: session.account.display_name, autocomplete: "nickname" });
  const err = h("p", { class: "error", role: "alert" });
  const submit = h("button", { class: "btn primary", type: "submit", text: "Create account" });
  return h("form", { class: "panel stack upgrade", id: "keep-record", novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = credentialProblem(un.value.trim(), pw.value, "register") || "";
    if (err.textContent) return;
    const display = shown.value.trim();
    await busy(submit, "Creating your account\u2026", async () => {
      try {
        let acc = await api("/api/me/upgrade", { method: "POST", body: { name: un.value.trim(), password: pw.value, ...(display ? { display_name: display } : {}) } });
        // a card room that does not take the name with the upgrade gets it right after
        if (display && acc.display_name !== display) acc = await api("/api/me", { method: "PATCH", body: { display_name: display } });
        await setAccount(acc);
        toast(`Welcome, ${acc.display_name}: your guest record is now a full account.`);
        profilePage();
      } catch (x) {
        err.textContent = x.message;
      }
    });
  } }, h("h2", { text: "Keep your record" }),
    h("p", { class: "muted", text: "You are playing as a guest. Choose a name and a password to keep your games and rating, and the name other players see." }),
    h("label", {}, "Name (to sign in)", un), h("label", {}, "Password (8 characters or more)", pw),
    h("label", {}, "Name shown at the table", shown, h("small", { class: "help", text: `Leave it empty to stay \u201c${session.account.display_name}\u201d.` })),
    err, submit);
}

/** Sign out; a guest is told first that the record goes with the session. */
export async function signOut() {
  if (session.account && session.account.guest) {
    const choice = await modal({
      title: "Sign out of a guest account?",
      body: h("p", { text: "A guest has no password: once you sign out, this guest's games, statistics and rating cannot be reached again. Set a password first to keep them." }),
      buttons: [
        { text: "Set a password", value: "keep", class: "btn primary" },
        { text: "Sign out anyway", value: "out", class: "btn danger" },
        { text: "Stay", value: null, class: "btn ghost" },
      ],
    });
    if (choice === "keep") {
      const f = document.getElementById("keep-record");
      if (f) {
        f.scrollIntoView({ block: "start" });
        f.querySelector("input").focus();
      }
      return;
    }
    if (choice !== "out") return;
  }
  await api("/api/auth/logout", { method: "POST" }).catch(() => {});
  await setAccount(null);
  navigate("#/signin");
}

/** The deck items this account has not unlocked: id -> what unlocks it (signed out,
 * every lockable item, to be earned once signed in). */
async function lockedDecks() {
  if (!session.account) {
    const all = await api("/api/decks").catch(() => []);
    return new Map(all.map((d) => [d.id, `Sign in, then: ${d.how}`]));
  }
  const p = await api(`/api/accounts/${session.account.id}/achievements`).catch(() => ({ decks: [] }));
  return new Map(p.decks.filter((d) => !d.unlocked).map((d) => [d.id, d.how]));
}

export async function settingsPage() {
  const locked = await lockedDecks();
  settings.dropLocked(new Set(locked.keys()));
  const s = settings.get();
  const preview = h("div", { class: "preview", "aria-hidden": "true" });
  const drawPreview = () => {
    const c = settings.get();
    preview.innerHTML = ["8S", "KH", "QS", "JD", "AD", "7C"].map((x) => `<span class="mini-card big">${cardSVG(x, { face: c.face, fourColor: c.fourColor })}</span>`).join("") + `<span class="mini-card big">${backSVG()}</span>`;
  };
  const radio = (key, options) => h("fieldset", { class: "radios" }, h("legend", { text: { theme: "Felt", face: "Card faces", back: "Card backs", sort: "Sort hand by", speed: "Animation speed" }[key] }),
    options.map(([value, label]) => {
      const why = locked.get(`${key}:${value}`);
      return h("label", { class: why ? "locked" : null, title: why ? `Locked: ${why}` : null }, h("input", { type: "radio", name: key, value: String(value), disabled: !!why, checked: String(s[key]) === String(value), onchange: () => {
        settings.set({ [key]: key === "speed" ? Number(value) : value });
        drawPreview();
      } }), key === "back" ? h("span", { class: "mini-card", "aria-hidden": "true", html: backSVG({ back: value }) }) : null, ` ${label}`, why ? h("small", { class: "lock-reason", text: `Locked: ${why}` }) : null);
    }));
  const check = (key, label) => h("label", { class: "check" }, h("input", { type: "checkbox", name: key, checked: !!s[key], onchange: (e) => {
    settings.set({ [key]: e.target.checked });
    if (key === "music" || key === "muted") sound.unlock();
    drawPreview();
  } }), ` ${label}`);
  const vol = h("input", { type: "range", name: "volume", min: 0, max: 1, step: 0.05, value: s.volume, "aria-label": "Volume", onchange: (e) => {
    settings.set({ volume: Number(e.target.value) });
    sound.unlock();
    sound.snap();
  } });
  show(h("section", { class: "page settings" }, h("h1", { text: "Settings" }),
    h("p", { class: "muted", text: !session.account ? "Kept in this browser; sign in to keep them with your account." : settings.storedIn() === "account" ? `Kept with ${session.account.display_name}'s account, on every browser.` : `Kept for ${session.account.display_name} in this browser.` }),
    h("div", { class: "two-col" },
      h("div", { class: "panel stack" }, radio("theme", settings.THEMES), radio("face", settings.FACES), radio("back", settings.BACK_NAMES), check("fourColor", "Four-colour deck (blue diamonds, green clubs)"), preview),
      h("div", { class: "panel stack" },
        h("fieldset", { class: "radios" }, h("legend", { text: "Sound" }), h("label", {}, "Volume ", vol), check("muted", "Mute"), check("music", "Soft jazz-piano background"),
          h("div", { class: "row" }, sound.SOUNDS.map((n) => h("button", { class: "btn small ghost", type: "button", text: `Test ${n}`, onclick: () => {
            sound.unlock();
            sound[n]();
          } })))),
        radio("speed", [[0.5, "Slow"], [1, "Normal"], [2, "Fast"], [0, "Off"]]),
        radio("sort", [["suit", "Suit"], ["rank", "Rank"], ["custom", "My own order (drag cards)"]]),
        check("oneClick", "A click on a playable card plays it (off: click selects, click again plays)"),
        check("autoCall", "Call \u201clast card\u201d for me at tables with hints on"),
        check("reactions", "Show reactions at the table (off: mute everyone's)"),
        check("spectatorReactions", "Show spectators' reactions too"),
        check("notifyOnline", "Tell me when a friend comes online"),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "browserNotices", checked: !!s.browserNotices, onchange: async (e) => {
          const wanted = e.target.checked;
          const on = wanted && (await allowBrowserNotices());
          e.target.checked = on;
          settings.set({ browserNotices: on });
          if (wanted && !on) toast("The browser did not allow notifications.", "error");
        } }), " Browser notifications of invitations, challenges and requests while the tab is hidden"),
        check("tutorialDone", "I have done the tutorial")))));
  drawPreview();
}
