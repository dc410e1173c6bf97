// Drawing pieces of the Angry Troll page: playing cards (face up, face down, remembered), the
// troll, and the geometry of the bridge in the board's SVG coordinates.

import { s } from "../util.js";

export const CARD_W = 70;
export const CARD_H = 100;
export const STACK_STEP = 7; // each card under the top one shows this much of its edge
/** Two layouts: wide (flight stacks and deck beside the bridge) and compact for narrow screens
 * (them below the river, the banks cropped), so that the cards stay big enough to tap. */
export const LAYOUTS = {
  wide: { viewBox: "0 0 1040 540", upper: { x: 835, y: 140 }, lower: { x: 835, y: 330 }, deck: { x: 930, y: 235 } },
  compact: { viewBox: "20 0 750 715", upper: { x: 100, y: 580 }, lower: { x: 260, y: 580 }, deck: { x: 440, y: 580 } },
};
export const VIEW = { width: 1040, height: 715 };
const ROW_TOP = [330, 140]; // lower row, upper row: y of a single card's top edge
const FIRST_X = 115;
const COLUMN_W = 100;

const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = "CDHS";

/** Slot index (row * 6 + column; row 0 lower) of {row, position}. */
export function slotOf(where) {
  return (where.row === "upper" ? 6 : 0) + where.position - 1;
}

export function slotName(slot) {
  return `${slot < 6 ? "lower" : "upper"} ${(slot % 6) + 1}`;
}

/** Top-left corner of the bottom card of the stack at `slot`. */
export function slotXY(slot) {
  const row = slot < 6 ? 0 : 1;
  return { x: FIRST_X + (slot % 6) * COLUMN_W, y: ROW_TOP[row] };
}

/** Top-left corner of the card at `depth` (0 = bottom) of a stack. */
export function cardXY(slot, depth) {
  const { x, y } = slotXY(slot);
  return { x, y: y - depth * STACK_STEP };
}

/** "7H" -> {rank, suit, symbol, red, pretty, name}; an event's card number works too. */
export function cardInfo(card) {
  const text = typeof card === "number" ? RANKS[card % 13] + SUITS[Math.floor(card / 13)] : String(card);
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  const words = { A: "ace", J: "jack", Q: "queen", K: "king" }[rank] ?? rank;
  return {
    text, rank, suit, symbol: SUIT_SYMBOLS[suit], red: suit === "H" || suit === "D",
    pretty: `${rank}${SUIT_SYMBOLS[suit]}`, name: `${words} of ${SUIT_NAMES[suit]}`,
  };
}

/** Shared SVG definitions: the card back pattern and the glow of an awake brick. */
export function defs() {
  return s("defs", {},
    s("pattern", { id: "card-back", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 10, height: 10, fill: "#3a4f8f" }),
      s("rect", { width: 5, height: 10, fill: "#4a62a8" })),
    s("filter", { id: "awake-glow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
      s("feDropShadow", { dx: 0, dy: 0, stdDeviation: 6, "flood-color": "#ffb300", "flood-opacity": 0.95 })));
}

/** One card at (x, y). `card` is a text like "7H" or null (unknown); `faceUp` shows its face. */
export function cardElement(card, faceUp, x, y, { width = CARD_W, height = CARD_H, awake = false } = {}) {
  const g = s("g", { class: `card${faceUp ? " face-up" : " face-down"}${awake ? " awake" : ""}`,
    transform: `translate(${x} ${y})` });
  const inner = s("g", { class: "card-inner" });
  g.append(inner);
  if (faceUp && card) {
    const info = cardInfo(card);
    const colour = info.red ? "#c0182b" : "#111";
    inner.append(
      s("rect", { width, height, rx: 7, fill: "#fffdf7", stroke: awake ? "#e09a00" : "#555", "stroke-width": awake ? 3 : 1.2,
        filter: awake ? "url(#awake-glow)" : null }),
      s("text", { x: 7, y: 22, fill: colour, class: "card-rank" }, info.rank),
      s("text", { x: 7, y: 40, fill: colour, class: "card-suit-small" }, info.symbol),
      s("text", { x: width / 2 + 6, y: height * 0.72, fill: colour, class: "card-suit", "text-anchor": "middle" }, info.symbol),
      s("title", {}, `${info.name}${awake ? ", awake" : ""}`));
  } else {
    inner.append(
      s("rect", { width, height, rx: 7, fill: "url(#card-back)", stroke: "#1f2b55", "stroke-width": 1.5 }),
      s("rect", { x: 6, y: 6, width: width - 12, height: height - 12, rx: 4, fill: "none", stroke: "#cfd8ff", "stroke-width": 1, opacity: 0.6 }));
    if (card) {
      // A face-down brick the player saw before: the seed's player would remember it.
      const info = cardInfo(card);
      inner.append(
        s("rect", { x: 4, y: 4, width: 34, height: 22, rx: 4, fill: "#fffdf7", opacity: 0.92 }),
        s("text", { x: 21, y: 20, "text-anchor": "middle", fill: info.red ? "#c0182b" : "#111", class: "card-memo" }, info.pretty),
        s("title", {}, `dormant ${info.name} (you saw it before)`));
    } else {
      inner.append(s("title", {}, "a dormant brick you have not seen"));
    }
  }
  return g;
}

/** The troll: a round green figure that stands on a brick (its feet at y = 0, centred on x = 0). */
export function trollFigure() {
  return s("g", { class: "troll-figure", "aria-hidden": "true", transform: "scale(0.78)" },
    s("ellipse", { cx: 0, cy: -6, rx: 26, ry: 8, fill: "#000", opacity: 0.25 }),
    s("rect", { x: -16, y: -26, width: 11, height: 22, rx: 4, fill: "#3f6b2a" }),
    s("rect", { x: 5, y: -26, width: 11, height: 22, rx: 4, fill: "#3f6b2a" }),
    s("ellipse", { cx: 0, cy: -48, rx: 27, ry: 28, fill: "#5d9b3c", stroke: "#2d4f1c", "stroke-width": 2.5 }),
    s("path", { d: "M-27 -52 q-14 6 -12 20 M27 -52 q14 6 12 20", stroke: "#2d4f1c", "stroke-width": 7, fill: "none", "stroke-linecap": "round" }),
    s("circle", { cx: 0, cy: -84, r: 18, fill: "#6fb447", stroke: "#2d4f1c", "stroke-width": 2.5 }),
    s("path", { d: "M-14 -96 l-8 -12 l12 6 M14 -96 l8 -12 l-12 6", fill: "#e8dcc0", stroke: "#5a4a2a", "stroke-width": 1.5 }),
    s("path", { d: "M-10 -92 l8 4 M10 -92 l-8 4", stroke: "#1b1b1b", "stroke-width": 3, "stroke-linecap": "round" }),
    s("circle", { cx: -6, cy: -85, r: 3, fill: "#fff" }), s("circle", { cx: 6, cy: -85, r: 3, fill: "#fff" }),
    s("circle", { cx: -6, cy: -85, r: 1.5, fill: "#000" }), s("circle", { cx: 6, cy: -85, r: 1.5, fill: "#000" }),
    s("path", { d: "M-8 -74 q8 -6 16 0", stroke: "#1b1b1b", "stroke-width": 2.5, fill: "none" }));
}

/** River, sky and the two banks behind the bridge. */
export function scenery() {
  const bankLeft = FIRST_X - 25;
  const bankRight = FIRST_X + 6 * COLUMN_W - 5;
  return s("g", { class: "scenery", "aria-hidden": "true" },
    s("rect", { width: VIEW.width, height: VIEW.height, fill: "#dcecf7" }),
    s("rect", { y: 470, width: VIEW.width, height: 70, fill: "#6aa6cf" }),
    s("rect", { y: 540, width: VIEW.width, height: VIEW.height - 540, fill: "#efe7d6" }),
    s("path", { d: "M0 490 q40 -8 80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0 t80 0",
      stroke: "#eaf4fb", "stroke-width": 2, fill: "none", opacity: 0.7 }),
    s("path", { d: `M0 200 H${bankLeft - 10} q12 0 14 20 V540 H0 Z`, fill: "#8a6a43" }),
    s("path", { d: `M0 200 H${bankLeft - 10}`, stroke: "#4f8a34", "stroke-width": 10 }),
    s("path", { d: `M${bankRight + 30} 200 q-12 0 -14 20 V540 H${bankRight + 95} V200 Z`, fill: "#8a6a43" }),
    s("path", { d: `M${bankRight + 30} 200 H${bankRight + 95}`, stroke: "#4f8a34", "stroke-width": 10 }),
    s("text", { x: bankLeft / 2 + 2, y: 525, class: "bank-label", "text-anchor": "middle" }, "left bank"),
    s("text", { x: bankRight + 62, y: 525, class: "bank-label", "text-anchor": "middle" }, "right bank"));
}

/** x of the left and right bank, where fleeing bricks go. */
export const BANK_X = { left: FIRST_X - 90, right: FIRST_X + 6 * COLUMN_W + 30 };

/** Two small footprints: the troll stepped here this turn and may not step here again. */
export function footprints(x, y) {
  return s("g", { class: "footprints", transform: `translate(${x} ${y})` },
    s("ellipse", { cx: 0, cy: 0, rx: 4, ry: 6.5, transform: "rotate(-12)" }),
    s("ellipse", { cx: 11, cy: -5, rx: 4, ry: 6.5, transform: "rotate(12 11 -5)" }),
    s("title", {}, "The troll stepped here this turn: it may not step here again"));
}
