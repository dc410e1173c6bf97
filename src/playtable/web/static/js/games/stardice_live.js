// The Star Dice live table: a real multitouch table's TUIO stream, drawn full
// screen as the seed's table software drew it. The server tracks the dice (tableinput) and sends
// one `frame` per report of its engine (a committed TUIO frame, a settling tick, a value
// entered): the dice, connections, formations, strings and the score. This page draws each frame
// when it arrives with the mode-1 drawing (stardice_draw.js: stars in owner colours, formations
// filled, strings white, fading point values, range rings round moving dice, the Borg die, the
// logo on an empty table) and its sounds (stardice_sound.js). A tap near a die opens a picker of
// its faces (the seed's "hotkey the rolled dice values"); fouls and the Borg die leaving are
// announced until dismissed; the bar pauses, mutes, records and goes full screen. Beside the
// table the match (stardice_live_match.js): the call, whose turn, the faces to enter, the end of
// a battle, the war's total, forfeits; below it the scoring shape by shape, and the bar counts the
// contacts against the Surface's limit (stardice_live_score.js).
// `window.playtableLive.drawn` logs what was drawn per frame (tests and benchmarks read it).

import { h } from "../util.js";
import { drawBackground, drawBanner, drawLayout, drawLogo, drawPieces, drawPoints, fit } from "./stardice_draw.js";
import { matchPanel } from "./stardice_live_match.js";
import { drawContacts, drawScore } from "./stardice_live_score.js";
import { Sounds } from "./stardice_sound.js";

const FADE_MS = 450;
const DRAWN_KEPT = 5000;
const TAP_PX = 12; // a press that moves less than this is a tap

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
// The table's control link carries its token in the #fragment (never sent in a request): the page
// presents it over its socket; without it the page watches (docs/web.md, "Live tables are the operator's").
const controlToken = new URLSearchParams(location.hash.slice(1)).get("control");
const record = { drawn: [], events: [], errors: [], welcome: null, connected: false, seq: 0, paused: false, heldSeq: 0,
  match: null, controls: false };
let recording = { available: false, on: false };
window.playtableLive = record;

const sounds = new Sounds();
const canvas = h("canvas", { class: "live-canvas", "aria-label": "The Star Dice table" });
const g = canvas.getContext("2d");
const pointsBox = h("span", { class: "live-points" }, "Federation 0 · Klingon 0");
const sourceBox = h("span", { class: "live-source" });
const statusBox = h("span", { class: "live-status", role: "status" });
const errorBox = h("span", { class: "live-error", role: "alert" });
const mute = h("input", { type: "checkbox", onChange: () => { sounds.muted = mute.checked; } });
const pauseButton = h("button", { type: "button", "aria-pressed": "false", onClick: () => togglePause() }, "Pause");
const recordButton = h("button", { type: "button", class: "live-record", "aria-pressed": "false",
  onClick: () => send({ type: "record", on: recordButton.getAttribute("aria-pressed") !== "true" }) }, "Record");
const fullButton = h("button", { type: "button", onClick: () => fullScreen() }, "Full screen");
const alerts = h("div", { class: "live-alerts", "aria-live": "assertive" });
const stageBox = h("div", { class: "live-stage" }, canvas, alerts);
const scorePanel = h("section", { class: "live-score", "aria-label": "Scoring" });
const contactsBox = h("span", { class: "live-contacts", title: "Contacts the table sees, and its limit (the Surface: 15, It. 9)" });
const panel = matchPanel((message) => send(message), (id) => openPicker(id));
document.getElementById("app").replaceChildren(h("div", { class: "live" },
  h("div", { class: "live-bar" }, h("strong", {}, "Star Dice · live table"), pointsBox, contactsBox, sourceBox,
    fullButton, pauseButton, recordButton, h("label", {}, mute, " Mute"), statusBox, errorBox),
  h("div", { class: "live-main" }, h("div", { class: "live-left" }, stageBox, scorePanel), panel.el)));

const stage = { width: 0, height: 0, fit: fit(1, 1) };
let socket = null;
let dice = new Map(); // id -> {owner, faces, pips} from the welcome
let borgFaces = [];
let connectRange = 0.25;
let scene = null; // what is drawn: {seq, report, pos, moving, values, known, layout, labels}
let held = null; // the newest frame received while paused
let paused = false;
let picker = null;
const numbers = new Map(); // formation key -> {text, x, y, born, gone}

function resize() {
  const rect = stageBox.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const width = Math.max(200, rect.width);
  const height = Math.max(150, rect.height);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  Object.assign(stage, { width, height, fit: fit(width, height) });
  draw(performance.now());
}
new ResizeObserver(resize).observe(stageBox);

function fullScreen() {
  sounds.unlock();
  if (document.fullscreenElement) document.exitFullscreen?.();
  else document.documentElement.requestFullscreen?.().catch(() => {});
}

function togglePause() {
  paused = !paused;
  pauseButton.textContent = paused ? "Resume" : "Pause";
  pauseButton.setAttribute("aria-pressed", String(paused));
  record.paused = paused;
  if (!paused && held) { const next = held; held = null; show(next); }
  draw(performance.now());
}

// -- a report becomes a scene --------------------------------------------------------------
function formationLabel(shape) {
  if (shape.waiting?.length) return `${shape.points} ?`;
  if (shape.owner === null || shape.owner === undefined) return `${shape.points}`;
  return `${shape.points + (shape.bonus || 0)} ${shape.owner === 0 ? "F" : "K"}`;
}

function sceneOf(seq, report) {
  const pos = new Map(report.dice.map((d) => [d.id, [d.x, d.y]]));
  const moving = new Set(report.dice.filter((d) => !d.settled).map((d) => d.id));
  const values = new Map(report.dice.map((d) => [d.id, d.value]));
  const known = new Set(report.dice.filter((d) => d.known).map((d) => d.id));
  const layout = { formations: report.formations, edges: report.connections };
  // what drawLayout fills: formations whose dice are all on the table and at rest
  const filled = report.formations.filter((ids) => ids.every((id) => pos.has(id) && !moving.has(id)));
  const labels = [];
  for (const shape of report.shapes || []) {
    if (shape.kind !== "formation") continue;
    const ids = shape.objects.filter((id) => pos.has(id));
    if (!ids.length || ids.some((id) => moving.has(id))) continue;
    labels.push({ key: [...shape.objects].sort().join(","), text: formationLabel(shape),
      x: ids.reduce((s, id) => s + pos.get(id)[0], 0) / ids.length,
      y: ids.reduce((s, id) => s + pos.get(id)[1], 0) / ids.length });
  }
  return { seq, report, pos, moving, values, known, layout, filled, labels };
}

function drawUnknown(view, x, y) {
  const [px, py] = view.fit.toPx(x, y);
  g.beginPath();
  g.arc(px, py, Math.max(4, 0.012 * view.fit.scale), 0, 2 * Math.PI);
  g.fillStyle = "#9aa0a6";
  g.fill();
}

function draw(now) {
  drawBackground(g, stage);
  if (!scene || !scene.pos.size) drawLogo(g, stage, now, "Waiting for dice on the table");
  if (scene) {
    for (const id of scene.moving) {
      const [px, py] = stage.fit.toPx(...scene.pos.get(id));
      g.beginPath();
      g.arc(px, py, connectRange * stage.fit.scale, 0, 2 * Math.PI);
      g.strokeStyle = "rgba(160,200,255,0.18)";
      g.lineWidth = 1;
      g.stroke();
    }
    drawLayout(g, stage, scene.pos, scene.layout, scene.moving);
    const known = [];
    for (const [id, [x, y]] of scene.pos) {
      if (scene.known.has(id)) known.push({ id, x, y, value: scene.values.get(id) });
      else drawUnknown(stage, x, y);
    }
    drawPieces(g, stage, known);
  }
  for (const [key, n] of numbers) {
    const alpha = n.gone === null ? Math.min(1, (now - n.born) / FADE_MS) : Math.max(0, 1 - (now - n.gone) / FADE_MS);
    if (n.gone !== null && alpha <= 0) { numbers.delete(key); continue; }
    drawPoints(g, stage, n.x, n.y, n.text, alpha);
  }
  if (paused) drawBanner(g, stage, "Paused");
}

/** Whether anything on the canvas changes by itself now: the logo's pulse, a number fading. */
function animating(now) {
  if (!scene || !scene.pos.size) return true;
  for (const n of numbers.values()) if (n.gone !== null || now - n.born < FADE_MS + 100) return true;
  return false;
}

function frameLoop(now) {
  // frames are drawn when they arrive; between them only what fades is redrawn (a table at
  // rest costs no drawing at all, which leaves the machine to the next frame)
  if (animating(now)) draw(now);
  requestAnimationFrame(frameLoop);
}
requestAnimationFrame(frameLoop);

function updateNumbers(now) {
  const shown = new Set();
  for (const l of scene.labels) {
    shown.add(l.key);
    const old = numbers.get(l.key);
    if (!old || old.gone !== null || old.text !== l.text) numbers.set(l.key, { text: l.text, x: l.x, y: l.y, born: now, gone: null });
    else Object.assign(old, { x: l.x, y: l.y });
  }
  for (const [key, n] of numbers) if (!shown.has(key) && n.gone === null) n.gone = now;
}

function playSounds(before, after) {
  const settledBefore = new Set(before ? before.report.dice.filter((d) => d.settled).map((d) => d.id) : []);
  if (after.report.dice.some((d) => d.settled && !settledBefore.has(d.id))) sounds.landed();
  const keys = (s) => new Set((s ? s.report.formations : []).map((f) => [...f].sort().join(",")));
  const a = keys(before);
  const b = keys(after);
  if ([...b].some((k) => !a.has(k))) sounds.formed();
  else if ([...a].some((k) => !b.has(k))) sounds.broken();
}

/** Draw one frame now and log what was drawn (formations filled, labels written, points). */
function show(message) {
  const before = scene;
  scene = sceneOf(message.seq, message.report);
  const now = performance.now();
  updateNumbers(now);
  draw(now);
  playSounds(before, scene);
  const r = message.report;
  record.seq = message.seq;
  record.drawn.push({ seq: message.seq, frame: r.frame, t: r.t, tick: Boolean(r.tick), source: r.source,
    formations: scene.filled.map((f) => [...f].sort()).sort(), strings: r.strings.map((s) => [...s].sort()).sort(),
    labels: scene.labels.map((l) => l.text).sort(), points: [...r.points],
    values: Object.fromEntries(r.dice.map((d) => [d.id, d.value])), at: performance.timeOrigin + performance.now() });
  if (record.drawn.length > DRAWN_KEPT) record.drawn.splice(0, record.drawn.length - DRAWN_KEPT);
  canvas.dataset.seq = String(message.seq);
  drawScore(r, pointsBox, scorePanel);
  drawContacts(r, contactsBox);
  if (picker) placePicker();
}

// -- the value picker ----------------------------------------------------------------------
function nearestDie(px, py) {
  if (!scene) return null;
  let best = null;
  for (const [id, [x, y]] of scene.pos) {
    if (!dice.has(id)) continue;
    const [qx, qy] = stage.fit.toPx(x, y);
    const d = Math.hypot(qx - px, qy - py);
    if (d <= Math.max(28, 0.05 * stage.fit.scale) && (!best || d < best.d)) best = { id, d };
  }
  return best?.id ?? null;
}

function closePicker() {
  picker?.el.remove();
  picker = null;
}

function placePicker() {
  const at = scene?.pos.get(picker.id);
  if (!at && picker.unseen) { // a die the surface does not see (the Borg die on the frame)
    picker.el.style.left = "8px";
    picker.el.style.top = "8px";
    return;
  }
  if (!at) { closePicker(); return; }
  const [px, py] = stage.fit.toPx(...at);
  const w = picker.el.offsetWidth;
  const hgt = picker.el.offsetHeight;
  picker.el.style.left = `${px + 44 + w < stage.width ? px + 44 : Math.max(4, px - 44 - w)}px`;
  picker.el.style.top = `${Math.min(Math.max(4, py - hgt / 2), stage.height - hgt - 4)}px`;
}

function openPicker(id) {
  closePicker();
  if (!record.controls) return; // a watcher's page enters no value (the server would refuse it)
  const info = dice.get(id);
  const current = scene?.values.get(id);
  const faces = id === "borg" ? [...new Set(borgFaces)] : info.faces;
  const buttons = faces.map((v) => {
    const pips = id === "borg" && info.pips ? info.pips[borgFaces.indexOf(v)] : null;
    return h("button", { type: "button", class: v === current ? "current" : null, dataset: { value: String(v) },
      "aria-label": `${id} rolled ${v}${pips !== null ? ` (${pips} pips)` : ""}`,
      onClick: () => { send({ type: "set_value", die: id, value: v }); closePicker(); } },
    pips !== null ? `${v}·${pips}` : String(v));
  });
  const el = h("div", { class: "live-picker", role: "dialog", "aria-label": `Value of ${id}`, dataset: { die: id } },
    h("h4", {}, `${id}: rolled?`), ...buttons,
    h("button", { type: "button", class: "close", onClick: closePicker }, "Cancel"));
  stageBox.append(el);
  picker = { id, el, unseen: !scene?.pos.has(id) };
  placePicker();
  el.querySelector("button")?.focus();
}

let press = null;
canvas.addEventListener("pointerdown", (event) => {
  sounds.unlock();
  press = { x: event.clientX, y: event.clientY };
});
canvas.addEventListener("pointerup", (event) => {
  if (!press) return;
  const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
  press = null;
  if (moved > TAP_PX) return;
  const rect = canvas.getBoundingClientRect();
  const id = nearestDie(event.clientX - rect.left, event.clientY - rect.top);
  if (id) openPicker(id);
  else closePicker();
});
canvas.addEventListener("pointercancel", () => { press = null; });
document.addEventListener("keydown", (event) => { if (event.key === "Escape") closePicker(); });

// -- announcements -------------------------------------------------------------------------
function announce(event) {
  record.events.push(event);
  const item = h("div", { class: `live-alert ${event.kind}`, dataset: { kind: event.kind, seq: String(event.seq) } },
    h("span", {}, event.kind === "foul" ? `Foul? ${event.text}` : event.kind === "touch_limit" ? `Touch limit: ${event.text}` : event.text),
    h("button", { type: "button", "aria-label": "Dismiss", onClick: () => item.remove() }, "Dismiss"));
  alerts.append(item);
  if (event.kind === "foul" || event.kind === "touch_limit") sounds.broken();
  else sounds.won();
}

function showRecording(m) {
  recording = m;
  recordButton.hidden = !m.available || !record.controls;
  recordButton.setAttribute("aria-pressed", String(m.on));
  recordButton.textContent = m.on ? "Stop recording" : "Record";
  if (m.on) statusBox.textContent = `Recording to ${m.file}`;
  else if (m.file) statusBox.textContent = `Recorded ${m.file}${m.note ? ` (${m.note})` : ""}`;
}

function showMatch(view) {
  if (!view) return;
  record.match = view;
  panel.show(view);
}

// -- the connection ------------------------------------------------------------------------
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else errorBox.textContent = "Not connected to the table.";
}

function onMessage(message) {
  if (message.type === "welcome") {
    record.welcome = message;
    dice = new Map(message.dice.map((d) => [d.id, d]));
    borgFaces = message.borg_faces;
    connectRange = message.connect_range;
    sourceBox.textContent = message.table.source;
    alerts.replaceChildren();
    record.events = [];
    message.events.forEach(announce);
    if (message.touch_limit > 0 && message.dice.length > message.touch_limit) {
      // the map names more dice than the table can see at once (It. 9): say so from the start
      announce({ kind: "touch_limit", seq: 0, text: `The dice map names ${message.dice.length} dice, more than the `
        + `table's limit of ${message.touch_limit} contacts (the Surface's, It. 9): not all of them can be seen at once.` });
    }
    showRecording(message.recording);
    showMatch(message.match);
  } else if (message.type === "frame") {
    if (paused) { held = message; record.heldSeq = message.seq; } else show(message);
  } else if (message.type === "match") {
    showMatch(message);
  } else if (message.type === "live_event") {
    announce(message);
  } else if (message.type === "recording") {
    showRecording(message);
  } else if (message.type === "control") {
    record.controls = message.granted === true;
    document.body.classList.toggle("live-watching", !record.controls);
    showRecording(recording);
  } else if (message.type === "closed") {
    gone = true;
    statusBox.textContent = message.message;
  } else if (message.type === "replay") {
    statusBox.textContent = message.state === "done" ? "Replay finished" : "Replaying…";
  } else if (message.type === "error") {
    record.errors.push(message);
    if (message.code === "not_found") gone = true;
    errorBox.textContent = message.message;
    setTimeout(() => { if (errorBox.textContent === message.message) errorBox.textContent = ""; }, 6000);
  }
}

let retry = 500;
let gone = false; // the server has no such table: stop trying
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/live/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => {
    record.connected = true;
    retry = 500;
    errorBox.textContent = "";
    if (controlToken) socket.send(JSON.stringify({ type: "control", token: controlToken }));
    else statusBox.textContent = "Watching (the table's own screen controls it)";
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    record.connected = false;
    if (gone) return;
    errorBox.textContent = "Connection lost; reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}
document.body.classList.add("live-watching"); // until the server grants control
resize();
connect();
