// The Star Dice page (issue 15, mode 1: the virtual table): the seed's table software drawn on a
// <canvas> (stardice_draw.js) that fits any window. A throw is a gesture: press on the grey glass
// frame, drag to aim (the dashed line ends where a lone die would stop), release; the page sends
// the engine's own action text ("roll d20a at 0.500,-0.030 heading 90.0 speed 1.052 spin 0.0")
// with ctx.play, the server simulates it and streams the motion as `frame` messages, which this
// page plays back at the screen's frame rate, interpolating between the physics frames; then the
// new state arrives with the rolled faces, connections and formations. The call, holding fire and
// fouls are the frame's action list. When the battle (or war) is over the table stays frozen with
// its scoring shown formation by formation.

import { h } from "../util.js";
import {
  drawAim, drawBackground, drawBanner, drawLayout, drawLogo, drawPieces, drawPoints, drawRangeRing, fit, objectAt, onFrame,
} from "./stardice_draw.js";
import { VariantMenu } from "./stardice_menu.js";
import { Sounds } from "./stardice_sound.js";

export const hints = false;

const SEAT_NAMES = ["Federation", "Klingon"];
const MU = { d4: 0.55, d6: 0.22, d8: 0.16, d10: 0.13, d12: 0.10, d20: 0.07, borg: 0.22, stone: 0.12 };
const G = 9.81 / 0.62; // physics.py's G, in table widths / s^2
const MAX_SPEED = 5.0;
const THROW_REACH = 2.0; // a lone die travels twice the drag's length
const FADE_MS = 450;
const PLAYBACK_LAG = 0.1; // seconds behind the newest physics frame, so there is one to go to

const THROW_RE = /^(roll|slide) (\S+) at /;
const NEWS = new Set(["called", "first_player", "borg_reroll", "rethrow", "knocked_off", "forfeit", "foul", "held_fire"]);

export function label(action) {
  const m = /^(?:(roll|slide) (\S+)|torpedo) at (-?[\d.]+),(-?[\d.]+) heading ([\d.]+) speed ([\d.]+)/.exec(action);
  if (!m) {
    if (action === "touch") return "Foul: I touched the table (forfeit the battle)";
    if (action.startsWith("touch ")) return `Foul: discard ${action.slice(6)}`;
    if (action === "hold") return "Hold the torpedo";
    if (action.startsWith("call ")) return `Call ${action.slice(5)}`;
    return action;
  }
  const what = m[1] ? `${m[1] === "roll" ? "Roll" : "Slide"} ${m[2]}` : "Fire a torpedo";
  return `${what} from (${Number(m[3]).toFixed(2)}, ${Number(m[4]).toFixed(2)}) at ${Number(m[5]).toFixed(0)}°, speed ${Number(m[6]).toFixed(2)}`;
}

export function status(obs) {
  if (obs.mode === "objective1") {
    return `Round ${obs.round} · beat ${obs.target} · ${obs.points_now} now · ${obs.rounds_cleared} cleared · hand ${obs.hands[0].length}`;
  }
  const war = obs.war_target ? ` · war ${obs.war[0]}–${obs.war[1]} (to ${obs.war_target})` : "";
  const hands = `hands ${obs.hands[0].length} / ${obs.hands[1].length}`;
  return `Battle ${obs.battle} · ${obs.phase}${war} · ${hands}`;
}

/** The banner over a finished game's table. */
function endBanner(obs) {
  if (obs.mode === "objective1") return `Over: ${obs.rounds_cleared} round${obs.rounds_cleared === 1 ? "" : "s"} cleared`;
  return obs.winner === null ? "Over: a draw" : `Over: ${SEAT_NAMES[obs.winner]} wins`;
}

/** The banner over a battle (a solitaire round) frozen with its scoring. */
function frozenTitle(event) {
  const d = event.data;
  if (event.kind === "round_scored") return `Round ${d.round}: ${d.points} against ${d.target}, ${d.cleared ? "cleared" : "failed"}`;
  return `Battle ${d.battle}: Federation ${d.points[0]} · Klingon ${d.points[1]}`;
}

/** The head of a throw ("roll d20a", "slide d6a", "torpedo") -> the piece kind. */
function kindOfHead(head) {
  if (head === "torpedo") return "stone";
  const piece = head.split(" ")[1];
  return piece === "borg" ? "borg" : piece.replace(/[a-z]+$/, "");
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

export function createBoard(host, ctx) {
  if (!document.querySelector("link[data-stardice-css]")) {
    document.head.append(h("link", { rel: "stylesheet", href: "/static/css/stardice.css", "data-stardice-css": "1" }));
  }
  const sounds = new Sounds();
  const canvas = h("canvas", { class: "stardice-canvas", "aria-label": "The Star Dice table" });
  const pieceBar = h("div", { class: "stardice-pieces", role: "group", "aria-label": "Piece to throw" });
  const mute = h("input", { type: "checkbox", onChange: () => { sounds.muted = mute.checked; } });
  const pauseButton = h("button", { type: "button", onClick: () => togglePause() }, "Pause");
  const note = h("span", { class: "stardice-note" });
  // What the last step did that the table alone does not show: the call's outcome, a Borg
  // re-roll, a re-throw of a die that never entered, a die knocked off, a forfeit.
  const news = h("p", { class: "stardice-news", role: "status", "aria-live": "polite" });
  const fullButton = h("button", { type: "button", hidden: !document.fullscreenEnabled,
    onClick: () => (document.fullscreenElement ? document.exitFullscreen() : box.requestFullscreen()).catch(() => {}) },
  "Full screen");
  const nextBattle = h("button", { type: "button", class: "stardice-next", hidden: true,
    onClick: () => { frozen = null; nextBattle.hidden = true; if (view) { drawPieceBar(); drawScore(); } } }, "Next battle");
  const scorePanel = h("section", { class: "stardice-score", "aria-label": "Scoring" });
  const menu = new VariantMenu(ctx);
  const box = h("div", { class: "stardice-board" },
    h("div", { class: "stardice-bar" }, pieceBar, nextBattle, h("label", {}, mute, " Mute"), pauseButton, fullButton, menu.element, note), menu.panel, news,
    h("div", { class: "stardice-stage" }, canvas), scorePanel);
  host.replaceChildren(box);
  const g = canvas.getContext("2d");

  let obs = null;
  let view = null; // the last render's view
  let selected = null; // the head chosen in the piece bar
  let live = null; // {step, frames, start (ms), done}
  let aim = null;
  let ownThrow = null; // when this page released the throw whose stream comes next
  let frozen = null; // a battle of a war (a solitaire round) just scored: {title, score, pos, values}
  let paused = false;
  let pausedAt = 0;
  let pausedFor = 0;
  const numbers = new Map(); // formation key -> {text, x, y, born, gone}
  const stage = { width: 0, height: 0, fit: fit(1, 1) };

  function resize() {
    const rect = canvas.parentElement.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(200, rect.width);
    const height = Math.max(150, Math.min(rect.width * 0.66, window.innerHeight * 0.8));
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

  // -- what is on the table now --------------------------------------------------------------
  function restingPieces() {
    return new Map((obs?.table || []).map((pc) => [pc.id, [pc.x, pc.y]]));
  }

  function currentPieces(now) {
    if (!live) return { pos: restingPieces(), moving: new Set() };
    const tau = Math.max(0, (now - live.start) / 1000 - PLAYBACK_LAG);
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

  function updateNumbers(now, pos, moving) {
    const shown = new Set();
    for (const shape of (frozen ? frozen.score : obs?.score)?.shapes || []) {
      if (shape.kind !== "formation") continue;
      const at = shape.objects.map((id) => objectAt(pos, id, moving));
      if (at.some((xy) => !xy)) continue; // a die of it moves: its connections are gone
      const key = [...shape.objects].sort().join(",");
      const x = at.reduce((s, xy) => s + xy[0], 0) / at.length;
      const y = at.reduce((s, xy) => s + xy[1], 0) / at.length;
      const text = shape.owner === null ? `${shape.points}` : `${shape.points} ${shape.owner === 0 ? "F" : "K"}`;
      shown.add(key);
      const old = numbers.get(key);
      if (!old || old.gone !== null || old.text !== text) numbers.set(key, { text, x, y, born: now, gone: null });
    }
    for (const [key, n] of numbers) {
      if (!shown.has(key) && n.gone === null) n.gone = now;
      if (n.gone !== null && now - n.gone > FADE_MS) numbers.delete(key);
    }
  }

  function draw() {
    const began = performance.now();
    const now = clock();
    const stageView = stage;
    drawBackground(g, stageView);
    const { pos, moving } = frozen ? { pos: frozen.pos, moving: new Set() } : currentPieces(now);
    const values = frozen ? frozen.values : new Map((obs?.table || []).map((pc) => [pc.id, pc.value]));
    if (!pos.size) drawLogo(g, stageView, now);
    for (const id of moving) drawRangeRing(g, stageView, ...pos.get(id));
    // a die that moves loses its connections; new ones come with the state once it rests
    if (frozen) drawLayout(g, stageView, pos, layoutOf(frozen.score), moving);
    else if (obs) drawLayout(g, stageView, pos, obs.layout, moving);
    drawPieces(g, stageView, [...pos].map(([id, [x, y]]) => ({ id, x, y, value: moving.has(id) ? "…" : values.get(id) })));
    updateNumbers(now, pos, moving);
    for (const n of numbers.values()) {
      const alpha = n.gone === null ? Math.min(1, (now - n.born) / FADE_MS) : Math.max(0, 1 - (now - n.gone) / FADE_MS);
      drawPoints(g, stageView, n.x, n.y, n.text, alpha);
    }
    if (aim) drawAim(g, stageView, aim);
    if (frozen) drawBanner(g, stageView, frozen.title);
    else if (view?.terminal && !live) drawBanner(g, stageView, endBanner(obs));
    else if (paused) drawBanner(g, stageView, "Paused");
    canvas.dataset.animating = live ? "yes" : "no";
    canvas.dataset.moving = String(moving.size);
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

  function canThrow() {
    return view && view.yourTurn && !view.terminal && !paused && !frozen && !(live && !live.done) && selected;
  }

  function aimFrom(event) {
    const rect = canvas.getBoundingClientRect();
    return stage.fit.toTable(event.clientX - rect.left, event.clientY - rect.top);
  }

  function updateAim(x1, y1) {
    const dx = (x1 - aim.x0) * THROW_REACH;
    const dy = (y1 - aim.y0) * THROW_REACH;
    const dist = Math.hypot(dx, dy);
    aim.x1 = aim.x0 + dx;
    aim.y1 = aim.y0 + dy;
    aim.speed = Math.min(MAX_SPEED, Math.sqrt(2 * MU[kindOfHead(selected)] * G * dist));
    aim.heading = (Math.atan2(dy, dx) * 180) / Math.PI;
  }

  canvas.addEventListener("pointerdown", (event) => {
    sounds.unlock();
    if (!canThrow()) {
      if (view?.yourTurn && !selected) note.textContent = "Call first (see Actions).";
      return;
    }
    const [x, y] = aimFrom(event);
    aim = { x0: x, y0: y, x1: x, y1: y, speed: 0, heading: 0, ok: onFrame(x, y) };
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!aim) return;
    updateAim(...aimFrom(event));
  });
  const release = (event) => {
    if (!aim) return;
    updateAim(...aimFrom(event));
    const done = aim;
    aim = null;
    if (!done.ok) { note.textContent = "A throw starts on the grey frame around the table."; return; }
    if (done.speed < 0.01) return;
    const text = throwText(selected, done.x0, done.y0, done.heading, done.speed);
    const releasedAt = performance.now();
    if (ctx.play(text)) { note.textContent = ""; ownThrow = releasedAt; }
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", () => { aim = null; });

  function drawPieceBar() {
    const heads = throwHeads();
    if (!heads.includes(selected)) selected = heads[0] ?? null;
    pieceBar.replaceChildren(...heads.map((head) => h("button", {
      type: "button",
      class: `stardice-piece${head === selected ? " selected" : ""}`,
      "aria-pressed": head === selected ? "true" : "false",
      dataset: { head },
      onClick: () => { selected = head; drawPieceBar(); },
    }, head)));
    if (!heads.length && !view?.terminal) pieceBar.append(h("span", {}, view?.yourTurn ? "" : "Waiting…"));
  }

  // -- scoring -------------------------------------------------------------------------------
  function drawScore() {
    const solo = obs.mode === "objective1";
    const final = view.terminal && obs.last_score;
    const score = (frozen ? frozen.score : final ? obs.last_score : obs.score) || { points: [0, 0], shapes: [] };
    const rows = score.shapes.map((shape) => {
      const who = shape.owner === null ? "nobody" : SEAT_NAMES[shape.owner];
      const bonus = shape.bonus ? `, Borg bonus ${shape.bonus}` : "";
      const noteText = shape.note ? ` (${shape.note})` : "";
      return h("li", { class: "stardice-shape" },
        `${shape.kind[0].toUpperCase()}${shape.kind.slice(1)} of ${shape.objects.length}: `
        + `${solo ? `sum ${shape.totals[0]}` : `sums Federation ${shape.totals[0]} · Klingon ${shape.totals[1]}`}; ${shape.points} point${shape.points === 1 ? "" : "s"} to ${who}${bonus}${noteText}`);
    });
    const battles = (obs.battle_points || []).map((p, i) => `battle ${i + 1}: ${p[0]}–${p[1]}`).join(", ");
    scorePanel.replaceChildren(
      h("h3", {}, frozen ? `${frozen.title.split(":")[0]} scoring` : view.terminal ? "Final scoring" : "On the table now"),
      h("p", { class: "stardice-points" }, solo ? `Points ${score.points[0]} (to beat: ${frozen?.target ?? obs.target})`
        : `Federation ${score.points[0]} · Klingon ${score.points[1]}`
        + (obs.borg_pips !== null && obs.borg_pips !== undefined ? ` · Borg ${obs.borg_pips}` : "")),
      h("ol", {}, rows.length ? rows : [h("li", {}, "No formation yet.")]),
      obs.eliminated?.length ? h("p", { class: "stardice-eliminated" },
        `Out of this ${solo ? "round" : "battle"} (knocked off the table or discarded): ${obs.eliminated.join(", ")}`) : "",
      battles ? h("p", {}, `Battles: ${battles}`) : "",
      obs.war_target ? h("p", {}, `War: Federation ${obs.war[0]} · Klingon ${obs.war[1]} (to ${obs.war_target})`) : "");
  }

  return {
    render(next) {
      const prevStep = view?.step;
      const prevObs = obs;
      view = next;
      obs = next.observation;
      if (live && next.step >= live.step) live.done = true;
      if (next.animate && next.step !== prevStep) {
        for (const e of next.events) {
          if (e.kind === "landed") sounds.landed();
          else if (e.kind === "formation_closed") sounds.formed();
          else if (e.kind === "formation_broken") sounds.broken();
          else if (e.kind === "battle_scored") sounds.won();
        }
      }
      const scored = next.animate && next.step !== prevStep && !next.terminal
        && next.events.find((e) => e.kind === "battle_scored" || e.kind === "round_scored");
      if (scored && obs.last_score) {
        // The engine clears the table for the next battle at once; the page keeps the scored
        // table frozen (the seed's software froze it) until "Next battle".
        const lastFrames = live && live.step === next.step ? live.frames[live.frames.length - 1].pieces : null;
        const before = prevObs?.table || [];
        const values = new Map(before.map((pc) => [pc.id, pc.value]));
        for (const e of next.events) {
          if ((e.kind === "landed" || e.kind === "knocked") && e.data) values.set(e.data.piece, e.data.value);
        }
        const pos = lastFrames ?? new Map(before.map((pc) => [pc.id, [pc.x, pc.y]]));
        frozen = { title: frozenTitle(scored), target: scored.data.target, score: obs.last_score, pos, values };
        live = null;
        nextBattle.hidden = false;
      }
      box.classList.toggle("frozen", Boolean(next.terminal || frozen));
      menu.show(next.role === "player");
      canvas.dataset.step = String(next.step);
      if (next.step !== prevStep) {
        news.textContent = next.events.filter((e) => NEWS.has(e.kind)).map((e) => e.text).join(" ");
      }
      drawPieceBar();
      drawScore();
    },
    onStream(message) {
      if (message.type !== "frame") return;
      const frame = { t: message.t, pieces: new Map(message.pieces.map(([id, x, y]) => [id, [x, y]])) };
      if (!live || live.step !== message.step) {
        // Frames are coalesced and sent after discrete messages, so the last frame of a throw
        // may come after its state: a throw already shown at rest is not started again.
        if (view && message.step <= view.step) return;
        const thrown = message.pieces.find(([id]) => !(obs?.table || []).some((pc) => pc.id === id))?.[0] ?? null;
        live = { step: message.step, frames: [], start: clock() - message.t * 1000, done: false, thrown, releasedAt: ownThrow };
        ownThrow = null;
        canvas.dataset.firstFrameAt = String(performance.now());
      }
      live.frames.push(frame);
    },
    status,
  };
}
