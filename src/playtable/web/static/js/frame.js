// The page frame every game page shares: header (game, seat, whose turn, connection), the board
// area (drawn by the game's own module), the legal actions as a list with keys, undo and hint,
// the log, the rules panel, the warning dialog and the end screen. It speaks the table's
// WebSocket protocol (docs/web.md) and knows games only through their page module:
//
//   createBoard(host, ctx) -> board with
//     render(view)          draw view = {observation, legal, events, step, terminal, hinted, animate,
//                           yourTurn, waitingFor, role}; make legal actions clickable with
//                           ctx.offer(element, [actionText...])
//     label(actionText)     plain words for an action (optional)
//     keyFor(actionText)    a key for it, e.g. "ArrowLeft" (optional; others get 1-9, a-z)
//     status(observation)   one line: turn, phase, counts (optional)
//     onStream(message)     messages of other types, e.g. live positions at 60 Hz (optional)
//   ctx.play(actionText) sends an action that is not in the list (Star Dice's dragged throws);
//   ctx.rematch(variant) starts a new table in that named variant (Star Dice's table menu).
//   and `hints = false` when the game never gives hints (the button is then not shown).
//
// Seats with secrets and simultaneous moves need nothing more: each seat only ever receives its
// own observation, and `waiting_for` names everyone who still has to commit.

import { ChatPanel } from "./chat.js";
import { Connection, tableSocketUrl } from "./connection.js";
import { closeChooser, confirmWarning, endScreen, GameLog, RulesPanel, showChooser } from "./frame_parts.js";
import { h, postJson, seatQuery } from "./util.js";

const RESERVED_KEYS = new Set(["?", "u", "h", "n", "r"]);
const SPARE_KEYS = [..."123456789abcdefgijklmopqstvwxyz"].filter((k) => !RESERVED_KEYS.has(k));
const KEY_NAMES = { ArrowLeft: "←", ArrowRight: "→", ArrowUp: "↑", ArrowDown: "↓", " ": "Space" };

/** The hot seat's seats from `?hot=0.TOKEN,1.TOKEN`: seat -> token (empty: one seat a page). */
export function hotSeats(search) {
  const seats = new Map();
  for (const pair of (new URLSearchParams(search).get("hot") || "").split(",")) {
    const [seat, token] = pair.split(".");
    if (/^\d+$/.test(seat ?? "") && token) seats.set(Number(seat), token);
  }
  return seats;
}

export class TableFrame {
  constructor(root, { tableId, seat, token, gameModule }) {
    this.tableId = tableId;
    this.seat = seat;
    this.token = token;
    this.module = gameModule;
    this.state = null;
    this.table = null;
    this.role = "watcher";
    this.seatNames = [];
    this.pending = false;
    this.hinted = null;
    this.keys = new Map();
    this.endDismissed = false;
    this.following = false;
    this.noHintStep = null;
    this.build(root);
    this.log = new GameLog(this.logList, (entry) => this.board.logLines?.(entry, this.role === "player" ? this.seat : null));
    this.hot = hotSeats(window.location.search);
    this.connection = this.connect(seat, token);
    document.addEventListener("keydown", (e) => this.onKey(e));
    document.addEventListener("pointerdown", (e) => {
      if (!e.target.closest?.(".chooser")) closeChooser();
    });
  }

  build(root) {
    this.titleEl = h("h1", {}, "Loading the table…");
    this.seatEl = h("span", { class: "seat-badge" });
    this.turnEl = h("span", { class: "turn-indicator", role: "status", "aria-live": "polite" });
    this.connEl = h("span", { class: "conn", "data-status": "connecting", role: "status" }, "connecting…");
    this.replayLink = h("a", { class: "button quiet", href: `/t/${this.tableId}/replay${seatQuery(this.seat, this.token)}` }, "Replay");
    this.rulesButton = h("button", { class: "quiet", "aria-controls": "rules", onClick: () => this.rules?.toggle() }, "Rules (?)");
    const header = h("header", { class: "topbar" },
      h("a", { class: "home", href: "/", "aria-label": "Back to the lobby" }, "playtable"),
      h("div", { class: "title-block" }, this.titleEl, this.seatEl),
      this.turnEl, h("div", { class: "top-buttons" }, this.rulesButton, this.replayLink), this.connEl);
    this.banner = h("div", { class: "banner", role: "alert", hidden: true });
    this.boardHost = h("div", { class: "board-host" });
    this.statusEl = h("p", { class: "board-status" });
    this.hintEl = h("p", { class: "hint-text", role: "status", "aria-live": "polite" });
    this.endHost = h("div", { class: "end-host" });
    this.undoButton = h("button", { hidden: true, onClick: () => this.undo() }, "Undo (u)");
    this.hintButton = h("button", { hidden: true, onClick: () => this.askHint() }, "Hint (h)");
    this.actionList = h("ul", { class: "action-list", "aria-label": "Legal actions" });
    this.waitingEl = h("p", { class: "waiting" });
    this.logList = h("ol", { class: "log-list" });
    this.chat = new ChatPanel((m) => this.connection.send(m));
    root.replaceChildren(header, this.banner,
      h("main", { class: "table-layout" },
        h("section", { class: "board-area", "aria-label": "Board" }, this.statusEl, this.boardHost, this.hintEl, this.endHost),
        h("aside", { class: "side" },
          h("section", { class: "actions-panel", "aria-label": "Your actions" },
            h("div", { class: "panel-head" }, h("h2", {}, "Actions"), h("div", { class: "buttons" }, this.undoButton, this.hintButton)),
            this.waitingEl, this.actionList),
          h("section", { class: "log-panel", "aria-label": "Log" }, h("h2", {}, "What happened"),
            h("div", { class: "log-scroll" }, this.logList)), this.chat.element)));
    this.board = this.module.createBoard(this.boardHost, {
      offer: (el, actions) => this.offer(el, actions),
      label: (a) => this.label(a),
      seatNames: () => this.seatNames,
      play: (action) => this.play(action),
      rematch: (variant) => this.rematch(variant),
      table: () => this.table,
    });
  }

  start() {
    this.connection.open();
  }

  connect(seat, token) {
    return new Connection(tableSocketUrl(this.tableId, seat, token), {
      onMessage: (m) => this.receive(m),
      onStatus: (status, info) => this.showConnection(status, info),
    });
  }

  // -- hot seat: several seats on one screen, a "pass the device" screen between them ----------
  passDevice() {
    const st = this.state;
    if (!this.hot.size || this.role !== "player" || !st || st.terminal || st.your_turn) return;
    const next = (st.waiting_for || []).find((seat) => this.hot.has(seat) && seat !== this.seat);
    if (next === undefined || this.cover) return;
    const name = this.seatNames[next] ?? `seat ${next}`;
    // The cover hides the board at once: the last seat's secrets stay with the last seat.
    this.cover = h("section", { class: "pass-device", role: "dialog", "aria-labelledby": "pass-title" },
      h("h2", { id: "pass-title" }, `Pass the device to ${name}`),
      h("p", {}, `Only ${name} should look at the screen now.`),
      h("button", { class: "primary", onClick: () => this.switchSeat(next) }, `I am ${name}: show my screen`));
    document.body.append(this.cover);
    this.cover.querySelector("button").focus();
  }

  switchSeat(seat) {
    this.cover?.remove();
    this.cover = null;
    this.connection.close();
    this.seat = seat;
    this.token = this.hot.get(seat);
    this.state = null;
    this.replayLink.href = `/t/${this.tableId}/replay${seatQuery(seat, this.token)}`;
    this.connection = this.connect(seat, this.token);
    this.connection.open();
  }

  // -- messages from the server ----------------------------------------------------------------
  receive(message) {
    switch (message.type) {
      case "welcome": return this.onWelcome(message);
      case "state": return this.onState(message);
      case "hint": return this.onHint(message);
      case "error": return this.onError(message);
      // A rematch in another variant may seat people elsewhere: `seats` maps old seat -> new.
      case "rematch": return this.follow(message.table_id, message.seats ? message.seats[this.seat] ?? null : undefined);
      case "chat": return this.chat.add(message);
      case "rematch_proposed": return this.onProposal(message);
      // What the server did at this table: a failing bot replaced, a turn timer run out.
      case "notice": return this.chat.notice(message);
      default: return this.board.onStream?.(message);
    }
  }

  onWelcome(message) {
    this.table = message.table;
    this.role = message.role;
    this.seat = message.seat;
    this.seatNames = message.seat_names || [];
    const variant = this.table.variant ? ` · ${this.table.variant}` : "";
    this.titleEl.textContent = `${this.table.game_name}${variant}`;
    document.title = `${this.table.game_name} · playtable`;
    this.seatEl.textContent = this.role === "player"
      ? `You play ${this.seatNames[this.seat] ?? `seat ${this.seat}`}` : "Watching";
    this.replayLink.href = `/t/${this.tableId}/replay${this.role === "player" ? seatQuery(this.seat, this.token) : ""}`;
    if (!this.rules) this.rules = new RulesPanel(this.table.game);
    if (this.token && this.role !== "player") {
      this.showBanner("This seat's link was refused (wrong or old token): you are watching, and cannot act.");
    }
    this.log.reset(message.log || [], (e) => this.describeStep(e));
    this.chat.reset(message.chat);
    for (const notice of message.notices || []) this.chat.notice(notice);
    this.chat.setSeated(this.role === "player");
  }

  onState(state) {
    const previous = this.state;
    this.pending = false;
    if (previous && state.step !== previous.step) {
      this.hinted = null;
      this.hintEl.textContent = "";
      this.hintEl.classList.remove("error");
    }
    if (previous && state.step < previous.step) this.log.dropAfter(state.step);
    if (state.step > this.log.lastStep && (state.events?.length || state.last_action)) {
      if (state.step === this.log.lastStep + 1) {
        this.log.add({ step: state.step, seat: previous ? previous.current_player : null,
          action: state.last_action, events: state.events }, (e) => this.describeStep(e));
      } else {
        this.connection.send({ type: "sync" });
      }
    }
    this.state = state;
    if (previous && state.step < previous.step) this.hintEl.textContent = "The last action was taken back.";
    if (!state.terminal) this.endDismissed = false;
    this.draw(Boolean(previous) && state.step === previous.step + 1);
    this.passDevice();
  }

  onHint(message) {
    if (!this.state || message.step !== this.state.step) return;
    this.setHint(message.action, message.text ? `Hint: ${message.text}` : `Hint: ${this.label(message.action)}`);
  }

  onError(message) {
    this.pending = false;
    if (message.code === "no_hint") {
      // No hint for this position (none is possible, or the game gives none): not again this step.
      this.noHintStep = this.state?.step;
      this.hintButton.hidden = true;
    }
    if (message.code === "forbidden" && this.token) {
      this.showBanner(`${message.message} You are watching, and cannot act.`);
      return;
    }
    if (message.code === "stale") return; // a fresh state follows
    this.hintEl.textContent = message.message;
    this.hintEl.classList.add("error");
  }

  // -- drawing ---------------------------------------------------------------------------------
  draw(animate) {
    const st = this.state;
    closeChooser();
    // Keyboard players keep their place: the spot that had focus gets it back after redrawing.
    const focused = document.activeElement?.closest?.(".board-host [data-slot], .board-host [data-cell]");
    const focusKey = focused ? ["slot", "cell"].map((k) => focused.dataset[k]).find(Boolean) : null;
    this.keys.clear();
    const legal = st.your_turn ? st.legal || [] : [];
    this.legal = new Map(legal.map((entry) => [entry.action, entry]));
    this.board.render({ observation: st.observation, legal, events: st.events || [], step: st.step,
      terminal: st.terminal, hinted: this.hinted, animate, yourTurn: st.your_turn,
      waitingFor: st.waiting_for || [], role: this.role });
    this.statusEl.textContent = this.board.status?.(st.observation) ?? `Step ${st.step}`;
    this.drawActions(this.module.listActions === false ? [] : legal); // a module may offer every action on its board
    this.drawTurn();
    this.undoButton.hidden = !(this.role === "player" && st.can_undo);
    this.hintButton.hidden = !(this.role === "player" && st.your_turn && !st.terminal && this.module.hints !== false
      && this.noHintStep !== st.step);
    this.drawEnd();
    if (focusKey) {
      const again = [...this.boardHost.querySelectorAll(".offered")].find((el) => el.dataset.slot === focusKey || el.dataset.cell === focusKey);
      (again ?? this.actionList.querySelector("button"))?.focus();
    }
  }

  drawActions(legal) {
    const used = new Set();
    const spare = SPARE_KEYS.filter((k) => !legal.some((e) => this.board.keyFor?.(e.action) === k));
    for (const entry of legal) {
      let key = this.board.keyFor?.(entry.action) ?? null;
      if (!key || used.has(key)) key = spare.find((k) => !used.has(k)) ?? null;
      if (key) { used.add(key); this.keys.set(key, entry.action); }
      entry.key = key;
    }
    this.actionList.replaceChildren(...legal.map((entry) => h("li", {},
      h("button", {
        class: `action${entry.warning ? " warn" : ""}${entry.action === this.hinted ? " hinted" : ""}`,
        dataset: { action: entry.action },
        title: entry.warning || null,
        onClick: () => this.act(entry.action),
      }, entry.key ? h("kbd", {}, KEY_NAMES[entry.key] ?? entry.key) : null, " ", this.label(entry.action),
      entry.warning ? h("span", { class: "warn-mark", "aria-label": "warning" }, " ⚠") : null))));
  }

  drawTurn() {
    const st = this.state;
    const names = (st.waiting_for || []).map((s) => this.seatNames[s] ?? `seat ${s}`);
    // A table left unfinished (its players moved to a rematch in another variant) has a result
    // but no end: nobody plays it on.
    const left = !st.terminal && st.result;
    let text;
    if (st.terminal) text = "Game over";
    else if (left) text = "Left unfinished";
    else if (st.your_turn) {
      // Simultaneous moves: others may still have to commit too.
      const others = (st.waiting_for || []).filter((s) => s !== this.seat).map((s) => this.seatNames[s] ?? `seat ${s}`);
      text = others.length ? `Your turn (${others.join(", ")} too)` : "Your turn";
    }
    else if (st.bot_thinking) text = `${names.join(", ") || "The bot"} is thinking…`;
    else text = names.length ? `Waiting for ${names.join(", ")}` : "Waiting";
    this.turnEl.textContent = text;
    this.turnEl.dataset.mine = String(Boolean(st.your_turn));
    if (st.terminal) this.waitingEl.textContent = "The game is over: see the end screen, or watch the replay.";
    else if (left) this.waitingEl.textContent = st.result.text;
    else if (st.your_turn) this.waitingEl.textContent = "";
    else this.waitingEl.textContent = this.role === "player" ? text : `${text}. You are watching.`;
  }

  drawEnd() {
    const st = this.state;
    this.endHost.replaceChildren();
    if (!st.terminal || this.endDismissed) return;
    const result = st.result || { returns: [], text: "The game is over." };
    const mine = this.role === "player" ? result.returns?.[this.seat] : undefined;
    // A draw (every seat the same share, e.g. the wizard game's round limit) is no win.
    const draw = (result.returns?.length ?? 0) > 1 && result.returns.every((r) => r === result.returns[0]);
    const won = mine !== undefined && mine > 0 && !draw;
    const title = mine === undefined ? "The game is over" : draw ? "A draw" : won ? "You win!" : "You lose";
    this.endHost.append(endScreen({
      title, text: result.text, won,
      replayUrl: this.replayLink.href,
      onRematch: this.role === "player" ? () => this.rematch() : null,
      onClose: () => { this.endDismissed = true; this.drawEnd(); },
    }));
  }

  describeStep(entry) {
    if (entry.action === null || entry.action === undefined) return entry.step === 0 ? "Setup" : `Step ${entry.step}`;
    const who = entry.seat === this.seat && this.role === "player" ? "You" : this.seatNames[entry.seat] ?? "Someone";
    return `${entry.step}. ${who}: ${this.label(entry.action)}`;
  }

  label(action) {
    return this.board?.label?.(action) ?? action;
  }

  // -- acting ----------------------------------------------------------------------------------
  /** Make `el` on the board a way to play `actions` (one: click plays it; several: a chooser). */
  offer(el, actions) {
    const list = actions.filter((a) => this.legal?.has(a));
    if (!list.length) return;
    el.classList.add("offered");
    el.dataset.actions = list.join("|");
    if (list.includes(this.hinted)) el.classList.add("hinted");
    if (list.some((a) => this.legal.get(a).warning)) el.classList.add("warn");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", list.map((a) => this.label(a)).join(" or "));
    const go = () => {
      if (list.length === 1) this.act(list[0]);
      else showChooser(el, list.map((a) => ({ action: a, label: this.label(a) })), (a) => this.act(a));
    };
    el.addEventListener("click", go);
    el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); go(); }
    });
  }

  async act(action) {
    const entry = this.legal?.get(action);
    if (!entry || this.pending || !this.state?.your_turn) return;
    if (entry.warning && !(await confirmWarning(this.label(action), entry.warning))) return;
    const step = this.state.step;
    if (this.connection.send({ type: "act", action, step })) this.pending = true;
    else this.hintEl.textContent = "Not connected: the action was not sent. Reconnecting…";
  }

  /** Send an action text that is not in the list (a continuous game's throw, e.g. Star Dice's
   *  drag): the server checks it like any other. False when it cannot be sent now. */
  play(action) {
    if (this.pending || !this.state?.your_turn) return false;
    if (!this.connection.send({ type: "act", action, step: this.state.step })) return false;
    this.pending = true;
    return true;
  }

  undo() {
    if (this.state?.can_undo) this.connection.send({ type: "undo", step: this.state.step });
  }

  askHint() {
    if (!this.state?.your_turn) return;
    this.hintEl.classList.remove("error");
    this.hintEl.textContent = "Thinking of a hint…";
    this.connection.send({ type: "hint", step: this.state.step });
  }

  setHint(action, text) {
    this.hinted = action;
    this.hintEl.classList.remove("error");
    this.hintEl.textContent = text;
    if (this.state) this.draw(false);
  }

  /** A new table of the same game; `variant` (a name) plays that variant instead (a table menu). */
  async rematch(variant) {
    try {
      const body = { seat: this.seat, token: this.token, ...(variant ? { variant } : {}) };
      const answer = await postJson(`/api/tables/${encodeURIComponent(this.tableId)}/rematch`, body);
      if (answer.proposed) {  // mid-game, the others must agree first (docs/web.md, rematch)
        const names = answer.waiting_for.map((s) => this.seatNames[s] ?? `seat ${s}`).join(", ");
        this.hintEl.textContent = `Asked the others for a new game; waiting for ${names} to agree.`;
        return;
      }
      this.follow(answer.table_id, answer.seat);
    } catch (err) {
      this.hintEl.textContent = err.message;
    }
  }

  /** Go to table `tableId`; `seat` is this player's seat there (null: watch; undefined: the same). */
  follow(tableId, seat) {
    if (this.following || !tableId) return;
    this.following = true;
    this.connection.close();
    const where = seat === undefined ? this.seat : seat;
    const query = this.role === "player" && where !== null ? seatQuery(where, this.token) : "";
    window.location.assign(`/t/${encodeURIComponent(tableId)}${query}`);
  }

  // -- the rest of the page --------------------------------------------------------------------
  showConnection(status, info) {
    this.connEl.dataset.status = status;
    const words = {
      connecting: info.attempt ? `reconnecting (try ${info.attempt + 1})…` : "connecting…",
      open: "connected",
      waiting: `offline: retrying in ${Math.round(info.delayMs / 100) / 10} s`,
      closed: "disconnected",
    };
    this.connEl.replaceChildren(words[status] ?? status);
    if (status === "waiting") {
      this.connEl.append(" ", h("button", { class: "quiet", onClick: () => this.connection.retryNow() }, "retry now"));
    }
  }

  /** Another player asks for a new game mid-game: this player may agree (the same request). */
  onProposal(message) {
    if (this.role !== "player" || message.seat === this.seat || !message.waiting_for.includes(this.seat)) return;
    const what = message.variant ? `a new game of ${message.variant}` : "a new game";
    this.banner.replaceChildren(`${message.name} asks to leave this game for ${what}. `,
      h("button", { type: "button", class: "primary", onClick: () => { this.banner.hidden = true; this.rematch(message.variant ?? undefined); } }, "Agree"),
      " ", h("button", { type: "button", class: "quiet", onClick: () => { this.banner.hidden = true; } }, "Keep playing"));
    this.banner.hidden = false;
  }

  showBanner(text) {
    this.banner.textContent = text;
    this.banner.hidden = false;
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    if (event.key === "Escape") {
      closeChooser();
      if (this.rules?.isOpen) this.rules.toggle(false);
      return;
    }
    if (document.querySelector(".chooser")) return;
    if (event.key === "?") { this.rules?.toggle(); event.preventDefault(); return; }
    if (event.key === "u" && !this.undoButton.hidden) { this.undo(); return; }
    if (event.key === "h" && !this.hintButton.hidden) { this.askHint(); return; }
    if (event.key === "n" && this.state?.terminal && this.role === "player") { this.rematch(); return; }
    const action = this.keys.get(event.key);
    if (action) {
      event.preventDefault();
      this.act(action);
    }
  }
}
