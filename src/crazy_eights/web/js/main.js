// The app shell: hash router, navigation and every page except the table itself.
import { api, botLevels, currentAccount, rulesets, socketURL } from "./api.js";
import { backSVG, cardName, cardSVG, SUIT_NAMES } from "./cards.js";
import { howToPlay, RULESET_BLURB, RULESET_TITLES, SETTING_LABELS, SETTING_TEXT, valueLabel } from "./howto.js";
import { aboutMinutes, defaultLength, lengthChoices, lengthRules, lengthWords, QUICK_LENGTHS } from "./lengths.js";
import { botBadge, levelHelp, levelName, nameWithBadges } from "./people.js";
import * as settings from "./settings.js";
import * as sound from "./sound.js";
import { TableView } from "./table.js";
import { Coach } from "./tutorial.js";
import { AVATARS, avatarSVG, busy, h, modal, toast } from "./ui.js";

const RULESETS = ["classic", "ultimate", "countdown", "cycles"];
const main = document.getElementById("main");
let account = null;
let page = null; // the current page's cleanup

function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function setAccount(acc) {
  account = acc;
  // Only ask /api/me when a session may exist: a 401 shows as a console error.
  if (acc) localStorage.setItem("ce.session", "1");
  else localStorage.removeItem("ce.session");
  renderNav();
  return settings.useAccount(acc);
}

const NAV = [["#/", "Lobby", "Lobby"], ["#/leaders/classic", "Leaderboards", "Leaders"], ["#/history", "History", "History"], ["#/howto/classic", "How to play", "Rules"], ["#/settings", "Settings", "Settings"]];

/** On a narrow screen the navigation may still scroll sideways: fade the edge that has
 * more links behind it, so it shows that it scrolls. */
function navHint() {
  const nav = document.getElementById("nav");
  const more = nav.scrollWidth - nav.clientWidth - nav.scrollLeft > 2;
  nav.classList.toggle("more-right", more);
  nav.classList.toggle("more-left", nav.scrollLeft > 2);
}

function renderNav() {
  const nav = document.getElementById("nav");
  // phones show the short names (all five fit at 360 px); the link keeps the full name
  nav.replaceChildren(...NAV.map(([href, text, short]) => text === short ? h("a", { href, text }) : h("a", { href, "aria-label": text },
    h("span", { class: "long", text }), h("span", { class: "short", "aria-hidden": "true", text: short }))));
  requestAnimationFrame(navHint);
  const me = document.getElementById("me");
  if (account) {
    me.replaceChildren(h("a", { href: "#/profile", class: "me-link", "aria-label": `Profile of ${account.display_name}` }, h("span", { html: avatarSVG(account.avatar, account.display_name, 28) }), h("span", { class: "me-name", text: account.display_name })));
  } else {
    me.replaceChildren(h("a", { href: "#/signin", class: "btn small", text: "Sign in" }));
  }
  const current = location.hash || "#/";
  for (const a of nav.children) a.toggleAttribute("aria-current", current.startsWith(a.getAttribute("href").replace(/\/classic$/, "")) && a.getAttribute("href") !== "#/" ? true : current === a.getAttribute("href"));
}

async function needAccount(next) {
  if (account) return true;
  sessionStorage.setItem("ce.next", next || location.hash);
  navigate("#/signin");
  return false;
}

function show(...nodes) {
  main.replaceChildren(...nodes);
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

function errorBox(err) {
  return h("p", { class: "error", role: "alert", text: err.message || String(err) });
}

// -- sign in --------------------------------------------------------------------------------

// What the card room accepts for a name and a password (auth.py), checked before sending
// so that a mistake is told as a sentence at once.
const NAME_RULE = /^[A-Za-z0-9_.-]{3,32}$/;

function credentialProblem(name, password, mode) {
  if (!name) return "Please enter your name.";
  if (mode === "register" && !NAME_RULE.test(name)) return "A name has 3 to 32 letters, digits, dots, dashes or underscores, and no spaces.";
  if (!password) return "Please enter your password.";
  if (mode === "register" && password.length < 8) return "Choose a password of at least 8 characters.";
  return null;
}

function signInPage() {
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
    err, h("div", { class: "two-col" }, form("login"), form("register"))));
}

// -- lobby ------------------------------------------------------------------------------------

function lobbyPage() {
  const tables = new Map();
  const list = h("ul", { class: "table-list", "aria-live": "polite" });
  const formBox = h("div");
  const drawList = () => {
    const items = [...tables.values()].sort((a, b) => b.created_at - a.created_at);
    if (!items.length) {
      list.replaceChildren(h("li", { class: "muted", text: "No open tables right now. Start one!" }));
      return;
    }
    list.replaceChildren(...items.map((t) => {
      const taken = t.seats.filter((s) => s.name).length;
      const mine = account && t.seats.some((s) => s.account === account.id);
      const free = t.status === "open" && taken < t.seats.length;
      const seated = t.seats.filter((s) => s.name);
      return h("li", { class: "table-item", dataset: { id: t.id } },
        h("div", { class: "table-about" },
          h("div", {}, h("strong", { text: t.name }), h("span", { class: "muted", text: ` ${RULESET_TITLES[t.ruleset]} \u00b7 ${lengthWords(t.rules)} \u00b7 ${taken}/${t.seats.length} seated \u00b7 ${t.status}${t.rated ? " \u00b7 rated" : ""}` })),
          h("ul", { class: "seat-names", "aria-label": "Players" }, seated.map((s) => h("li", {}, nameWithBadges(s.name, { bot: s.bot }))))),
        h("div", { class: "row" },
          mine ? h("a", { class: "btn small primary", href: `#/table/${t.id}`, text: "Return" }) : null,
          !mine && free ? h("button", { class: "btn small primary", type: "button", text: "Join", onclick: () => join(t.id) }) : null,
          h("a", { class: "btn small ghost", href: `#/table/${t.id}`, text: "Watch" })));
    }));
  };
  const join = async (id, code = null) => {
    if (!(await needAccount(`#/table/${id}`))) return;
    try {
      await api(`/api/tables/${id}/sit`, { method: "POST", body: code ? { code } : {} });
      navigate(`#/table/${id}${code ? `?code=${code}` : ""}`);
    } catch (e) {
      toast(e.message, "error");
    }
  };
  const quick = async (ruleset, length, button) => {
    if (!(await needAccount("#/"))) return;
    // the chosen length goes along as rules: {ruleset, mode, target...}
    await busy(button, "Finding a table\u2026", async () => {
      try {
        const t = await api("/api/quickplay", { method: "POST", body: { ruleset, ...length.rules } });
        navigate(`#/table/${t.id}`);
      } catch (e) {
        toast(e.message, "error");
      }
    });
  };
  const quickButtons = (r) => QUICK_LENGTHS[r].map((len) => {
    const button = h("button", { class: "btn primary quick-length", type: "button", dataset: { quick: r, length: len.key }, "aria-label": `Play ${RULESET_TITLES[r]}: ${len.label}${len.detail ? `, ${len.detail}` : ""}, ${aboutMinutes(len.minutes)}`, onclick: () => quick(r, len, button) },
      h("span", { class: "ql-label", text: len.label }),
      h("span", { class: "ql-detail", text: `${len.detail ? `${len.detail} \u00b7 ` : ""}${aboutMinutes(len.minutes)}` }));
    return button;
  });
  const inviteInput = h("input", { placeholder: "Invite link or code", "aria-label": "Invite link or code" });
  const inviteForm = h("form", { class: "row", onsubmit: (e) => {
    e.preventDefault();
    const v = inviteInput.value.trim();
    const code = v.includes("/invite/") ? v.split("/invite/")[1] : v;
    if (code) navigate(`#/invite/${encodeURIComponent(code)}`);
  } }, inviteInput, h("button", { class: "btn", type: "submit", text: "Join" }));
  const tutorial = !settings.get().tutorialDone ? h("div", { class: "banner" }, h("span", { text: "New to Crazy Eights? Play a guided first game against one bot." }), h("a", { class: "btn primary small", href: "#/tutorial", text: "Start the tutorial" })) : null;
  show(h("section", { class: "page lobby" },
    tutorial,
    h("h1", { text: "Card room" }),
    h("h2", { text: "Quick play" }),
    h("div", { class: "quick" }, RULESETS.map((r) => h("div", { class: "quick-card" },
      h("h3", { text: RULESET_TITLES[r] }), h("p", { text: RULESET_BLURB[r] }),
      h("div", { class: "quick-lengths" }, quickButtons(r)),
      h("a", { class: "btn ghost small", href: `#/howto/${r}`, text: "How to play" })))),
    h("div", { class: "two-col" },
      h("section", { class: "panel" }, h("h2", { text: "Open tables" }), list, h("h3", { text: "Join by invite" }), inviteForm),
      h("section", { class: "panel" }, h("h2", { text: "Create a table" }), formBox))));
  drawList();
  createForm(formBox);
  let ws = null;
  let closed = false;
  const connect = () => {
    ws = new WebSocket(socketURL("/ws/lobby"));
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "tables") {
        tables.clear();
        for (const t of msg.tables) tables.set(t.id, t);
      } else if (msg.type === "table") tables.set(msg.table.id, msg.table);
      else if (msg.type === "removed") tables.delete(msg.id);
      drawList();
    };
    ws.onclose = () => {
      if (!closed) setTimeout(() => !closed && connect(), 2000);
    };
  };
  connect();
  page = () => {
    closed = true;
    if (ws) ws.close();
  };
}

async function createForm(box) {
  let all;
  let levels;
  try {
    all = await rulesets();
    levels = (await botLevels()) || ["random", "heuristic"];
  } catch (e) {
    box.replaceChildren(errorBox(e));
    return;
  }
  const rsSelect = h("select", { name: "ruleset", "aria-label": "Ruleset" }, RULESETS.map((r) => h("option", { value: r, text: RULESET_TITLES[r] })));
  const fields = h("div", { class: "fields" });
  const seats = h("div", { class: "fields" });
  const nameIn = h("input", { name: "name", maxlength: "60", placeholder: "Table name (optional)" });
  const pub = h("input", { type: "checkbox", name: "public", checked: true });
  const hints = h("input", { type: "checkbox", name: "hints" });
  const err = h("p", { class: "error", role: "alert" });
  const controls = {};
  const seatRow = (i, old) => {
    const select = h("select", { name: `seat${i + 1}`, "aria-label": `Seat ${i + 2}` }, h("option", { value: "", text: "Open for a person" }),
      levels.map((l) => h("option", { value: l, text: `Bot \u00b7 ${levelName(l)} (${levelHelp(l)})`, selected: (old ?? levels[Math.min(1, levels.length - 1)]) === l })));
    const badge = h("span", { class: "seat-badge" });
    const drawBadge = () => badge.replaceChildren(select.value ? botBadge(select.value) : h("span", { class: "muted", text: "a person" }));
    select.addEventListener("change", drawBadge);
    drawBadge();
    return h("label", { class: "field seat-field" }, h("span", { class: "flabel" }, `Seat ${i + 2} `, badge), select);
  };
  const drawSeats = () => {
    const n = Number(controls.players ? controls.players.value : 4);
    const old = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren(h("p", { class: "muted", text: "Seat 1 is yours. Other seats: an open seat for a person, or a bot." }),
      ...Array.from({ length: n - 1 }, (_, i) => seatRow(i, old[i])));
  };
  const field = (name, input, label, help) => {
    const helpId = `help-${name}`;
    input.setAttribute("aria-describedby", helpId);
    return h("label", { class: "field" }, h("span", { class: "flabel", text: label }), input, h("small", { id: helpId, class: "help", text: help }));
  };
  const input = (name, s) => s.choices
    ? h("select", { name }, s.choices.map((c) => h("option", { value: JSON.stringify(c), text: valueLabel(c), selected: c === s.default })))
    : h("input", { type: "number", name, min: s.range[0], max: s.range[1], value: s.default, required: true });
  // mode and target are one choice in words ("Single round", "Match to 200 points"); the
  // target's own field shows only for a score of one's own
  const lengthField = (info) => {
    const select = h("select", { name: "length" }, lengthChoices(info).map(([value, text]) => h("option", { value, text, selected: value === defaultLength(info) })));
    controls.length = select;
    const parts = [field("length", select, "Game length", "How long the game lasts: one round, or rounds until someone reaches the score.")];
    if (info.target) {
      const target = input("target", info.target);
      controls.target = target;
      const box = field("target", target, "Match target (points)", `Any score from ${info.target.range[0]} to ${info.target.range[1]}.`);
      const sync = () => {
        box.hidden = select.value !== "match:other";
      };
      select.addEventListener("change", sync);
      sync();
      parts.push(box);
    }
    return parts;
  };
  const drawFields = () => {
    const info = all[rsSelect.value];
    for (const k of Object.keys(controls)) delete controls[k];
    // how many play and for how long come first; the finer rules follow
    const first = ["players", "mode"];
    const entries = Object.entries(info).sort(([a], [b]) => (first.includes(b) ? 1 : 0) - (first.includes(a) ? 1 : 0) || first.indexOf(a) - first.indexOf(b));
    fields.replaceChildren(...entries.flatMap(([name, s]) => {
      if (name === "target") return [];
      if (name === "mode") return lengthField(info);
      const el = input(name, s);
      controls[name] = el;
      return [field(name, el, SETTING_LABELS[name] || name, `${SETTING_TEXT[name] || ""} (${s.help})`)];
    }));
    if (controls.players) controls.players.addEventListener("input", drawSeats);
    drawSeats();
  };
  rsSelect.addEventListener("change", drawFields);
  const submit = h("button", { class: "btn primary", type: "submit", text: "Create table" });
  const form = h("form", { class: "create-form stack", novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = "";
    if (!(await needAccount("#/"))) return;
    const rules = { ruleset: rsSelect.value };
    for (const [name, el] of Object.entries(controls)) {
      if (name === "length" || name === "target") continue;
      if (el.tagName !== "SELECT" && !el.checkValidity()) {
        err.textContent = `${SETTING_LABELS[name] || name} must be a whole number from ${el.min} to ${el.max}.`;
        return;
      }
      rules[name] = el.tagName === "SELECT" ? JSON.parse(el.value) : Number(el.value);
    }
    if (controls.length) {
      if (controls.length.value === "match:other" && !controls.target.checkValidity()) {
        err.textContent = `The match target must be a whole number of points from ${controls.target.min} to ${controls.target.max}.`;
        return;
      }
      Object.assign(rules, lengthRules(controls.length.value, controls.target && controls.target.value));
    }
    const bots = [...seats.querySelectorAll("select")].map((s, i) => ({ seat: i + 1, level: s.value })).filter((b) => b.level);
    const body = { rules, bots, public: pub.checked, hints: hints.checked };
    if (nameIn.value.trim()) body.name = nameIn.value.trim();
    await busy(submit, "Creating the table\u2026", async () => {
      try {
        const t = await api("/api/tables", { method: "POST", body });
        if (t.invite) sessionStorage.setItem(`ce.invite.${t.id}`, t.invite);
        navigate(`#/table/${t.id}`);
      } catch (x) {
        err.textContent = x.message;
      }
    });
  } },
    h("label", { class: "field" }, h("span", { class: "flabel", text: "Ruleset" }), rsSelect),
    nameIn, fields,
    h("details", { open: true }, h("summary", { text: "Seats" }), seats),
    h("label", { class: "check" }, pub, " Public (listed in the lobby; otherwise invite link only)"),
    h("label", { class: "check" }, hints, " Hints allowed (the table is then not rated)"),
    err, submit);
  box.replaceChildren(form);
  drawFields();
}

// -- table, invite, tutorial ---------------------------------------------------------------

function tablePage(id, query, coach = null) {
  const root = h("div", { class: "table-root" });
  show(root);
  document.body.classList.add("at-table");
  const view = new TableView(root, { tableId: id, code: query.get("code"), account, coach, navigate });
  page = () => {
    view.destroy();
    document.body.classList.remove("at-table");
    if (coach) coach.destroy();
  };
}

async function invitePage(code) {
  if (!(await needAccount(`#/invite/${code}`))) return;
  show(h("section", { class: "page" }, h("p", { text: "Opening the invitation\u2026" })));
  let t;
  try {
    t = await api(`/api/invite/${encodeURIComponent(code)}`);
  } catch (e) {
    show(h("section", { class: "page" }, h("h1", { text: "Invitation" }), errorBox(e), h("a", { href: "#/", text: "Back to the lobby" })));
    return;
  }
  const watch = `#/table/${t.id}?code=${encodeURIComponent(code)}`;
  if (t.seats.some((s) => s.account === account.id)) return navigate(watch);
  const started = t.status !== "open";
  let problem = started ? "This game has already started, so there is no seat for you; you can watch it." : null;
  if (!problem && t.seats.every((s) => s.name)) problem = "Every seat at this table is taken; you can watch the game.";
  if (!problem) {
    try {
      await api(`/api/tables/${t.id}/sit`, { method: "POST", body: { code } });
      return navigate(watch);
    } catch (e) {
      problem = e.status === 409 ? "There is no seat left for you at this table; you can watch the game." : e.message;
    }
  }
  // a started or full table: the invitation still lets you watch
  show(h("section", { class: "page invite-closed" }, h("h1", { text: t.name }),
    h("p", { class: "lead", text: problem }),
    h("ul", { class: "seat-names" }, t.seats.filter((s) => s.name).map((s) => h("li", {}, nameWithBadges(s.name, { bot: s.bot })))),
    h("div", { class: "row" }, h("a", { class: "btn primary", href: watch, text: "Watch" }), h("a", { class: "btn ghost", href: "#/", text: "Back to the lobby" }))));
}

async function tutorialPage() {
  if (!(await needAccount("#/tutorial"))) return;
  try {
    const t = await api("/api/tables", {
      method: "POST",
      body: {
        rules: { ruleset: "classic", players: 2, mode: "single", last_card: "manual", turn_timer: 3600 },
        bots: [{ seat: 1, level: "random" }],
        public: false,
        hints: true,
        name: "Tutorial",
      },
    });
    tablePage(t.id, new URLSearchParams(), new Coach(() => settings.set({ tutorialDone: true })));
  } catch (e) {
    show(h("section", { class: "page" }, errorBox(e)));
  }
}

// -- how to play ----------------------------------------------------------------------------

async function howtoPage(ruleset) {
  if (!RULESETS.includes(ruleset)) ruleset = "classic";
  const all = await rulesets().catch(() => ({}));
  show(h("section", { class: "page" }, h("h1", { text: "How to play" }),
    h("nav", { class: "tabs", "aria-label": "Rulesets" }, RULESETS.map((r) => h("a", { href: `#/howto/${r}`, text: RULESET_TITLES[r], "aria-current": r === ruleset ? "page" : null }))),
    howToPlay(ruleset, all[ruleset]),
    h("p", {}, h("a", { class: "btn primary", href: "#/tutorial", text: "Try the guided tutorial" }))));
}

// -- profile ----------------------------------------------------------------------------------

async function profilePage(id) {
  if (!id && !(await needAccount("#/profile"))) return;
  const accountId = id ? Number(id) : account.id;
  const own = account && accountId === account.id;
  const box = h("section", { class: "page profile" }, h("h1", { text: own ? "Your profile" : "Profile" }));
  show(box);
  if (own) {
    const name = h("input", { value: account.display_name, maxlength: "32", "aria-label": "Display name" });
    const avatars = h("div", { class: "avatars", role: "radiogroup", "aria-label": "Avatar" }, AVATARS.map((a) => h("button", {
      type: "button", class: `avatar-pick${a === account.avatar ? " on" : ""}`, role: "radio", "aria-checked": String(a === account.avatar), "aria-label": a, dataset: { avatar: a },
      html: avatarSVG(a, account.display_name, 40),
      onclick: (e) => {
        for (const b of avatars.children) {
          b.classList.toggle("on", b === e.currentTarget);
          b.setAttribute("aria-checked", String(b === e.currentTarget));
        }
      },
    })));
    const save = h("button", { class: "btn primary", type: "button", text: "Save", onclick: async () => {
      try {
        const avatar = avatars.querySelector(".on")?.dataset.avatar || account.avatar;
        setAccount(await api("/api/me", { method: "PATCH", body: { display_name: name.value, avatar } }));
        toast("Saved");
      } catch (e) {
        toast(e.message, "error");
      }
    } });
    box.append(h("div", { class: "panel stack" }, h("div", { class: "row" }, h("span", { html: avatarSVG(account.avatar, account.display_name, 64) }), h("div", {}, h("strong", { text: account.display_name }), h("div", { class: "muted", text: `${account.name}${account.guest ? " (guest)" : ""}` }))),
      h("label", { class: "field" }, "Display name", name), avatars, save));
    if (account.guest) box.append(upgradeForm());
  }
  // statistics sit in their place before anything below is added, whenever they arrive
  const stats = h("section", { class: "panel stats" }, h("h2", { text: "Statistics" }), h("p", { class: "muted", text: "Loading\u2026" }));
  box.append(stats);
  if (own) box.append(h("div", { class: "signout-row" }, h("button", { class: "btn ghost", type: "button", text: "Sign out", onclick: () => signOut() })));
  try {
    const rec = await api(`/api/accounts/${accountId}/records`);
    const rows = (rec.records || []).map((r) => h("tr", {}, h("th", { scope: "row", text: RULESET_TITLES[r.ruleset] || r.ruleset }), h("td", { text: r.games }), h("td", { text: r.wins }), h("td", { text: `${Math.round(r.win_rate * 100)}%` }), h("td", { text: r.points }), h("td", { text: r.streak }), h("td", { text: r.best_streak }), h("td", { text: r.rating ? ratingText(r.rating) : "" })));
    stats.replaceChildren(h("h2", { text: "Statistics" }),
      rows.length ? h("div", { class: "scroll-x" }, h("table", { class: "data" }, h("thead", {}, h("tr", {}, ["Ruleset", "Games", "Wins", "Win rate", "Points", "Streak", "Best streak", "Rating"].map((t) => h("th", { scope: "col", text: t })))), h("tbody", {}, rows))) : h("p", { class: "muted", text: "No finished games yet." }));
  } catch (e) {
    stats.replaceChildren(h("h2", { text: "Statistics" }), errorBox(e));
  }
}

/** A guest keeps the record by choosing a name, a password and the name others see. */
function upgradeForm() {
  const un = h("input", { name: "username", autocomplete: "username", maxlength: "32" });
  const pw = h("input", { name: "new-password", type: "password", autocomplete: "new-password", maxlength: "200" });
  const shown = h("input", { name: "display_name", maxlength: "40", placeholder: account.display_name, autocomplete: "nickname" });
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
    h("label", {}, "Name shown at the table", shown, h("small", { class: "help", text: `Leave it empty to stay \u201c${account.display_name}\u201d.` })),
    err, submit);
}

/** Sign out; a guest is told first that the record goes with the session. */
async function signOut() {
  if (account && account.guest) {
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

/** A rating people read: the server's display figure (never negative). */
function ratingText(rating) {
  return String(rating.display ?? "");
}

// -- leaderboards and history -----------------------------------------------------------------

async function leadersPage(ruleset) {
  if (!RULESETS.includes(ruleset)) ruleset = "classic";
  const box = h("section", { class: "page" }, h("h1", { text: "Leaderboards" }),
    h("nav", { class: "tabs", "aria-label": "Rulesets" }, RULESETS.map((r) => h("a", { href: `#/leaders/${r}`, text: RULESET_TITLES[r], "aria-current": r === ruleset ? "page" : null }))));
  show(box);
  try {
    const rows = await api(`/api/leaderboard/${ruleset}?limit=100`);
    box.append(rows.length ? h("div", { class: "scroll-x" }, h("table", { class: "data leaders" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Wins", "Win rate"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows.map((r) => h("tr", { class: account && r.account === account.id ? "me" : "" },
        h("td", { text: r.rank }),
        h("td", {}, r.bot ? nameWithBadges(r.name, { bot: r.bot }) : h("a", { href: `#/profile/${r.account}` }, nameWithBadges(r.name, { guest: !!r.guest }))),
        h("td", { class: "rating", text: ratingText(r.rating) }), h("td", { text: r.games }), h("td", { text: r.wins }), h("td", { text: `${Math.round(r.win_rate * 100)}%` })))))) : h("p", { class: "muted", text: "No rated games in this ruleset yet." }));
    if (rows.length) box.append(h("p", { class: "muted small", text: "Ratings start at 1000 and rise as a player's results become surer and better (openskill, rated tables only). Bots are rated for their level." }));
  } catch (e) {
    box.append(errorBox(e));
  }
}

async function historyPage() {
  if (!(await needAccount("#/history"))) return;
  const box = h("section", { class: "page" }, h("h1", { text: "Match history" }));
  show(box);
  try {
    const games = await api(`/api/accounts/${account.id}/history?limit=50`);
    box.append(games.length ? h("ul", { class: "history" }, games.map((g) => h("li", { class: g.won ? "won" : "lost" },
      h("span", { class: "result", text: g.won ? "Won" : g.left ? "Left" : "Lost" }),
      h("span", {}, h("strong", { text: g.name }), h("span", { class: "muted", text: ` ${RULESET_TITLES[g.ruleset]} \u00b7 ${g.finished_at ? new Date(typeof g.finished_at === "number" ? g.finished_at * 1000 : g.finished_at).toLocaleString() : ""}${g.rated ? " \u00b7 rated" : ""}` })),
      h("a", { class: "btn small", href: `#/replay/${g.table}`, text: "Replay" })))) : h("p", { class: "muted", text: "No finished games yet." }));
  } catch (e) {
    box.append(errorBox(e));
  }
}

// -- replay viewer ----------------------------------------------------------------------------

async function replayPage(id) {
  const box = h("section", { class: "page replay" }, h("h1", { text: "Replay" }));
  show(box);
  let data;
  try {
    data = await api(`/api/tables/${id}/replay`);
  } catch (e) {
    box.append(errorBox(e));
    return;
  }
  const s = settings.get();
  // bots of one level may share a name: tell them apart by seat, as the table does
  const names = data.seats.map((x) => {
    const name = x.name || `Seat ${x.seat + 1}`;
    return data.seats.filter((y) => y.name === x.name).length > 1 ? `${name} ${x.seat + 1}` : name;
  });
  const describe = (move) => {
    if (move === "draw") return "draws";
    if (move === "pass") return "passes";
    if (move === "timeout") return "runs out of time";
    const [card, rest = ""] = move.split(":");
    const plain = card.replace("!", "");
    const suit = rest.replace("!", "");
    return `plays the ${cardName(plain)}${suit ? ` and names ${SUIT_NAMES[suit]}` : ""}${move.endsWith("!") ? ", calling last card" : ""}`;
  };
  let k = 0;
  let timer = null;
  const stage = h("div", { class: "replay-stage felt" });
  const slider = h("input", { type: "range", min: 0, max: data.steps.length - 1, value: 0, "aria-label": "Move number" });
  const label = h("span", { class: "muted", "aria-live": "polite" });
  const draw = () => {
    const step = data.steps[k];
    const v = step.view;
    slider.value = k;
    const what = step.move === null ? "Start of the game" : `Move ${k}: ${names[step.by] || "The table"} ${describe(step.move)}`;
    label.textContent = what;
    const center = v.ruleset === "cycles"
      ? h("div", { class: "cycle-cards" }, (v.cycle || []).map((c) => h("figure", { class: "cycle-card" }, h("div", { class: "cardbox", html: cardSVG(c.card, { face: s.face, fourColor: s.fourColor }) }), h("figcaption", { text: c.seat === "host" ? "Host" : names[c.seat] }))))
      : h("div", { class: "piles" }, h("div", { class: "pile stock", html: backSVG() }, h("span", { class: "pile-count", text: v.stock })), h("div", { class: "pile discard" }, h("div", { class: "top", html: cardSVG(v.top, { face: s.face, fourColor: s.fourColor }) })),
        v.declared ? h("div", { class: "suit-indicator", text: `Suit: ${SUIT_NAMES[v.active_suit]}` }) : null);
    stage.replaceChildren(center, h("div", { class: "replay-hands" }, (step.hands || []).map((hand, seat) => h("div", { class: `replay-hand${v.current === seat ? " current" : ""}` },
      h("div", { class: "pname" }, nameWithBadges(names[seat], { bot: data.seats[seat] && data.seats[seat].bot }), v.players && v.players[seat] && v.players[seat].score !== undefined ? ` \u00b7 ${v.players[seat].score} pts` : ""),
      h("div", { class: "mini-hand" }, hand.map((c) => h("span", { class: "mini-card", html: cardSVG(c, { face: s.face, fourColor: s.fourColor }) })))))));
  };
  const go = (n) => {
    k = Math.max(0, Math.min(data.steps.length - 1, n));
    draw();
  };
  const play = h("button", { class: "btn", type: "button", text: "\u25B6 Play", onclick: () => {
    if (timer) {
      clearInterval(timer);
      timer = null;
      play.textContent = "\u25B6 Play";
      return;
    }
    play.textContent = "\u275A\u275A Pause";
    timer = setInterval(() => {
      if (k >= data.steps.length - 1) play.click();
      else go(k + 1);
    }, 700);
  } });
  slider.addEventListener("input", () => go(Number(slider.value)));
  box.append(h("p", { class: "muted", text: `${RULESET_TITLES[data.rules.ruleset]} \u00b7 ${lengthWords(data.rules)}` }),
    h("ul", { class: "seat-names replay-seats", "aria-label": "Players" }, data.seats.map((x, seat) => h("li", {}, nameWithBadges(names[seat], { bot: x.bot })))),
    h("div", { class: "row controls" },
      h("button", { class: "btn", type: "button", text: "|\u25C0", "aria-label": "First move", onclick: () => go(0) }),
      h("button", { class: "btn", type: "button", text: "\u25C0", "aria-label": "Previous move", onclick: () => go(k - 1) }),
      play,
      h("button", { class: "btn", type: "button", text: "\u25B6\u25B6", "aria-label": "Next move", onclick: () => go(k + 1) }),
      h("button", { class: "btn", type: "button", text: "\u25B6|", "aria-label": "Last move", onclick: () => go(data.steps.length - 1) }),
      slider, label), stage);
  draw();
  page = () => timer && clearInterval(timer);
}

// -- settings ---------------------------------------------------------------------------------

function settingsPage() {
  const s = settings.get();
  const preview = h("div", { class: "preview", "aria-hidden": "true" });
  const drawPreview = () => {
    const c = settings.get();
    preview.innerHTML = ["8S", "KH", "QS", "JD", "AD", "7C"].map((x) => `<span class="mini-card big">${cardSVG(x, { face: c.face, fourColor: c.fourColor })}</span>`).join("") + `<span class="mini-card big">${backSVG()}</span>`;
  };
  const radio = (key, options) => h("fieldset", { class: "radios" }, h("legend", { text: { theme: "Felt", face: "Card faces", sort: "Sort hand by", speed: "Animation speed" }[key] }),
    options.map(([value, label]) => h("label", {}, h("input", { type: "radio", name: key, value: String(value), checked: String(s[key]) === String(value), onchange: () => {
      settings.set({ [key]: key === "speed" ? Number(value) : value });
      drawPreview();
    } }), ` ${label}`)));
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
    h("p", { class: "muted", text: !account ? "Kept in this browser; sign in to keep them with your account." : settings.storedIn() === "account" ? `Kept with ${account.display_name}'s account, on every browser.` : `Kept for ${account.display_name} in this browser.` }),
    h("div", { class: "two-col" },
      h("div", { class: "panel stack" }, radio("theme", settings.THEMES), radio("face", settings.FACES), check("fourColor", "Four-colour deck (blue diamonds, green clubs)"), preview),
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
        check("tutorialDone", "I have done the tutorial")))));
  drawPreview();
}

// -- router --------------------------------------------------------------------------------------

async function route() {
  if (page) {
    try {
      page();
    } catch {
      /* ignore */
    }
    page = null;
  }
  document.querySelectorAll(".backdrop").forEach((b) => b.remove());
  document.querySelectorAll(".fx-layer").forEach((l) => l.replaceChildren()); // no confetti left over
  const raw = (location.hash || "#/").slice(1);
  const [path, qs] = raw.split("?");
  const query = new URLSearchParams(qs || "");
  const parts = path.split("/").filter(Boolean);
  renderNav();
  try {
    switch (parts[0]) {
      case undefined:
        if (!account) return signInPage();
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
        return howtoPage(parts[1]);
      case "profile":
        return profilePage(parts[1]);
      case "leaders":
        return leadersPage(parts[1]);
      case "history":
        return historyPage();
      case "replay":
        return replayPage(parts[1]);
      case "settings":
        return settingsPage();
      default:
        show(h("section", { class: "page" }, h("h1", { text: "Not found" }), h("a", { href: "#/", text: "Back to the lobby" })));
    }
  } catch (e) {
    show(h("section", { class: "page" }, errorBox(e)));
  }
}

async function boot() {
  try {
    await setAccount(localStorage.getItem("ce.session") ? await currentAccount() : null);
  } catch {
    await setAccount(null);
  }
  window.addEventListener("hashchange", route);
  document.getElementById("nav").addEventListener("scroll", navHint, { passive: true });
  window.addEventListener("resize", navHint);
  document.addEventListener("pointerdown", () => sound.unlock(), { once: true });
  document.addEventListener("keydown", () => sound.unlock(), { once: true });
  route();
}

boot();
