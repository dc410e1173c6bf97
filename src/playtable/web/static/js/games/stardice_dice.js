// What each Star Dice piece looks like on the canvas: the outline of its kind as dice icons
// draw them (d20 a hexagon with its facets, d12 a pentagon, d10 a kite, d8 a diamond, d6 a
// square, d4 a triangle) in its fleet's colour (the seed's white Federation and red Klingon
// sets, Final Rules), the Borg die a black cube with a green grid, torpedo stones small discs of
// their fleet's colour, the solitaire's blank d6 grey and dashed; and its drawn size. Used by
// stardice_draw.js (the table), stardice_labels.js (the pieces and their faces) and the ship
// buttons' icons (stardice_controls.js).

/** The fleets: white Federation dice, red Klingon dice (Final Rules, Materials Included). */
export const FLEET_STYLE = [
  { body: "#f4f1e8", edge: "#5d5a52", ink: "#15151a", facet: "rgba(0,0,0,0.28)", glow: "#ffffff" },
  { body: "#d3222a", edge: "#4a0508", ink: "#ffffff", facet: "rgba(255,255,255,0.35)", glow: "#ff3b3b" },
];
export const BORG_STYLE = { body: "#07110b", grid: "#3ddc66", ink: "#7dff9e" };
const RADIUS = { d4: 0.014, d6: 0.013, d8: 0.014, d10: 0.015, d12: 0.016, d20: 0.017, borg: 0.018, stone: 0.012 };
/** Drawn a little larger than the real dice, and never smaller than this many pixels. */
const GROW = 1.3;
const MIN_RADIUS = 8;

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

export function polygon(ctx, points) {
  ctx.beginPath();
  points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
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
