// What you do about the table itself, over HTTP: sit down, start the game, leave, play
// again, and the "How to play" dialog. `t` is the table (`TableView`).
import { api, rulesets } from "../api.js";
import { howToPlay } from "../howto.js";
import { h, modal, toast } from "../ui.js";

export async function sit(t, seat) {
  try {
    t.ctrl.info = await api(`/api/tables/${t.ctrl.id}/sit`, { method: "POST", body: { seat, code: t.ctrl.code } });
    t.socket.reconnect(); // the welcome of the new connection seats you
  } catch (err) {
    toast(err.message, "error");
  }
}

export async function startGame(t) {
  try {
    t.ctrl.info = await api(`/api/tables/${t.ctrl.id}/start`, { method: "POST" });
    t.render();
  } catch (err) {
    toast(err.message, "error");
  }
}

export async function leave(t) {
  const c = t.ctrl;
  const running = c.view && !c.view.over && c.mySeat !== null;
  if (running) {
    const ok = await modal({ title: "Leave the game?", body: h("p", { text: "Leaving a running game counts as a loss; a bot finishes it for you." }), buttons: [{ text: "Stay", value: false, class: "btn" }, { text: "Leave", value: true, class: "btn danger" }] });
    if (!ok) return;
  }
  if (c.mySeat !== null && c.info && c.info.status !== "finished") {
    try {
      await api(`/api/tables/${c.id}/leave`, { method: "POST" });
    } catch {
      /* already gone */
    }
  }
  t.navigate("#/");
}

/** The same game again with the same people: the server makes this finished table's
 * follow-up for the first player to ask (same rules, bots and settings) and seats
 * every later one there; each goes to it. */
export async function playAgain(t) {
  try {
    const next = await api(`/api/tables/${encodeURIComponent(t.ctrl.id)}/rematch`, { method: "POST" });
    if (next.invite) sessionStorage.setItem(`ce.invite.${next.id}`, next.invite);
    t.navigate(`#/table/${next.id}`);
  } catch (err) {
    toast(err.message, "error");
  }
}

export async function showHelp(t) {
  const c = t.ctrl;
  const rs = c.info ? c.info.ruleset : "classic";
  const all = await rulesets();
  await modal({ title: "How to play", body: howToPlay(rs, all[rs], c.view ? c.view.rules : c.info && c.info.rules), buttons: [{ text: "Close", value: true, class: "btn" }], className: "wide" });
}
