// The Star Dice page (the seed's table software, mode 1: the virtual table, made for a
// newcomer): a <canvas> that fits any window, every die drawn as what it is in its fleet's
// colour, and round it what a person needs, in words, never a coordinate or an action's text:
//
//   - over the table, one line in the colour of whoever acts now: what happens now and what to
//     do (stardice_prompt.js);
//   - under it, the controls of this moment, in a row that keeps its height (the table never
//     moves): the ships left in hand, the call, holding fire, "Next battle" (stardice_controls.js);
//   - what the last step did, the fleets' hands, the scoring shape by shape (each shape tagged
//     with a letter on the table when a battle is scored), the battles and the war's total
//     (stardice_scoring.js).
//
// This module builds the page's elements and one TableState (stardice_state.js) that every other
// module is handed: stardice_canvas.js draws the table on every animation frame (the pieces with
// stardice_draw.js), stardice_throw.js turns drags, flicks and keys into the engine's own throw
// text sent with ctx.play, stardice_match.js takes the server's states and streamed `frame`
// messages (a battle stays frozen with its scoring until "Next battle"), stardice_words.js words
// the log. "Throws" under the table chooses how a throw is shown, as digital board games offer
// an animation speed: as thrown (real time, the default), fast (three times as fast) or at once
// (only where the dice come to rest); the choice is kept in this browser, and the server streams
// at the slowest pace any page at the table asked for (docs/web.md).

import { h } from "../util.js";
import { startDrawing } from "./stardice_canvas.js";
import { endSummary } from "./stardice_scoring.js";
import { logLines, onStream, refresh, render } from "./stardice_match.js";
import { VariantMenu } from "./stardice_menu.js";
import { status } from "./stardice_prompt.js";
import { Sounds } from "./stardice_sound.js";
import { PACES, TableState } from "./stardice_state.js";
import { listenForDrags, listenForKeys } from "./stardice_throw.js";
import { actionWords } from "./stardice_words.js";

export { status };
export { throwText } from "./stardice_throw.js";

// A hint is the aiming bot's throw and why, in words (stardice/aiming.py): which die, from
// where, towards which point, and the formation it closes or the ship it knocks.
export const hints = true;
/** The frame lists no actions for Star Dice: its ~50 sampled throws are no choice for a person;
 *  the board offers each thing to do where it belongs (the call, the ships, holding fire). */
export const listActions = false;

const PACE_KEY = "playtable.throwPace";

export function label(action) {
  return actionWords(action);
}

/** The page's elements; the buttons' handlers act on `state`, made right after. */
function buildElements(ctx, sounds, act) {
  const canvas = h("canvas", { class: "stardice-canvas", tabindex: "0", role: "img",
    "aria-label": "The Star Dice table. To throw from the keyboard: arrow keys aim, [ and ] move the start along the frame, Enter throws." });
  const ui = {
    canvas,
    g: canvas.getContext("2d"),
    prompt: h("p", { class: "stardice-prompt", role: "status", "aria-live": "polite" }, "Loading the table…"),
    pieceBar: h("div", { class: "stardice-pieces", role: "group", "aria-label": "Your ships" }),
    choices: h("div", { class: "stardice-choices", role: "group", "aria-label": "What to do now" }),
    nextBattle: h("button", { type: "button", class: "primary stardice-next", hidden: true, onClick: () => act.nextBattle() }, "Next battle"),
    note: h("span", { class: "stardice-note", role: "alert" }),
    // What the last step did, in words (the call, the Borg roll, a die knocked out of a shape...).
    news: h("p", { class: "stardice-news", role: "status", "aria-live": "polite" }),
    fleets: h("div", { class: "stardice-fleets", "aria-label": "The fleets" }),
    scorePanel: h("section", { class: "stardice-score", "aria-label": "Scoring" }),
    pauseButton: h("button", { type: "button", onClick: () => act.togglePause() }, "Pause"),
    paceChoice: h("select", { class: "stardice-pace", "aria-label": "Throws", onChange: () => act.choosePace(ui.paceChoice.value) },
      ...Object.entries(PACES).map(([pace, words]) => h("option", { value: pace }, words))),
    paceNote: h("span", { class: "stardice-pace-note", role: "status" }),
  };
  const mute = h("input", { type: "checkbox", onChange: () => { sounds.muted = mute.checked; } });
  const fullButton = h("button", { type: "button", hidden: !document.fullscreenEnabled,
    onClick: () => (document.fullscreenElement ? document.exitFullscreen() : ui.box.requestFullscreen()).catch(() => {}) },
  "Full screen");
  const menu = ctx.rematch ? new VariantMenu(ctx) : null;
  // A replay (ctx.replay) throws nothing: no throwing keys' help, and its step controls take the
  // row under the table (`stepSlot`), so the board stays in view while stepping.
  const keysHelp = ctx.replay ? "" : h("p", { class: "stardice-keys" },
    "Keyboard: Tab to the table, arrows aim (Shift: finer), [ and ] move the start along the frame, Enter throws, 1-6 pick a ship.");
  ui.stepSlot = h("div", { class: "stardice-step-slot" });
  ui.box = h("div", { class: "stardice-board" },
    ui.prompt,
    h("div", { class: "stardice-stage" }, canvas),
    ctx.replay ? ui.stepSlot : h("div", { class: "stardice-controls" }, ui.pieceBar, ui.choices, ui.nextBattle, ui.note),
    ui.news, ui.fleets, ui.scorePanel,
    h("div", { class: "stardice-bar" }, h("label", {}, mute, " Mute"), ui.pauseButton,
      h("label", {}, "Throws ", ui.paceChoice), ui.paceNote, fullButton, menu?.element ?? ""),
    menu?.panel ?? "", keysHelp);
  return { ui, menu };
}

/** How this browser wants throws shown (kept for its next tables): told to the server. */
function choosePace(state, pace) {
  state.ui.paceChoice.value = pace;
  state.ui.paceNote.textContent = "";
  try { localStorage.setItem(PACE_KEY, pace); } catch { /* a private window: this page only */ }
  state.ctx.pace?.(pace);
}

export function createBoard(host, ctx) {
  if (!document.querySelector("link[data-stardice-css]")) {
    document.head.append(h("link", { rel: "stylesheet", href: "/static/css/stardice.css", "data-stardice-css": "1" }));
  }
  const sounds = new Sounds();
  let state = null;
  const { ui, menu } = buildElements(ctx, sounds, {
    nextBattle: () => {
      state.frozen = null;
      ui.nextBattle.hidden = true;
      if (state.view) refresh(state);
      ui.canvas.focus({ preventScroll: true });
    },
    togglePause: () => {
      state.togglePause();
      ui.pauseButton.textContent = state.paused ? "Resume" : "Pause";
    },
    choosePace: (pace) => choosePace(state, pace),
  });
  state = new TableState(ctx, ui, sounds);
  state.menu = menu;
  host.replaceChildren(ui.box);
  startDrawing(state);
  let storedPace = null;
  try { storedPace = localStorage.getItem(PACE_KEY); } catch { /* storage refused: as thrown */ }
  if (Object.hasOwn(PACES, storedPace ?? "") && storedPace !== "normal") choosePace(state, storedPace);
  if (!ctx.replay) {
    listenForDrags(state);
    listenForKeys(state);
  }
  return {
    /** Where a replay puts its step controls: the row under the table. */
    stepSlot: ctx.replay ? ui.stepSlot : null,
    render: (next) => render(state, next),
    onStream: (message) => onStream(state, message),
    /** The log's lines for one step, in words, from `seat`'s side of the table (frame.js). */
    logLines: (entry, seat) => logLines(state, entry, seat),
    /** The last battle's lettered scoring for the end screen (frame.js). */
    endSummary: () => endSummary(state),
    status,
    label,
  };
}
