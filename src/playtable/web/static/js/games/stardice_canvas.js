// The Star Dice table's canvas, drawn on every animation frame (stardice_draw.js draws the
// pieces): the canvas sized to the window, the frame lit for whoever acts, the pieces at rest or
// played back from the streamed physics frames (one physics frame, 0.1 s, behind the newest,
// interpolated linearly at the screen's frame rate), connections and formations, the shapes'
// tags (fading in and out while the battle goes on, lettered when it is scored), the aim of a
// throw and the pause. It also leaves what it drew where tests and benchmarks read it.

import {
  drawAim, drawBackground, drawBanner, drawLayout, drawLogo, drawPieces, drawRangeRing, fit, objectAt, shapeKey, TABLE,
} from "./stardice_draw.js";
import { colours, layoutOf, lettered, tagText } from "./stardice_scoring.js";
import { kbdAim } from "./stardice_throw.js";

const ASPECT = (TABLE.depth + 2 * TABLE.frame) / (TABLE.width + 2 * TABLE.frame);
const FADE_MS = 450;
const PLAYBACK_LAG = 0.1; // seconds behind the newest physics frame, so there is one to go to

/** Sizes the canvas so the whole table and the row of controls under it fit in the window. */
function resize(state) {
  const { canvas, g } = state.ui;
  const stage = state.stage;
  const rect = canvas.parentElement.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const width = Math.max(200, rect.width);
  const top = rect.top + window.scrollY;
  // The row under the table: the controls (70 px), or a replay's step controls as tall as they are.
  const under = Math.max(70, (state.ui.stepSlot?.offsetHeight ?? 0) + 24);
  const room = (document.fullscreenElement ? window.innerHeight - 120 : window.innerHeight - top - under);
  const height = Math.round(Math.max(180, Math.min(width * ASPECT, room)));
  if (width === stage.width && height === stage.height && canvas.width === Math.round(width * dpr)) return;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  stage.width = width;
  stage.height = height;
  stage.fit = fit(width, height);
}

function lerpFrames(frames, tau) {
  // frames: [{t, pieces: Map}] in time order; positions at sim time tau (clamped to the ends).
  let i = 0;
  while (i + 1 < frames.length && frames[i + 1].t <= tau) i += 1;
  const a = frames[i];
  const b = frames[Math.min(i + 1, frames.length - 1)];
  const k = b.t > a.t ? Math.min(1, Math.max(0, (tau - a.t) / (b.t - a.t))) : 0;
  const out = new Map();
  for (const [id, [x, y]] of b.pieces) {
    const from = a.pieces.get(id);
    out.set(id, from ? [from[0] + (x - from[0]) * k, from[1] + (y - from[1]) * k] : [x, y]);
  }
  return out;
}

/** Where the pieces are at `now` and which of them move: at rest, or played back. */
function currentPieces(state, now) {
  const live = state.live;
  if (!live) return { pos: new Map((state.obs?.table || []).map((pc) => [pc.id, [pc.x, pc.y]])), moving: new Set() };
  const tau = Math.max(0, ((now - live.start) / 1000) * live.speed - PLAYBACK_LAG);
  const pos = lerpFrames(live.frames, tau);
  const before = lerpFrames(live.frames, Math.max(0, tau - 0.05));
  const moving = new Set();
  for (const [id, [x, y]] of pos) {
    const b = before.get(id);
    if (!b || Math.hypot(x - b[0], y - b[1]) > 0.0005 || (tau < 0.05 && id === live.thrown)) moving.add(id);
  }
  const lastT = live.frames[live.frames.length - 1].t;
  if (live.done && tau >= lastT) state.live = null;
  return { pos, moving };
}

/** Where a shape's tag goes: a formation's middle, a string's middle edge; null while it moves. */
function anchorOf(shape, pos, moving) {
  const at = shape.objects.map((id) => objectAt(pos, id, moving));
  if (at.some((xy) => !xy)) return null;
  if (shape.kind === "string") {
    const i = Math.floor((at.length - 1) / 2);
    const j = Math.min(at.length - 1, i + 1);
    return [(at[i][0] + at[j][0]) / 2, (at[i][1] + at[j][1]) / 2];
  }
  return [at.reduce((sum, xy) => sum + xy[0], 0) / at.length, at.reduce((sum, xy) => sum + xy[1], 0) / at.length];
}

/** The formations' points while the battle goes on, each fading in and out (never sliding). */
function updateNumbers(state, now, pos, moving) {
  const numbers = state.numbers;
  const shown = new Set();
  for (const shape of state.obs?.score?.shapes || []) {
    if (shape.kind !== "formation") continue;
    const xy = anchorOf(shape, pos, moving);
    if (!xy) continue; // a die of it moves: its connections are gone
    const key = shapeKey(shape.objects);
    const text = tagText(shape, null, state.system());
    shown.add(key);
    const old = numbers.get(key);
    if (!old || old.gone !== null || old.text !== text || old.owner !== shape.owner) {
      numbers.set(key, { text, owner: shape.owner, x: xy[0], y: xy[1], born: now, gone: null });
    } else {
      old.x = xy[0];
      old.y = xy[1];
    }
  }
  for (const [key, n] of numbers) {
    if (!shown.has(key) && n.gone === null) n.gone = now;
    if (n.gone !== null && now - n.gone > FADE_MS) numbers.delete(key);
  }
}

/** The tags to write on the table: the scored shapes' letters, else the fading points. */
function tagsNow(state, now, pos, moving, fills) {
  const tags = [];
  if (state.scored()) {
    for (const { shape, letter, key } of lettered(state.shownScore(), state.system())) {
      const xy = anchorOf(shape, pos, moving);
      if (!xy) continue;
      tags.push({ x: xy[0], y: xy[1], text: tagText(shape, letter, state.system()), owner: shape.owner,
        colour: fills.get(key) ?? "#ffffff" });
    }
    return tags;
  }
  updateNumbers(state, now, pos, moving);
  for (const [key, n] of state.numbers) {
    const alpha = n.gone === null ? Math.min(1, (now - n.born) / FADE_MS) : Math.max(0, 1 - (now - n.gone) / FADE_MS);
    tags.push({ x: n.x, y: n.y, text: n.text, owner: n.owner, alpha, colour: fills.get(key) ?? null });
  }
  return tags;
}

function draw(state) {
  const began = performance.now();
  const now = state.clock();
  const { obs, view, frozen, stage } = state;
  const { canvas, g } = state.ui;
  const range = state.params().connect_range ?? undefined;
  const mover = obs && !view?.terminal && !frozen ? obs.to_move : null;
  drawBackground(g, stage, mover === 0 || mover === 1 ? mover : null, state.canThrow());
  const { pos, moving } = frozen ? { pos: frozen.pos, moving: new Set() } : currentPieces(state, now);
  const values = frozen ? frozen.values : new Map((obs?.table || []).map((pc) => [pc.id, pc.value]));
  const shownAim = state.aim ?? kbdAim(state);
  if (!pos.size && !shownAim) drawLogo(g, stage, now, state.canThrow() ? "Drag from the grey frame onto the table to throw" : "");
  for (const id of moving) drawRangeRing(g, stage, ...pos.get(id), range);
  // a die that moves loses its connections; new ones come with the state once it rests
  const layout = frozen ? layoutOf(frozen.score) : obs?.layout ?? { formations: [], edges: [] };
  const fills = colours(layout, state.shownScore());
  drawLayout(g, stage, pos, layout, moving, (key) => fills.get(key), state.highlight);
  window.stardiceShapes = [...fills].map(([key, colour]) => ({ key, colour })); // the tests read the colours drawn
  const tags = tagsNow(state, now, pos, moving, fills);
  const drawn = drawPieces(g, stage, [...pos].map(([id, [x, y]]) => ({ id, x, y, value: values.get(id), moving: moving.has(id) })), tags);
  if (shownAim) drawAim(g, stage, shownAim, range);
  canvas.dataset.aim = shownAim?.word ?? "";
  if (state.paused) drawBanner(g, stage, "Paused");
  canvas.dataset.animating = state.live ? "yes" : "no";
  canvas.dataset.moving = String(moving.size);
  canvas.dataset.labels = String(drawn.labels.length);
  window.stardiceLabels = drawn; // what was written where (tests check that no label covers another)
  // [pieces moving, ms this frame's drawing took] (benchmarks/stardice_table.py --scatter)
  window.stardiceDrawMs?.push([moving.size, performance.now() - began]);
  const live = state.live; // null once a throw played back is over
  if (live && !live.drawn) {
    live.drawn = true;
    // release -> first drawn frame of this page's own throw (benchmarks/stardice_table.py)
    if (live.releasedAt !== null) window.stardiceReleaseToFrame?.push(performance.now() - live.releasedAt);
  }
}

/** Keeps the canvas fitted to the window and draws the table on every animation frame. */
export function startDrawing(state) {
  const resized = () => resize(state);
  new ResizeObserver(resized).observe(state.ui.box);
  window.addEventListener("resize", resized);
  resized();
  const frame = () => {
    draw(state);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}
