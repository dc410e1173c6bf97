// Tutorials: a guided first game on the real table page with the real engine. The
// server makes a table with the tutorial's fixed deal and bots (POST /api/tutorials); this module
// reads the same shipped script (/static/tutorials/NAME.json) and walks the player through it in
// a bubble pointing at the page's own elements. A step either waits for "Next", or for the action
// the script expects (`expect`, or `match`: a pattern, for a throw aimed by hand), or lets the
// player play freely to the end of the game (`free`). The player plays on the board as always; an
// action the step does not expect is not sent
// (the frame asks `gate` first) and the bubble says gently what to do instead, so the fixed deal
// tells the story the script was written for. Bots play the other seats; a step is shown only
// once the game waits for this player again (or is over).
//
// The frame's hooks: `frame.gate(action)` (false: do not send) and the window event
// "playtable:state" after each state is drawn. Progress is kept per table in sessionStorage, so a
// reload comes back to the same step.

import { getJson, h, postJson } from "./util.js";

const NAME = /^[a-z0-9-]{1,40}$/;
const STYLE = "/static/css/tutorial.css";

/** The tutorial named in the page's address (`&tutorial=NAME`), or null. */
export function tutorialName(search = window.location.search) {
  const name = new URLSearchParams(search).get("tutorial");
  return name && NAME.test(name) ? name : null;
}

let listing = null;

/** The shipped tutorials [{name, game, title, summary}], fetched once a page. */
function tutorials() {
  listing ??= getJson("/api/tutorials").then((answer) => answer.tutorials, () => []);
  return listing;
}

/** Make the tutorial's table and go there. */
export async function startTutorial(name, problem) {
  try {
    const answer = await postJson("/api/tutorials", { name });
    window.location.assign(answer.join_url);
  } catch (err) {
    if (problem) problem.textContent = err.message;
  }
}

/** "Learn to play" buttons for a game's tutorials (filled in once the list has come). */
export function learnButtons(gameId) {
  addStyle();
  const problem = h("span", { class: "error", role: "alert" });
  const host = h("span", { class: "learn-buttons" });
  tutorials().then((list) => {
    host.replaceChildren(...list.filter((t) => t.game === gameId).map((t) => h("button", {
      type: "button", class: "learn", title: t.summary, dataset: { tutorial: t.name },
      onClick: () => startTutorial(t.name, problem),
    }, t.button || "Learn to play")), problem);
  });
  return host;
}

function addStyle() {
  if (document.querySelector(`link[href="${STYLE}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href: STYLE }));
}

/** Start the guide for `name` on the table `frame` shows. */
export async function guide(frame, name) {
  addStyle();
  let script;
  try {
    script = await getJson(`/static/tutorials/${name}.json`);
  } catch {
    return null;
  }
  const tour = new Guide(frame, script);
  window.playtableTutorial = tour; // for the browser tests
  return tour;
}

/** What a bubble avoids on every page besides what its step asks the person to use: whose turn
 *  it is (the header), the actions, the chat's Send and the end screen. */
const KEEP_CLEAR = [".topbar", ".actions-panel", ".chat-form button", ".end-screen"];

function overlap(a, b) {
  return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
}

/** The places a bubble of `size` may go in a window vw x vh, best first: beside its target `box`
 *  (`spot`: a small spot on a board, where right and left come first), then, nearest the target
 *  first, every place along the window's sides and touching the sides of what it must not cover
 *  (`rects`), so that one hiding nothing is among them whenever there is one. */
function candidates(box, { width, height }, vw, vh, spot, rects) {
  const low = vh - height - 8;
  const clampX = (x) => Math.min(vw - width - 8, Math.max(8, x));
  const clampY = (y) => Math.min(low, Math.max(8, y));
  const out = [];
  if (box && vw >= 700) {
    const centre = clampX(box.left + box.width / 2 - width / 2);
    const beside = clampY(box.top + box.height / 2 - height / 2);
    const sides = [[box.right + 12, beside], [box.left - 12 - width, beside]];
    const ends = [[centre, box.bottom + 12], [centre, box.top - 12 - height]];
    out.push(...(spot ? [...sides, ...ends] : [...ends, ...sides]));
  }
  // A phone (or nothing to point at): docked at the bottom of the screen, else at its top.
  const phone = vw < 700 || !box;
  const xs = phone ? [(vw - width) / 2] : [vw - width - 8, 8, (vw - width) / 2,
    ...rects.flatMap((r) => [r.right + 4, r.left - 4 - width])];
  out.push([xs[0], low], [xs[0], 8]);
  const ys = [...rects.flatMap((r) => [r.bottom + 4, r.top - 4 - height])];
  for (let y = 8; y <= low; y += 24) ys.push(y);
  const grid = xs.flatMap((x) => ys.map((y) => [x, y]));
  if (box) {
    const far = ([x, y]) => Math.hypot(x + width / 2 - (box.left + box.width / 2), y + height / 2 - (box.top + box.height / 2));
    grid.sort((a, b) => far(a) - far(b));
  }
  out.push(...grid);
  return out.filter(([x, y]) => x >= 0 && y >= 0 && x + width <= vw + 0.5 && y + height <= vh + 0.5);
}

/** The first candidate that covers least: what the step asks the person to use counts far more
 *  than the header, the actions, Send or the end screen. */
function bestSpot(places, { width, height }, used, kept) {
  let best = null;
  for (const [x, y] of places) {
    const rect = { left: x, top: y, right: x + width, bottom: y + height };
    const cost = 100 * used.reduce((acc, b) => acc + overlap(rect, b), 0)
      + kept.reduce((acc, b) => acc + overlap(rect, b), 0);
    if (!best || cost < best.cost) best = { cost, at: [x, y] };
    if (cost === 0) break;
  }
  return best?.at ?? [8, 8];
}

class Guide {
  constructor(frame, script) {
    this.frame = frame;
    this.script = script;
    this.storeKey = `playtable.tutorial.${frame.tableId}`;
    const saved = this.load();
    this.index = saved?.index ?? 0;
    this.shownAt = saved?.step ?? null; // the game step when the current step was shown
    this.sentAt = null; // the game step at which the expected action was sent
    this.done = this.index >= script.steps.length;
    this.build();
    frame.gate = (action) => this.allows(action);
    window.addEventListener("playtable:state", () => this.update());
    window.addEventListener("resize", () => this.place());
    // A board that turns or slides (Rotator's quarter turn) moves the target: follow it.
    document.addEventListener("transitionend", () => this.place());
    document.addEventListener("animationend", () => this.place());
    // and anything else that moves it (a scroll, a panel growing above it): look again often.
    this.follow = setInterval(() => this.place(), 400);
    if (frame.state) this.update();
  }

  load() {
    try {
      return JSON.parse(sessionStorage.getItem(this.storeKey) || "null");
    } catch {
      return null;
    }
  }

  save() {
    try {
      sessionStorage.setItem(this.storeKey, JSON.stringify({ index: this.index, step: this.shownAt }));
    } catch {
      // A private window may refuse storage: a reload then starts the guide again.
    }
  }

  build() {
    this.counter = h("span", { class: "tutorial-count" });
    this.text = h("p", { class: "tutorial-text" });
    this.task = h("p", { class: "tutorial-task" });
    this.hint = h("p", { class: "tutorial-hint", role: "status", "aria-live": "polite" });
    this.next = h("button", { type: "button", class: "primary tutorial-next", onClick: () => this.advance() }, "Next");
    this.skip = h("button", { type: "button", class: "quiet tutorial-skip", onClick: () => this.finish() }, "End the tutorial");
    this.bubble = h("section", { class: "tutorial-bubble", role: "dialog", "aria-label": this.script.title, "aria-live": "polite" },
      h("header", {}, h("strong", {}, this.script.title), this.counter),
      this.text, this.task, this.hint, h("div", { class: "buttons" }, this.skip, this.next));
    this.ring = h("div", { class: "tutorial-ring", "aria-hidden": "true" });
    document.body.append(this.ring, this.bubble);
    this.bubble.hidden = true;
    this.ring.hidden = true;
  }

  get step() {
    return this.done ? null : this.script.steps[this.index];
  }

  /** The game waits for this player (or is over): a step may be shown. */
  atRest() {
    const st = this.frame.state;
    return Boolean(st) && (st.terminal || (st.your_turn && !this.frame.pending));
  }

  update() {
    const st = this.frame.state;
    if (!st || this.done) return;
    if (this.sentAt !== null) {
      if (st.step <= this.sentAt) return; // the expected action's answer is still to come
      this.sentAt = null;
      this.index += 1;
      this.shownAt = null;
      this.done = this.index >= this.script.steps.length;
    } else if (this.step?.free && st.terminal) {
      // Played freely to the end of the game: the next step explains the end.
      this.index += 1;
      this.shownAt = null;
      this.done = this.index >= this.script.steps.length;
    } else if (this.shownAt !== null && this.step && this.isAction(this.step) && st.step > this.shownAt) {
      // Reloaded after the expected action was sent: it was played.
      this.index += 1;
      this.shownAt = null;
      this.done = this.index >= this.script.steps.length;
    }
    if (this.done) return this.finish();
    if (!this.atRest()) {
      this.showWaiting();
      return;
    }
    if (this.shownAt === null) this.shownAt = st.step;
    this.save();
    this.show();
  }

  isAction(step) {
    return Boolean(step.expect || step.match);
  }

  matches(step, action) {
    if (step.expect) return action === step.expect;
    return new RegExp(step.match).test(action);
  }

  /** The frame asks before sending an action: only the step's expected one goes. */
  allows(action) {
    const step = this.step;
    if (!step || step.free) return true;
    if (!this.isAction(step)) {
      this.say("Read this first, then press Next.");
      this.next.focus();
      return false;
    }
    if (!this.matches(step, action)) {
      this.say(step.hint || `Not this time: in this tutorial, play “${this.frame.label(step.expect)}”.`);
      return false;
    }
    this.sentAt = this.frame.state.step;
    this.say("");
    return true;
  }

  say(text) {
    this.hint.textContent = text;
    this.bubble.hidden = false;
    this.place();
  }

  showWaiting() {
    this.counter.textContent = "";
    this.text.textContent = "The other players are moving…";
    this.task.textContent = "";
    this.hint.textContent = "";
    this.next.hidden = true;
    this.bubble.hidden = false;
    this.bubble.dataset.index = String(this.index);
    this.bubble.dataset.kind = "waiting";
    this.target = null;
    this.place();
  }

  show() {
    const step = this.step;
    const action = this.isAction(step);
    this.counter.textContent = `${this.index + 1} / ${this.script.steps.length}`;
    this.text.textContent = step.say;
    this.task.textContent = step.expect ? `Your move: ${this.frame.label(step.expect)}` : step.task ?? "";
    this.hint.textContent = "";
    this.next.hidden = action || Boolean(step.free);
    this.next.textContent = this.index === this.script.steps.length - 1 ? "Finish" : "Next";
    this.bubble.dataset.index = String(this.index);
    this.bubble.dataset.kind = step.free ? "free" : action ? "action" : "next";
    this.bubble.hidden = false;
    // Found again at each placing: a board redraws its elements at every state.
    this.target = step.at ?? (step.expect ? () => this.offering(step.expect) : null);
    this.place(true);
    if (!action && !this.bubble.contains(document.activeElement)) this.next.focus({ preventScroll: true });
  }

  /** Where the page offers `action`: a spot on the board, else its button in the list. */
  offering(action) {
    const spot = [...document.querySelectorAll(".board-host [data-actions]")]
      .find((el) => el.dataset.actions.split("|").includes(action));
    return spot ?? document.querySelector(`.action-list button[data-action="${CSS.escape(action)}"]`);
  }

  targetElement() {
    if (!this.target) return null;
    return typeof this.target === "function" ? this.target() : document.querySelector(this.target);
  }

  /** The elements the step asks the person to use (its `use` selectors), else its target. */
  inUse() {
    const used = (this.step?.use ?? []).flatMap((sel) => [...document.querySelectorAll(sel)]);
    const target = this.targetElement();
    return target ? [target, ...used] : used;
  }

  /** Bring what the step asks the person to use into view, leaving `room` pixels for a phone's
   *  bubble: all of it at the top of the screen when it fits above the bubble (docked at the
   *  bottom), else its start just under the bubble (docked at the top); on a desktop all of it
   *  in the middle when it fits, else its top. */
  reveal(boxes, vh, room) {
    if (!boxes.length) return;
    const top = Math.min(...boxes.map((b) => b.top));
    const bottom = Math.max(...boxes.map((b) => b.bottom));
    const fits = bottom - top <= vh - room;
    if (top >= 0 && bottom <= vh - room) return;
    const by = room ? (fits ? top - 8 : top - room) : fits ? top - (vh - (bottom - top)) / 2 : top - 8;
    window.scrollBy({ top: by, behavior: "instant" });
  }

  /** Put the bubble where it hides nothing the person needs (one rule for every game): never
   *  over what the step asks them to use (its target and `use` elements), nor over the header,
   *  the actions, the chat's Send or the end screen when it can avoid them; near its target
   *  (beside a spot on a board, else below or above) among the places that do. The ring goes
   *  round the target. */
  place(scroll = false) {
    if (this.bubble.hidden) return;
    // The visual viewport: a phone's page may be wider than its screen (a sideways board).
    const view = window.visualViewport;
    const vw = view?.width ?? window.innerWidth;
    const vh = view?.height ?? window.innerHeight;
    const width = Math.min(360, vw - 16);
    this.bubble.style.width = `${width}px`;
    const target = this.targetElement();
    const room = vw < 700 ? this.bubble.offsetHeight + 16 : 0;
    if (scroll) this.reveal(this.inUse().map((el) => el.getBoundingClientRect()), vh, room);
    const box = target?.getBoundingClientRect();
    this.ring.hidden = !box;
    if (box) {
      this.ring.style.left = `${window.scrollX + box.left - 4}px`;
      this.ring.style.top = `${window.scrollY + box.top - 4}px`;
      this.ring.style.width = `${box.width + 8}px`;
      this.ring.style.height = `${box.height + 8}px`;
    }
    const used = this.inUse().map((el) => el.getBoundingClientRect());
    const kept = KEEP_CLEAR.flatMap((sel) => [...document.querySelectorAll(sel)])
      .filter((el) => !this.bubble.contains(el)).map((el) => el.getBoundingClientRect());
    const size = { width, height: this.bubble.offsetHeight };
    const spot = target?.closest(".board-host") && box.width < 200;
    const [left, top] = bestSpot(candidates(box, size, vw, vh, spot, [...used, ...kept]), size, used, kept);
    this.bubble.style.left = `${(view?.pageLeft ?? window.scrollX) + left}px`;
    this.bubble.style.top = `${(view?.pageTop ?? window.scrollY) + top}px`;
  }

  advance() {
    if (this.done || this.isAction(this.step) || this.step.free) return;
    this.index += 1;
    this.shownAt = null;
    this.done = this.index >= this.script.steps.length;
    if (this.done) return this.finish();
    this.update();
  }

  /** The tutorial is over (or ended early): the table plays on as any other. */
  finish() {
    this.done = true;
    this.index = this.script.steps.length;
    this.save();
    this.frame.gate = null;
    clearInterval(this.follow);
    this.bubble.hidden = true;
    this.ring.hidden = true;
    this.bubble.dataset.kind = "done";
  }
}
