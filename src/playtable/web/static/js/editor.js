// The Rotator board editor (seed 004, "Getting Started": "choose the location of ten
// Control Nodes on the game grid, five on each half"). A person places the nodes on the 10 x 20
// map with the mouse, a finger or the keyboard (arrow keys move, Enter or Space places or
// removes); each pause in editing asks the server's check (POST /api/rotator/boards/check: the
// game's own validator and solver, in a worker) whether the board is legal, winnable and how
// hard. The board travels as the text of docs/boards-rotator.md (nodes only: the land is drawn
// from them), to copy or save as a file, to paste or open, and "Play this board" makes a table
// with it.
//
// The squares drawn as land here are each node's diamond, only to show the person what they
// make; whether the board is legal is always the server's answer.

import { cellName, parseCell } from "./games/rotator.js";
import { playerKey, playerName } from "./player.js";
import { getJson, h, postJson } from "./util.js";

const COLS = 10;
const ROWS = 20;
const HALF = 10;
const LETTERS = "ABCDEFGHIJ";
const CHECK_DELAY_MS = 400;
const SAVED = "playtable.rotatorEditorBoard";
const HEADER = "; Rotator board from playtable's editor: @ a control node; the land is each node's diamond";

const nodes = new Set();
const cells = [];
let focused = 0;
let checkTimer = null;
let asked = 0; // the last check sent: an older answer arriving late is dropped
let verdict = null;

function cellIndex(name) {
  const { col, row } = parseCell(name);
  return col < 0 || !(row >= 0 && row < ROWS) ? null : row * COLS + col;
}

/** The board in the text format, nodes only (docs/boards-rotator.md, "Shortcut"). */
export function boardText() {
  const lines = [HEADER];
  for (let r = 0; r < ROWS; r += 1) {
    let line = "";
    for (let c = 0; c < COLS; c += 1) line += nodes.has(r * COLS + c) ? "@" : ".";
    lines.push(line);
  }
  return `${lines.join("\n")}\n`;
}

function diamondOf(node) {
  const r0 = Math.floor(node / COLS);
  const c0 = node % COLS;
  const out = [];
  for (let r = r0 - 2; r <= r0 + 2; r += 1) {
    for (let c = c0 - 2; c <= c0 + 2; c += 1) {
      if (r >= 0 && r < ROWS && c >= 0 && c < COLS && Math.abs(r - r0) + Math.abs(c - c0) <= 2) out.push(r * COLS + c);
    }
  }
  return out;
}

// -- the board ----------------------------------------------------------------------------------
function buildGrid(host) {
  const grid = h("div", { class: "editor-grid", role: "group", "aria-label": "Rotator map, 10 columns by 20 rows" });
  grid.append(h("span", { class: "col-label", "aria-hidden": "true" }),
    ...[...LETTERS].map((letter) => h("span", { class: "col-label", "aria-hidden": "true" }, letter)));
  for (let r = 0; r < ROWS; r += 1) {
    if (r === HALF) grid.append(h("span", { class: "half-line", "aria-hidden": "true" }));
    grid.append(h("span", { class: "row-label", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < COLS; c += 1) {
      const i = r * COLS + c;
      const rh = r % HALF;
      const edge = rh === 0 || rh === HALF - 1 || c === 0 || c === COLS - 1;
      const cell = h("button", { type: "button", class: `cell${edge ? " edge" : ""}`, tabindex: i === 0 ? "0" : "-1",
        dataset: { cell: cellName(i) }, onClick: () => { toggle(i); } });
      cell.addEventListener("keydown", (event) => move(event, i));
      cell.addEventListener("focus", () => { focused = i; });
      cells.push(cell);
      grid.append(cell);
    }
  }
  host.replaceChildren(grid);
}

function move(event, i) {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -COLS, ArrowDown: COLS }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  const r = Math.floor(i / COLS);
  const next = i + step;
  if (next < 0 || next >= ROWS * COLS || (Math.abs(step) === 1 && Math.floor(next / COLS) !== r)) return;
  cells[i].tabIndex = -1;
  cells[next].tabIndex = 0;
  cells[next].focus();
}

function toggle(i) {
  if (nodes.has(i)) nodes.delete(i);
  else nodes.add(i);
  changed();
}

function drawCells() {
  const land = new Set([...nodes].flatMap(diamondOf));
  const faulty = new Set((verdict?.problems ?? []).flatMap((p) => p.match(/\b[A-J](?:20|1\d|[1-9])\b/g) ?? [])
    .map(cellIndex).filter((i) => i !== null && nodes.has(i)));
  cells.forEach((cell, i) => {
    cell.classList.toggle("land", land.has(i));
    cell.classList.toggle("node", nodes.has(i));
    cell.classList.toggle("faulty", faulty.has(i));
    const what = nodes.has(i) ? "control node" : land.has(i) ? "land" : "air";
    cell.setAttribute("aria-label", `${cellName(i)}: ${what}${faulty.has(i) ? " (breaks a rule)" : ""}`);
    cell.setAttribute("aria-pressed", nodes.has(i) ? "true" : "false");
  });
}

// -- the panel ----------------------------------------------------------------------------------
const panel = {};

function buildPanel(statusHost, host) {
  panel.counts = h("p", { class: "counts" });
  panel.verdict = h("p", { class: "editor-verdict", role: "status", "aria-live": "polite" });
  panel.level = h("p", { class: "editor-level" });
  panel.problems = h("ul", { class: "editor-problems", "aria-label": "Rules broken" });
  panel.line = h("ol", { class: "line" });
  panel.lineBox = h("details", { hidden: true }, h("summary", {}, "The solver's best line (spoils the puzzle)"), panel.line);
  panel.play = h("button", { type: "button", class: "primary", disabled: true, onClick: play }, "Play this board");
  panel.playProblem = h("p", { class: "error", role: "alert" });
  panel.text = h("textarea", { id: "board-text", spellcheck: "false", autocomplete: "off", "aria-label": "The board as text" });
  panel.textProblem = h("p", { class: "error", role: "alert" });
  const copy = h("button", { type: "button" }, "Copy the text");
  copy.addEventListener("click", async () => {
    panel.text.value = boardText();
    try {
      await navigator.clipboard.writeText(panel.text.value);
      copy.textContent = "Copied";
    } catch {
      panel.text.select();
      copy.textContent = "Select and copy the text";
    }
  });
  statusHost.replaceChildren(panel.counts, panel.verdict);
  panel.samples = h("div", { class: "buttons samples" });
  host.replaceChildren(panel.level, panel.problems, panel.lineBox,
    h("div", { class: "buttons" }, panel.play,
      h("button", { type: "button", onClick: () => { nodes.clear(); changed(); } }, "Clear the board")),
    panel.playProblem, panel.samples,
    h("details", { class: "board-text" }, h("summary", {}, "The board as text: copy or save it, paste or open one"),
      h("p", { class: "note" }, "20 lines of 10 characters: @ a control node, . air (# land may be written too, as ",
        h("code", {}, "playtable solve rotator"), " prints a board)."),
      panel.text, panel.textProblem,
      h("div", { class: "buttons" }, copy,
        h("button", { type: "button", onClick: saveFile }, "Save as a file"),
        h("button", { type: "button", onClick: importText }, "Use this text"),
        h("label", { class: "button" }, "Open a file…",
          h("input", { type: "file", accept: ".txt,text/plain", class: "visually-hidden", id: "board-file", onChange: openFile })))));
}

function drawPanel(state) {
  const top = [...nodes].filter((i) => i < HALF * COLS).length;
  const bottom = nodes.size - top;
  const count = (n, where) => h("span", { class: n === 5 ? "done" : "" }, `${where}: ${n} of 5 nodes`);
  panel.counts.replaceChildren(count(top, "Rows 1-10"), count(bottom, "Rows 11-20"));
  panel.verdict.className = "editor-verdict";
  panel.problems.replaceChildren();
  panel.level.textContent = "";
  panel.lineBox.hidden = true;
  panel.play.disabled = true;
  if (state === "checking") {
    panel.verdict.classList.add("busy");
    panel.verdict.textContent = "Checking the board…";
    return;
  }
  if (state instanceof Error) {
    panel.verdict.classList.add("bad");
    panel.verdict.textContent = `The board could not be checked: ${state.message}`;
    return;
  }
  if (!verdict) return;
  const good = verdict.legal && verdict.winnable;
  panel.verdict.classList.add(good ? "good" : "bad");
  panel.verdict.textContent = verdict.summary;
  panel.problems.replaceChildren(...verdict.problems.map((p) => h("li", {}, p)));
  if (verdict.legal) {
    panel.play.disabled = false;
    if (verdict.level_words) panel.level.textContent = `How hard: ${verdict.level}, ${verdict.level_words}.`;
    if (verdict.winnable) {
      panel.line.replaceChildren(...verdict.moves.map((move) => h("li", {}, move)));
      panel.lineBox.hidden = false;
    }
  }
}

// -- asking the server ----------------------------------------------------------------------------
function changed() {
  verdict = null;
  drawCells();
  drawPanel("checking");
  panel.text.value = boardText();
  try {
    localStorage.setItem(SAVED, [...nodes].join(","));
  } catch {
    // storage refused (a private window): the board lives as long as the page
  }
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, CHECK_DELAY_MS);
}

async function check() {
  asked += 1;
  const mine = asked;
  try {
    const answer = await postJson("/api/rotator/boards/check", { board: boardText() });
    if (mine !== asked) return;
    verdict = answer;
    drawCells();
    drawPanel();
  } catch (err) {
    if (mine === asked) drawPanel(err);
  }
  window.playtableEditor = { verdict, text: boardText() };
}

/** The board as a text file (docs/boards-rotator.md), for `playtable solve rotator FILE` or another editor. */
function saveFile() {
  const link = h("a", { href: URL.createObjectURL(new Blob([boardText()], { type: "text/plain" })), download: "rotator-board.txt" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/** A board file chosen by the person, read into the text box and then onto the grid. */
async function openFile(event) {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return;
  if (file.size > 4096) {
    panel.textProblem.textContent = "A board file is at most 4096 characters (20 lines of 10 cells and a few comments).";
    return;
  }
  panel.text.value = await file.text();
  importText();
}

/** Read a pasted board: the server parses it (any form the text format allows) and names its nodes. */
async function importText() {
  panel.textProblem.textContent = "";
  try {
    const answer = await postJson("/api/rotator/boards/check", { board: panel.text.value });
    if (!answer.board.length) {
      panel.textProblem.textContent = answer.problems[0];
      return;
    }
    setNodes(answer.nodes);
  } catch (err) {
    panel.textProblem.textContent = err.message;
  }
}

async function play() {
  panel.playProblem.textContent = "";
  panel.play.disabled = true;
  const named = Boolean(playerName());
  const body = { game: "rotator", params: { board: boardText() },
    seats: [named ? { kind: "human", mine: true } : { kind: "human", reserved: true }] };
  if (named) body.key = playerKey();
  try {
    const created = await postJson("/api/tables", body);
    window.location.assign(created.seats[0].join_url);
  } catch (err) {
    panel.playProblem.textContent = err.message;
    panel.play.disabled = false;
  }
}

/** "Start from a sample": the shipped boards (seed: "you can choose from one of the example boards provided"). */
async function offerSamples() {
  try {
    const { samples } = await getJson("/api/rotator/boards/samples");
    panel.samples.replaceChildren(h("span", { class: "note" }, "Or start from a sample board:"),
      ...samples.map((sample) => h("button", { type: "button", dataset: { sample: sample.name },
        onClick: () => setNodes(sample.nodes) }, sample.name)));
  } catch {
    panel.samples.replaceChildren(); // the editor works without them
  }
}

function setNodes(names) {
  nodes.clear();
  for (const name of names) nodes.add(cellIndex(name));
  changed();
}

function restore() {
  let saved = "";
  try {
    saved = localStorage.getItem(SAVED) || "";
  } catch {
    saved = "";
  }
  for (const part of saved.split(",")) {
    const i = Number(part);
    if (part !== "" && Number.isInteger(i) && i >= 0 && i < ROWS * COLS) nodes.add(i);
  }
}

buildGrid(document.getElementById("editor-board"));
buildPanel(document.getElementById("editor-status"), document.getElementById("editor-panel"));
restore();
changed();
offerSamples();
