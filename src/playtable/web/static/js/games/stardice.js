// The Star Dice page (issue 15, mode 1: the virtual table; issue 30: for a newcomer): the seed's
// table software drawn on a <canvas> (stardice_draw.js) that fits any window, every die drawn
// as what it is in its fleet's colour, and round it what a person needs, in words
// (stardice_words.js), never a coordinate or an action's text:
//
//   - over the table, one line in the colour of whoever acts now: what happens now and what to
//     do (call odd or even, roll the Borg die, pick a ship and throw it, press "Next battle");
//   - under it, the controls of this moment, in a row that keeps its height (the table never
//     moves): the ships left in hand, the call, holding fire, "Next battle";
//   - what the last step did, the fleets' hands, the scoring shape by shape (each shape tagged
//     with a letter on the table when a battle is scored), the battles and the war's total.
//
// A throw is a gesture: press on the grey glass frame, drag to aim (the dashed line ends where a
// lone die would stop, the shaded area is where the roll's noise may take it, the meter is its
// strength), release; on a touch screen the same with a finger; from the keyboard, focus the
// table and aim with the arrow keys, move the start along the frame with [ and ], throw with
// Enter. The page sends the engine's own throw text with ctx.play, the server simulates it and
// streams the motion as `frame` messages, which this page plays back at the screen's frame rate,
// interpolating between the physics frames; then the new state brings the faces and shapes.
// "Throws" under the table chooses how a throw is shown, as digital board games offer an
// animation speed: as thrown (real time, the default), fast (three times as fast) or at once
// (only where the dice come to rest); the choice is kept in this browser, and the server
// streams at the slowest pace any page at the table asked for (docs/web.md).
// When a battle (or the war) is over the table stays frozen with its scoring.

import { h, s } from "../util.js";
import {
  drawAim, drawBackground, drawBanner, drawLayout, drawLogo, drawPieces, drawRangeRing, fit,
  FLEET_STYLE, FORMATION_FILLS, nearestFramePoint, objectAt, onFrame, outline, shapeKey, TABLE,
} from "./stardice_draw.js";
import { VariantMenu } from "./stardice_menu.js";
import { Sounds } from "./stardice_sound.js";
import {
  actionWords, FLEET_SETS, FLEETS, kindOf, ownerOf, piecesWords, playerName, shapeNoun, stepLines, sumWords, throwHead,
} from "./stardice_words.js";

export const hints = false;
/** The frame lists no actions for Star Dice: its ~50 sampled throws are no choice for a person;
 *  the board offers each thing to do where it belongs (the call, the ships, holding fire). */
export const listActions = false;

const MU = { d4: 0.55, d6: 0.22, d8: 0.16, d10: 0.13, d12: 0.10, d20: 0.07, borg: 0.22, stone: 0.12 };
const G = 9.81 / 0.62; // physics.py's G, in table widths / s^2
const THROW_REACH = 2.0; // a lone die travels twice the drag's length
const FADE_MS = 450;
const PLAYBACK_LAG = 0.1; // seconds behind the newest physics frame, so there is one to go to
const PACE_KEY = "playtable.throwPace";
const PACES = { normal: "As thrown", fast: "Fast", instant: "At once" }; // slowest first, as wire.PACES
const ASPECT = (TABLE.depth + 2 * TABLE.frame) / (TABLE.width + 2 * TABLE.frame);
const SNAP = 0.05; // a press this near the frame starts the throw on it
const KIND_ORDER = ["d20", "d12", "d10", "d8", "d6", "d4"];
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const THROW_RE = /^(roll|slide) (\S+) at /;

export function label(action) {
  return actionWords(action);
}

/** The one-player modes (RULES.md): objective1 (rounds against 10, 20, 30...), objective2
 *  (outscore the red dice rolled at setup), solo (the first iteration's highest score). */
function soloMode(obs) {
  return obs?.mode && obs.mode !== "versus" ? obs.mode : null;
}

/** How the war is won, in words: to a score (Final Rules), after X battles (It. 4) or best of X
 *  (It. 7). */
function warGoal(obs) {
  if (obs.war_format === "rounds") return `${obs.war_rounds} battles`;
  if (obs.war_format === "best_of") return `best of ${obs.war_rounds}`;
  return `to ${obs.war_target}`;
}

export function status(obs) {
  if (obs.mode === "objective1") {
    return `Round ${obs.round} · beat ${obs.target} · ${obs.points_now} now · ${obs.rounds_cleared} cleared`;
  }
  if (obs.mode === "objective2") return `White ${obs.score.points[0]} · red ${obs.score.points[1]} now`;
  if (obs.mode === "solo") return `${obs.score.points[0]} points now`;
  if (!obs.war_target) return `One battle · Federation ${obs.score.points[0]}, Klingon ${obs.score.points[1]} now`;
  if (obs.war_format === "best_of") {
    return `Battle ${obs.battle} · battles won: Federation ${obs.battles_won[0]}, Klingon ${obs.battles_won[1]} · ${warGoal(obs)}`;
  }
  return `Battle ${obs.battle} · war: Federation ${obs.war[0]}, Klingon ${obs.war[1]} · ${warGoal(obs)}`;
}

/** The canonical throw text (actions.py Throw.__str__): fixed decimals, heading in [0, 360). */
export function throwText(head, x, y, heading, speed) {
  const deci = ((Math.round(heading * 10) % 3600) + 3600) % 3600;
  return `${head} at ${x.toFixed(3)},${y.toFixed(3)} heading ${(deci / 10).toFixed(1)} speed ${speed.toFixed(3)} spin 0.0`;
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

/** A scored table's shapes as a layout to draw: formations filled, strings as open lines. */
function layoutOf(score) {
  const formations = [];
  const edges = [];
  for (const shape of score?.shapes || []) {
    if (shape.kind === "formation") formations.push(shape.objects);
    for (let i = 0; i + 1 < shape.objects.length; i += 1) edges.push([shape.objects[i], shape.objects[i + 1]]);
    if (shape.kind === "formation" && shape.objects.length > 2) edges.push([shape.objects[shape.objects.length - 1], shape.objects[0]]);
  }
  return { formations, edges };
}

/** A piece's small picture for a button or a list (SVG): its kind's outline in its fleet's colour. */
function icon(kind, owner) {
  const size = 20;
  const c = size / 2;
  const r = kind === "borg" ? 6.5 : kind === "stone" ? 6 : 7.5;
  const svg = s("svg", { class: "stardice-icon", viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true" });
  if (kind === "borg") {
    svg.append(s("rect", { x: c - 8, y: c - 8, width: 16, height: 16, fill: "#07110b", stroke: "#3ddc66", "stroke-width": 1.5 }));
    for (const k of [1, 2]) {
      svg.append(s("line", { x1: c - 8 + (16 * k) / 3, y1: c - 8, x2: c - 8 + (16 * k) / 3, y2: c + 8, stroke: "#3ddc66", "stroke-width": 0.8 }));
      svg.append(s("line", { x1: c - 8, y1: c - 8 + (16 * k) / 3, x2: c + 8, y2: c - 8 + (16 * k) / 3, stroke: "#3ddc66", "stroke-width": 0.8 }));
    }
    return svg;
  }
  const style = FLEET_STYLE[owner ?? 0];
  if (kind === "stone") {
    svg.append(s("circle", { cx: c, cy: c, r, fill: style.body, stroke: "#777", "stroke-width": 1.5 }));
    return svg;
  }
  const points = outline(kind, c, c, r).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  svg.append(s("polygon", { points, fill: style.body, stroke: style.edge, "stroke-width": 1.3 }));
  return svg;
}

export function createBoard(host, ctx) {
  if (!document.querySelector("link[data-stardice-css]")) {
    document.head.append(h("link", { rel: "stylesheet", href: "/static/css/stardice.css", "data-stardice-css": "1" }));
  }
  const sounds = new Sounds();
  const canvas = h("canvas", { class: "stardice-canvas", tabindex: "0", role: "img",
    "aria-label": "The Star Dice table. To throw from the keyboard: arrow keys aim, [ and ] move the start along the frame, Enter throws." });
  const prompt = h("p", { class: "stardice-prompt", role: "status", "aria-live": "polite" }, "Loading the table…");
  const pieceBar = h("div", { class: "stardice-pieces", role: "group", "aria-label": "Your ships" });
  const choices = h("div", { class: "stardice-choices", role: "group", "aria-label": "What to do now" });
  const nextBattle = h("button", { type: "button", class: "primary stardice-next", hidden: true,
    onClick: () => { frozen = null; nextBattle.hidden = true; if (view) refresh(); canvas.focus({ preventScroll: true }); } }, "Next battle");
  const note = h("span", { class: "stardice-note", role: "alert" });
  const controls = h("div", { class: "stardice-controls" }, pieceBar, choices, nextBattle, note);
  // What the last step did, in words (the call, the Borg roll, a die knocked out of a shape...).
  const news = h("p", { class: "stardice-news", role: "status", "aria-live": "polite" });
  const fleets = h("div", { class: "stardice-fleets", "aria-label": "The fleets" });
  const scorePanel = h("section", { class: "stardice-score", "aria-label": "Scoring" });
  const mute = h("input", { type: "checkbox", onChange: () => { sounds.muted = mute.checked; } });
  const pauseButton = h("button", { type: "button", onClick: () => togglePause() }, "Pause");
  const paceChoice = h("select", { class: "stardice-pace", "aria-label": "Throws", onChange: () => choosePace(paceChoice.value) },
    ...Object.entries(PACES).map(([pace, words]) => h("option", { value: pace }, words)));
  const paceNote = h("span", { class: "stardice-pace-note", role: "status" });
  const fullButton = h("button", { type: "button", hidden: !document.fullscreenEnabled,
    onClick: () => (document.fullscreenElement ? document.exitFullscreen() : box.requestFullscreen()).catch(() => {}) },
  "Full screen");
  const menu = ctx.rematch ? new VariantMenu(ctx) : null;
  const keysHelp = h("p", { class: "stardice-keys" },
    "Keyboard: Tab to the table, arrows aim (Shift: finer), [ and ] move the start along the frame, Enter throws, 1-6 pick a ship.");
  const box = h("div", { class: "stardice-board" },
    prompt,
    h("div", { class: "stardice-stage" }, canvas),
    controls, news, fleets, scorePanel,
    h("div", { class: "stardice-bar" }, h("label", {}, mute, " Mute"), pauseButton,
      h("label", {}, "Throws ", paceChoice), paceNote, fullButton, menu?.element ?? ""),
    menu?.panel ?? "", keysHelp);
  host.replaceChildren(box);
  const g = canvas.getContext("2d");

  let obs = null;
  let view = null; // the last render's view
  let viewer = null; // this page's seat (null: watching)
  let selected = null; // the chosen ship, as "mode kind" ("roll d20", "slide d6", "roll borg", "torpedo")
  let live = null; // {step, frames, start (ms), speed (over the physics' time), done}
  let aim = null; // a throw being dragged
  let kbd = null; // a throw being aimed from the keyboard: {s (along the frame), tx, ty}
  let ownThrow = null; // when this page released the throw whose stream comes next
  let frozen = null; // a battle of a war (a solitaire round) just scored: {event, score, pos, values, obs}
  let paused = false;
  let pausedAt = 0;
  let pausedFor = 0;
  let highlight = null; // the key of the shape whose row the pointer is on
  const numbers = new Map(); // formation key -> {text, owner, x, y, born, gone}
  const stage = { width: 0, height: 0, fit: fit(1, 1) };

  // the seats' people by name when the table knows them (ctx.who), else their fleets
  const names = () => [0, 1].map((seat) => ctx.who?.(seat) || ctx.seatNames?.()[seat] || FLEETS[seat]);
  const params = () => ctx.table?.()?.params ?? {};
  const you = (seat) => (seat === viewer && viewer !== null ? "you" : playerName(seat, names()));
  const Cap = (text) => text[0].toUpperCase() + text.slice(1);

  function resize() {
    const rect = canvas.parentElement.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(200, rect.width);
    // The whole table and the row of controls under it fit in the window.
    const top = rect.top + window.scrollY;
    const room = (document.fullscreenElement ? window.innerHeight - 120 : window.innerHeight - top - 70);
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
  new ResizeObserver(resize).observe(box);
  window.addEventListener("resize", resize);
  resize();

  function togglePause() {
    paused = !paused;
    if (paused) pausedAt = performance.now();
    else pausedFor += performance.now() - pausedAt;
    pauseButton.textContent = paused ? "Resume" : "Pause";
  }

  function clock() {
    return (paused ? pausedAt : performance.now()) - pausedFor;
  }

  /** How this browser wants throws shown (kept for its next tables): told to the server. */
  function choosePace(pace) {
    paceChoice.value = pace;
    paceNote.textContent = "";
    try { localStorage.setItem(PACE_KEY, pace); } catch { /* a private window: this page only */ }
    ctx.pace?.(pace);
  }
  let storedPace = null;
  try { storedPace = localStorage.getItem(PACE_KEY); } catch { /* storage refused: as thrown */ }
  if (Object.hasOwn(PACES, storedPace ?? "") && storedPace !== "normal") choosePace(storedPace);

  // -- what is on the table now --------------------------------------------------------------
  function restingPieces() {
    return new Map((obs?.table || []).map((pc) => [pc.id, [pc.x, pc.y]]));
  }

  function currentPieces(now) {
    if (!live) return { pos: restingPieces(), moving: new Set() };
    const tau = Math.max(0, ((now - live.start) / 1000) * live.speed - PLAYBACK_LAG);
    const pos = lerpFrames(live.frames, tau);
    const before = lerpFrames(live.frames, Math.max(0, tau - 0.05));
    const moving = new Set();
    for (const [id, [x, y]] of pos) {
      const b = before.get(id);
      if (!b || Math.hypot(x - b[0], y - b[1]) > 0.0005 || (tau < 0.05 && id === live.thrown)) moving.add(id);
    }
    const lastT = live.frames[live.frames.length - 1].t;
    if (live.done && tau >= lastT) live = null;
    return { pos, moving };
  }

  /** The scoring shown now: a frozen battle's, the last battle's at the end, else the table's. */
  function shownScore() {
    if (frozen) return frozen.score;
    if (view?.terminal && obs?.last_score) return obs.last_score;
    return obs?.score ?? { points: [0, 0], shapes: [] };
  }

  function scored() {
    return Boolean(frozen || view?.terminal);
  }

  /** Each formation's colour, by its key, in the order of the layout drawn. */
  function colours(layout) {
    const map = new Map();
    (layout.formations || []).forEach((ids, i) => map.set(shapeKey(ids), FORMATION_FILLS[i % FORMATION_FILLS.length]));
    return map;
  }

  /** The shapes that score (formations and strings), each with its letter. */
  function lettered(score) {
    return (score?.shapes || []).filter((shape) => shape.kind !== "single" || system() === "multiplier")
      .map((shape, i) => ({ shape, letter: LETTERS[i % LETTERS.length], key: shapeKey(shape.objects) }));
  }

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

  function updateNumbers(now, pos, moving) {
    const shown = new Set();
    for (const shape of obs?.score?.shapes || []) {
      if (shape.kind !== "formation") continue;
      const xy = anchorOf(shape, pos, moving);
      if (!xy) continue; // a die of it moves: its connections are gone
      const key = shapeKey(shape.objects);
      const text = tagText(shape, null);
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

  function draw() {
    const began = performance.now();
    const now = clock();
    const mover = obs && !view?.terminal && !frozen ? obs.to_move : null;
    drawBackground(g, stage, mover === 0 || mover === 1 ? mover : null, canThrow());
    const { pos, moving } = frozen ? { pos: frozen.pos, moving: new Set() } : currentPieces(now);
    const values = frozen ? frozen.values : new Map((obs?.table || []).map((pc) => [pc.id, pc.value]));
    if (!pos.size && !aim && !kbdAim()) drawLogo(g, stage, now, logoHint());
    for (const id of moving) drawRangeRing(g, stage, ...pos.get(id), params().connect_range ?? undefined);
    // a die that moves loses its connections; new ones come with the state once it rests
    const layout = frozen ? layoutOf(frozen.score) : obs?.layout ?? { formations: [], edges: [] };
    const fills = colours(layout);
    drawLayout(g, stage, pos, layout, moving, (key) => fills.get(key), highlight);
    const tags = [];
    if (scored()) {
      for (const { shape, letter, key } of lettered(shownScore())) {
        const xy = anchorOf(shape, pos, moving);
        if (!xy) continue;
        tags.push({ x: xy[0], y: xy[1], text: tagText(shape, letter), owner: shape.owner,
          colour: fills.get(key) ?? "#ffffff" });
      }
    } else {
      updateNumbers(now, pos, moving);
      for (const [key, n] of numbers) {
        const alpha = n.gone === null ? Math.min(1, (now - n.born) / FADE_MS) : Math.max(0, 1 - (now - n.gone) / FADE_MS);
        tags.push({ x: n.x, y: n.y, text: n.text, owner: n.owner, alpha, colour: fills.get(key) ?? null });
      }
    }
    const drawn = drawPieces(g, stage, [...pos].map(([id, [x, y]]) => ({ id, x, y, value: values.get(id), moving: moving.has(id) })), tags);
    const shownAim = aim ?? kbdAim();
    if (shownAim) drawAim(g, stage, shownAim, params().connect_range ?? undefined);
    canvas.dataset.aim = shownAim?.word ?? "";
    if (paused) drawBanner(g, stage, "Paused");
    canvas.dataset.animating = live ? "yes" : "no";
    canvas.dataset.moving = String(moving.size);
    canvas.dataset.labels = String(drawn.labels.length);
    window.stardiceLabels = drawn; // what was written where (tests check that no label covers another)
    // [pieces moving, ms this frame's drawing took] (benchmarks/stardice_table.py --scatter)
    window.stardiceDrawMs?.push([moving.size, performance.now() - began]);
    if (live && !live.drawn) {
      live.drawn = true;
      // release -> first drawn frame of this page's own throw (benchmarks/stardice_table.py)
      if (live.releasedAt !== null) window.stardiceReleaseToFrame?.push(performance.now() - live.releasedAt);
    }
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);

  function logoHint() {
    if (canThrow()) return "Drag from the grey frame onto the table to throw";
    return "";
  }

  // -- throwing ------------------------------------------------------------------------------
  function throwHeads() {
    const heads = [];
    for (const { action } of view?.legal || []) {
      const m = THROW_RE.exec(action);
      const head = m ? `${m[1]} ${m[2]}` : action.startsWith("torpedo ") ? "torpedo" : null;
      if (head && !heads.includes(head)) heads.push(head);
    }
    return heads;
  }

  const choiceOf = (head) => {
    const { mode, kind } = throwHead(head);
    return mode === "torpedo" ? "torpedo" : `${mode} ${kind}`;
  };

  function selectedHead() {
    return throwHeads().find((head) => choiceOf(head) === selected) ?? null;
  }

  function canThrow() {
    return Boolean(view && view.yourTurn && !view.terminal && !paused && !frozen && !(live && !live.done)
      && selectedHead() && !pending);
  }
  let pending = false; // a throw sent, its state not back yet

  function aimFrom(event) {
    const rect = canvas.getBoundingClientRect();
    return stage.fit.toTable(event.clientX - rect.left, event.clientY - rect.top);
  }

  /** An aim from a start on the frame to where a lone piece would stop. */
  function aimed(x0, y0, x1, y1) {
    const head = selectedHead();
    const { mode, kind } = head ? throwHead(head) : { mode: "roll", kind: "d6" };
    const p = params();
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
      x0, y0, x1: ex, y1: ey, ok: true, kind, owner: kind === "borg" ? null : viewer, speed, heading, strength, off, word,
      spreadDeg: slide ? p.slide_dir_noise_deg ?? 1.5 : mode === "torpedo" ? 0 : p.roll_dir_noise_deg ?? 6,
      spreadSpeed: slide ? p.slide_speed_noise ?? 0.04 : mode === "torpedo" ? 0 : p.roll_speed_noise ?? 0.12,
    };
  }

  function send(done) {
    const head = selectedHead();
    if (!head || done.speed < 0.01) return false;
    const text = throwText(head, done.x0, done.y0, done.heading, done.speed);
    const releasedAt = performance.now();
    if (!ctx.play?.(text)) return false;
    note.textContent = "";
    ownThrow = releasedAt;
    pending = true;
    drawPrompt();
    return true;
  }

  canvas.addEventListener("pointerdown", (event) => {
    sounds.unlock();
    if (!canThrow()) {
      if (view?.yourTurn && !view.terminal && !frozen && !selectedHead()) note.textContent = "Choose first: see the buttons under the table.";
      return;
    }
    let [x, y] = aimFrom(event);
    const press = [x, y];
    if (!onFrame(x, y)) {
      const [fx, fy] = nearestFramePoint(x, y);
      if (Math.hypot(fx - x, fy - y) > TABLE.frame / 2 + SNAP) {
        aim = { x0: x, y0: y, x1: x, y1: y, ok: false, word: "Start on the grey frame", strength: 0 };
        aim.press = press;
        canvas.setPointerCapture(event.pointerId);
        return;
      }
      [x, y] = [fx, fy];
    }
    kbd = null;
    aim = { ...aimed(x, y, x, y), press };
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!aim || !aim.ok) return;
    const [px, py] = aimFrom(event);
    aim = { ...aimed(aim.x0, aim.y0, aim.x0 + (px - aim.press[0]) * THROW_REACH, aim.y0 + (py - aim.press[1]) * THROW_REACH), press: aim.press };
  });
  const release = (event) => {
    if (!aim) return;
    const done = aim;
    aim = null;
    if (!done.ok) { note.textContent = "A throw starts on the grey frame round the table."; return; }
    const [px, py] = aimFrom(event);
    const final = aimed(done.x0, done.y0, done.x0 + (px - done.press[0]) * THROW_REACH, done.y0 + (py - done.press[1]) * THROW_REACH);
    send(final);
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", () => { aim = null; });

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
  function kbdAim() {
    if (!kbd || !canThrow()) return null;
    const [x0, y0] = framePoint(kbd.s);
    return aimed(x0, y0, kbd.tx, kbd.ty);
  }
  function startKbd() {
    if (!kbd) kbd = { s: SIDES[0] + SIDES[1] + SIDES[0] / 2, tx: TABLE.width / 2, ty: TABLE.depth / 2 };
  }
  // The keyboard's aim shows when the table is reached from the keyboard (not on a click).
  canvas.addEventListener("focus", () => { if (canThrow() && canvas.matches(":focus-visible")) startKbd(); });
  canvas.addEventListener("blur", () => { kbd = null; });
  canvas.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const step = event.shiftKey ? 0.005 : 0.02;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (/^[1-9]$/.test(event.key)) {
      const button = pieceBar.querySelectorAll("button:not(:disabled)")[Number(event.key) - 1];
      if (button) { button.click(); canvas.focus({ preventScroll: true }); event.preventDefault(); }
      return;
    }
    if (!canThrow()) return;
    if (moves[event.key]) {
      startKbd();
      const [dx, dy] = moves[event.key];
      kbd.tx = Math.min(Math.max(kbd.tx + dx, -0.2), TABLE.width + 0.2);
      kbd.ty = Math.min(Math.max(kbd.ty + dy, -0.2), TABLE.depth + 0.2);
    } else if (event.key === "[" || event.key === "]") {
      startKbd();
      kbd.s += (event.key === "]" ? 1 : -1) * (event.shiftKey ? 0.01 : 0.04);
    } else if (event.key === "Enter" || event.key === " ") {
      startKbd();
      const shot = kbdAim();
      if (shot) send(shot);
    } else if (event.key === "Escape") {
      kbd = null;
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });

  // -- what to do now --------------------------------------------------------------------------
  function drawPrompt() {
    const { text, seat } = promptWords();
    prompt.textContent = text;
    prompt.dataset.seat = seat === 0 || seat === 1 ? String(seat) : "none";
  }

  function promptWords() {
    if (!obs || !view) return { text: "Loading the table…", seat: null };
    const solo = soloMode(obs);
    if (frozen) {
      const d = frozen.event.data;
      if (frozen.event.kind === "round_scored") {
        return { text: `Round ${d.round}: ${d.points} points against ${d.target}, ${d.cleared ? "cleared" : "failed"}. Press “Next round” for round ${d.round + 1}.`, seat: null };
      }
      return { text: `Battle ${d.battle} is over: ${FLEETS[0]} ${d.points[0]}, ${FLEETS[1]} ${d.points[1]} (war ${d.war[0]}–${d.war[1]}, ${warGoal(obs)}). Press “Next battle”.`, seat: null };
    }
    if (view.terminal) {
      if (solo === "objective2") {
        const [white, red] = obs.score.points;
        return { text: `The game is over: white ${white}, red ${red}: ${white > red ? "you beat the red dice" : "the red dice win"}.`, seat: null };
      }
      if (solo === "solo") return { text: `The game is over: ${obs.score.points[0]} points.`, seat: null };
      if (solo) return { text: `The game is over: ${obs.rounds_cleared} round${obs.rounds_cleared === 1 ? "" : "s"} cleared.`, seat: null };
      const pts = obs.war_format === "best_of" ? obs.battles_won
        : obs.war_target || obs.war_format ? obs.war : obs.last_score?.points ?? obs.score.points;
      const what = obs.war_target || obs.war_format ? "war" : "battle";
      if (obs.winner === null || obs.winner === undefined) return { text: `The ${what} is over: a draw, ${pts[0]} to ${pts[1]}.`, seat: null };
      const w = obs.winner;
      return { text: `The ${what} is over: ${you(w)} win${w === viewer ? "" : "s"}, ${pts[w]} to ${pts[1 - w]}.`, seat: w };
    }
    const mover = obs.to_move;
    const mine = view.yourTurn;
    const them = you(mover);
    const rolling = pending || Boolean(live && !live.done); // this page's throw is on its way
    if (solo === "objective2" || solo === "solo") {
      const goal = solo === "solo" ? "Throw for the highest score" : `Beat the red dice's ${obs.score.points[1]}`;
      return { text: rolling ? "Your die is on its way…" : `${goal}: pick a die below, then drag from the grey frame onto the table.`, seat: 0 };
    }
    if (solo) {
      if (!mine) return { text: `Round ${obs.round}: beat ${obs.target} points.`, seat: 0 };
      return { text: rolling ? "Your die is on its way…" : `Round ${obs.round}, beat ${obs.target}: pick a die below, then drag from the grey frame onto the table.`, seat: 0 };
    }
    const roller = obs.borg_roller;
    const caller = 1 - roller;
    if (obs.phase === "call") {
      if (mine) return { text: `Battle ${obs.battle}: ${you(roller)} roll${roller === viewer ? "" : "s"} the Borg die. Call its pips, odd or even: call right and you go first.`, seat: mover };
      return { text: `Battle ${obs.battle}: ${Cap(you(caller))} call${caller === viewer ? "" : "s"} odd or even, then ${you(roller)} roll${roller === viewer ? "" : "s"} the Borg die.`, seat: mover };
    }
    if (obs.phase === "borg") {
      const called = `${Cap(you(caller))} called ${obs.call}.`;
      if (mine) return { text: rolling ? "The Borg die is on its way…" : `Roll the Borg die: drag from the grey frame onto the table. ${called}`, seat: mover };
      return { text: `${Cap(them)} roll${mover === viewer ? "" : "s"} the Borg die. ${called}`, seat: mover };
    }
    if (obs.phase === "torpedo") {
      if (mine) return { text: "Fire your torpedo (drag from the grey frame) or hold fire.", seat: mover };
      return { text: `${Cap(them)} may fire a torpedo.`, seat: mover };
    }
    const otherEmpty = obs.hands[1 - mover]?.length === 0;
    if (mine) {
      if (rolling) return { text: "Your ship is on its way…", seat: mover };
      return { text: `Your turn: pick a ship below, then drag from the grey frame onto the table.${otherEmpty ? ` ${Cap(you(1 - mover))} has none left.` : ""}`, seat: mover };
    }
    return { text: `${Cap(them)}’s turn: a ship is coming.`, seat: mover };
  }

  // -- the controls of this moment --------------------------------------------------------------
  function drawControls() {
    note.textContent = note.textContent && !view?.yourTurn ? "" : note.textContent;
    choices.replaceChildren();
    pieceBar.replaceChildren();
    nextBattle.textContent = obs?.mode === "objective1" ? "Next round" : "Next battle";
    nextBattle.hidden = !frozen;
    if (!obs || frozen || view.terminal) return;
    const legal = new Set((view.legal || []).map((e) => e.action));
    if (view.yourTurn) {
      for (const call of ["odd", "even"]) {
        if (!legal.has(`call ${call}`)) continue;
        const button = h("button", { type: "button", class: "primary stardice-call" }, `Call ${call}`);
        choices.append(button);
        ctx.offer(button, [`call ${call}`]);
      }
      if (legal.has("hold")) {
        const button = h("button", { type: "button", class: "stardice-hold" }, "Hold fire");
        choices.append(button);
        ctx.offer(button, ["hold"]);
      }
    }
    drawPieceBar();
  }

  function drawPieceBar() {
    const heads = view?.yourTurn ? throwHeads() : [];
    const choicesNow = heads.map(choiceOf);
    if (!choicesNow.includes(selected)) {
      const sameKind = choicesNow.find((c) => selected && c.split(" ")[1] === selected.split(" ")[1]);
      selected = sameKind ?? choicesNow[0] ?? selected;
    }
    const seat = viewer;
    if (seat === null || obs.phase === "call") return;
    const hand = obs.hands[seat] || [];
    const count = new Map();
    for (const name of hand) count.set(kindOf(`X.${name}`), (count.get(kindOf(`X.${name}`)) ?? 0) + 1);
    // the ships in hand (those throwable now enabled), then the Borg die or a torpedo when due
    const options = [];
    if (obs.phase === "borg") {
      options.push({ choice: "roll borg", kind: "borg", text: "Borg die" });
    } else {
      for (const kind of KIND_ORDER) {
        if (!count.has(kind)) continue;
        const n = count.get(kind);
        options.push({ choice: `roll ${kind}`, kind, text: kind, n });
        if (kind === "d6" && (params().slide_d6 ?? true) && obs.mode !== "objective1") {
          options.push({ choice: "slide d6", kind, text: "slide d6", n: null, slide: true });
        }
      }
      if (choicesNow.includes("slide d6") && !options.some((o) => o.choice === "slide d6")) {
        options.push({ choice: "slide d6", kind: "d6", text: "slide d6", slide: true });
      }
      if (choicesNow.includes("torpedo")) {
        options.push({ choice: "torpedo", kind: "stone", text: `torpedo (${obs.torpedoes_left?.[seat] ?? 0} left)` });
      }
    }
    pieceBar.replaceChildren(...options.map((o) => {
      const head = heads.find((hd) => choiceOf(hd) === o.choice) ?? null;
      const on = head !== null && o.choice === selected;
      const what = o.slide ? "Slide a d6 (more precise)" : o.kind === "borg" ? "Roll the Borg die"
        : o.kind === "stone" ? "Fire a torpedo" : `Roll a ${o.kind}${o.n > 1 ? ` (${o.n} in hand)` : ""}`;
      return h("button", {
        type: "button",
        class: `stardice-piece${on ? " selected" : ""}${o.slide ? " slide" : ""}`,
        "aria-pressed": on ? "true" : "false",
        "aria-label": what,
        title: what,
        disabled: head === null || pending || Boolean(live && !live.done),
        dataset: { head: head ?? "", choice: o.choice },
        onClick: () => { selected = o.choice; note.textContent = ""; drawPieceBar(); },
      }, icon(o.kind, o.kind === "borg" ? null : seat), h("span", {}, o.text), o.n > 1 ? h("small", {}, `×${o.n}`) : "");
    }));
  }

  // -- the fleets, the scoring ----------------------------------------------------------------
  function drawFleets() {
    const shownObs = frozen ? frozen.obs : obs;
    if (!shownObs) return;
    const solo = soloMode(shownObs);
    const seats = solo && solo !== "objective2" ? [0] : [0, 1];
    fleets.replaceChildren(...seats.map((seat) => {
      const hand = shownObs.hands[seat] || [];
      const out = (shownObs.eliminated || []).filter((id) => id.startsWith(seat ? "K." : "F."));
      const who = seat === viewer ? `You · ${FLEETS[seat]}` : playerName(seat, names());
      return h("p", { class: "stardice-fleet", dataset: { seat: String(seat) } },
        h("span", { class: "stardice-chip", dataset: { seat: String(seat) } }, `${who} (${FLEET_SETS[seat]})`),
        " ", hand.length ? `${hand.length} to throw: ` : "no ships left to throw",
        ...hand.map((name) => icon(kindOf(`X.${name}`), seat)),
        out.length ? h("span", { class: "stardice-out" }, ` · out: ${out.map((id) => kindOf(id)).join(", ")}`) : "");
    }));
  }

  /** The scoring system in force ("final", "multiplier", "max", "max_best"). */
  function system() {
    return params().scoring ?? "final";
  }

  /** A shape's tag on the table: its letter (when scored) and what it is worth. */
  function tagText(shape, letter) {
    const pts = shape.points + (shape.bonus || 0);
    const worth = system() === "multiplier" ? `×${shape.points}` : `${pts} pt${pts === 1 ? "" : "s"}`;
    return letter ? `${letter}: ${worth}` : worth;
  }

  /** One shape of the scoring in words: its name, what it is worth to whom, each fleet's dice. */
  function shapeRow({ shape, letter, key }, values, fills, solo) {
    const noun = shapeNoun(shape.kind, shape.objects.length);
    const owner = shape.owner === undefined ? null : shape.owner;
    const multiplier = system() === "multiplier";
    const best = system().startsWith("max");
    let head;
    if (multiplier) {
      head = `${Cap(noun)}: each fleet scores its dice ×${shape.points}`;
    } else {
      const pts = shape.points;
      const bonus = shape.bonus ? ` + ${shape.bonus} Borg bonus` : "";
      head = `${Cap(noun)}: ${pts} point${pts === 1 ? "" : "s"}${bonus} to ${owner === null ? "nobody" : you(owner)}`;
    }
    const dice = shape.dice?.length ? shape.dice : shape.objects.flatMap((o) => o.split("+"));
    const sides = (solo ? [0] : [0, 1]).map((seat) => {
      const mine = dice.filter((id) => ownerOf(id) === seat);
      if (!mine.length) return null;
      const who = seat === viewer ? "you" : FLEETS[seat];
      const total = shape.totals?.[seat] ?? 0;
      if (multiplier) {
        const sum = mine.reduce((acc, id) => acc + (values.get(id) ?? 0), 0);
        return `${who}: ${sumWords(mine, values, sum)} ×${shape.points} = ${total}`;
      }
      return `${who}: ${best ? `highest ${total} (${sumWords(mine, values, total).split(" = ")[0]})` : sumWords(mine, values, total)}`;
    }).filter(Boolean);
    if (dice.includes("borg")) {
      const beaten = shape.owner !== null && shape.owner !== undefined;
      sides.push(`the Borg die: ${values.get("borg") ?? "?"}${multiplier ? "" : beaten ? " (beaten)" : ""}`);
    }
    if (dice.includes("blank")) sides.push("the blank d6: 0");
    const why = shape.note && !shape.note.startsWith("Borg beaten") && !/^x\d/.test(shape.note)
      ? ` (${shape.note.replace("the Borg is not beaten", "the Borg die is not beaten").replace(/^tie:/, "a tie:")})` : "";
    const chip = h("span", { class: "stardice-letter", dataset: { owner: owner === null ? "none" : String(owner) } }, letter);
    const fill = fills.get(key);
    if (fill) chip.classList.add(`fill-${FORMATION_FILLS.indexOf(fill)}`);
    const li = h("li", { class: "stardice-shape", tabindex: "0", dataset: { key, owner: owner === null ? "none" : String(owner) } },
      chip, " ", h("b", {}, head), why, h("br"), h("span", { class: "stardice-sums" }, sides.join(" · ")));
    li.addEventListener("pointerenter", () => { highlight = key; });
    li.addEventListener("pointerleave", () => { highlight = null; });
    li.addEventListener("focus", () => { highlight = key; });
    li.addEventListener("blur", () => { highlight = null; });
    return li;
  }

  function drawScore() {
    const mode = soloMode(obs);
    const solo = Boolean(mode) && mode !== "objective2"; // objective2's shapes mix white and red
    const score = shownScore();
    const values = frozen ? frozen.values : new Map((obs.table || []).map((pc) => [pc.id, pc.value]));
    const fills = colours(frozen ? layoutOf(frozen.score) : obs.layout ?? { formations: [] });
    const rows = lettered(score).map((entry) => shapeRow(entry, values, fills, solo));
    const lone = system() === "multiplier" ? [] : (score.shapes || []).filter((shape) => shape.kind === "single");
    const shownObs = frozen ? frozen.obs : obs;
    const battles = (obs.battle_points || []).map((p, i) => `${i + 1}: ${p[0]}–${p[1]}`).join(", ");
    const title = frozen ? `${frozen.event.kind === "round_scored" ? `Round ${frozen.event.data.round}` : `Battle ${frozen.event.data.battle}`} scoring`
      : view.terminal ? "Final scoring" : "On the table now";
    scorePanel.replaceChildren(
      h("h3", {}, title),
      h("p", { class: "stardice-points" }, mode === "objective2" ? `White ${score.points[0]} · red ${score.points[1]}`
        : mode === "solo" ? `Points ${score.points[0]}`
        : solo ? `Points ${score.points[0]} (to beat: ${frozen ? frozen.event.data.target : obs.target})`
        : `${playerName(0, names())} ${score.points[0]} · ${playerName(1, names())} ${score.points[1]}`
        + (frozen || view.terminal ? "" : " if the battle ended now")),
      h("ol", { class: "stardice-shapes" }, rows.length ? rows
        : [h("li", { class: "stardice-none" }, "No shape yet: dice within reach of each other link up; a closed loop of three or more scores.")]),
      lone.length ? h("p", { class: "stardice-singles" }, `Lone dice score nothing: ${piecesWords(lone.flatMap((sh) => sh.objects), viewer)}.`) : "",
      shownObs.eliminated?.length ? h("p", { class: "stardice-eliminated" },
        `Out of this ${mode ? "round" : "battle"} (knocked off the table or discarded): ${piecesWords(shownObs.eliminated, viewer)}.`) : "",
      battles && !mode ? h("p", { class: "stardice-battles" }, `Battles so far: ${battles}`) : "",
      obs.war_format === "rounds" ? h("p", { class: "stardice-war" }, `War: Federation ${obs.war[0]} · Klingon ${obs.war[1]}: after ${obs.war_rounds} battles the higher total wins (each battle's winner alone adds its points).`)
      : obs.war_format === "best_of" ? h("p", { class: "stardice-war" }, `Battles won: Federation ${obs.battles_won[0]} · Klingon ${obs.battles_won[1]}: the first to win ${Math.floor(obs.war_rounds / 2) + 1} of ${obs.war_rounds} wins the war.`)
      : obs.war_target ? h("p", { class: "stardice-war" }, `War: Federation ${obs.war[0]} · Klingon ${obs.war[1]} (to ${obs.war_target}): the first past ${obs.war_target} wins.`) : "");
  }

  function refresh() {
    box.classList.toggle("frozen", Boolean(view.terminal || frozen));
    drawPrompt();
    drawControls();
    drawFleets();
    drawScore();
    if (!canThrow()) kbd = null;
    else if (document.activeElement === canvas && canvas.matches(":focus-visible")) startKbd();
  }

  function newsLines(next, untilScored = false) {
    let events = next.events;
    if (untilScored) {
      const end = events.findIndex((e) => e.kind === "battle_scored" || e.kind === "round_scored");
      if (end >= 0) events = events.slice(0, end);
    }
    const lines = stepLines({ step: next.step, seat: null, action: null, events }, viewer,
      { names: names(), warTarget: obs.war_format ? 0 : obs.war_target, solo: Boolean(soloMode(obs)) });
    const told = ["battle_scored", "war_over", "round_scored", "game_over"];
    return lines.filter((l) => !told.includes(l.kind)).map((l) => l.text).join(" ");
  }

  return {
    render(next) {
      const prevStep = view?.step;
      const prevObs = obs;
      view = next;
      obs = next.observation;
      viewer = next.role === "player" ? obs.seat ?? null : null;
      if (next.step !== prevStep) pending = false;
      if (live && next.step >= live.step) live.done = true;
      if (next.animate && next.step !== prevStep) {
        for (const e of next.events) {
          if (e.kind === "landed") sounds.landed();
          else if (e.kind === "formation_closed") sounds.formed();
          else if (e.kind === "formation_broken") sounds.broken();
          else if (e.kind === "battle_scored") sounds.won();
        }
      }
      const scoredNow = next.animate && next.step !== prevStep && !next.terminal
        && next.events.find((e) => e.kind === "battle_scored" || e.kind === "round_scored");
      if (scoredNow && obs.last_score) {
        // The engine clears the table for the next battle at once; the page keeps the scored
        // table frozen (the seed's software froze it) until "Next battle".
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
        frozen = { event: scoredNow, score: obs.last_score, pos, values, obs: { ...obs, hands, eliminated } };
        live = null;
      }
      menu?.show(next.role === "player");
      canvas.dataset.step = String(next.step);
      // what the last step did; a frozen battle keeps the words of its own last throw
      if (next.step !== prevStep && (!frozen || scoredNow)) news.textContent = newsLines(next, Boolean(scoredNow));
      refresh();
    },
    onStream(message) {
      if (message.type !== "frame") return;
      const frame = { t: message.t, pieces: new Map(message.pieces.map(([id, x, y]) => [id, [x, y]])) };
      if (!live || live.step !== message.step) {
        // A throw's last frame comes before its state, but a page that (re)connected while it
        // was streamed has the state first: a throw already shown at rest is not started again.
        if (view && message.step <= view.step) return;
        const thrown = message.pieces.find(([id]) => !(obs?.table || []).some((pc) => pc.id === id))?.[0] ?? null;
        // played back at the speed it is sent at (null: only the resting frame, at once)
        const speed = message.speed || 1;
        live = { step: message.step, frames: [], start: clock() - (message.t * 1000) / speed, speed, done: false, thrown, releasedAt: ownThrow };
        const pace = Object.hasOwn(PACES, message.pace ?? "") ? message.pace : "normal";
        canvas.dataset.pace = pace;
        // another page at the table asked for a slower pace, and the table streams the slowest
        const order = Object.keys(PACES);
        paceNote.textContent = order.indexOf(pace) < order.indexOf(paceChoice.value)
          ? `(${PACES[pace].toLowerCase()} here: someone else at the table asked for that)` : "";
        ownThrow = null;
        canvas.dataset.firstFrameAt = String(performance.now());
        if (view) { drawPrompt(); drawPieceBar(); }
      }
      live.frames.push(frame);
    },
    /** The log's lines for one step, in words, from `seat`'s side of the table (frame.js). */
    logLines(entry, seat) {
      return stepLines(entry, seat, { names: names(), warTarget: (params().war_format ?? "target") !== "target" ? 0 : params().war_target, solo: Boolean(soloMode(params())) });
    },
    status,
    label,
  };
}

