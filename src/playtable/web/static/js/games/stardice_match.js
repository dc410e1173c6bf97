// The live match on the Star Dice page: what each message from the server does to the page.
// A new state (`render`) brings the faces, the shapes and the sounds of the step, the words of
// what it did, and, when it scored a battle of a war (or a solitaire round), the scored table
// frozen with its scoring until "Next battle" (the engine has already cleared it; the seed's
// software froze it). A throw's motion (`frame` messages, `onStream`) is kept for
// stardice_canvas.js to play back at the pace the table streams at. `refresh` redraws the
// words and controls round the table; `logLines` words each step for the frame's log.

import { drawControls, drawPieceBar } from "./stardice_controls.js";
import { drawPrompt, soloMode } from "./stardice_prompt.js";
import { drawFleets, drawScore } from "./stardice_scoring.js";
import { PACES } from "./stardice_state.js";
import { startKbd } from "./stardice_throw.js";
import { ownerOf, stepLines } from "./stardice_words.js";

const TOLD_ELSEWHERE = ["battle_scored", "war_over", "round_scored", "game_over"];

/** Redraws everything round the table from the state. */
export function refresh(state) {
  const canvas = state.ui.canvas;
  state.ui.box.classList.toggle("frozen", Boolean(state.view.terminal || state.frozen));
  drawPrompt(state);
  drawControls(state);
  drawFleets(state);
  drawScore(state);
  if (!state.canThrow()) state.kbd = null;
  else if (document.activeElement === canvas && canvas.matches(":focus-visible")) startKbd(state);
}

/** What the step did, in words, for the line under the controls (the end of a battle is told
 *  by the prompt and the scoring, so its words stop at the scoring when `untilScored`). */
function newsLines(state, next, untilScored = false) {
  let events = next.events;
  if (untilScored) {
    const end = events.findIndex((e) => e.kind === "battle_scored" || e.kind === "round_scored");
    if (end >= 0) events = events.slice(0, end);
  }
  const obs = state.obs;
  const lines = stepLines({ step: next.step, seat: null, action: null, events }, state.viewer,
    { names: state.names(), warTarget: obs.war_format ? 0 : obs.war_target, solo: Boolean(soloMode(obs)) });
  return lines.filter((l) => !TOLD_ELSEWHERE.includes(l.kind)).map((l) => l.text).join(" ");
}

function playSounds(state, events) {
  for (const e of events) {
    if (e.kind === "landed") state.sounds.landed();
    else if (e.kind === "formation_closed") state.sounds.formed();
    else if (e.kind === "formation_broken") state.sounds.broken();
    else if (e.kind === "battle_scored") state.sounds.won();
  }
}

/** The scored table as the battle ended, kept until "Next battle": the pieces where the last
 *  throw left them, their faces, the dice out, and the fleets with the last die thrown. */
function freeze(state, next, prevObs, scoredNow) {
  const { obs, live } = state;
  const lastFrames = live && live.step === next.step ? live.frames[live.frames.length - 1].pieces : null;
  const before = prevObs?.table || [];
  const values = new Map(before.map((pc) => [pc.id, pc.value]));
  for (const e of next.events) {
    if ((e.kind === "landed" || e.kind === "knocked") && e.data) values.set(e.data.piece, e.data.value);
  }
  const pos = lastFrames ?? new Map(before.map((pc) => [pc.id, [pc.x, pc.y]]));
  for (const e of next.events) {
    if (e.kind === "knocked_off" && e.data) pos.delete(e.data.piece);
  }
  const eliminated = [...(prevObs?.eliminated || [])];
  for (const e of next.events) {
    if (e.kind === "knocked_off" && e.data && !eliminated.includes(e.data.piece) && e.data.piece !== "borg") eliminated.push(e.data.piece);
  }
  // the fleets as the battle ended: the die thrown in this step has left its hand
  const onTable = new Set(before.map((pc) => pc.id));
  const thrown = next.events.find((e) => e.kind === "landed")?.data?.piece
    ?? next.events.find((e) => e.kind === "knocked_off" && !onTable.has(e.data?.piece))?.data?.piece;
  const hands = (prevObs?.hands || obs.hands).map((hand, seat) => {
    const left = [...hand];
    const i = thrown && ownerOf(thrown) === seat ? left.indexOf(thrown.split(".")[1]) : -1;
    if (i >= 0) left.splice(i, 1);
    return left;
  });
  state.frozen = { event: scoredNow, score: obs.last_score, pos, values, obs: { ...obs, hands, eliminated } };
  state.live = null;
}

/** A new state from the server (the frame's `render`). */
export function render(state, next) {
  const prevStep = state.view?.step;
  const prevObs = state.obs;
  state.view = next;
  state.obs = next.observation;
  state.viewer = next.role === "player" ? state.obs.seat ?? null : null;
  if (next.step !== prevStep) state.pending = false;
  if (state.live && next.step >= state.live.step) state.live.done = true;
  if (next.animate && next.step !== prevStep) playSounds(state, next.events);
  // A replay shows a scored battle as it ended at the step that scored it (reached from the
  // step before), and never holds it for a "Next battle": the next step moves on.
  const replay = Boolean(state.ctx.replay);
  if (replay && next.step !== prevStep) state.frozen = null;
  const scoredNow = (replay ? next.step === prevStep + 1 : next.animate) && next.step !== prevStep && !next.terminal
    && next.events.find((e) => e.kind === "battle_scored" || e.kind === "round_scored");
  if (scoredNow && state.obs.last_score) freeze(state, next, prevObs, scoredNow);
  state.menu?.show(next.role === "player");
  state.ui.canvas.dataset.step = String(next.step);
  // what the last step did; a frozen battle keeps the words of its own last throw
  if (next.step !== prevStep && (!state.frozen || scoredNow)) state.ui.news.textContent = newsLines(state, next, Boolean(scoredNow));
  refresh(state);
}

/** A message the frame does not know: a throw's physics frame, kept to be played back. */
export function onStream(state, message) {
  if (message.type !== "frame") return;
  const frame = { t: message.t, pieces: new Map(message.pieces.map(([id, x, y]) => [id, [x, y]])) };
  if (!state.live || state.live.step !== message.step) {
    // A throw's last frame comes before its state, but a page that (re)connected while it
    // was streamed has the state first: a throw already shown at rest is not started again.
    if (state.view && message.step <= state.view.step) return;
    const thrown = message.pieces.find(([id]) => !(state.obs?.table || []).some((pc) => pc.id === id))?.[0] ?? null;
    // played back at the speed it is sent at (null: only the resting frame, at once)
    const speed = message.speed || 1;
    state.live = { step: message.step, frames: [], start: state.clock() - (message.t * 1000) / speed, speed, done: false,
      thrown, releasedAt: state.ownThrow };
    showPace(state, Object.hasOwn(PACES, message.pace ?? "") ? message.pace : "normal");
    state.ownThrow = null;
    state.ui.canvas.dataset.firstFrameAt = String(performance.now());
    if (state.view) { drawPrompt(state); drawPieceBar(state); }
  }
  state.live.frames.push(frame);
}

/** The pace the table streams at; when another page at the table asked for a slower one (the
 *  table streams the slowest), a note beside this page's choice says so. */
function showPace(state, pace) {
  const { canvas, paceNote, paceChoice } = state.ui;
  canvas.dataset.pace = pace;
  const order = Object.keys(PACES);
  paceNote.textContent = order.indexOf(pace) < order.indexOf(paceChoice.value)
    ? `(${PACES[pace].toLowerCase()} here: someone else at the table asked for that)` : "";
}

/** The log's lines for one step, in words, from `seat`'s side of the table (frame.js). */
export function logLines(state, entry, seat) {
  const params = state.params();
  return stepLines(entry, seat, { names: state.names(), warTarget: (params.war_format ?? "target") !== "target" ? 0 : params.war_target,
    solo: Boolean(soloMode(params)) });
}
