// Reports and moderation: the Report dialog opened from a person's name (a reason from
// the short list and a few words; the table the page shows is attached, and the server
// adds its chat lines and replay), the moderators' page (#/moderation: reports, mutes and
// bans in force, acting by name, the audit log), and what a banned person's tab is told
// when the server closes its sockets (code 4030, the reason says until when and why).
import { api } from "./api.js";
import { navigate, session, setAccount, show } from "./shell.js";
import { h, modal, toast } from "./ui.js";

/** The reasons of the server's list (reports.py REASONS), in words. */
export const REASONS = [["abuse", "Abusive chat"], ["cheating", "Cheating or colluding"], ["stalling", "Stalling"], ["name", "Offensive name"], ["other", "Other"]];
const MAX_TEXT = 1000;

/** The table the page shows (playing, watching or its replay), if any: a report from a
 * name there attaches it. */
function tableShown() {
  const m = /^#\/(?:table|replay)\/([\w-]+)/.exec(location.hash);
  return m ? m[1] : null;
}

/** Ask why, then report a person; says what happened in a toast. */
export async function reportPerson(account, name) {
  const reason = h("select", { name: "reason", "aria-label": "Reason" }, REASONS.map(([value, text]) => h("option", { value, text })));
  const text = h("textarea", { name: "text", maxlength: String(MAX_TEXT), rows: "3", placeholder: "What happened (optional)", "aria-label": "What happened" });
  const table = tableShown();
  const body = h("div", { class: "stack" },
    h("label", {}, "Reason", reason), h("label", {}, "What happened", text),
    h("p", { class: "muted small", text: table ? "This table, its recent chat and its replay are attached for the moderators." : "A moderator will look at it." }));
  const choice = await modal({ title: `Report ${name}`, className: "report-dialog", body,
    buttons: [{ text: "Send report", value: "send", class: "btn danger" }, { text: "Cancel", value: null, class: "btn ghost" }] });
  if (choice !== "send") return null;
  try {
    const out = await api("/api/reports", { method: "POST", body: { account, reason: reason.value, text: text.value.slice(0, MAX_TEXT), ...(table ? { table } : {}) } });
    toast(`Thank you: your report on ${name} was sent to the moderators.`);
    return out;
  } catch (e) {
    toast(e.message, "error");
    return null;
  }
}

/** Once, at start: a ban heard on any socket signs this tab out and shows the reason. */
export function listenForBans() {
  document.addEventListener("ce-banned", (e) => {
    sessionStorage.setItem("ce.banned", e.detail);
    if (session.account) setAccount(null);
    navigate("#/signin");
  });
}

/** The reason a ban closed this tab's sockets, once (the sign-in page shows it). */
export function bannedNotice() {
  const text = sessionStorage.getItem("ce.banned");
  if (!text) return null;
  sessionStorage.removeItem("ce.banned");
  return h("p", { class: "error banned-notice", role: "alert", text });
}

const when = (t) => new Date(t * 1000).toLocaleString();
const MUTES = [[15, "15 minutes"], [60, "1 hour"], [24 * 60, "1 day"], [7 * 24 * 60, "7 days"]];
const BANS = [[1, "1 day"], [3, "3 days"], [7, "7 days"], [30, "30 days"], [365, "1 year"]];

/** Ask for a duration and a reason; null when cancelled. */
async function askSanction(kind, name, reasonText) {
  const choices = kind === "ban" ? BANS : MUTES;
  const length = h("select", { name: "length", "aria-label": "For how long" }, choices.map(([value, text]) => h("option", { value: String(value), text })));
  const reason = h("input", { name: "reason", maxlength: "500", value: reasonText || "" });
  const words = kind === "ban" ? "Their sessions end, their open pages are told why, and they can't sign in until it ends." : "Their chat lines at tables are refused until it ends.";
  const choice = await modal({ title: `${kind === "ban" ? "Ban" : "Mute"} ${name}`, className: "sanction-dialog",
    body: h("div", { class: "stack" }, h("p", { class: "muted", text: words }), h("label", {}, "For how long", length), h("label", {}, "Reason (kept in the audit log)", reason)),
    buttons: [{ text: kind === "ban" ? "Ban" : "Mute", value: "go", class: "btn danger" }, { text: "Cancel", value: null, class: "btn ghost" }] });
  if (choice !== "go") return null;
  return { [kind === "ban" ? "days" : "minutes"]: Number(length.value), reason: reason.value.trim() };
}

/** The moderators' page: reports, sanctions in force, acting by name, the audit log. */
export async function moderationPage() {
  const roles = session.account ? await api("/api/me/roles").catch(() => ({ roles: [] })) : { roles: [] };
  if (!roles.roles.includes("moderator")) {
    show(h("section", { class: "page" }, h("h1", { text: "Moderation" }), h("p", { class: "error", role: "alert", text: "Only moderators may see this page." })));
    return;
  }
  const state = { status: "open" };
  const reportsBox = h("div", { class: "reports" });
  const sanctionsBox = h("div", { class: "sanctions" });
  const auditBox = h("div", { class: "audit" });
  const act = async (work, done) => {
    try {
      await work();
      if (done) toast(done);
    } catch (e) {
      toast(e.message, "error");
    }
    await refresh();
  };
  const sanction = async (kind, whom, name, reasonText) => {
    const asked = await askSanction(kind, name, reasonText);
    if (!asked) return;
    await act(() => api(`/api/moderation/${kind}s`, { method: "POST", body: { ...whom, ...asked } }), `${name} is ${kind === "ban" ? "banned" : "muted"}.`);
  };
  const button = (text, onclick, cls = "btn small") => h("button", { class: cls, type: "button", text, onclick });
  const reportCard = (r) => h("li", { class: `report ${r.status}`, dataset: { id: String(r.id), target: r.target.name } },
    h("div", { class: "report-head" },
      h("strong", { class: "report-target", text: r.target.display_name }), h("span", { class: "muted", text: ` (${r.target.name}${r.target.guest ? ", guest" : ""})` }),
      h("span", { class: "report-reason", text: ` \u2014 ${r.reason_words}` }),
      h("span", { class: "muted small", text: ` \u00b7 reported by ${r.reporter.display_name}, ${when(r.at)}` })),
    r.text ? h("p", { class: "report-text", text: r.text }) : null,
    r.table ? h("p", { class: "report-table" }, `At table ${r.table.name} (${r.table.ruleset}, ${r.table.status}): `,
      h("a", { href: `#/table/${r.table.id}`, text: "table" }), " \u00b7 ", h("a", { href: r.table.replay, text: "replay" })) : null,
    r.chat.length ? h("ol", { class: "report-chat", "aria-label": "Chat at the table" }, r.chat.map((c) => h("li", { class: c.account === r.target.account ? "theirs" : null },
      h("strong", { text: `${c.name}: ` }), c.text))) : null,
    r.status === "resolved" ? h("p", { class: "muted", text: `Resolved by ${r.resolved_by}: ${r.resolution}` })
      : h("div", { class: "row report-actions" },
        button("Mute", () => sanction("mute", { account: r.target.account }, r.target.name, r.reason_words)),
        button("Ban", () => sanction("ban", { account: r.target.account }, r.target.name, r.reason_words), "btn small danger"),
        button("Resolve", async () => {
          const note = h("input", { name: "note", maxlength: "500", value: "" });
          const ok = await modal({ title: `Resolve report #${r.id}`, body: h("label", {}, "What was done (kept in the audit log)", note),
            buttons: [{ text: "Resolve", value: "go", class: "btn primary" }, { text: "Cancel", value: null, class: "btn ghost" }] });
          if (ok === "go") await act(() => api(`/api/moderation/reports/${r.id}/resolve`, { method: "POST", body: { note: note.value.trim() || "resolved" } }), `Report #${r.id} is resolved.`);
        }, "btn small ghost")));
  const sanctionRow = (s) => h("li", { class: `sanction ${s.kind}`, dataset: { kind: s.kind, name: s.name } },
    h("strong", { text: s.display_name }), h("span", { class: "muted", text: ` (${s.name})` }),
    ` ${s.kind === "ban" ? "banned" : "muted"} until ${when(s.until)} by ${s.by}: ${s.reason} `,
    button(s.kind === "ban" ? "Lift ban" : "Lift mute", () => act(() => api(`/api/moderation/${s.kind}s/${s.account}/lift`, { method: "POST", body: { reason: "" } }), `${s.name}'s ${s.kind} is lifted.`), "btn small ghost"));
  const auditRow = (e) => h("tr", {}, h("td", { text: when(e.at) }), h("td", { text: e.actor }), h("td", { class: "audit-action", text: e.action }),
    h("td", { text: e.target_name || "" }), h("td", { text: [e.detail, e.reason].filter(Boolean).join(" \u2014 ") }));
  const nameInput = h("input", { name: "person", maxlength: "32", placeholder: "Account name", "aria-label": "Account name", autocomplete: "off" });
  const byName = (kind) => {
    const name = nameInput.value.trim();
    if (!name) return toast("Type an account name first.", "error");
    return sanction(kind, { name }, name, "");
  };
  const filter = h("select", { name: "status", "aria-label": "Which reports", onchange: (e) => {
    state.status = e.target.value;
    refresh();
  } }, [["open", "Open reports"], ["resolved", "Resolved reports"], ["all", "All reports"]].map(([value, text]) => h("option", { value, text })));
  const refresh = async () => {
    try {
      const [reports, sanctions, audit] = await Promise.all([api(`/api/moderation/reports?status=${state.status}`), api("/api/moderation/sanctions"), api("/api/moderation/audit?limit=100")]);
      reportsBox.replaceChildren(reports.length ? h("ul", { class: "report-list" }, reports.map(reportCard)) : h("p", { class: "muted", text: "No reports here." }));
      sanctionsBox.replaceChildren(sanctions.length ? h("ul", { class: "sanction-list" }, sanctions.map(sanctionRow)) : h("p", { class: "muted", text: "Nobody is muted or banned." }));
      auditBox.replaceChildren(audit.length ? h("table", { class: "audit-log" }, h("thead", {}, h("tr", {}, ["When", "Who", "What", "Whom", "Why"].map((t) => h("th", { text: t })))), h("tbody", {}, audit.map(auditRow)))
        : h("p", { class: "muted", text: "Nothing yet." }));
    } catch (e) {
      reportsBox.replaceChildren(h("p", { class: "error", role: "alert", text: e.message }));
    }
  };
  show(h("section", { class: "page moderation" },
    h("h1", { text: "Moderation" }),
    h("section", { class: "panel" }, h("div", { class: "row" }, h("h2", { text: "Reports" }), filter), reportsBox),
    h("section", { class: "panel" }, h("h2", { text: "Muted and banned" }), sanctionsBox,
      h("div", { class: "row act-by-name" }, nameInput, button("Mute\u2026", () => byName("mute")), button("Ban\u2026", () => byName("ban"), "btn small danger"))),
    h("section", { class: "panel" }, h("h2", { text: "Audit log" }), auditBox)));
  await refresh();
}
