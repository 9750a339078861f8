// What the table does with each message its socket brings: the state, the table's
// seats and presence, chat, the armed call, a hint, the pause between rounds, ratings,
// a rematch and errors. `t` is the table (`TableView`).
import { toast } from "../ui.js";
import * as actions from "./actions.js";
import * as reactions from "./reactions.js";
import { renderChat } from "./view/chat.js";
import { addLine, standinLine } from "./view/log.js";

export function receive(t, msg) {
  const c = t.ctrl;
  if (msg.info) c.stampAway(msg.info.seats);
  if (msg.type === "presence") c.stampAway(msg.seats);
  c.noteClock(msg);
  switch (msg.type) {
    case "welcome":
      c.info = msg.info;
      c.you = msg.you;
      c.chat = (msg.chat || []).map((line) => ({ ...line }));
      c.ratings = msg.ratings ? { rated: msg.info.rated, changes: msg.ratings } : c.ratings;
      c.rematch = msg.rematch || c.rematch;
      c.stoodIn = msg.stood_in || 0; // moves a stand-in played for you, told once
      if (t.ending && c.rematch) t.ending.rematch(c.rematch);
      c.pending = false;
      t.setState(msg.state, true);
      renderChat(c, t.el);
      actions.resend(t, msg.state);
      break;
    case "state":
      c.pending = false;
      c.unanswered = null;
      t.setState(msg.state, false);
      break;
    case "table":
      c.info = msg.info;
      t.render();
      break;
    case "presence":
      if (c.info) {
        c.info.seats = c.info.seats.map((s) => msg.seats.find((x) => x.seat === s.seat) || s);
        c.info.spectators = msg.spectators;
        t.render();
      }
      break;
    case "chat":
      c.chat.push(msg);
      renderChat(c, t.el);
      break;
    case "reaction":
      reactions.show(c, msg, () => t.render(), (text) => {
        c.chat.push({ name: "", text, reaction: true });
        renderChat(c, t.el);
      });
      break;
    case "called":
      actions.called(t);
      break;
    case "hint":
      actions.showHint(t, msg);
      break;
    case "back":
      // a player has their seat back from the stand-in: "Ann is back" (you: how many
      // moves the bot played for you, unless the welcome's log says it already)
      if (!c.info) break;
      if (msg.seat !== c.mySeat) addLine(c, t.el, `${msg.name || c.name(msg.seat)} is back.`, "ev-back");
      else if (msg.moves && c.state) addLine(c, t.el, standinLine(msg.moves), "ev-standin");
      break;
    case "pause":
      if (c.state) c.state.pause = msg.pause;
      t.render();
      break;
    case "ratings":
      c.ratings = msg;
      if (t.ending) t.ending.ratings(msg);
      break;
    case "rematch":
      c.rematch = msg.rematch;
      if (t.ending) t.ending.rematch(msg.rematch);
      else if (c.mySeat !== null && !msg.rematch.accounts.includes(c.you && c.you.account)) toast(`${msg.rematch.by} wants to play again`);
      break;
    case "error":
      c.pending = false;
      c.unanswered = null;
      c.hintAsked = null;
      if (msg.code === "stale") t.send({ type: "sync" });
      else if (msg.code !== "duplicate") toast(msg.reason || msg.code, "error");
      t.render();
      break;
    default:
      break;
  }
}
