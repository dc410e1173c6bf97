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
//   ctx.pace(pace) asks the server to stream throws' motion at "normal", "fast" or "instant"
//   pace (Star Dice's Throws choice; told again on every welcome, so a reconnect keeps it).
//   and `hints = false` when the game never gives hints (the button is then not shown).
//
// Seats with secrets and simultaneous moves need nothing more: each seat only ever receives its
// own observation, and `waiting_for` names everyone who still has to commit.
//
// People: seats are shown by their players' names (the log says "Alice: Move left",
// and "Alice's clock ran out: heuristic played Move left" for a stand-in); a page opened
// on its own seat without a token (`/t/ID?seat=N`, from the lobby's "Yours") asks for it with
// the player key in a `hello` message; every seat's clock shows in the header (clocks.js); the tab title
// and, once allowed, a notification say when it is this player's move.

import { ChatPanel } from "./chat.js";
import { SeatClocks } from "./clocks.js";
import { Connection, tableSocketUrl } from "./connection.js";
import { andList, endDetails, voteBox } from "./end_story.js";
import { endRating } from "./ratings.js";
import { bringIntoView, closeChooser, confirmWarning, endScreen, GameLog, RulesPanel, showChooser } from "./frame_parts.js";
import { askToNotify, canAskToNotify, notify, playerKey, playerName, saveName } from "./player.js";
import { ProposalStatus, upperFirst } from "./proposal.js";
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
    this.seatTitles = []; // the seats as players read them ("Hero 2"), `seatNames` being the game's ids
    this.pending = false;
    this.hinted = null;
    this.keys = new Map();
    this.endDismissed = false;
    this.vote = null; // the wizard game's end-screen vote, as the server last told it (votes.py)
    this.following = false;
    this.noHintStep = null;
    this.players = [];
    // A seat asked for without a token is this player's own: asked for with the key (hello).
    this.wantedSeat = token ? null : seat;
    this.helloSent = false;
    this.pace = null; // the pace this page asked throws to be streamed at (ctx.pace), if any
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
    this.clocks = new SeatClocks((seat) => this.who(seat));
    this.notifyButton = h("button", { class: "quiet", hidden: true, title: "A browser notification when it is your move and this tab is not in front",
      onClick: async () => { await askToNotify(); this.notifyButton.hidden = true; } }, "Notify me");
    this.replayLink = h("a", { class: "button quiet", href: `/t/${this.tableId}/replay${this.token ? seatQuery(this.seat, this.token) : ""}` }, "Replay");
    this.rulesButton = h("button", { class: "quiet", "aria-controls": "rules", onClick: () => this.rules?.toggle() }, "Rules (?)");
    const header = h("header", { class: "topbar" },
      h("a", { class: "home", href: "/", "aria-label": "Back to the lobby" }, "playtable"),
      h("div", { class: "title-block" }, this.titleEl, this.seatEl),
      this.turnEl, this.clocks.element, h("div", { class: "top-buttons" }, this.rulesButton, this.replayLink, this.notifyButton), this.connEl);
    this.banner = h("div", { class: "banner", role: "alert", hidden: true });
    this.proposal = new ProposalStatus({ send: (m) => this.connection.send(m), agree: (v) => this.rematch(v), who: (s) => this.who(s) });
    this.boardHost = h("div", { class: "board-host" });
    this.statusEl = h("p", { class: "board-status" });
    this.hintEl = h("p", { class: "hint-text", role: "status", "aria-live": "polite" });
    this.endHost = h("div", { class: "end-host" });
    this.undoButton = h("button", { hidden: true, onClick: () => this.undo() }, "Undo (u)");
    this.hintButton = h("button", { hidden: true, onClick: () => this.askHint() }, "Hint (h)");
    this.actionList = h("ul", { class: "action-list", "aria-label": "Legal actions" });
    this.waitingEl = h("p", { class: "waiting" });
    this.nameForm = this.buildNameForm();
    this.logList = h("ol", { class: "log-list" });
    this.chat = new ChatPanel((m) => this.connection.send(m));
    root.replaceChildren(header, this.banner, this.proposal.element,
      h("main", { class: "table-layout" },
        h("section", { class: "board-area", "aria-label": "Board" }, this.statusEl, this.boardHost, this.hintEl, this.endHost),
        h("aside", { class: "side" },
          h("section", { class: "actions-panel", "aria-label": "Your actions" },
            h("div", { class: "panel-head" }, h("h2", {}, "Actions"), h("div", { class: "buttons" }, this.undoButton, this.hintButton)),
            this.nameForm, this.waitingEl, this.actionList),
          h("section", { class: "log-panel", "aria-label": "Log" }, h("h2", {}, "What happened"),
            h("div", { class: "log-scroll" }, this.logList)), this.chat.element)));
    this.board = this.module.createBoard(this.boardHost, {
      offer: (el, actions) => this.offer(el, actions),
      label: (a) => this.label(a),
      seatNames: () => this.seatNames,
      seatTitles: () => this.seatTitles,
      who: (seat) => this.who(seat),
      play: (action) => this.play(action),
      rematch: (variant) => this.rematch(variant),
      pace: (pace) => { this.pace = pace; this.connection?.send({ type: "pace", pace }); },
      table: () => this.table,
    });
  }

  start() {
    this.connection.open();
  }

  /** A seated player without a name: one line to choose it (it then shows on this seat). */
  buildNameForm() {
    const input = h("input", { type: "text", maxlength: 30, placeholder: "Your name", "aria-label": "Your name", autocomplete: "nickname" });
    const problem = h("span", { class: "error", role: "alert" });
    const form = h("form", { class: "name-form", hidden: true },
      h("label", {}, "Others see this seat as ", h("strong", {}, "nobody yet"), ": your name? "), input,
      h("button", { type: "submit" }, "Save"), problem);
    input.addEventListener("keydown", (e) => e.stopPropagation()); // words, not the board's keys
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      problem.textContent = "";
      try {
        await saveName(input.value);
        form.hidden = true;
        this.sayHello(true);
      } catch (err) {
        problem.textContent = err.message;
      }
    });
    return form;
  }

  /** The seat's player's name, else the seat's title in the game ("Hero 2", "the wizard"). */
  who(seat) {
    return this.players[seat] || this.seatTitles[seat] || this.seatNames[seat] || `seat ${seat}`;
  }

  connect(seat, token) {
    // Only a token goes in the socket's URL; a seat without one is asked for with the key (hello).
    return new Connection(tableSocketUrl(this.tableId, token ? seat : null, token), {
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
    const name = this.who(next);
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
      case "rematch_proposed": this.proposal.set(message); return this.drawProposal();
      case "rematch_declined": this.proposal.declined(message, this.seat); return this.drawProposal();
      // What the server did at this table: a failing bot replaced, a clock run out.
      case "notice": return this.chat.notice(message);
      case "seats": return this.onSeats(message);
      case "clock": return this.onClock(message);
      case "vote": this.vote = message; return this.state && this.drawEnd();
      default: return this.board.onStream?.(message);
    }
  }

  onWelcome(message) {
    this.table = message.table;
    this.role = message.role;
    this.seat = message.seat;
    this.seatNames = message.seat_names || [];
    this.seatTitles = message.seat_titles || this.seatNames;
    this.players = message.players || [];
    const variant = this.table.variant ? ` · ${this.table.variant_title ?? this.table.variant}` : "";
    this.titleEl.textContent = `${this.table.game_name}${variant}`;
    this.drawSeatBadge();
    this.replayLink.href = `/t/${this.tableId}/replay${this.role === "player" ? this.seatQuery(this.seat) : ""}`;
    this.notifyButton.hidden = !(this.role === "player" && canAskToNotify());
    this.sayHello(false);
    if (this.pace) this.connection.send({ type: "pace", pace: this.pace });
    if (!this.rules) this.rules = new RulesPanel(this.table.game);
    if (this.token && this.role !== "player") {
      this.showBanner("This seat's link was refused (wrong or old token): you are watching, and cannot act.");
    }
    this.log.reset(message.log || [], (e) => this.describeStep(e));
    this.drawTitle();
    this.chat.reset(message.chat);
    for (const notice of message.notices || []) this.chat.notice(notice);
    this.chat.setSeated(this.role === "player");
    // One person at the table (a solitaire): nobody to chat with (chat.js).
    this.chat.setSolo((this.table.seats?.length ?? 0) <= 1);
    this.proposal.set(message.proposal);
    this.drawProposal();
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
          action: state.last_action, events: state.events, stand_in: state.last_stand_in }, (e) => this.describeStep(e));
      } else {
        this.connection.send({ type: "sync" });
      }
    }
    this.state = state;
    this.showClocks(state.clock);
    if (previous && state.step < previous.step) this.hintEl.textContent = "The last action was taken back.";
    if (!state.terminal) this.endDismissed = false;
    if (previous && state.step !== previous.step && !this.proposal.proposal) this.proposal.say("");
    this.drawProposal();
    this.draw(Boolean(previous) && state.step === previous.step + 1);
    if (previous && !previous.terminal && state.terminal) bringIntoView(this.endHost.querySelector(".end-screen"));
    window.dispatchEvent(new CustomEvent("playtable:state")); // a tutorial's guide follows the game
    this.passDevice();
    this.drawTitle();
    if (state.your_turn && !state.terminal && !(previous?.your_turn && previous.step === state.step)
      && (document.hidden || !document.hasFocus())) {
      notify(`Your turn: ${this.table?.game_name ?? "playtable"}`, `${this.who(this.seat)}, it is your move.`,
        this.tableId, window.location.href);
    }
  }

  // -- people: names, the player's own seat, the clocks, the tab title ---------------------------
  /** Tell the server whose page this is: ask for this player's own seat (a page opened without a
   * token), or put this player's name on the seat its token opened. `again`: after choosing a name. */
  sayHello(again) {
    const key = playerKey();
    if (!key || !playerName()) {
      this.nameForm.hidden = !(this.role === "player" && !this.players[this.seat]);
      return;
    }
    this.nameForm.hidden = true;
    if (this.helloSent && !again) return;
    if (this.role === "watcher" && this.wantedSeat !== null) {
      this.helloSent = true;
      this.connection.send({ type: "hello", key, seat: this.wantedSeat });
    } else if (this.role === "player" && !this.players[this.seat]) {
      this.helloSent = true;
      this.connection.send({ type: "hello", key });
    }
  }

  /** "?seat=N&token=T", or "?seat=N" for a seat this page holds by the player key. */
  seatQuery(seat) {
    if (seat === null || seat === undefined) return "";
    return this.token ? seatQuery(seat, this.token) : `?seat=${encodeURIComponent(seat)}`;
  }

  drawSeatBadge() {
    if (this.role !== "player") {
      this.seatEl.textContent = "Watching";
      return;
    }
    const role = this.seatTitles[this.seat] ?? `seat ${this.seat}`;
    const name = this.players[this.seat];
    this.seatEl.textContent = name ? `${name} · you play ${role}` : `You play ${role}`;
  }

  onSeats(message) {
    this.players = message.players || [];
    if (this.table) {
      this.table.seats = message.seats;
      this.table.status = message.status;
    }
    this.drawSeatBadge();
    this.nameForm.hidden = !(this.role === "player" && !this.players[this.seat] && !playerName());
    if (this.state) this.draw(false); // the board names its seats too (a tester who sat down since)
    this.clocks.draw(); // the clocks show the seats' new names
  }

  /** A clock started because its seat's person just arrived (the state's step is unchanged). */
  onClock(message) {
    if (this.state && message.step === this.state.step) {
      this.state.clock = message.clock;
      this.showClocks(message.clock);
    }
  }

  showClocks(clock) {
    const over = Boolean(this.state?.terminal || this.state?.result);
    this.clocks.set(clock, { mine: this.role === "player" ? this.seat : null, over });
  }

  drawTitle() {
    const game = this.table?.game_name ?? "Table";
    const mine = this.state?.your_turn && !this.state.terminal;
    document.title = mine ? `▶ Your turn · ${game} · playtable` : `${game} · playtable`;
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
    if (message.code === "forbidden" && (this.token || this.wantedSeat !== null)) {
      this.showBanner(`${message.message} You are watching, and cannot act.`);
      return;
    }
    if (message.code === "stale") return; // a fresh state follows
    if (message.code === "unknown_player") {
      // The server does not know this browser's key (a new database): name it again, once.
      if (playerName() && !this.renamed) {
        this.renamed = true;
        saveName(playerName()).then(() => this.sayHello(true), () => {});
      }
      return;
    }
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
    const names = (st.waiting_for || []).map((s) => this.who(s));
    // A table left unfinished (its players moved to a rematch in another variant) has a result
    // but no end: nobody plays it on.
    const left = !st.terminal && st.result;
    let text;
    if (st.terminal) text = "Game over";
    else if (left) text = "Left unfinished";
    else if (st.your_turn) {
      // Simultaneous moves: others may still have to commit too.
      const others = (st.waiting_for || []).filter((s) => s !== this.seat).map((s) => this.who(s));
      text = others.length ? `Your turn (${andList(others)} too)` : "Your turn";
    }
    else if (st.bot_thinking) text = upperFirst(names.length > 1 ? `${andList(names)} are thinking…` : `${names[0] ?? "The bot"} is thinking…`);
    else text = names.length ? `Waiting for ${andList(names)}` : "Waiting";
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
    const who = (seat) => this.who(seat);
    this.endHost.append(endScreen({
      title, text: result.text, won,
      // The game's own answer to "why?" first where it has one (Star Dice: the final scoring).
      details: [this.board.endSummary?.(), endDetails(st.end, who)],
      vote: voteBox(this.vote, { seat: this.role === "player" ? this.seat : null, seats: this.seatTitles, who,
        onVote: (seat) => this.connection.send({ type: "vote", seat }) }),
      replayUrl: this.replayLink.href,
      onRematch: this.role === "player" ? () => this.rematch() : null,
      onClose: () => { this.endDismissed = true; this.drawEnd(); },
    }));
    endRating(this.endHost.querySelector(".end-screen"), this.tableId, document.body.dataset.game); // ratings.js
  }

  describeStep(entry) {
    if (entry.action === null || entry.action === undefined) return entry.step === 0 ? "Setup" : `Step ${entry.step}`;
    const who = entry.seat === null || entry.seat === undefined ? "Someone" : upperFirst(this.who(entry.seat));
    // A bot that played for a person whose clock ran out says so: never as the person.
    if (entry.stand_in) return `${entry.step}. ${who}'s clock ran out: ${entry.stand_in} played ${this.label(entry.action)}`;
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
    if (this.gate && !this.gate(action)) return; // a tutorial's script (tutorial.js) says what to play
    if (entry.warning && !(await confirmWarning(this.label(action), entry.warning))) return;
    const step = this.state.step;
    if (this.connection.send({ type: "act", action, step })) this.pending = true;
    else this.hintEl.textContent = "Not connected: the action was not sent. Reconnecting…";
  }

  /** Send an action text that is not in the list (a continuous game's throw, e.g. Star Dice's
   *  drag): the server checks it like any other. False when it cannot be sent now. */
  play(action) {
    if (this.pending || !this.state?.your_turn) return false;
    if (this.gate && !this.gate(action)) return false;
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
      const proof = this.token ? { token: this.token } : { key: playerKey() };
      const body = { seat: this.seat, ...proof, ...(variant ? { variant } : {}) };
      const answer = await postJson(`/api/tables/${encodeURIComponent(this.tableId)}/rematch`, body);
      if (answer.proposed) {  // mid-game, the others must agree first (docs/web.md, rematch)
        this.proposal.set(answer.proposal);
        this.drawProposal();
        return;
      }
      this.follow(answer.table_id, answer.seat);
    } catch (err) {
      this.proposal.say(err.message);
      this.drawProposal();
    }
  }

  /** The proposal's one status line, for a seated player while the game goes on. */
  drawProposal() {
    const st = this.state;
    this.proposal.draw(this.seat, this.role === "player" && !(st && (st.terminal || st.result)));
  }

  /** Go to table `tableId`; `seat` is this player's seat there (null: watch; undefined: the same). */
  follow(tableId, seat) {
    if (this.following || !tableId) return;
    this.following = true;
    this.connection.close();
    const where = seat === undefined ? this.seat : seat;
    const query = this.role === "player" && where !== null ? this.seatQuery(where) : "";
    window.location.assign(`/t/${encodeURIComponent(tableId)}${query}`);
  }

  // -- the rest of the page --------------------------------------------------------------------
  showConnection(status, info) {
    this.connEl.dataset.status = status;
    if (status === "connecting") this.helloSent = false; // every new socket says whose page it is
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
