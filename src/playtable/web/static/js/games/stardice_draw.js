// Star Dice's canvas drawing (the seed's table software, iterations 1-9): the glass frame and the
// touch surface, each die a star in its owner's colour with its rolled face, the Borg die a green
// cube, torpedoes grey stones, connections as lines, closed formations filled (each a different
// colour), open strings white, each formation's point value fading in and out on it, a faint
// range ring around every moving die, the Star Dice logo on an empty table and the aim of a
// throw being dragged. Pure drawing: positions and the layout come from stardice.js.

export const TABLE = { width: 1.0, depth: 0.75, frame: 0.06 };
/** The formation engine's default connect range (seed iteration 1: "about a quarter of the screen"). */
export const CONNECT_RANGE = 0.25;
export const OWNER_COLOURS = ["#4da3ff", "#ff5b4f"]; // Federation blue, Klingon red
const BORG_COLOUR = "#3ddc66";
const FORMATION_FILLS = ["#f5c542", "#b57cff", "#42e0d0", "#ff8fd0", "#9be15d", "#ff9f43", "#7fb2ff", "#e0e0e0"];
const RADIUS = { d4: 0.014, d6: 0.013, d8: 0.014, d10: 0.015, d12: 0.016, d20: 0.017, borg: 0.018, stone: 0.012 };

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

function kindOf(id) {
  if (id === "borg") return "borg";
  if (id === "blank") return "d6";
  const name = id.split(".")[1] ?? id;
  return name.startsWith("t") ? "stone" : name.replace(/[a-z]+$/, "");
}

export function ownerOf(id) {
  if (id === "borg" || id === "blank") return null;
  return id.startsWith("F.") ? 0 : 1;
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

export function drawBackground(ctx, view) {
  const { toPx, scale } = view.fit;
  ctx.fillStyle = "#0b0d16";
  ctx.fillRect(0, 0, view.width, view.height);
  const [fx, fy] = toPx(-TABLE.frame, -TABLE.frame);
  ctx.fillStyle = "#3a3f4b"; // the glass frame, where throws start
  ctx.fillRect(fx, fy, (TABLE.width + 2 * TABLE.frame) * scale, (TABLE.depth + 2 * TABLE.frame) * scale);
  const [sx, sy] = toPx(0, 0);
  const grad = ctx.createRadialGradient(sx + scale / 2, sy + scale * 0.37, scale * 0.05, sx + scale / 2, sy + scale * 0.37, scale * 0.7);
  grad.addColorStop(0, "#141a33");
  grad.addColorStop(1, "#05060d");
  ctx.fillStyle = grad;
  ctx.fillRect(sx, sy, TABLE.width * scale, TABLE.depth * scale);
  // a few fixed background stars so the surface reads as space (deterministic, not random)
  ctx.fillStyle = "rgba(255,255,255,0.35)";
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
  ctx.font = `${Math.round(scale * 0.025)}px system-ui, sans-serif`;
  ctx.fillStyle = "#aab";
  ctx.fillText(hint, cx, cy + scale * 0.13);
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

/** Closed formations filled (a colour each), their edges, and the open strings in white. */
export function drawLayout(ctx, view, pos, layout, hidden) {
  const { toPx, scale } = view.fit;
  const at = (id) => {
    const xy = objectAt(pos, id, hidden);
    return xy ? toPx(...xy) : null;
  };
  (layout.formations || []).forEach((ids, i) => {
    const pts = ids.map(at);
    if (pts.some((p) => !p)) return;
    ctx.beginPath();
    pts.forEach(([x, y]) => ctx.lineTo(x, y));
    ctx.closePath();
    ctx.fillStyle = FORMATION_FILLS[i % FORMATION_FILLS.length];
    ctx.globalAlpha = 0.28;
    ctx.fill();
    ctx.globalAlpha = 0.9;
    ctx.strokeStyle = FORMATION_FILLS[i % FORMATION_FILLS.length];
    ctx.lineWidth = Math.max(1.5, scale * 0.003);
    ctx.stroke();
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

export function drawRangeRing(ctx, view, x, y) {
  const { toPx, scale } = view.fit;
  const [px, py] = toPx(x, y);
  const [sx, sy] = toPx(0, 0);
  ctx.save();
  ctx.beginPath(); // only on the touch surface: dice connect there, not on the frame
  ctx.rect(sx, sy, TABLE.width * scale, TABLE.depth * scale);
  ctx.clip();
  ctx.beginPath();
  ctx.arc(px, py, CONNECT_RANGE * scale, 0, 2 * Math.PI);
  ctx.strokeStyle = "rgba(160,200,255,0.18)";
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

/** The pieces on the table, `[{id, x, y, value}]`: every body first, then each die's face. */
export function drawPieces(ctx, view, pieces) {
  const bodies = pieces.map((p) => ({ ...p, ...drawBody(ctx, view, p.id, p.x, p.y) }));
  const taken = []; // the boxes of the faces written so far
  for (const body of bodies) {
    if (body.kind === "stone") continue;
    const text = body.value === null || body.value === undefined ? "?" : String(body.value);
    taken.push(drawFace(ctx, body, text, bodies, taken));
  }
}

/** One piece's body: a star (dice), a cube (the Borg die) or a stone (torpedo); where it is. */
function drawBody(ctx, view, id, x, y) {
  const { toPx, scale } = view.fit;
  const [px, py] = toPx(x, y);
  const kind = kindOf(id);
  const r = Math.max(5, (RADIUS[kind] ?? 0.015) * scale * 1.25);
  const owner = ownerOf(id);
  ctx.save();
  if (kind === "borg") {
    ctx.fillStyle = BORG_COLOUR;
    ctx.strokeStyle = "#0a3";
    ctx.lineWidth = 2;
    ctx.fillRect(px - r, py - r, 2 * r, 2 * r);
    ctx.strokeRect(px - r, py - r, 2 * r, 2 * r);
  } else if (kind === "stone") {
    ctx.beginPath();
    ctx.arc(px, py, r * 0.8, 0, 2 * Math.PI);
    ctx.fillStyle = "#9aa0a6";
    ctx.fill();
  } else {
    starPath(ctx, px, py, r * 1.2, kind === "d20" ? 6 : 5);
    ctx.fillStyle = owner === null ? "#f0f0f0" : OWNER_COLOURS[owner];
    ctx.fill();
    ctx.strokeStyle = "rgba(0,0,0,0.6)";
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  ctx.restore();
  return { kind, px, py, r };
}

// Where a face may go around its piece, in order of preference (unit offsets of the text box's
// nearest corner or edge from the piece's centre): top right as it always was, then the other
// corners, the sides, above and below; in a ring twice and three times as far when the nearest
// ring is full (a die in the middle of a cluster), joined to its die by a thin line.
const FACE_PLACES = [[1, -1], [-1, -1], [1, 1], [-1, 1], [1, 0], [-1, 0], [0, -1], [0, 1]];
const FACE_RINGS = [1, 2, 3];

/** Write a die's face beside it, at the first place that covers no face already written and
 * no other piece (in a cluster, faces would otherwise sit on each other); its box. */
function drawFace(ctx, body, text, bodies, taken) {
  const { px, py, r } = body;
  const size = Math.round(Math.max(10, r * 1.1));
  ctx.save();
  ctx.font = `bold ${size}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width;
  const boxAt = ([dx, dy], ring) => {
    const gap = r * 1.2 * ring;
    return {
      x: dx > 0 ? px + gap : dx < 0 ? px - gap - w : px - w / 2,
      y: dy > 0 ? py + gap * 0.6 : dy < 0 ? py - gap * 0.6 - size : py - size / 2,
      w, h: size, ring,
    };
  };
  const free = (box) => !taken.some((t) => overlaps(box, t)) &&
    !bodies.some((b) => b !== body && overlaps(box, { x: b.px - b.r, y: b.py - b.r, w: 2 * b.r, h: 2 * b.r }));
  const places = FACE_RINGS.flatMap((ring) => FACE_PLACES.map((place) => boxAt(place, ring)));
  const box = places.find(free) ?? places[0];
  if (box.ring > 1) {
    const [tx, ty] = [Math.min(Math.max(px, box.x), box.x + w), Math.min(Math.max(py, box.y), box.y + size)];
    const along = r / Math.hypot(tx - px, ty - py); // from the die's edge, not across its face
    ctx.beginPath();
    ctx.moveTo(px + (tx - px) * along, py + (ty - py) * along);
    ctx.lineTo(tx, ty);
    ctx.strokeStyle = "rgba(255,255,255,0.7)";
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 3;
  ctx.strokeStyle = "rgba(0,0,0,0.6)";
  ctx.strokeText(text, box.x, box.y + size / 2);
  ctx.fillStyle = "#fff";
  ctx.fillText(text, box.x, box.y + size / 2);
  ctx.restore();
  return box;
}

function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** A formation's points at its centre; `alpha` fades it in and out. */
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

/** The aim of a throw being dragged: from the press point along the drag, its speed written. */
export function drawAim(ctx, view, aim) {
  const { toPx, scale } = view.fit;
  const [ax, ay] = toPx(aim.x0, aim.y0);
  const [bx, by] = toPx(aim.x1, aim.y1);
  ctx.save();
  ctx.strokeStyle = aim.ok ? "#f5c542" : "#ff5b4f";
  ctx.lineWidth = 3;
  ctx.setLineDash([8, 6]);
  ctx.beginPath();
  ctx.moveTo(ax, ay);
  ctx.lineTo(bx, by);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = ctx.strokeStyle;
  ctx.font = `${Math.round(scale * 0.025)}px system-ui, sans-serif`;
  ctx.fillText(aim.ok ? `${aim.speed.toFixed(2)} widths/s` : "start on the grey frame", bx + 8, by - 8);
  ctx.restore();
}

export function drawBanner(ctx, view, text) {
  const { toPx, scale } = view.fit;
  const [cx, cy] = toPx(TABLE.width / 2, -TABLE.frame / 2);
  ctx.save();
  ctx.font = `bold ${Math.round(scale * 0.03)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillStyle = "#fff";
  ctx.fillText(text, cx, cy);
  ctx.restore();
}
