// Every seat's clock on a table page, and a come-back-later move's time left in the lobby (issue
// 29; docs/web.md "Clocks"). The server sends a table's clocks as {pace ("real-time" or
// "come-back-later"), seconds, increment, timeout ("stand-in" or "forfeit"), left: [seconds, or
// null for a bot's seat], running: seat|null, waiting: seat|null (to act, not arrived yet), out:
// [seats out of time]}. `left` is as of the message, so the running clock is counted down from
// when it arrived here: the browser's own clock is never trusted.

import { h } from "./util.js";

const DAY = 86400;

/** A time left: "4:05" or "1:02:03" on a real-time clock; "2 d 3 h", "5 h 10 min" or "9:59"
 *  on a come-back-later one. */
export function clockText(seconds, pace = "real-time") {
  const s = Math.max(0, Math.ceil(seconds));
  const two = (n) => String(n).padStart(2, "0");
  if (pace !== "real-time" && s >= DAY) {
    const hours = Math.floor((s % DAY) / 3600);
    return `${Math.floor(s / DAY)} d${hours ? ` ${hours} h` : ""}`;
  }
  if (pace !== "real-time" && s >= 3600) {
    const minutes = Math.floor((s % 3600) / 60);
    return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ""}`;
  }
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

/** The table's pace in a few words: "5:00 each + 2 s a move", "2 days a move". */
export function paceText(clock) {
  if (clock.pace === "real-time") {
    return `${clockText(clock.seconds)} each${clock.increment ? ` + ${clock.increment} s a move` : ""}`;
  }
  const days = clock.seconds / DAY;
  if (Number.isInteger(days)) return `${days} ${days === 1 ? "day" : "days"} a move`;
  return `${clockText(clock.seconds, clock.pace)} a move`;
}

/** What a timeout does, in words. */
export function timeoutText(clock) {
  if (clock.timeout === "forfeit") return "out of time, the seat forfeits the game";
  return clock.pace === "real-time" ? "out of time, a bot plays the seat's moves for the rest of the game"
    : "out of time, a bot plays that one move";
}

/** The lobby's words for a table's come-back-later move ("Alice: 1 d 23 h left to move"),
 *  or "" (no clock, a real-time one, or no person's move). `who(seat)`: "You" for the reader. */
export function moveLeftText(clock, who) {
  if (!clock || clock.pace !== "come-back-later") return "";
  const seat = clock.running ?? clock.waiting;
  if (seat === null || seat === undefined) return "";
  const time = clockText(clock.left[seat], clock.pace);
  if (clock.running !== null) return `${who(seat)}: ${time} left to move`;
  return `${who(seat)}: ${time} to move, from when ${who(seat) === "You" ? "you open" : "they open"} it`;
}

/** The least time any of `tables` (the lobby's summaries, with `your_seats`) leaves one of this
 *  player's come-back-later moves, as words ("5 h 10 min"), or "" (none waits on a clock). */
export function soonestMoveLeft(tables) {
  const left = tables.map((t) => {
    const c = t.clock;
    const seat = c?.running ?? c?.waiting;
    return c?.pace === "come-back-later" && seat !== null && seat !== undefined && (t.your_seats ?? []).includes(seat)
      ? c.left[seat] : null;
  }).filter((s) => s !== null);
  return left.length ? clockText(Math.min(...left), "come-back-later") : "";
}

/** The strip of every person's seat's clock on a table page. */
export class SeatClocks {
  /** `who(seat)`: the seat's name as people read it. */
  constructor(who) {
    this.who = who;
    this.clock = null;
    this.tick = null;
    this.element = h("div", { class: "seat-clocks", role: "group", "aria-label": "Clocks", hidden: true });
  }

  /** New clocks from the server (null: the table has none); `mine`: this page's seat (null:
   *  watching); `over`: the game has ended (every clock stopped). */
  set(clock, { mine = null, over = false } = {}) {
    this.clock = clock ? { ...clock, at: performance.now() } : null;
    this.mine = mine;
    this.over = over;
    clearInterval(this.tick);
    this.tick = clock && clock.running !== null && !over ? setInterval(() => this.draw(), 250) : null;
    this.draw();
  }

  leftOf(seat) {
    const c = this.clock;
    const left = c.left[seat];
    if (left === null || seat !== c.running || this.over) return left;
    return Math.max(0, left - (performance.now() - c.at) / 1000);
  }

  draw() {
    const c = this.clock;
    this.element.hidden = !c;
    if (!c) return;
    const chips = [h("span", { class: "clock-pace", title: `Clocks: ${paceText(c)}; ${timeoutText(c)}.` }, paceText(c))];
    c.left.forEach((stored, seat) => {
      if (stored === null) return; // a bot's seat has no clock
      const left = this.leftOf(seat);
      const out = c.out.includes(seat);
      const running = c.running === seat && !this.over;
      const limit = c.pace === "real-time" ? Math.min(10, c.seconds / 4) : c.seconds / 10;
      let note = "";
      if (out) note = " · out of time: a bot plays";
      else if (c.waiting === seat && !this.over && seat !== this.mine) note = " · starts when they arrive";
      const name = seat === this.mine ? `${this.who(seat)} (you)` : this.who(seat);
      chips.push(h("span", {
        class: "seat-clock", role: "timer", "aria-live": "off",
        dataset: { seat, running: String(running), mine: String(seat === this.mine), low: String(running && left <= limit), out: String(out) },
      }, h("span", { class: "clock-who" }, name), " ", h("span", { class: "clock-time" }, clockText(left, c.pace)), note));
    });
    this.element.replaceChildren(...chips);
  }
}

/** The create form's clock choice: none, real-time (minutes each, seconds added a move) or come
 *  back later (days a move), and what a timeout does. `value()`: the request's `clock`. */
export function clockField() {
  const label = (id, words) => h("label", { for: id }, words);
  const pace = h("select", { id: "clock-pace", name: "clock_pace" },
    h("option", { value: "" }, "no clock"),
    h("option", { value: "real-time" }, "real-time (minutes each)"),
    h("option", { value: "come-back-later" }, "come back later (days a move)"));
  const minutes = h("input", { id: "clock-minutes", type: "number", min: 0.1, max: 180, step: "any", value: 10, inputmode: "decimal" });
  const increment = h("input", { id: "clock-increment", type: "number", min: 0, max: 60, step: 1, value: 0, inputmode: "numeric" });
  const days = h("select", { id: "clock-days" }, [1, 2, 3, 5, 7, 14].map((d) => h("option", { value: d }, `${d} ${d === 1 ? "day" : "days"}`)));
  days.value = "2";
  const timeout = h("select", { id: "clock-timeout" },
    h("option", { value: "stand-in" }, "a bot plays for them"), h("option", { value: "forfeit" }, "they forfeit the game"));
  const realTime = h("div", { class: "clock-row" }, h("div", {}, label("clock-minutes", "Minutes each"), minutes),
    h("div", {}, label("clock-increment", "Seconds added a move"), increment));
  const later = h("div", { class: "clock-row" }, h("div", {}, label("clock-days", "Time for each move"), days));
  const ends = h("div", { class: "clock-row" }, h("div", {}, label("clock-timeout", "When a clock runs out"), timeout));
  const note = h("p", { class: "note" });
  const show = () => {
    realTime.hidden = pace.value !== "real-time";
    later.hidden = pace.value !== "come-back-later";
    ends.hidden = !pace.value;
    note.textContent = {
      "": "No clock: take all the time you like.",
      "real-time": "Like a chess clock, each person's minutes last the whole game; only the clock of the seat to move runs, once its person is here. Minutes may be a fraction: 0.5 is 30 seconds.",
      "come-back-later": "Play a move, close the page, come back: the lobby's \"Your turn\" shows how long each move has left.",
    }[pace.value];
  };
  pace.addEventListener("change", show);
  show();
  const field = h("fieldset", { class: "clock-choice" }, h("legend", {}, "Clock"),
    h("div", { class: "field" }, label("clock-pace", "Pace"), pace), realTime, later, ends, note);
  const value = () => {
    if (!pace.value) return null;
    if (pace.value === "come-back-later") return { pace: pace.value, days: Number(days.value), timeout: timeout.value };
    return { pace: pace.value, seconds: Math.round(Number(minutes.value) * 60), increment: Number(increment.value), timeout: timeout.value };
  };
  return { field, value };
}
