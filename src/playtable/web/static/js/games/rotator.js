// The Rotator page: the 10 x 20 board turned so that "down" is always down the screen (the turn
// is animated; labels turn with the board and stay upright, so a square keeps the name the log
// and the hints use: column A-J + row 1-20), touched squares drawn as the seed's triangles with
// one line per turn of age, node territories, boost spaces left, and the start square and drill
// depth chosen on the board itself.
//
// On a phone (cells were about 14 px) the drawing is cropped to the board as it lies
// this turn: upright it fills the width (cells about 30 px on a 390 px screen); on its side it
// keeps cells of at least 24 px and scrolls sideways inside its own box, centred on the player.

import { prefersReducedMotion, s } from "../util.js";

export const hints = true;

const COLS = 10;
const ROWS = 20;
const CELL = 10;
const LETTERS = "ABCDEFGHIJ";
const DOWN = { south: [0, 1], east: [1, 0], north: [0, -1], west: [-1, 0] };
const DOWN_BY_TURN = ["south", "east", "north", "west"]; // the card turns clockwise each turn
const AGE_COLOURS = ["#f2b705", "#ea6a0a", "#c81d25"];
const SQUARE_VIEW = "-122 -122 244 244"; // any turn of the board fits
const UPRIGHT_VIEW = "-62 -112 124 224"; // the board and its labels, upright (phones)
const SIDEWAYS_VIEW = "-112 -62 224 124"; // ... on its side (phones)
const PHONE = "(max-width: 820px)";

export function parseCell(name) {
  const col = LETTERS.indexOf(name[0].toUpperCase());
  return { col, row: Number(name.slice(1)) - 1 };
}

export function cellName(index) {
  return `${LETTERS[index % COLS]}${Math.floor(index / COLS) + 1}`;
}

function xy({ col, row }) {
  return { x: -COLS * CELL / 2 + col * CELL, y: -ROWS * CELL / 2 + row * CELL };
}

export function label(action) {
  const [verb, arg] = action.split(" ");
  if (verb === "start") return `Start from ${arg}`;
  if (verb === "drill") {
    const k = Number(arg);
    if (k === 0) return "Don't drill (drill 0)";
    const boosts = k - 1;
    return `Drill ${k} ${k === 1 ? "space" : "spaces"}${boosts ? ` (${boosts} boost ${boosts === 1 ? "space" : "spaces"})` : ""}`;
  }
  return action;
}

/** The triangle of a touched square, pointing the way gravity pulled when it was touched. */
function ageMark(x, y, age, dir) {
  const [dx, dy] = DOWN[dir];
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const tip = [cx + dx * 3.6, cy + dy * 3.6];
  const base = [cx - dx * 3, cy - dy * 3];
  const px = -dy;
  const py = dx;
  const g = s("g", { class: `age-mark age-${age}` },
    s("path", { d: `M${tip} L${base[0] + px * 3.4},${base[1] + py * 3.4} L${base[0] - px * 3.4},${base[1] - py * 3.4} Z`,
      fill: AGE_COLOURS[age], stroke: "#5a2a00", "stroke-width": 0.5 }));
  for (let i = 0; i < age; i += 1) {
    // One line across the triangle per turn of age (seed: "a triangle with a single line through it").
    const t = -0.8 + i * 2.2;
    const mx = cx + dx * t;
    const my = cy + dy * t;
    g.append(s("path", { d: `M${mx + px * 4.2},${my + py * 4.2} L${mx - px * 4.2},${my - py * 4.2}`, stroke: "#1c1c1e", "stroke-width": 0.9 }));
  }
  return g;
}

const STEP_MS = 90; // the player's move from one square to the next
const TURN_MS = 700; // the board's quarter turn (the .spin transition in the stylesheet)

function centre({ col, row }) {
  const { x, y } = xy({ col, row });
  return `translate(${x + CELL / 2}px, ${y + CELL / 2}px)`;
}

/** The player's way through one step's events, as timed keyframes: the start square, the drilled
 * and fallen-through squares before the board turns, a pause while it turns, then the next fall. */
function playerPath(events, from) {
  const frames = from ? [{ transform: centre(from), at: 0 }] : [];
  let at = 0;
  let rotateAt = null;
  const cellOf = (index) => ({ col: index % COLS, row: Math.floor(index / COLS) });
  for (const event of events) {
    if (event.kind === "rotate") {
      rotateAt = at;
      at += TURN_MS;
      if (frames.length) frames.push({ transform: frames[frames.length - 1].transform, at });
      continue;
    }
    const cells = event.kind === "start" ? [event.data.cell] : ["drill", "fall"].includes(event.kind) ? event.data.cells : [];
    for (const index of cells) {
      if (frames.length) at += STEP_MS;
      frames.push({ transform: centre(cellOf(index)), at });
    }
  }
  return { frames, total: Math.max(at, 1), rotateAt };
}

function territoryOutline(cells) {
  const set = new Set(cells.map(({ col, row }) => row * COLS + col));
  const parts = [];
  for (const { col, row } of cells) {
    const { x, y } = xy({ col, row });
    if (row === 0 || !set.has((row - 1) * COLS + col)) parts.push(`M${x},${y}h${CELL}`);
    if (row === ROWS - 1 || !set.has((row + 1) * COLS + col)) parts.push(`M${x},${y + CELL}h${CELL}`);
    if (col === 0 || !set.has(row * COLS + col - 1)) parts.push(`M${x},${y}v${CELL}`);
    if (col === COLS - 1 || !set.has(row * COLS + col + 1)) parts.push(`M${x + CELL},${y}v${CELL}`);
  }
  return s("path", { d: parts.join(""), class: "territory", fill: "none", stroke: "#6b2fa0", "stroke-width": 0.8, "stroke-dasharray": "2 1" });
}

export function createBoard(host, ctx) {
  const svg = s("svg", { class: "rotator-board", viewBox: SQUARE_VIEW, role: "group", "aria-label": "The Rotator board" });
  const scroller = document.createElement("div");
  scroller.className = "rotator-scroll";
  scroller.append(svg);
  const phone = window.matchMedia ? window.matchMedia(PHONE) : { matches: false, addEventListener() {} };
  const spin = s("g", { class: "spin" });
  const cellsLayer = s("g", {});
  const marksLayer = s("g", {});
  const territories = s("g", { "aria-hidden": "true" });
  const labels = s("g", {});
  const targets = s("g", {});
  const player = s("circle", { class: "player", r: 3.6, cx: 0, cy: 0, fill: "#1f4f9a", stroke: "#fff", "stroke-width": 1.4 });
  spin.append(s("rect", { x: -50, y: -100, width: 100, height: 200, fill: "#f3f7fb" }), cellsLayer, marksLayer, territories,
    s("rect", { x: -50, y: -100, width: 100, height: 200, fill: "none", stroke: "#2d3b48", "stroke-width": 1 }),
    labels, targets, player);
  svg.append(spin);
  host.replaceChildren(scroller, legendList());
  let angle = null;
  let lastTurn = null;
  let lastPlayer = null;
  let boardKey = "";
  const textLabels = [];

  function drawStatic(obs) {
    // The board's land, nodes and territories never change during a game.
    territories.replaceChildren();
    labels.replaceChildren();
    textLabels.length = 0;
    obs.board.forEach((line, row) => [...line].forEach((ch, col) => {
      if (ch !== "@") return;
      const cells = [];
      for (let dr = -2; dr <= 2; dr += 1) {
        for (let dc = -2; dc <= 2; dc += 1) {
          const r = row + dr;
          const c = col + dc;
          if (Math.abs(dr) + Math.abs(dc) <= 2 && r >= 0 && r < ROWS && c >= 0 && c < COLS) cells.push({ col: c, row: r });
        }
      }
      territories.append(territoryOutline(cells));
    }));
    const add = (x, y, text, cls = "label") => {
      const t = s("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "central" }, text);
      textLabels.push(t);
      labels.append(t);
    };
    for (let c = 0; c < COLS; c += 1) {
      add(-45 + c * CELL, -105, LETTERS[c]);
      add(-45 + c * CELL, 105, LETTERS[c]);
    }
    for (let r = 0; r < ROWS; r += 1) {
      add(-56, -95 + r * CELL, String(r + 1));
      add(56, -95 + r * CELL, String(r + 1));
    }
    // The two ends as coloured edges (words there would collide with the labels once the board
    // lies on its side): where play starts, and the goal row.
    labels.append(s("rect", { x: -50, y: -102.6, width: 100, height: 2, fill: "#5b7fa6" }),
      s("rect", { x: -50, y: 100.6, width: 100, height: 2, fill: "#1d8a3a" }));
  }

  function drawCells(obs, view) {
    cellsLayer.replaceChildren();
    marksLayer.replaceChildren();
    targets.replaceChildren();
    const solid = new Set(obs.solid);
    const turn = obs.turn;
    for (let row = 0; row < ROWS; row += 1) {
      for (let col = 0; col < COLS; col += 1) {
        const name = `${LETTERS[col]}${row + 1}`;
        const ch = obs.board[row][col];
        const { x, y } = xy({ col, row });
        let fill = null;
        if (solid.has(name)) fill = ch === "@" ? "#7a4a2a" : ch === "#" ? "#9c6b3f" : "#7d838b";
        if (fill) cellsLayer.append(s("rect", { x, y, width: CELL, height: CELL, fill, stroke: "#6d4a2b", "stroke-width": 0.25 }));
        if (solid.has(name) && ch === "@") cellsLayer.append(s("circle", { cx: x + 5, cy: y + 5, r: 2.2, fill: "#e9d8ff", stroke: "#3d1466", "stroke-width": 0.6 }));
        if (solid.has(name) && ch === ".") {
          cellsLayer.append(s("path", { d: `M${x},${y + CELL}L${x + CELL},${y}M${x},${y + 5}L${x + 5},${y}M${x + 5},${y + CELL}L${x + CELL},${y + 5}`, stroke: "#5b6068", "stroke-width": 0.5 }));
        }
        const age = obs.ages[name];
        if (age !== undefined) {
          const dir = DOWN_BY_TURN[(((turn - age - 1) % 4) + 4) % 4];
          marksLayer.append(ageMark(x, y, age, dir));
        }
      }
    }
    for (let i = 0; i <= COLS; i += 1) cellsLayer.append(s("path", { d: `M${-50 + i * CELL},-100V100`, stroke: "#c5ced8", "stroke-width": 0.25 }));
    for (let i = 0; i <= ROWS; i += 1) cellsLayer.append(s("path", { d: `M-50,${-100 + i * CELL}H50`, stroke: "#c5ced8", "stroke-width": 0.25 }));
    drawTargets(obs, view);
  }

  function cellTarget(cell, actions, text) {
    const { x, y } = xy(cell);
    const g = s("g", { class: "cell-target", dataset: { cell: `${LETTERS[cell.col]}${cell.row + 1}` } },
      s("rect", { class: "cell-hit", x: x + 0.4, y: y + 0.4, width: CELL - 0.8, height: CELL - 0.8, rx: 1.2 }));
    if (text) {
      const t = s("text", { x: x + 5, y: y + 5, class: "depth-label", "text-anchor": "middle", "dominant-baseline": "central" }, text);
      textLabels.push(t);
      g.append(t);
    }
    targets.append(g);
    ctx.offer(g, actions);
  }

  function drawTargets(obs, view) {
    const legal = view.legal.map((entry) => entry.action);
    for (const action of legal.filter((a) => a.startsWith("start "))) cellTarget(parseCell(action.slice(6)), [action], "");
    const drills = legal.filter((a) => a.startsWith("drill ")).map((a) => Number(a.slice(6)));
    if (!drills.length || !obs.player) return;
    const [dx, dy] = DOWN[obs.down];
    const here = parseCell(obs.player);
    for (const k of drills) {
      const cell = { col: here.col + dx * k, row: here.row + dy * k };
      cellTarget(cell, [`drill ${k}`], k === 0 ? "" : String(k));
    }
  }

  function place(obs, animate, events) {
    const turnAngle = (obs.turn - 1) * 90;
    const path = animate ? playerPath(events, lastPlayer) : null;
    spin.style.transition = angle === null || !animate ? "none" : "";
    // The card turns after the drill and the fall, and before the next turn's fall.
    const delay = path?.rotateAt ? `${path.rotateAt}ms` : "0ms";
    spin.style.transitionDelay = delay;
    angle = turnAngle;
    spin.style.transform = `rotate(${angle}deg)`;
    for (const t of textLabels) {
      t.style.transitionDelay = delay;
      t.style.transform = `rotate(${-angle}deg)`;
    }
    if (obs.player) {
      player.style.transform = centre(parseCell(obs.player));
      player.style.display = "";
      if (path && path.frames.length > 1 && !prefersReducedMotion()) {
        player.animate(path.frames.map((f) => ({ transform: f.transform, offset: f.at / path.total })),
          { duration: path.total, easing: "linear" });
      }
    } else {
      player.style.display = "none";
    }
    lastPlayer = obs.player ? parseCell(obs.player) : null;
    fit();
    if (obs.player && phone.matches) keepInView(player, animate && !prefersReducedMotion() ? path : null);
    if (!animate) requestAnimationFrame(() => { spin.style.transition = ""; });
  }

  /** Crop the drawing to the board as it lies this turn on a phone (see the module's note). */
  function fit() {
    if (angle === null) return;
    const sideways = (((angle / 90) % 2) + 2) % 2 === 1;
    if (!phone.matches) {
      svg.setAttribute("viewBox", SQUARE_VIEW);
      delete svg.dataset.orient;
      return;
    }
    svg.setAttribute("viewBox", sideways ? SIDEWAYS_VIEW : UPRIGHT_VIEW);
    svg.dataset.orient = sideways ? "sideways" : "upright";
    if (!sideways) return;
    // Centre the player (or the board) in the scrolling box: its map point turned with the board.
    const { x, y } = lastPlayer ? xy(lastPlayer) : { x: -5, y: -5 };
    const rad = (angle * Math.PI) / 180;
    const turned = (x + CELL / 2) * Math.cos(rad) - (y + CELL / 2) * Math.sin(rad);
    requestAnimationFrame(() => {
      const width = scroller.scrollWidth;
      scroller.scrollLeft = Math.max(0, ((turned + 112) / 224) * width - scroller.clientWidth / 2);
    });
  }
  phone.addEventListener?.("change", fit);

  function flash(events) {
    if (prefersReducedMotion()) return;
    for (const event of events) {
      if (!["collapse", "capture", "drill"].includes(event.kind)) continue;
      for (const index of event.data.cells || []) {
        const { x, y } = xy({ col: index % COLS, row: Math.floor(index / COLS) });
        const colour = event.kind === "collapse" ? "#c81d25" : event.kind === "capture" ? "#8e44ad" : "#1f6fd1";
        const r = s("rect", { x, y, width: CELL, height: CELL, fill: colour, opacity: 0 });
        marksLayer.append(r);
        r.animate([{ opacity: 0.75 }, { opacity: 0 }], { duration: 900, easing: "ease-out" }).finished.then(() => r.remove(), () => {});
      }
    }
  }

  return {
    label,
    keyFor(action) {
      return action.startsWith("drill ") ? action.slice(6) : null;
    },
    status(obs) {
      const where = obs.player ? `you are at ${obs.player}` : "you start above row 1";
      const phase = { start: "pick the square to start from", drill: "drill 0-3 spaces", won: "won", lost: "lost" }[obs.phase] ?? obs.phase;
      return `Turn ${obs.turn} · ${where} · boost spaces left: ${obs.boosts_left} · ${phase}`;
    },
    render(view) {
      const obs = view.observation;
      const key = obs.board.join("");
      if (key !== boardKey) {
        boardKey = key;
        drawStatic(obs);
      }
      drawCells(obs, view);
      place(obs, view.animate && lastTurn !== null, view.events);
      if (view.animate) flash(view.events);
      lastTurn = obs.turn;
    },
  };
}

/** On a phone the upright board is taller than the screen: once the board has turned (after the
 * move's animation `path`, or at once when nothing moves), the player's square is brought to the
 * middle of what the actions pinned at the top leave in view (playtable.css), if it is not in view. */
function keepInView(marker, path) {
  const delay = path ? Math.max(path.total, path.rotateAt + 450) + 50 : 0;
  setTimeout(() => {
    const box = marker.getBoundingClientRect();
    // At the game's end the page brings its end screen into view instead (frame_parts.bringIntoView).
    if (!box.width || document.querySelector(".end-screen")) return;
    const pinned = document.querySelector(".actions-panel")?.getBoundingClientRect().height ?? 0;
    const top = Math.max(pinned, document.querySelector(".actions-panel")?.getBoundingClientRect().bottom ?? 0);
    if (box.top >= top && box.bottom <= window.innerHeight) return;
    window.scrollBy({ top: (box.top + box.bottom) / 2 - (pinned + window.innerHeight) / 2, behavior: "instant" });
  }, delay);
}

function legendList() {
  const swatch = (...children) => s("svg", { viewBox: "0 0 10 10", "aria-hidden": "true" }, ...children);
  const item = (svgEl, text) => {
    const li = document.createElement("li");
    li.append(svgEl, ` ${text}`);
    return li;
  };
  const ul = document.createElement("ul");
  ul.className = "rotator-legend";
  ul.append(
    item(swatch(s("rect", { width: 10, height: 10, fill: "#9c6b3f" })), "land"),
    item(swatch(s("rect", { width: 10, height: 10, fill: "#7a4a2a" }), s("circle", { cx: 5, cy: 5, r: 2.2, fill: "#e9d8ff" })), "control node"),
    item(swatch(s("rect", { width: 10, height: 10, fill: "none", stroke: "#6b2fa0", "stroke-dasharray": "2 1" })), "node territory"),
    item(swatch(s("rect", { width: 10, height: 10, fill: "#7d838b" })), "collapsed rock"),
    item(swatch(ageMark(0, 0, 0, "south")), "touched this turn"),
    item(swatch(ageMark(0, 0, 1, "west")), "1 line: last turn"),
    item(swatch(ageMark(0, 0, 2, "north")), "2 lines: collapses next turn"),
    item(swatch(s("circle", { cx: 5, cy: 5, r: 3.6, fill: "#1f4f9a" })), "you"),
    item(swatch(s("rect", { y: 7, width: 10, height: 3, fill: "#5b7fa6" })), "start edge (row 1)"),
    item(swatch(s("rect", { y: 7, width: 10, height: 3, fill: "#1d8a3a" })), "goal edge (row 20)"));
  return ul;
}
