// The table's chat list (the server escapes the text; it is shown as is), with
// spectators' reactions as lines of their own when they are shown.
import { unescapeHTML } from "../../api.js";
import { h } from "../../ui.js";

export function renderChat(ctrl, el) {
  const items = ctrl.chat.map((c) => c.reaction ? h("li", { class: "reaction-line", text: c.text })
    : h("li", { class: c.call ? "call" : "" }, h("b", { text: `${c.name}: ` }), h("span", { text: unescapeHTML(c.text) })));
  el.chatList.replaceChildren(...items);
  el.chatList.scrollTop = el.chatList.scrollHeight;
}
