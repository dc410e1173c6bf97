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

  /** Put the bubble beside its target (below, else above; over it for a target taller than
   *  the window) and the ring round the target. */
  place(scroll = false) {
    if (this.bubble.hidden) return;
    const target = this.targetElement();
    // The visual viewport: a phone's page may be wider than its screen (a sideways board).
    const view = window.visualViewport;
    const vw = view?.width ?? window.innerWidth;
    const vh = view?.height ?? window.innerHeight;
    const sx = view?.pageLeft ?? window.scrollX;
    const sy = view?.pageTop ?? window.scrollY;
    const width = Math.min(360, vw - 16);
    this.bubble.style.width = `${width}px`;
    if (scroll && target) {
      const box = target.getBoundingClientRect();
      if (box.bottom < 0 || box.top > vh) target.scrollIntoView({ block: "center" });
    }
    const box = target?.getBoundingClientRect();
    this.ring.hidden = !box;
    if (box) {
      this.ring.style.left = `${window.scrollX + box.left - 4}px`;
      this.ring.style.top = `${window.scrollY + box.top - 4}px`;
      this.ring.style.width = `${box.width + 8}px`;
      this.ring.style.height = `${box.height + 8}px`;
    }
    const height = this.bubble.offsetHeight;
    let left;
    let top;
    if (!box || vw < 700) {
      // A phone (or nothing to point at): docked at the bottom of the screen, or at its top
      // when the target lies down there.
      left = (vw - width) / 2;
      top = vh - height - 8;
      if (box && box.bottom > top && box.top > 8 + height) top = 8;
    } else {
      left = Math.min(vw - width - 8, Math.max(8, box.left + box.width / 2 - width / 2));
      // A spot on a board: beside it, so the board round it (what the text talks about) stays
      // in view; anything else (a panel, a button, the whole board): below or above it.
      const beside = Math.max(8, Math.min(vh - height - 8, box.top + box.height / 2 - height / 2));
      const places = [
        ["right", box.right + 12 + width <= vw - 8, [box.right + 12, beside]],
        ["left", box.left - 12 - width >= 8, [box.left - 12 - width, beside]],
        ["below", box.bottom + 12 + height <= vh, [left, box.bottom + 12]],
        ["above", box.top - 12 - height >= 0, [left, box.top - 12 - height]],
      ];
      const spot = target.closest(".board-host") && box.width < 200 ? places : [places[2], places[3], places[0], places[1]];
      [left, top] = spot.find(([, fits]) => fits)?.[2] ?? [left, Math.max(8, Math.min(vh - height - 8, box.top + 8))];
    }
    this.bubble.style.left = `${sx + left}px`;
    this.bubble.style.top = `${sy + top}px`;
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
