// Star Dice's canvas drawing (the seed's table software, iterations 1-9, made readable for a
// newcomer): the glass frame (lit in the colour of the fleet whose turn it is, seed brainstorm
// 18) round the touch surface; connections as lines, closed formations filled (each a different
// colour, none of them a fleet's), open strings white; a faint range ring round every moving
// die; the logo on an empty table; the aim of a throw: where a lone die would stop, how far it
// may stray, and the throw's strength; the live table's fading points and banners. The pieces
// and their labels are drawn by stardice_labels.js (`drawPieces`, exported here too), each
// piece's look by stardice_dice.js. Pure drawing: positions and the layout come from
// stardice_canvas.js (and stardice_live.js, which shares it).

import { bodyRadius, drawBody, FLEET_STYLE, polygon } from "./stardice_dice.js";

export { bodyRadius, drawBody, FLEET_STYLE, kindOf, outline, ownerOf } from "./stardice_dice.js";
export { drawPieces } from "./stardice_labels.js";

export const TABLE = { width: 1.0, depth: 0.75, frame: 0.06 };
/** The formation engine's default connect range (seed iteration 1: "about a quarter of the screen"). */
export const CONNECT_RANGE = 0.25;
export const OWNER_COLOURS = [FLEET_STYLE[0].body, FLEET_STYLE[1].body];
/** Formation fills (seed iteration 2: closed shapes "colored and different from each other");
 *  neither white nor red, so a formation is never taken for a fleet. */
/** A shape nobody scores (a tie, the Borg die unbeaten): grey, faintly filled, dashed. */
export const NOBODY_COLOUR = "#8d939e";
export const FORMATION_FILLS = ["#f5c542", "#b57cff", "#42e0d0", "#9be15d", "#ff9f43", "#4da3ff", "#ff8fd0", "#c9a27e"];

/** The transform from table units to canvas pixels, fitted to the canvas with the frame. */
export function fit(width, height) {
  const w = TABLE.width + 2 * TABLE.frame;
  const d = TABLE.depth + 2 * TABLE.frame;
  const scale = Math.min(width / w, height / d);
  const ox = (width - w * scale) / 2 + TABLE.frame * scale;
  const oy = (height - d * scale) / 2 + TABLE.frame * scale;
  return {
    scale,
    toPx: (x, y) => [ox + x * scale, oy + y * scale],
    toTable: (px, py) => [(px - ox) / scale, (py - oy) / scale],
  };
}

export function onFrame(x, y) {
  const f = TABLE.frame;
  const onTable = x >= -f && x <= TABLE.width + f && y >= -f && y <= TABLE.depth + f;
  const onSurface = x > 0 && x < TABLE.width && y > 0 && y < TABLE.depth;
  return onTable && !onSurface;
}

/** The point of the frame's middle line nearest to (x, y): where a throw pressed near the frame starts. */
export function nearestFramePoint(x, y) {
  const f = TABLE.frame / 2;
  const cx = Math.min(Math.max(x, -f), TABLE.width + f);
  const cy = Math.min(Math.max(y, -f), TABLE.depth + f);
  const sides = [
    [cx, -f, Math.abs(y + f)], [cx, TABLE.depth + f, Math.abs(y - TABLE.depth - f)],
    [-f, cy, Math.abs(x + f)], [TABLE.width + f, cy, Math.abs(x - TABLE.width - f)],
  ];
  sides.sort((a, b) => a[2] - b[2]);
  return [sides[0][0], sides[0][1]];
}

function starPath(ctx, cx, cy, r, points = 5) {
  ctx.beginPath();
  for (let i = 0; i < points * 2; i += 1) {
    const rr = i % 2 === 0 ? r : r * 0.45;
    const a = -Math.PI / 2 + (i * Math.PI) / points;
    ctx.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
  }
  ctx.closePath();
}

/** The table: the glass frame, lit in `turn`'s colour (a seat, or null), and the touch surface. */
export function drawBackground(ctx, view, turn = null, invite = false) {
  const { toPx, scale } = view.fit;
  ctx.fillStyle = "#0b0d16";
  ctx.fillRect(0, 0, view.width, view.height);
  const [fx, fy] = toPx(-TABLE.frame, -TABLE.frame);
  const fw = (TABLE.width + 2 * TABLE.frame) * scale;
  const fh = (TABLE.depth + 2 * TABLE.frame) * scale;
  ctx.fillStyle = invite ? "#4a5061" : "#3a3f4b"; // the glass frame, where throws start
  ctx.fillRect(fx, fy, fw, fh);
  if (turn === 0 || turn === 1) {
    ctx.save();
    ctx.strokeStyle = FLEET_STYLE[turn].glow;
    ctx.lineWidth = invite ? 4 : 2.5;
    ctx.strokeRect(fx + ctx.lineWidth / 2, fy + ctx.lineWidth / 2, fw - ctx.lineWidth, fh - ctx.lineWidth);
    ctx.restore();
  }
  const [sx, sy] = toPx(0, 0);
  const grad = ctx.createRadialGradient(sx + scale / 2, sy + scale * 0.37, scale * 0.05, sx + scale / 2, sy + scale * 0.37, scale * 0.7);
  grad.addColorStop(0, "#141a33");
  grad.addColorStop(1, "#05060d");
  ctx.fillStyle = grad;
  ctx.fillRect(sx, sy, TABLE.width * scale, TABLE.depth * scale);
  // a few fixed background stars so the surface reads as space (deterministic, not random)
  ctx.fillStyle = "rgba(255,255,255,0.3)";
  for (let i = 0; i < 60; i += 1) {
    const x = ((i * 0.6180339) % 1) * TABLE.width;
    const y = ((i * 0.4142135 + 0.17) % 1) * TABLE.depth;
    const [px, py] = toPx(x, y);
    ctx.fillRect(px, py, 1.2, 1.2);
  }
}

export function drawLogo(ctx, view, now, hint = "Drag from the grey frame onto the table to throw") {
  const { toPx, scale } = view.fit;
  const [cx, cy] = toPx(TABLE.width / 2, TABLE.depth / 2);
  const pulse = 0.85 + 0.15 * Math.sin(now / 700);
  ctx.save();
  ctx.globalAlpha = pulse;
  starPath(ctx, cx, cy - scale * 0.09, scale * 0.07);
  ctx.fillStyle = "#f5c542";
  ctx.fill();
  ctx.font = `bold ${Math.round(scale * 0.09)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillStyle = "#ffffff";
  ctx.fillText("STAR DICE", cx, cy + scale * 0.05);
  if (hint) {
    ctx.font = `${Math.max(11, Math.round(scale * 0.028))}px system-ui, sans-serif`;
    ctx.fillStyle = "#c5c9d6";
    ctx.fillText(hint, cx, cy + scale * 0.13);
  }
  ctx.restore();
}

/** Where the layout's object `id` is, in table units: a piece's position or, for dice the table
 *  sees as one (the seed's "detected as a single die": ids joined by "+"), the middle of its
 *  pieces; null when a piece is not on the table or is `hidden` (moving). */
export function objectAt(pos, id, hidden = new Set()) {
  const parts = id.split("+");
  if (parts.some((p) => !pos.has(p) || hidden.has(p))) return null;
  const x = parts.reduce((sum, p) => sum + pos.get(p)[0], 0) / parts.length;
  const y = parts.reduce((sum, p) => sum + pos.get(p)[1], 0) / parts.length;
  return [x, y];
}

/** The key of a formation (its objects, sorted): the same shape keeps its colour and its tag. */
export function shapeKey(objects) {
  return [...objects].sort().join(",");
}

/** Closed formations filled (the colour `colourOf(key)` gives, else one each in turn), their
 *  edges, and the open strings in white; `highlight` (a shape key) is drawn brighter. */
export function drawLayout(ctx, view, pos, layout, hidden, colourOf = null, highlight = null) {
  const { toPx, scale } = view.fit;
  const at = (id) => {
    const xy = objectAt(pos, id, hidden);
    return xy ? toPx(...xy) : null;
  };
  (layout.formations || []).forEach((ids, i) => {
    const pts = ids.map(at);
    if (pts.some((p) => !p)) return;
    const key = shapeKey(ids);
    const colour = colourOf?.(key) ?? FORMATION_FILLS[i % FORMATION_FILLS.length];
    const nobodys = colour === NOBODY_COLOUR;
    polygon(ctx, pts);
    ctx.fillStyle = colour;
    ctx.globalAlpha = key === highlight ? 0.5 : nobodys ? 0.12 : 0.3;
    ctx.fill();
    ctx.globalAlpha = 0.95;
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(key === highlight ? 3 : 1.5, scale * 0.003);
    if (nobodys) ctx.setLineDash([6, 4]);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
  });
  ctx.strokeStyle = "rgba(255,255,255,0.85)";
  ctx.lineWidth = Math.max(1, scale * 0.002);
  for (const [a, b] of layout.edges || []) {
    const pa = at(a);
    const pb = at(b);
    if (!pa || !pb) continue;
    ctx.beginPath();
    ctx.moveTo(...pa);
    ctx.lineTo(...pb);
    ctx.stroke();
  }
}

export function drawRangeRing(ctx, view, x, y, range = CONNECT_RANGE, dashed = false) {
  const { toPx, scale } = view.fit;
  const [px, py] = toPx(x, y);
  const [sx, sy] = toPx(0, 0);
  ctx.save();
  ctx.beginPath(); // only on the touch surface: dice connect there, not on the frame
  ctx.rect(sx, sy, TABLE.width * scale, TABLE.depth * scale);
  ctx.clip();
  ctx.beginPath();
  ctx.arc(px, py, range * scale, 0, 2 * Math.PI);
  ctx.strokeStyle = dashed ? "rgba(245,197,66,0.45)" : "rgba(160,200,255,0.2)";
  if (dashed) ctx.setLineDash([4, 5]);
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

/** A formation's points at its centre; `alpha` fades it in and out (the live table's numbers). */
export function drawPoints(ctx, view, x, y, text, alpha) {
  const { toPx, scale } = view.fit;
  const [px, py] = toPx(x, y);
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.font = `bold ${Math.round(scale * 0.04)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 4;
  ctx.strokeStyle = "rgba(0,0,0,0.7)";
  ctx.strokeText(text, px, py);
  ctx.fillStyle = "#fff";
  ctx.fillText(text, px, py);
  ctx.restore();
}

/**
 * The aim of a throw: `{x0, y0, x1, y1, ok, kind, owner, spreadDeg, spreadSpeed, strength, off,
 * word}` in table units: a dashed line from the start on the frame to where a lone die would
 * stop, the die's ghost there with its connect range, the area it may stray into (the roll's
 * noise), and a strength meter at the start.
 */
export function drawAim(ctx, view, aim, range = CONNECT_RANGE) {
  const { toPx, scale } = view.fit;
  const [ax, ay] = toPx(aim.x0, aim.y0);
  const [bx, by] = toPx(aim.x1, aim.y1);
  const colour = !aim.ok ? "#ff5b4f" : aim.off ? "#ff9f43" : "#f5c542";
  ctx.save();
  if (aim.ok && aim.strength > 0) {
    // where it may stop: the heading's spread and the speed's (a distance goes as the speed squared)
    const dist = Math.hypot(bx - ax, by - ay);
    const heading = Math.atan2(by - ay, bx - ax);
    const spread = ((aim.spreadDeg ?? 0) * Math.PI) / 180;
    const near = dist * (1 - (aim.spreadSpeed ?? 0)) ** 2;
    const far = dist * (1 + (aim.spreadSpeed ?? 0)) ** 2;
    ctx.beginPath();
    ctx.arc(ax, ay, far, heading - spread, heading + spread);
    ctx.arc(ax, ay, near, heading + spread, heading - spread, true);
    ctx.closePath();
    ctx.fillStyle = aim.off ? "rgba(255,159,67,0.22)" : "rgba(245,197,66,0.2)";
    ctx.fill();
    ctx.strokeStyle = aim.off ? "rgba(255,159,67,0.7)" : "rgba(245,197,66,0.6)";
    ctx.lineWidth = 1;
    ctx.stroke();
    drawRangeRing(ctx, view, aim.x1, aim.y1, range, true);
    drawBody(ctx, aim.kind ?? "d6", aim.owner ?? null, bx, by, bodyRadius(aim.kind ?? "d6", scale), 0.55);
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = 3;
  ctx.setLineDash([8, 6]);
  ctx.beginPath();
  ctx.moveTo(ax, ay);
  ctx.lineTo(bx, by);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(ax, ay, 5, 0, 2 * Math.PI);
  ctx.fillStyle = colour;
  ctx.fill();
  // the strength meter beside the start
  const size = Math.max(12, Math.round(scale * 0.026));
  ctx.font = `bold ${size}px system-ui, sans-serif`;
  const text = aim.word ?? "";
  const w = Math.max(70, ctx.measureText(text).width + 10);
  let mx = ax - w / 2;
  mx = Math.min(Math.max(mx, 4), view.width - w - 4);
  let my = ay + (ay > view.height / 2 ? -size * 2.6 : size * 0.9);
  my = Math.min(Math.max(my, 4), view.height - size * 2 - 4);
  ctx.fillStyle = "rgba(0,0,0,0.7)";
  ctx.fillRect(mx, my, w, size * 2 + 4);
  if (aim.ok) {
    ctx.fillStyle = "#333";
    ctx.fillRect(mx + 4, my + size + 4, w - 8, size * 0.6);
    ctx.fillStyle = aim.off ? "#ff9f43" : aim.strength > 0.66 ? "#ff5b4f" : aim.strength > 0.33 ? "#f5c542" : "#9be15d";
    ctx.fillRect(mx + 4, my + size + 4, (w - 8) * Math.min(1, aim.strength), size * 0.6);
  }
  ctx.fillStyle = colour;
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(text, mx + 5, my + 2);
  ctx.restore();
}

export function drawBanner(ctx, view, text) {
  const { toPx, scale } = view.fit;
  const [cx, cy] = toPx(TABLE.width / 2, -TABLE.frame / 2);
  ctx.save();
  ctx.font = `bold ${Math.max(11, Math.round(scale * 0.03))}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 3;
  ctx.strokeStyle = "rgba(0,0,0,0.6)";
  ctx.strokeText(text, cx, cy);
  ctx.fillStyle = "#fff";
  ctx.fillText(text, cx, cy);
  ctx.restore();
}
