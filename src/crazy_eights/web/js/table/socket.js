// The table's WebSocket: it connects, reconnects with a growing pause, pings to notice a
// connection that went silent, and hands each message, parsed, to its owner. It knows
// nothing of the game. In a cluster it goes where the server sends it: a socket that
// reached a node other than its table's is closed with 4307 naming that node, and the
// next connection asks for it (`?node=`, which the proxy routes).
import { closedForBan, socketURL } from "../api.js";
import { toast } from "../ui.js";

const HEARTBEAT_MS = 3000; // a ping this often, to notice a server that stopped answering
const SILENT_MS = 12000; // nothing heard for this long: the connection is dead, reconnect
const ELSEWHERE = 4307; // the table runs on the node the close reason names
const HOPS = 3; // times in a row to follow ELSEWHERE at once; after that, with the usual pause

/** Close codes after which reconnecting cannot help, and what to tell the player. */
const REFUSED = {
  4004: () => "There is no such table.",
  4003: () => "This table is private: you need its invite link.",
  4029: (reason) => reason || "The table closed this connection.", // full of watchers (or tabs)
  4001: (reason) => reason || "The table closed this connection.", // signed out
};

export class TableSocket {
  /** `on`: `{message(msg), open(), lost(), refused(text)}`. */
  constructor(path, on) {
    this.path = path;
    this.on = on;
    this.ws = null;
    this.retry = 0;
    this.heard = 0; // when the socket last brought anything (performance.now())
    this.closed = false;
    this.node = null; // the node the server last sent this socket to
    this.hops = 0; // ELSEWHERE followed since the socket last brought a message
    this.beat = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.connect();
  }

  /** The socket's URL: the table's path, and the node to ask for once sent on. */
  url() {
    if (!this.node) return socketURL(this.path);
    const sep = this.path.includes("?") ? "&" : "?";
    return socketURL(`${this.path}${sep}node=${encodeURIComponent(this.node)}`);
  }

  connect() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.heard = performance.now();
      this.on.open();
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.heard = performance.now();
      this.retry = 0; // counted from the first message: a socket sent on opens first
      this.hops = 0;
      this.on.message(msg);
    };
    ws.onclose = (e) => {
      if (this.closed) return;
      if (closedForBan(e)) return this.on.refused(e.reason);
      if (e.code === ELSEWHERE && e.reason) {
        this.node = e.reason;
        this.hops += 1;
        if (this.hops <= HOPS) return this.connect();
      }
      const refused = REFUSED[e.code];
      if (refused) return this.on.refused(refused(e.reason));
      this.on.lost();
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => !this.closed && this.connect(), 300 * 2 ** this.retry);
    };
  }

  /** Ping every few seconds: a socket that brings nothing back for long is taken for
   * dead here, closed and reconnected. (The server's own heartbeat is WebSocket ping
   * frames, which the browser answers by itself.) */
  heartbeat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (performance.now() - this.heard > SILENT_MS) {
      ws.close();
      return;
    }
    ws.send(JSON.stringify({ type: "ping", t: Date.now() / 1000 }));
  }

  /** Send a message now; false (and a toast) when the socket is not open. */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    toast("Not connected; reconnecting\u2026", "error");
    return false;
  }

  /** Drop the connection and connect again (after sitting down: the seat is new). */
  reconnect() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearInterval(this.beat);
    if (this.ws) this.ws.close();
  }
}
