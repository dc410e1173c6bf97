// The table's WebSocket: JSON messages in and out, and automatic reconnection with a bounded
// backoff (0.5 s doubling to at most 8 s, for as long as the page is open). On every (re)connect
// the server sends a fresh `welcome` and `state`, so the page simply redraws from them and picks
// up where it was.

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;

export class Connection {
  /**
   * @param {string} url ws:// or wss:// address of /ws/tables/ID?seat=&token=
   * @param {{onMessage: Function, onStatus: Function}} handlers onStatus gets
   *   ("connecting"|"open"|"waiting"|"closed", {attempt, delayMs})
   */
  constructor(url, handlers) {
    this.url = url;
    this.onMessage = handlers.onMessage;
    this.onStatus = handlers.onStatus || (() => {});
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
  }

  open() {
    this.stopped = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    this.onStatus("connecting", { attempt: this.attempt });
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus("open", {});
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) {
        this.onStatus("closed", { code: event.code });
        return;
      }
      this.retry();
    });
    socket.addEventListener("error", () => {
      // "close" always follows "error"; reconnection is handled there.
    });
  }

  retry() {
    const delayMs = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.onStatus("waiting", { attempt: this.attempt, delayMs });
    this.timer = setTimeout(() => this.connect(), delayMs);
  }

  /** Reconnect now instead of waiting out the backoff (the "retry now" button). */
  retryNow() {
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    this.attempt = 0;
    this.connect();
  }

  get isOpen() {
    return Boolean(this.socket) && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send one message; false when offline. Nothing is queued while offline: a stale action would
   * only earn a `stale` error, and the fresh state that follows a reconnect is what counts. */
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000, "page left");
  }
}

/** ws(s)://host/ws/tables/ID?seat=&token= for the page's own origin. */
export function tableSocketUrl(tableId, seat, token) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const query = new URLSearchParams();
  if (seat !== null && seat !== undefined) query.set("seat", String(seat));
  if (token) query.set("token", token);
  const tail = query.toString() ? `?${query}` : "";
  return `${scheme}//${window.location.host}/ws/tables/${encodeURIComponent(tableId)}${tail}`;
}
