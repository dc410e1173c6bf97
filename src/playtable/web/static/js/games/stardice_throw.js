// Aiming and throwing on the Star Dice table (a throw is a gesture with a visible aim
// and strength). Press on the grey glass frame, drag to aim (the dashed line ends where a lone
// die would stop, the shaded area is where the roll's noise may take it, the meter is its
// strength), release; on a touch screen the same with a finger; from the keyboard, focus the
// table and aim with the arrow keys, move the start along the frame with [ and ], throw with
// Enter. The page sends the engine's own throw text with ctx.play (the server checks it as
// always); stardice_canvas.js draws the aim this module keeps in the state (`aim`, `kbd`).

import { nearestFramePoint, onFrame, TABLE } from "./stardice_draw.js";
import { drawPrompt } from "./stardice_prompt.js";
import { throwHead } from "./stardice_words.js";

const MU = { d4: 0.55, d6: 0.22, d8: 0.16, d10: 0.13, d12: 0.10, d20: 0.07, borg: 0.22, stone: 0.12 };
const G = 9.81 / 0.62; // physics.py's G, in table widths / s^2
const THROW_REACH = 2.0; // a lone die travels twice the drag's length
const SNAP = 0.05; // a press this near the frame starts the throw on it

/** The canonical throw text (actions.py Throw.__str__): fixed decimals, heading in [0, 360). */
export function throwText(head, x, y, heading, speed) {
  const deci = ((Math.round(heading * 10) % 3600) + 3600) % 3600;
  return `${head} at ${x.toFixed(3)},${y.toFixed(3)} heading ${(deci / 10).toFixed(1)} speed ${speed.toFixed(3)} spin 0.0`;
}

function aimFrom(state, event) {
  const rect = state.ui.canvas.getBoundingClientRect();
  return state.stage.fit.toTable(event.clientX - rect.left, event.clientY - rect.top);
}

/** An aim from a start on the frame to where a lone piece would stop. */
function aimed(state, x0, y0, x1, y1) {
  const head = state.selectedHead();
  const { mode, kind } = head ? throwHead(head) : { mode: "roll", kind: "d6" };
  const p = state.params();
  const dist = Math.hypot(x1 - x0, y1 - y0);
  const maxSpeed = p.max_speed ?? 5.0;
  const speed = Math.min(maxSpeed, Math.sqrt(2 * MU[kind] * G * dist));
  const reach = (speed * speed) / (2 * MU[kind] * G);
  const heading = (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
  const ex = x0 + (dist ? ((x1 - x0) / dist) * reach : 0);
  const ey = y0 + (dist ? ((y1 - y0) / dist) * reach : 0);
  const f = TABLE.frame;
  const off = ex < -f || ex > TABLE.width + f || ey < -f || ey > TABLE.depth + f;
  const onGlass = !off && onFrame(ex, ey);
  const strength = Math.min(1, reach / 1.3);
  const word = off ? "Too hard: off the table!" : onGlass ? "Stops on the frame (unseen)"
    : strength < 0.2 ? "Gentle throw" : strength < 0.45 ? "Medium throw" : strength < 0.7 ? "Firm throw" : "Hard throw";
  const slide = mode === "slide";
  return {
    x0, y0, x1: ex, y1: ey, ok: true, kind, owner: kind === "borg" ? null : state.viewer, speed, heading, strength, off, word,
    spreadDeg: slide ? p.slide_dir_noise_deg ?? 1.5 : mode === "torpedo" ? 0 : p.roll_dir_noise_deg ?? 6,
    spreadSpeed: slide ? p.slide_speed_noise ?? 0.04 : mode === "torpedo" ? 0 : p.roll_speed_noise ?? 0.12,
  };
}

/** The dragged aim from its press to the pointer now (the die goes twice the drag's length). */
function dragged(state, aim, event) {
  const [px, py] = aimFrom(state, event);
  return aimed(state, aim.x0, aim.y0, aim.x0 + (px - aim.press[0]) * THROW_REACH, aim.y0 + (py - aim.press[1]) * THROW_REACH);
}

function send(state, done) {
  const head = state.selectedHead();
  if (!head || done.speed < 0.01) return false;
  const text = throwText(head, done.x0, done.y0, done.heading, done.speed);
  const releasedAt = performance.now();
  if (!state.ctx.play?.(text)) return false;
  state.ui.note.textContent = "";
  state.ownThrow = releasedAt;
  state.pending = true;
  drawPrompt(state);
  return true;
}

function pressed(state, event) {
  const { canvas, note } = state.ui;
  state.sounds.unlock();
  if (!state.canThrow()) {
    const view = state.view;
    if (view?.yourTurn && !view.terminal && !state.frozen && !state.selectedHead()) note.textContent = "Choose first: see the buttons under the table.";
    return;
  }
  let [x, y] = aimFrom(state, event);
  const press = [x, y];
  if (!onFrame(x, y)) {
    const [fx, fy] = nearestFramePoint(x, y);
    if (Math.hypot(fx - x, fy - y) > TABLE.frame / 2 + SNAP) {
      state.aim = { x0: x, y0: y, x1: x, y1: y, ok: false, word: "Start on the grey frame", strength: 0 };
      state.aim.press = press;
      canvas.setPointerCapture(event.pointerId);
      return;
    }
    [x, y] = [fx, fy];
  }
  state.kbd = null;
  state.aim = { ...aimed(state, x, y, x, y), press };
  canvas.setPointerCapture(event.pointerId);
  event.preventDefault();
}

/** Throws by drag or flick: press on the frame, drag, release. */
export function listenForDrags(state) {
  const canvas = state.ui.canvas;
  canvas.addEventListener("pointerdown", (event) => pressed(state, event));
  canvas.addEventListener("pointermove", (event) => {
    if (!state.aim || !state.aim.ok) return;
    state.aim = { ...dragged(state, state.aim, event), press: state.aim.press };
  });
  canvas.addEventListener("pointerup", (event) => {
    if (!state.aim) return;
    const done = state.aim;
    state.aim = null;
    if (!done.ok) { state.ui.note.textContent = "A throw starts on the grey frame round the table."; return; }
    send(state, dragged(state, done, event));
  });
  canvas.addEventListener("pointercancel", () => { state.aim = null; });
}

// The keyboard's throw: a start on the frame (s: how far along it, clockwise from the top
// left corner) and the point where the die should stop.
const F = TABLE.frame / 2;
const SIDES = [TABLE.width + 2 * F, TABLE.depth + 2 * F];
const PERIMETER = 2 * (SIDES[0] + SIDES[1]);
function framePoint(sAlong) {
  let t = ((sAlong % PERIMETER) + PERIMETER) % PERIMETER;
  if (t < SIDES[0]) return [-F + t, -F];
  t -= SIDES[0];
  if (t < SIDES[1]) return [TABLE.width + F, -F + t];
  t -= SIDES[1];
  if (t < SIDES[0]) return [TABLE.width + F - t, TABLE.depth + F];
  t -= SIDES[0];
  return [-F, TABLE.depth + F - t];
}

/** The keyboard's aim when one is being made and this page may throw, else null. */
export function kbdAim(state) {
  if (!state.kbd || !state.canThrow()) return null;
  const [x0, y0] = framePoint(state.kbd.s);
  return aimed(state, x0, y0, state.kbd.tx, state.kbd.ty);
}

/** Starts the keyboard's aim: from the middle of the frame's near side to the table's middle. */
export function startKbd(state) {
  if (!state.kbd) state.kbd = { s: SIDES[0] + SIDES[1] + SIDES[0] / 2, tx: TABLE.width / 2, ty: TABLE.depth / 2 };
}

/** One key of the keyboard's throw; false when the key is not the table's. */
function aimKey(state, event) {
  const step = event.shiftKey ? 0.005 : 0.02;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  if (moves[event.key]) {
    startKbd(state);
    const [dx, dy] = moves[event.key];
    state.kbd.tx = Math.min(Math.max(state.kbd.tx + dx, -0.2), TABLE.width + 0.2);
    state.kbd.ty = Math.min(Math.max(state.kbd.ty + dy, -0.2), TABLE.depth + 0.2);
  } else if (event.key === "[" || event.key === "]") {
    startKbd(state);
    state.kbd.s += (event.key === "]" ? 1 : -1) * (event.shiftKey ? 0.01 : 0.04);
  } else if (event.key === "Enter" || event.key === " ") {
    startKbd(state);
    const shot = kbdAim(state);
    if (shot) send(state, shot);
  } else if (event.key === "Escape") {
    state.kbd = null;
  } else {
    return false;
  }
  return true;
}

/** Throws from the keyboard: 1-9 pick a ship, the arrows aim, [ and ] move the start, Enter throws. */
export function listenForKeys(state) {
  const { canvas, pieceBar } = state.ui;
  // The keyboard's aim shows when the table is reached from the keyboard (not on a click).
  canvas.addEventListener("focus", () => { if (state.canThrow() && canvas.matches(":focus-visible")) startKbd(state); });
  canvas.addEventListener("blur", () => { state.kbd = null; });
  canvas.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[1-9]$/.test(event.key)) {
      const button = pieceBar.querySelectorAll("button:not(:disabled)")[Number(event.key) - 1];
      if (button) { button.click(); canvas.focus({ preventScroll: true }); event.preventDefault(); }
      return;
    }
    if (!state.canThrow() || !aimKey(state, event)) return;
    event.preventDefault();
    event.stopPropagation();
  });
}
