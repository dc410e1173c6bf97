// Star Dice's canvas drawing (the seed's table software, iterations 1-9, made readable for a
// newcomer in issue 30): the glass frame (lit in the colour of the fleet whose turn it is, seed
// brainstorm 18) round the touch surface; each die drawn as what it is, the outline of its kind
// (d20 a hexagon with its facets, d12 a pentagon, d10 a kite, d8 a diamond, d6 a square, d4 a
// triangle) in its fleet's colour (the seed's white Federation and red Klingon sets), its rolled
// face inside it when it fits, else beside it; the Borg die a black cube with a green grid;
// torpedo stones small discs of their fleet's colour; connections as lines, closed formations
// filled (each a different colour, none of them a fleet's), open strings white; each shape's
// points as a tag in its owner's colour; a faint range ring round every moving die; the logo
// on an empty table; and the aim of a throw: where a lone die would stop, how far it may
// stray, and the throw's strength. Every label (faces, tags) is placed where it covers no other
// label and no other piece. Pure drawing: positions and the layout come from stardice.js (and
// stardice_live.js, which shares it).

export const TABLE = { width: 1.0, depth: 0.75, frame: 0.06 };
/** The formation engine's default connect range (seed iteration 1: "about a quarter of the screen"). */
export const CONNECT_RANGE = 0.25;
/** The fleets: white Federation dice, red Klingon dice (Final Rules, Materials Included). */
export const FLEET_STYLE = [
  { body: "#f4f1e8", edge: "#5d5a52", ink: "#15151a", facet: "rgba(0,0,0,0.28)", glow: "#ffffff" },
  { body: "#d3222a", edge: "#4a0508", ink: "#ffffff", facet: "rgba(255,255,255,0.35)", glow: "#ff3b3b" },
];
export const OWNER_COLOURS = [FLEET_STYLE[0].body, FLEET_STYLE[1].body];
const BORG_STYLE = { body: "#07110b", grid: "#3ddc66", ink: "#7dff9e" };
const NEUTRAL_TAG = { body: "#59606e", ink: "#ffffff" };
/** Formation fills (seed iteration 2: closed shapes "colored and different from each other");
 *  neither white nor red, so a formation is never taken for a fleet. */
export const FORMATION_FILLS = ["#f5c542", "#b57cff", "#42e0d0", "#9be15d", "#ff9f43", "#4da3ff", "#ff8fd0", "#c9a27e"];
const RADIUS = { d4: 0.014, d6: 0.013, d8: 0.014, d10: 0.015, d12: 0.016, d20: 0.017, borg: 0.018, stone: 0.012 };
/** Drawn a little larger than the real dice, and never smaller than this many pixels. */
const GROW = 1.3;
const MIN_RADIUS = 8;
/** A face is written inside its die when the die is drawn at least this large (pixels). */
const INSIDE = 10.5;

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

export function kindOf(id) {
  if (id === "borg") return "borg";
  if (id === "blank") return "blank";
  const name = id.split(".")[1] ?? id;
  return /^t\d*$/.test(name) ? "stone" : name.replace(/[a-z]+$/, "");
}

export function ownerOf(id) {
  if (id === "borg" || id === "blank") return null;
  return id.startsWith("F.") ? 0 : id.startsWith("K.") ? 1 : null;
}

/** The drawn radius of a piece of `kind` at `scale` pixels a table width. */
export function bodyRadius(kind, scale) {
  return Math.max(MIN_RADIUS, (RADIUS[kind === "blank" ? "d6" : kind] ?? 0.015) * scale * GROW);
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

/** The corners of a kind's outline round (cx, cy), radius r: what a die of that kind looks like
 *  from above, as the usual dice icons draw it. */
export function outline(kind, cx, cy, r) {
  const ring = (n, start, rx = r, ry = r) => Array.from({ length: n }, (_, i) => {
    const a = start + (i * 2 * Math.PI) / n;
    return [cx + rx * Math.cos(a), cy + ry * Math.sin(a)];
  });
  switch (kind) {
    case "d4": return ring(3, -Math.PI / 2, r * 1.1, r * 1.1);
    case "d6": case "blank": case "borg": return ring(4, Math.PI / 4, r * 1.2, r * 1.2);
    case "d8": return ring(4, -Math.PI / 2, r * 0.95, r * 1.2);
    case "d10": return [[cx, cy - r * 1.2], [cx + r, cy - r * 0.1], [cx, cy + r * 0.9], [cx - r, cy - r * 0.1]];
    case "d12": return ring(5, -Math.PI / 2, r * 1.1, r * 1.1);
    case "d20": return ring(6, 0, r * 1.12, r * 1.12);
    default: return ring(24, 0);
  }
}

function polygon(ctx, points) {
  ctx.beginPath();
  points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
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
    polygon(ctx, pts);
    ctx.fillStyle = colour;
    ctx.globalAlpha = key === highlight ? 0.5 : 0.26;
    ctx.fill();
    ctx.globalAlpha = 0.95;
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(key === highlight ? 3 : 1.5, scale * 0.003);
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

/** One piece's body where it lies (`px`, `py` in pixels): the outline of its kind in its
 *  fleet's colour, the Borg die's cube, a torpedo stone; `alpha` < 1 draws a ghost. */
export function drawBody(ctx, kind, owner, px, py, r, alpha = 1) {
  ctx.save();
  ctx.globalAlpha = alpha;
  if (kind === "borg") {
    const side = r * 1.7;
    ctx.fillStyle = BORG_STYLE.body;
    ctx.shadowColor = BORG_STYLE.grid;
    ctx.shadowBlur = alpha < 1 ? 0 : 6;
    ctx.fillRect(px - side / 2, py - side / 2, side, side);
    ctx.shadowBlur = 0;
    ctx.strokeStyle = BORG_STYLE.grid;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(px - side / 2, py - side / 2, side, side);
    ctx.globalAlpha = alpha * 0.55; // the Borg cube's grid
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const k of [1, 2]) {
      ctx.moveTo(px - side / 2 + (k * side) / 3, py - side / 2);
      ctx.lineTo(px - side / 2 + (k * side) / 3, py + side / 2);
      ctx.moveTo(px - side / 2, py - side / 2 + (k * side) / 3);
      ctx.lineTo(px + side / 2, py - side / 2 + (k * side) / 3);
    }
    ctx.stroke();
  } else if (kind === "stone") {
    ctx.beginPath();
    ctx.arc(px, py, r * 0.85, 0, 2 * Math.PI);
    ctx.fillStyle = owner === null ? "#9aa0a6" : FLEET_STYLE[owner].body;
    ctx.fill();
    ctx.strokeStyle = "#9aa0a6";
    ctx.lineWidth = 2;
    ctx.stroke();
  } else if (kind === "blank") {
    polygon(ctx, outline("d6", px, py, r));
    ctx.fillStyle = "#8c8f99";
    ctx.fill();
    ctx.setLineDash([3, 2]);
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = 1;
    ctx.stroke();
  } else {
    const style = FLEET_STYLE[owner ?? 0];
    const pts = outline(kind, px, py, r);
    polygon(ctx, pts);
    ctx.fillStyle = style.body;
    ctx.fill();
    ctx.strokeStyle = style.edge;
    ctx.lineWidth = 1.5;
    ctx.stroke();
    // the facets that tell a d20 from a d12 at a glance: an inner triangle / pentagon, a d8's waist
    ctx.strokeStyle = style.facet;
    ctx.lineWidth = 1;
    if (kind === "d20") {
      polygon(ctx, outline("d4", px, py + r * 0.08, r * 0.72));
      ctx.stroke();
    } else if (kind === "d12") {
      polygon(ctx, outline("d12", px, py + r * 0.05, r * 0.55));
      ctx.stroke();
    } else if (kind === "d8") {
      ctx.beginPath();
      ctx.moveTo(pts[3][0], pts[3][1]);
      ctx.lineTo(pts[1][0], pts[1][1]);
      ctx.stroke();
    }
  }
  ctx.restore();
}

function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function area(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

// Where a face may go round its die, in order of preference (directions of the label's nearest
// corner or edge from the die's centre): the four corners, the sides, above and below; in rings
// ever further out when the nearest ones are full (a die in the middle of a cluster), joined to
// its die by a thin line.
const PLACES = [[1, -1], [-1, -1], [1, 1], [-1, 1], [1, 0], [-1, 0], [0, -1], [0, 1],
  [2, -1], [-2, -1], [2, 1], [-2, 1], [1, -2], [-1, -2], [1, 2], [-1, 2]];
const RINGS = [1, 1.8, 2.7, 3.8, 5.2];

/**
 * Draw the pieces on the table, `[{id, x, y, value}]` (a value of null shows "?", `moving`
 * pieces show no face), with `tags` (`[{x, y, text, owner, alpha}]` in table units: a shape's
 * points), each label where it covers no other label and no other piece. Returns the boxes
 * written: `{bodies: [{id, kind, px, py, r}], labels: [{kind: "face"|"tag", text, x, y, w, h}]}`.
 */
export function drawPieces(ctx, view, pieces, tags = []) {
  const { toPx, scale } = view.fit;
  const bodies = pieces.map((p) => {
    const kind = kindOf(p.id);
    const [px, py] = toPx(p.x, p.y);
    return { ...p, kind, owner: ownerOf(p.id), px, py, r: bodyRadius(kind, scale) };
  });
  for (const b of bodies) drawBody(ctx, b.kind, b.owner, b.px, b.py, b.r);
  const boxOf = (b) => {
    const half = b.kind === "borg" ? b.r * 0.85 : b.r;
    return { x: b.px - half, y: b.py - half, w: 2 * half, h: 2 * half };
  };
  const bodyBoxes = bodies.map((b) => ({ body: b, box: boxOf(b) }));
  const labels = [];
  const bounds = { x: 0, y: 0, w: view.width, h: view.height };
  const inside = (box) => box.x >= bounds.x && box.y >= bounds.y && box.x + box.w <= bounds.w && box.y + box.h <= bounds.h;
  const cost = (box, self) => labels.reduce((s, l) => s + area(box, l) * 4, 0)
    + bodyBoxes.reduce((s, { body, box: bb }) => s + (body === self ? 0 : area(box, bb)), 0)
    + (inside(box) ? 0 : box.w * box.h);

  // 1. faces that fit inside their own die
  const outside = [];
  for (const b of bodies) {
    if (b.kind === "stone" || b.kind === "blank" || b.moving) continue;
    const text = b.value === null || b.value === undefined ? "?" : String(b.value);
    const size = Math.round(Math.min(b.r * 0.95, 18));
    ctx.font = `bold ${size}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width;
    const box = { x: b.px - w / 2, y: b.py - size / 2 + (b.kind === "d20" ? 1 : 0), w, h: size };
    const fits = b.r >= INSIDE && w <= b.r * 1.5
      && !bodyBoxes.some(({ body, box: bb }) => body !== b && overlaps(box, bb));
    if (!fits) { outside.push({ b, text }); continue; }
    const ink = b.kind === "borg" ? BORG_STYLE.ink : FLEET_STYLE[b.owner ?? 0].ink;
    writeText(ctx, text, box, size, ink, null);
    labels.push({ kind: "face", id: b.id, text, ...box });
  }
  // 2. the shapes' tags, on their shape or as near it as is free
  for (const tag of tags) {
    const [ax, ay] = toPx(tag.x, tag.y);
    const size = Math.max(11, Math.round(Math.min(scale * 0.03, 18)));
    ctx.font = `bold ${size}px system-ui, sans-serif`;
    const w = ctx.measureText(tag.text).width + size * 0.8;
    const h = size * 1.4;
    const candidates = [[0, 0]];
    for (const ring of [0.8, 1.6, 2.4, 3.4]) {
      for (const [dx, dy] of PLACES.slice(0, 8)) candidates.push([dx * ring * w * 0.6, dy * ring * h]);
    }
    let best = null;
    for (const [dx, dy] of candidates) {
      const box = { x: ax + dx - w / 2, y: ay + dy - h / 2, w, h };
      const c = cost(box, null);
      if (!best || c < best.c) best = { box, c };
      if (c === 0) break;
    }
    const style = tag.owner === 0 || tag.owner === 1 ? FLEET_STYLE[tag.owner] : NEUTRAL_TAG;
    ctx.save();
    ctx.globalAlpha = tag.alpha ?? 1;
    const mx = best.box.x + w / 2;
    const my = best.box.y + h / 2;
    if (Math.hypot(mx - ax, my - ay) > h) { // moved off its shape: a line back to it
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.lineTo(Math.min(Math.max(ax, best.box.x), best.box.x + w), Math.min(Math.max(ay, best.box.y), best.box.y + h));
      ctx.strokeStyle = tag.colour ?? "rgba(255,255,255,0.7)";
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(ax, ay, 2.5, 0, 2 * Math.PI);
      ctx.fillStyle = tag.colour ?? "#ffffff";
      ctx.fill();
    }
    roundRect(ctx, best.box, h / 2);
    ctx.fillStyle = style.body;
    ctx.fill();
    ctx.strokeStyle = tag.colour ?? "rgba(0,0,0,0.6)";
    ctx.lineWidth = tag.colour ? 2.5 : 1;
    ctx.stroke();
    ctx.fillStyle = style.ink;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(tag.text, best.box.x + w / 2, best.box.y + h / 2 + 0.5);
    ctx.restore();
    labels.push({ kind: "tag", text: tag.text, ...best.box });
  }
  // 3. the other faces beside their die, ring after ring until a free place is found
  for (const { b, text } of outside) {
    const size = Math.max(11, Math.round(Math.min(b.r * 1.05, 16)));
    ctx.font = `bold ${size}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width + 2;
    let best = null;
    for (const ring of RINGS) {
      for (const [dx, dy] of PLACES) {
        const gap = b.r * 1.05 * ring + 1;
        const box = {
          x: dx > 0 ? b.px + gap * Math.min(dx, 1.6) : dx < 0 ? b.px - gap * Math.min(-dx, 1.6) - w : b.px - w / 2,
          y: dy > 0 ? b.py + gap * 0.55 * dy : dy < 0 ? b.py + gap * 0.55 * dy - size : b.py - size / 2,
          w, h: size, ring,
        };
        const c = cost(box, b);
        if (!best || c < best.c) best = { box, c };
        if (c === 0) break;
      }
      if (best.c === 0) break;
    }
    const box = best.box;
    if (box.ring > 1) {
      const tx = Math.min(Math.max(b.px, box.x), box.x + box.w);
      const ty = Math.min(Math.max(b.py, box.y), box.y + box.h);
      const along = b.r / Math.max(1, Math.hypot(tx - b.px, ty - b.py)); // from the die's edge
      ctx.save();
      ctx.beginPath();
      ctx.moveTo(b.px + (tx - b.px) * along, b.py + (ty - b.py) * along);
      ctx.lineTo(tx, ty);
      ctx.strokeStyle = "rgba(255,255,255,0.65)";
      ctx.lineWidth = 1;
      ctx.stroke();
      ctx.restore();
    }
    writeText(ctx, text, box, size, "#ffffff", "rgba(0,0,0,0.75)");
    labels.push({ kind: "face", id: b.id, text, x: box.x, y: box.y, w: box.w, h: box.h });
  }
  return { bodies: bodies.map(({ id, kind, px, py, r }) => ({ id, kind, px, py, r })), labels };
}

function writeText(ctx, text, box, size, ink, halo) {
  ctx.save();
  ctx.font = `bold ${size}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2 + 0.5;
  if (halo) {
    ctx.lineWidth = 3;
    ctx.strokeStyle = halo;
    ctx.strokeText(text, cx, cy);
  }
  ctx.fillStyle = ink;
  ctx.fillText(text, cx, cy);
  ctx.restore();
}

function roundRect(ctx, box, radius) {
  const r = Math.min(radius, box.h / 2, box.w / 2);
  ctx.beginPath();
  ctx.moveTo(box.x + r, box.y);
  ctx.arcTo(box.x + box.w, box.y, box.x + box.w, box.y + box.h, r);
  ctx.arcTo(box.x + box.w, box.y + box.h, box.x, box.y + box.h, r);
  ctx.arcTo(box.x, box.y + box.h, box.x, box.y, r);
  ctx.arcTo(box.x, box.y, box.x + box.w, box.y, r);
  ctx.closePath();
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
