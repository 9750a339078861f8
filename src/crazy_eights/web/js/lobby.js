// The lobby: tables to join, quick play, and the form that makes a table.
import { api, botLevels, closeSocket, closedForBan, rulesets, socketURL } from "./api.js";
import { channelOf } from "./chatlink.js";
import { RULESET_BLURB, RULESET_TITLES, SETTING_LABELS, SETTING_TEXT, valueLabel } from "./howto.js";
import { aboutMinutes, defaultLength, lengthChoices, lengthRules, lengthWords, QUICK_LENGTHS } from "./lengths.js";
import { friendsPanel } from "./friends.js";
import { botBadge, levelHelp, levelName, nameWithBadges } from "./people.js";
import { joinQueue, leaveQueue, resumeQueue } from "./queue.js";
import * as settings from "./settings.js";
import { busy, h, toast } from "./ui.js";
import { RULESETS, session, navigate, needAccount, show, errorBox, onLeave } from "./shell.js";

export function lobbyPage() {
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
      const mine = session.account && t.seats.some((s) => s.account === session.account.id);
      const free = t.status === "open" && taken < t.seats.length;
      const seated = t.seats.filter((s) => s.name);
      // a table a chat host plays: "in #cards", watched here, played there
      const where = t.place ? ` \u00b7 in ${channelOf(t.place)}` : "";
      const rating = t.rated ? " \u00b7 rated" : t.place ? " \u00b7 unrated" : " \u00b7 hints, unrated";
      return h("li", { class: "table-item", dataset: { id: t.id, place: t.place || "" } },
        h("div", { class: "table-about" },
          h("div", {}, h("strong", { text: t.name }), h("span", { class: "muted", text: ` ${RULESET_TITLES[t.ruleset]} \u00b7 ${lengthWords(t.rules)} \u00b7 ${taken}/${t.seats.length} seated \u00b7 ${t.status}${rating}${where}` })),
          h("ul", { class: "seat-names", "aria-label": "Players" }, seated.map((s) => h("li", {}, nameWithBadges(s.name, s))))),
        h("div", { class: "row" },
          mine && !t.place ? h("a", { class: "btn small primary", href: `#/table/${t.id}`, text: "Return" }) : null,
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
  const waitBox = h("div", { class: "queue-box" });
  const friendsBox = h("section", { class: "panel friends-panel", "aria-label": "Friends" });
  const quick = async (ruleset, length, button) => {
    if (!(await needAccount("#/"))) return;
    await busy(button, "Joining the queue\u2026", () => joinQueue(waitBox, ruleset, length));
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
    waitBox,
    h("div", { class: "quick" }, RULESETS.map((r) => h("div", { class: "quick-card" },
      h("h3", { text: RULESET_TITLES[r] }), h("p", { text: RULESET_BLURB[r] }),
      h("div", { class: "quick-lengths" }, quickButtons(r)),
      h("a", { class: "btn ghost small", href: `#/howto/${r}`, text: "How to play" })))),
    h("div", { class: "two-col" },
      h("section", { class: "panel" }, h("h2", { text: "Open tables" }), list, h("h3", { text: "Join by invite" }), inviteForm),
      h("section", { class: "panel" }, h("h2", { text: "Create a table" }), formBox)),
    friendsBox));
  const friends = friendsPanel(friendsBox);
  drawList();
  createForm(formBox);
  resumeQueue(waitBox);
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
      else if (msg.type === "presence") return friends.presence(msg.presence);
      else if (msg.type === "friends_changed") return friends.refresh();
      drawList();
    };
    ws.onclose = (e) => {
      if (closedForBan(e)) return;
      if (!closed) setTimeout(() => !closed && connect(), 2000);
    };
  };
  connect();
  // say "active" (ends "away" for friends) when the person does something, once a minute
  let lastActive = 0;
  const active = () => {
    if (Date.now() - lastActive < 60_000 || !ws || ws.readyState !== WebSocket.OPEN) return;
    lastActive = Date.now();
    ws.send(JSON.stringify({ type: "active" }));
  };
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, active, { passive: true });
  onLeave(() => {
    closed = true;
    for (const kind of ["pointerdown", "keydown"]) document.removeEventListener(kind, active);
    friends.stop();
    leaveQueue();
    if (ws) closeSocket(ws);
  });
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
      levels.map((l) => h("option", { value: l, text: `${levelName(l)} bot (${levelHelp(l)})`, selected: (old ?? levels[Math.min(1, levels.length - 1)]) === l })));
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
    ? h("select", { name }, s.choices.map((c) => h("option", { value: JSON.stringify(c), text: valueLabel(c, name), selected: c === s.default })))
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
