// The replay viewer (/t/ID/replay?seat=&token=): any table, running or finished, stepped
// backwards and forwards action by action (buttons, slider, arrow keys, Home/End, Space to play)
// or event by event (Shift+arrows: each event marked in the list and animated alone), drawn by the
// game's own board module; the record and the position at any step download once the game is
// finished (before that the server refuses with a sentence saying why, shown here).

import { endDetails } from "./end_story.js";
import { playerKey } from "./player.js";
import { download, gameModule, getJson, h, seatQuery, tableAddress } from "./util.js";

const PLAY_INTERVAL_MS = 1000;

class ReplayViewer {
  constructor(root, { tableId, seat, token, table, module, steps, byKey }) {
    Object.assign(this, { root, tableId, seat, token, table, module, steps, byKey });
    this.index = 0;
    this.timer = null;
    this.build();
    this.show(0, false);
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  build() {
    const variant = this.table.variant ? ` · ${this.table.variant_title ?? this.table.variant}` : "";
    const query = seatQuery(this.seat, this.token);
    this.stepEl = h("span", { class: "replay-step", role: "status", "aria-live": "polite" });
    this.slider = h("input", { type: "range", min: 0, max: this.steps.length - 1, value: 0, step: 1,
      "aria-label": "Step", onInput: () => this.show(Number(this.slider.value), false) });
    this.playButton = h("button", { onClick: () => this.togglePlay(), "aria-label": "Play" }, "▶ Play");
    const controls = h("div", { class: "replay-controls" },
      h("button", { onClick: () => this.show(0, false), "aria-label": "First step", title: "First (Home)" }, "|◀"),
      h("button", { onClick: () => this.show(this.index - 1, false), "aria-label": "Step back", title: "Back (←)" }, "◀"),
      this.slider,
      h("button", { onClick: () => this.show(this.index + 1, true), "aria-label": "Step forward", title: "Forward (→)" }, "▶"),
      h("button", { onClick: () => this.show(this.steps.length - 1, false), "aria-label": "Last step", title: "Last (End)" }, "▶|"),
      this.playButton,
      h("span", { class: "buttons" },
        h("button", { onClick: () => this.stepEvent(-1), "aria-label": "Event back", title: "Event back (Shift+←)" }, "◀ event"),
        h("button", { onClick: () => this.stepEvent(1), "aria-label": "Event forward", title: "Event forward (Shift+→)" }, "event ▶")),
      this.stepEl);
    this.boardHost = h("div", { class: "board-host" });
    this.statusEl = h("p", { class: "board-status" });
    this.endEl = h("section", { class: "replay-end", "aria-label": "The end", hidden: true });
    const tableSeats = this.table.seats.map((seat) => seat.name);
    // People by their names: the seat's player, else its title in the game ("Hero 2", not hero2).
    this.who = (seat) => this.table.seats[seat]?.player || this.table.seats[seat]?.title || this.table.seats[seat]?.name || "";
    this.board = this.module.createBoard(this.boardHost, { offer: () => {}, label: (a) => a, seatNames: () => tableSeats,
      who: (seat) => this.who(seat), table: () => this.table, replay: true });
    // A board with a place for the step controls (Star Dice: the row under its table) keeps them
    // beside what they move; any other board has them under it.
    this.board.stepSlot?.append(controls);
    this.logList = h("ol", { class: "log-list" });
    this.logScroll = h("div", { class: "log-scroll" }, this.logList);
    // The game's own words for a step where it has them (Star Dice: "the Klingon d12 knocks ..."),
    // as the table page's log speaks; else the events' texts.
    const lines = (step) => this.board.logLines?.(step, this.seat) ?? step.events;
    this.logList.append(...this.steps.map((step, i) => h("li", { dataset: { step: step.step }, onClick: () => this.show(i, false) },
      h("span", { class: "log-head" }, this.describe(step)),
      lines(step).length ? h("ul", {}, lines(step).map((e) => h("li", { class: `ev-${e.kind}` }, e.text))) : null)));
    this.downloads = this.buildDownloads();
    const finished = this.table.status === "finished";
    this.root.replaceChildren(
      h("header", { class: "topbar" },
        h("a", { class: "home", href: "/" }, "playtable"),
        h("div", { class: "title-block" }, h("h1", {}, `Replay: ${this.table.game_name}${variant}`),
          h("span", { class: "seat-badge" }, this.seat !== null && (this.token || this.byKey || finished) ? `Seen by ${this.who(this.seat) || "your seat"}` : "Seen as a spectator"),
          // Once the game is over every seat's view is open to everyone (the full replay).
          finished && this.table.seats.length > 1 ? h("nav", { class: "replay-views", "aria-label": "Seen by" }, "See it as: ",
            h("a", { href: `/t/${this.tableId}/replay` }, "a spectator"),
            ...this.table.seats.flatMap((seat) => [" · ", h("a", { href: `/t/${this.tableId}/replay?seat=${seat.seat}` }, this.who(seat.seat))])) : null),
        h("div", { class: "top-buttons" },
          finished ? null : h("a", { class: "button quiet", href: `/t/${this.tableId}${query || (this.byKey ? `?seat=${this.seat}` : "")}` }, "Back to the table"),
          h("button", { class: "quiet", onClick: () => window.location.reload() }, "Reload"))),
      h("main", { class: "table-layout" },
        h("section", { class: "board-area", "aria-label": "Board" }, this.statusEl, this.boardHost, this.board.stepSlot ? null : controls,
          finished && this.table.result ? h("p", { class: "end-reason" }, h("strong", {}, "How it ended: "), this.table.result.text) : null,
          this.endEl),
        h("aside", { class: "side" },
          h("section", { class: "actions-panel replay-downloads", "aria-label": "Downloads" }, h("h2", {}, "Downloads"), this.downloads),
          h("section", { class: "log-panel", "aria-label": "Steps" }, h("h2", {}, "Steps"), this.logScroll))));
  }

  buildDownloads() {
    const base = `/api/tables/${encodeURIComponent(this.tableId)}`;
    const note = h("p", { class: "note", role: "status" });
    const record = h("button", { onClick: () => this.fetchFile(`${base}/record`, `${this.table.game}-${this.tableId}.record.json`, note) },
      "The record (replays the whole game)");
    this.positionButton = h("button", { onClick: () => this.fetchFile(`${base}/position?step=${this.steps[this.index].step}`,
      `${this.table.game}-${this.tableId}-step${this.steps[this.index].step}.json`, note) }, "The position at this step");
    const box = h("div", { class: "replay-downloads" }, h("div", { class: "buttons" }, record, this.positionButton), note,
      h("p", { class: "note" }, "A position opens with ", h("code", {}, "playtable state view"), " and the lab; a record replays every event."));
    if (this.table.status !== "finished") {
      record.disabled = true;
      this.positionButton.disabled = true;
      // Ask anyway, to show the server's own reason (the record holds the seed, hence every future draw).
      fetch(`${base}/record`).then(async (r) => {
        const body = await r.json().catch(() => ({}));
        note.textContent = r.ok ? "" : body.error ?? "Downloads open once the game is finished.";
      }, () => { note.textContent = "The server cannot be reached."; });
    }
    return box;
  }

  async fetchFile(url, filename, note) {
    note.textContent = "";
    try {
      await download(url, filename);
      note.textContent = `Downloaded ${filename}.`;
    } catch (err) {
      note.textContent = err.message;
    }
  }

  describe(step) {
    if (step.action === null || step.action === undefined) return step.step === 0 ? "Setup" : `Step ${step.step}`;
    const who = step.seat === null || step.seat === undefined ? "" : this.who(step.seat);
    const label = this.board?.label?.(step.action) ?? step.action;
    if (step.stand_in) return `${step.step}. ${who}'s clock ran out: ${step.stand_in} played ${label}`;
    return `${step.step}. ${who ? `${who}: ` : ""}${label}`;
  }

  /** Show step `index`; `event` (an index into its events) marks one event, played alone. */
  show(index, animate, event = null) {
    const i = Math.max(0, Math.min(this.steps.length - 1, index));
    const forwardByOne = animate && i === this.index + 1;
    this.index = i;
    this.event = event;
    const step = this.steps[i];
    const events = event === null ? step.events : [step.events[event]];
    this.board.render({ observation: step.observation, legal: [], events, step: step.step,
      terminal: i === this.steps.length - 1 && this.table.status === "finished", hinted: null,
      animate: forwardByOne || (animate && event !== null),
      yourTurn: false, waitingFor: [], role: "watcher" });
    this.statusEl.textContent = this.board.status?.(step.observation) ?? "";
    // The last step of a finished game: what was hidden and the game's story (end_story.js).
    this.endEl.hidden = !step.end;
    this.endEl.replaceChildren(...(step.end ? [endDetails(step.end, this.who)] : []));
    this.slider.value = String(i);
    const eventWords = event === null ? "" : ` · event ${event + 1} of ${step.events.length}`;
    this.stepEl.textContent = `Step ${step.step} of ${this.steps[this.steps.length - 1].step}${eventWords}`;
    [...this.logList.children].forEach((li, k) => {
      li.classList.toggle("current", k === i);
      li.classList.toggle("future", k > i);
      li.querySelectorAll("ul > li").forEach((e, j) => e.classList.toggle("current-event", k === i && j === event));
    });
    // Scroll the list itself, never the page (on a phone the list is far below the board).
    const item = this.logList.children[i];
    if (item) this.logScroll.scrollTop = Math.max(0, item.offsetTop - this.logScroll.clientHeight / 3);
    if (i === this.steps.length - 1 && (event === null || event === step.events.length - 1)) this.stopPlay();
  }

  /** One event forward or back, across step boundaries (the board shows each step's position;
   * the event is marked in the list and animated on its own). */
  stepEvent(delta) {
    let i = this.index;
    let j = this.event ?? (delta > 0 ? -1 : this.steps[i].events.length);
    j += delta;
    while (j < 0 || j >= this.steps[i].events.length) {
      i += delta;
      if (i < 0 || i >= this.steps.length) return;
      j = delta > 0 ? 0 : this.steps[i].events.length - 1;
    }
    this.show(i, delta > 0, j);
  }

  togglePlay() {
    if (this.timer) return this.stopPlay();
    if (this.index === this.steps.length - 1) this.show(0, false);
    this.playButton.textContent = "Pause";
    this.timer = setInterval(() => this.show(this.index + 1, true), PLAY_INTERVAL_MS);
    return undefined;
  }

  stopPlay() {
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "▶ Play";
  }

  onKey(event) {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.shiftKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      this.stepEvent(event.key === "ArrowRight" ? 1 : -1);
      return;
    }
    const moves = { ArrowLeft: () => this.show(this.index - 1, false), ArrowRight: () => this.show(this.index + 1, true),
      Home: () => this.show(0, false), End: () => this.show(this.steps.length - 1, false), " ": () => this.togglePlay() };
    if (moves[event.key] && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      moves[event.key]();
    }
  }
}

async function main() {
  const root = document.getElementById("app");
  const { tableId, seat, token } = tableAddress();
  try {
    if (!tableId) throw new Error("This address names no table.");
    const id = encodeURIComponent(tableId);
    // A seat without a token in the address is this player's own: the key goes in a header.
    const key = seat !== null && !token ? playerKey() : null;
    const [table, replay] = await Promise.all([getJson(`/api/tables/${id}`), getJson(`/api/tables/${id}/replay${seatQuery(seat, token) || (seat !== null && seat !== undefined ? `?seat=${encodeURIComponent(seat)}` : "")}`,
      key ? { "X-Player-Key": key } : {})]);
    const module = await gameModule(table.game);
    document.body.dataset.game = table.game;
    document.title = `Replay: ${table.game_name} · playtable`;
    window.playtableReplay = new ReplayViewer(root, { tableId, seat, token, table, module, steps: replay.steps, byKey: Boolean(key) });
  } catch (err) {
    root.replaceChildren(h("main", { class: "page-error" }, h("h1", {}, "No replay"), h("p", {}, err.message),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
  }
}

main();
