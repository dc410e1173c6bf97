// The pieces on the Star Dice table and their labels: each die's body, its rolled face inside
// it when it fits, else beside it, and the shapes' tags ("6 pts", "A: 6 pts"), each label placed
// where it covers no other label and no other piece: faces inside their dice first, then the
// tags on their shapes or as near as is free, then the other faces (dice in a pile) ring after
// ring round their die, each a chip in its fleet's colours tied to its die's centre by a line in
// the fleet's colour, also at phone size. Pure drawing, for stardice_draw.js.

import { BORG_STYLE, bodyRadius, drawBody, FLEET_STYLE, kindOf, ownerOf } from "./stardice_dice.js";

const NEUTRAL_TAG = { body: "#59606e", ink: "#ffffff" };
/** A face is written inside its die when the die is drawn at least this large (pixels). */
const INSIDE = 10.5;

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
 * written: `{bodies: [{id, kind, px, py, r}], labels: [{kind: "face"|"tag", text, x, y, w, h}]}`; a
 * face outside its die also has `owner`, `colour` (its chip's) and `lead` (its line, {x1, y1} on
 * the die's centre, {x2, y2} on the chip's edge).
 */
export function drawPieces(ctx, view, pieces, tags = []) {
  const { toPx, scale } = view.fit;
  const bodies = pieces.map((p) => {
    const kind = kindOf(p.id);
    const [px, py] = toPx(p.x, p.y);
    return { ...p, kind, owner: ownerOf(p.id), px, py, r: bodyRadius(kind, scale) };
  });
  for (const b of bodies) drawBody(ctx, b.kind, b.owner, b.px, b.py, b.r);
  const placed = labelPlaces(ctx, view, bodies);
  const outside = writeInsideFaces(placed, bodies);
  for (const tag of tags) writeTag(placed, tag);
  writeOutsideFaces(ctx, outside.map(({ b, text }) => placeOutsideFace(placed, b, text)));
  return { bodies: bodies.map(({ id, kind, px, py, r }) => ({ id, kind, px, py, r })), labels: placed.labels };
}

/** The labels written so far and the cost of a new label's box: how much it covers of them (4
 *  times over), of the pieces other than its own `self`, and of the world off the canvas. */
function labelPlaces(ctx, view, bodies) {
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
  return { ctx, view, bodyBoxes, labels, cost };
}

/** 1. The faces that fit inside their own die, written; returns the others `[{b, text}]`. */
function writeInsideFaces(placed, bodies) {
  const { ctx, bodyBoxes, labels } = placed;
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
  return outside;
}

/** 2. A shape's tag, on its shape or as near it as is free (a line back to it when moved off). */
function writeTag(placed, tag) {
  const { ctx, view, labels, cost } = placed;
  const { toPx, scale } = view.fit;
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

/** 3. A face that did not fit inside its die (a die in a pile), beside it, ring after ring until
 *  a free place: its box, kept among the labels so the next face goes elsewhere. */
function placeOutsideFace(placed, b, text) {
  const { ctx, labels, cost } = placed;
  const size = Math.max(11, Math.round(Math.min(b.r * 1.05, 16)));
  ctx.font = `bold ${size}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width + size * 0.7;
  const h = Math.round(size * 1.25);
  let best = null;
  for (const ring of RINGS) {
    for (const [dx, dy] of PLACES) {
      const gap = b.r * 1.05 * ring + 3;
      const box = {
        x: dx > 0 ? b.px + gap * Math.min(dx, 1.6) : dx < 0 ? b.px - gap * Math.min(-dx, 1.6) - w : b.px - w / 2,
        y: dy > 0 ? b.py + gap * 0.55 * dy : dy < 0 ? b.py + gap * 0.55 * dy - h : b.py - h / 2,
        w, h,
      };
      const c = cost(box, b);
      if (!best || c < best.c) best = { box, c };
      if (c === 0) break;
    }
    if (best.c === 0) break;
  }
  const { box } = best;
  const style = faceStyle(b);
  // Tied to its die: a line in its fleet's colour from the die's centre to the nearest point
  // of its label, which is a chip of the fleet's colours (the Borg die's: black and green).
  const lead = { x1: b.px, y1: b.py, x2: Math.min(Math.max(b.px, box.x), box.x + box.w),
    y2: Math.min(Math.max(b.py, box.y), box.y + box.h) };
  const label = { kind: "face", id: b.id, text, ...box, owner: b.owner ?? null, colour: style.fill, lead, size };
  labels.push(label);
  return { label, style };
}

/** A piled die's face: its fleet's body colour and ink, edged for the dark table. */
function faceStyle(b) {
  if (b.kind === "borg") return { fill: BORG_STYLE.body, ink: BORG_STYLE.ink, line: BORG_STYLE.grid, edge: BORG_STYLE.grid };
  const fleet = FLEET_STYLE[b.owner ?? 0];
  return { fill: fleet.body, ink: fleet.ink, line: fleet.body, edge: fleet.edge };
}

/** The piled dice's faces: every leader line first, then every chip over them, then each
 *  leader's dot on its die's centre over everything (the one place that says "this die"). */
function writeOutsideFaces(ctx, faces) {
  ctx.save();
  ctx.lineCap = "round";
  for (const { label: { lead }, style } of faces) {
    for (const [width, colour] of [[4, "rgba(0,0,0,0.8)"], [2, style.line]]) {
      ctx.beginPath();
      ctx.moveTo(lead.x1, lead.y1);
      ctx.lineTo(lead.x2, lead.y2);
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.stroke();
    }
  }
  for (const { label, style } of faces) {
    roundRect(ctx, label, label.h / 2);
    ctx.fillStyle = style.fill;
    ctx.fill();
    ctx.strokeStyle = style.edge;
    ctx.lineWidth = 1.5;
    ctx.stroke();
    writeText(ctx, label.text, label, label.size, style.ink, null);
  }
  for (const { label: { lead }, style } of faces) {
    ctx.beginPath();
    ctx.arc(lead.x1, lead.y1, 3, 0, 2 * Math.PI);
    ctx.fillStyle = style.line;
    ctx.fill();
    ctx.strokeStyle = "rgba(0,0,0,0.85)";
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }
  ctx.restore();
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
