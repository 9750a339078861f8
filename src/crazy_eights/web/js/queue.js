// Quick play's queue: wait for other people (who is waiting, a countdown), cancel or
// play now with bots, and go to the table the card room seats you at.
//
// The server decides everything (who meets whom, when the window closes, the bots); this
// page shows the `queue` messages of /ws/match and follows its `matched` (docs/protocol.md).
import { api, closeSocket, closedForBan, socketURL } from "./api.js";
import { RULESET_TITLES } from "./howto.js";
import { aboutMinutes, QUICK_LENGTHS } from "./lengths.js";
import { navigate, session } from "./shell.js";
import { announce, avatarSVG, busy, h, toast } from "./ui.js";

let current = null; // the wait now shown: { stop }

/** Stop showing the wait (the page is left); the server cancels the ticket when no
 * socket of it comes back within a few seconds. */
export function leaveQueue() {
  if (current) current.stop();
  current = null;
}

/** Join the queue for a ruleset and length, and show the waiting panel in `box`. */
export async function joinQueue(box, ruleset, length) {
  let answer;
  try {
    answer = await api("/api/match", { method: "POST", body: { ruleset, length: length.key } });
  } catch (e) {
    toast(e.message, "error");
    return;
  }
  if (answer.table) {
    navigate(`#/table/${answer.table}`);
    return;
  }
  leaveQueue();
  current = waitingPanel(box, ruleset, length, answer.queue);
}

/** Show the waiting panel again in `box` if this account is waiting (after a reload or
 * a visit to another page: the ticket outlives its socket for a few seconds). */
export async function resumeQueue(box) {
  if (!session.account) return;
  let ticket;
  try {
    ticket = await api("/api/match");
  } catch {
    return; // the lobby works without it
  }
  if (!ticket || !box.isConnected || current) return;
  const { ruleset, length } = ticket.queue;
  const choice = (QUICK_LENGTHS[ruleset] || []).find((l) => l.key === length);
  if (choice) current = waitingPanel(box, ruleset, choice, ticket.queue);
}

function waitingPanel(box, ruleset, length, first) {
  const people = h("ul", { class: "queue-people", "aria-label": "Waiting" });
  const count = h("p", { class: "queue-count", "aria-live": "polite" });
  const when = h("p", { class: "queue-when" });
  let deadline = 0;
  let ws = null;
  let done = false;

  const tick = () => {
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    when.replaceChildren(...(left > 0 ? ["The table starts in ", h("strong", { class: "queue-clock", text: `${left} s` })] : ["Seating you\u2026"]));
  };
  const timer = setInterval(tick, 250);
  const draw = (state) => {
    deadline = performance.now() + state.seconds_left * 1000;
    people.replaceChildren(...state.waiting.map((p) => h("li", { class: p.account === session.account?.id ? "me" : "" },
      h("span", { class: "avatar", html: avatarSVG(p.avatar, p.name, 28) }),
      h("span", { class: "queue-name", text: p.account === session.account?.id ? `${p.name} (you)` : p.name }))));
    const free = state.players - state.waiting.length;
    count.textContent = free > 0
      ? `${state.waiting.length} of ${state.players} seats taken; the rest get bots when the table starts.`
      : "The table is full.";
    tick();
  };
  const stop = () => {
    done = true;
    clearInterval(timer);
    if (ws) closeSocket(ws);
    panel.remove();
  };
  const connect = () => {
    ws = new WebSocket(socketURL("/ws/match"));
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "queue") draw(msg);
      else if (msg.type === "matched") {
        stop();
        announce("Table found");
        navigate(`#/table/${msg.table}`);
      } else if (msg.type === "gone") {
        stop();
        current = null;
      }
    };
    ws.onclose = (e) => {
      if (closedForBan(e)) return;
      if (!done) setTimeout(() => !done && connect(), 1000);
    };
  };
  const cancel = h("button", { class: "btn", type: "button", text: "Cancel", onclick: () => busy(cancel, "Cancelling\u2026", async () => {
    try {
      await api("/api/match", { method: "DELETE" });
    } catch (e) {
      if (e.status !== 404) {
        toast(e.message, "error");
        return;
      }
    }
    leaveQueue();
  }) });
  const now = h("button", { class: "btn primary", type: "button", text: "Play now with bots", onclick: () => busy(now, "Dealing\u2026", async () => {
    try {
      const table = await api("/api/match/now", { method: "POST" });
      leaveQueue();
      navigate(`#/table/${table.id}`);
    } catch (e) {
      toast(e.message, "error");
    }
  }) });
  const panel = h("section", { class: "panel queue-panel", role: "region", "aria-label": "Waiting for players" },
    h("h2", { text: `Finding players: ${RULESET_TITLES[ruleset]}, ${length.label.toLowerCase()}` }),
    h("p", { class: "muted", text: `${length.detail ? `${length.detail}, ` : ""}${aboutMinutes(length.minutes)}` }),
    when,
    people, count,
    h("div", { class: "row" }, now, cancel));
  box.replaceChildren(panel);
  draw(first);
  connect();
  now.focus();
  return { stop };
}
