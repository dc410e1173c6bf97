// The controls of the moment under the Star Dice table, in a row that keeps its
// height so the table never moves: the ships in hand, one button per kind with its icon and
// count (enabled on this page's turn), the Borg die when it is to be rolled, a torpedo, "Call
// odd" / "Call even", "Hold fire", and "Next battle" when a battle is frozen. Also the pieces'
// small SVG pictures (`icon`), which the fleets' lines use too.

import { h, s } from "../util.js";
import { FLEET_STYLE, outline } from "./stardice_draw.js";
import { choiceOf } from "./stardice_state.js";
import { kindOf } from "./stardice_words.js";

const KIND_ORDER = ["d20", "d12", "d10", "d8", "d6", "d4"];

/** A piece's small picture for a button or a list (SVG): its kind's outline in its fleet's colour. */
export function icon(kind, owner) {
  const size = 20;
  const c = size / 2;
  const r = kind === "borg" ? 6.5 : kind === "stone" ? 6 : 7.5;
  const svg = s("svg", { class: "stardice-icon", viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true" });
  if (kind === "borg") {
    svg.append(s("rect", { x: c - 8, y: c - 8, width: 16, height: 16, fill: "#07110b", stroke: "#3ddc66", "stroke-width": 1.5 }));
    for (const k of [1, 2]) {
      svg.append(s("line", { x1: c - 8 + (16 * k) / 3, y1: c - 8, x2: c - 8 + (16 * k) / 3, y2: c + 8, stroke: "#3ddc66", "stroke-width": 0.8 }));
      svg.append(s("line", { x1: c - 8, y1: c - 8 + (16 * k) / 3, x2: c + 8, y2: c - 8 + (16 * k) / 3, stroke: "#3ddc66", "stroke-width": 0.8 }));
    }
    return svg;
  }
  const style = FLEET_STYLE[owner ?? 0];
  if (kind === "stone") {
    svg.append(s("circle", { cx: c, cy: c, r, fill: style.body, stroke: "#777", "stroke-width": 1.5 }));
    return svg;
  }
  const points = outline(kind, c, c, r).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  svg.append(s("polygon", { points, fill: style.body, stroke: style.edge, "stroke-width": 1.3 }));
  return svg;
}

/** The row under the table for this moment: the call, holding fire, the ships, "Next battle". */
export function drawControls(state) {
  const { obs, view, frozen, ctx } = state;
  const { note, choices, pieceBar, nextBattle } = state.ui;
  note.textContent = note.textContent && !view?.yourTurn ? "" : note.textContent;
  choices.replaceChildren();
  pieceBar.replaceChildren();
  nextBattle.textContent = obs?.mode === "objective1" ? "Next round" : "Next battle";
  nextBattle.hidden = !frozen || Boolean(ctx.replay);
  if (!obs || frozen || view.terminal) return;
  const legal = new Set((view.legal || []).map((e) => e.action));
  if (view.yourTurn) {
    for (const call of ["odd", "even"]) {
      if (!legal.has(`call ${call}`)) continue;
      const button = h("button", { type: "button", class: "primary stardice-call" }, `Call ${call}`);
      choices.append(button);
      ctx.offer(button, [`call ${call}`]);
    }
    if (legal.has("hold")) {
      const button = h("button", { type: "button", class: "stardice-hold" }, "Hold fire");
      choices.append(button);
      ctx.offer(button, ["hold"]);
    }
  }
  drawPieceBar(state);
}

/** The buttons the ship bar offers now: the ships in hand (those throwable now enabled), then
 *  the Borg die or a torpedo when due; `choicesNow` are the choices the legal throws make. */
function shipOptions(state, choicesNow) {
  const { obs, viewer: seat } = state;
  const hand = obs.hands[seat] || [];
  const count = new Map();
  for (const name of hand) count.set(kindOf(`X.${name}`), (count.get(kindOf(`X.${name}`)) ?? 0) + 1);
  const options = [];
  if (obs.phase === "borg") {
    options.push({ choice: "roll borg", kind: "borg", text: "Borg die" });
    return options;
  }
  for (const kind of KIND_ORDER) {
    if (!count.has(kind)) continue;
    const n = count.get(kind);
    options.push({ choice: `roll ${kind}`, kind, text: kind, n });
    if (kind === "d6" && (state.params().slide_d6 ?? true) && obs.mode !== "objective1") {
      options.push({ choice: "slide d6", kind, text: "slide d6", n: null, slide: true });
    }
  }
  if (choicesNow.includes("slide d6") && !options.some((o) => o.choice === "slide d6")) {
    options.push({ choice: "slide d6", kind: "d6", text: "slide d6", slide: true });
  }
  if (choicesNow.includes("torpedo")) {
    options.push({ choice: "torpedo", kind: "stone", text: `torpedo (${obs.torpedoes_left?.[seat] ?? 0} left)` });
  }
  return options;
}

/** The ships' buttons; pressing one chooses what the next throw throws. */
export function drawPieceBar(state) {
  const heads = state.view?.yourTurn ? state.throwHeads() : [];
  const choicesNow = heads.map(choiceOf);
  if (!choicesNow.includes(state.selected)) {
    const selected = state.selected;
    const sameKind = choicesNow.find((c) => selected && c.split(" ")[1] === selected.split(" ")[1]);
    state.selected = sameKind ?? choicesNow[0] ?? selected;
  }
  const seat = state.viewer;
  if (seat === null || state.obs.phase === "call") return;
  state.ui.pieceBar.replaceChildren(...shipOptions(state, choicesNow).map((o) => {
    const head = heads.find((hd) => choiceOf(hd) === o.choice) ?? null;
    const on = head !== null && o.choice === state.selected;
    const what = o.slide ? "Slide a d6 (more precise)" : o.kind === "borg" ? "Roll the Borg die"
      : o.kind === "stone" ? "Fire a torpedo" : `Roll a ${o.kind}${o.n > 1 ? ` (${o.n} in hand)` : ""}`;
    return h("button", {
      type: "button",
      class: `stardice-piece${on ? " selected" : ""}${o.slide ? " slide" : ""}`,
      "aria-pressed": on ? "true" : "false",
      "aria-label": what,
      title: what,
      disabled: head === null || state.rolling(),
      dataset: { head: head ?? "", choice: o.choice },
      onClick: () => { state.selected = o.choice; state.ui.note.textContent = ""; drawPieceBar(state); },
    }, icon(o.kind, o.kind === "borg" ? null : seat), h("span", {}, o.text), o.n > 1 ? h("small", {}, `×${o.n}`) : "");
  }));
}
