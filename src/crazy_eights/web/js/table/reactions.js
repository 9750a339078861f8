// Reactions at the table: the fixed set (the server knows the ids; the faces and words
// are here), the row of buttons under the chat, and a bubble on the sender's panel for a
// few seconds with a short sound. Your settings hide reactions from everyone
// ("reactions"), from spectators (off by default: "spectatorReactions") or from one
// person ("mutedReactors", set from the person's name).
import * as settings from "../settings.js";
import * as sound from "../sound.js";
import { h } from "../ui.js";

// faces any system draws (DejaVu has these; colour emoji fonts draw them in colour)
export const REACTIONS = [
  ["thumbs_up", "\u2714", "Thumbs up"],
  ["well_played", "\u2605", "Well played"],
  ["oops", "\u{1F605}", "Oops"],
  ["hurry_up", "\u{1F634}", "Hurry up"],
  ["thanks", "\u2764", "Thanks"],
  ["wow", "\u{1F62E}", "Wow"],
  ["sad", "\u{1F622}", "Sad"],
  ["laugh", "\u{1F602}", "Laugh"],
];
const FACES = Object.fromEntries(REACTIONS.map(([id, face, words]) => [id, { face, words }]));
export const BUBBLE_MS = 4000;

/** The row of reaction buttons; `send(id)` sends one. */
export function reactionBar(send) {
  return h("div", { class: "reaction-bar", role: "group", "aria-label": "React" },
    REACTIONS.map(([id, face, words]) => h("button", { class: "reaction-btn", type: "button", title: words, "aria-label": words, dataset: { reaction: id }, text: face, onclick: () => send(id) })));
}

/** Whether this browser shows a reaction from `msg` (its settings). */
export function wanted(msg, mine) {
  const s = settings.get();
  if (msg.account === mine) return true;
  if (!s.reactions) return false;
  if (msg.seat === null && !s.spectatorReactions) return false;
  return !(s.mutedReactors || []).includes(msg.account);
}

/** Note a reaction on the table's controller (drawn by the panels) and play its sound;
 * `redraw` draws the table again (now, and when the bubble is gone). Spectators have no
 * panel: theirs go to the chat list as a line. */
export function show(ctrl, msg, redraw, chatLine) {
  if (!wanted(msg, ctrl.you && ctrl.you.account)) return;
  const what = FACES[msg.reaction];
  if (!what) return;
  sound.pop();
  if (msg.seat === null) return chatLine(`${msg.name} (watching): ${what.face} ${what.words}`);
  ctrl.bubbles = ctrl.bubbles || new Map();
  const until = performance.now() + BUBBLE_MS;
  ctrl.bubbles.set(msg.seat, { ...what, id: msg.reaction, until });
  redraw();
  setTimeout(redraw, BUBBLE_MS + 50);
}

/** The bubble to draw on a seat's panel now (null when none). */
export function bubble(ctrl, seat) {
  const b = ctrl.bubbles && ctrl.bubbles.get(seat);
  if (!b || b.until < performance.now()) return null;
  return h("span", { class: "reaction-bubble", role: "status", "aria-label": b.words, dataset: { reaction: b.id } }, h("span", { class: "reaction-face", text: b.face }), h("span", { class: "reaction-words", text: b.words }));
}

/** Mute or unmute one person's reactions (from their name). */
export function toggleMute(account) {
  const muted = new Set(settings.get().mutedReactors || []);
  if (muted.has(account)) muted.delete(account);
  else muted.add(account);
  settings.set({ mutedReactors: [...muted] });
  return muted.has(account);
}
