// The Star Dice page's scoring display, under the table: the fleets
// (each side's colour, the ships still to throw as icons, the ones out), and the scoring shape
// by shape, each scoring shape with a letter that also tags it on the table when a battle is
// scored (stardice_canvas.js draws the tags from `lettered` and `tagText`), what it is worth and
// to whom, each fleet's dice and their sum; lone dice, the dice out, the battles so far and the
// war's total. Pointing at a row brightens its shape on the table (the state's `highlight`).

import { h } from "../util.js";
import { FORMATION_FILLS, NOBODY_COLOUR, OWNER_COLOURS, shapeKey } from "./stardice_draw.js";
import { icon } from "./stardice_controls.js";
import { soloMode } from "./stardice_prompt.js";
import { Cap } from "./stardice_state.js";
import { FLEET_SETS, FLEETS, kindOf, LETTERS, ownerOf, piecesWords, playerName, scoredWords, shapeNoun, sumWords } from "./stardice_words.js";


/** A scored table's shapes as a layout to draw: formations filled, strings as open lines. */
export function layoutOf(score) {
  const formations = [];
  const edges = [];
  for (const shape of score?.shapes || []) {
    if (shape.kind === "formation") formations.push(shape.objects);
    for (let i = 0; i + 1 < shape.objects.length; i += 1) edges.push([shape.objects[i], shape.objects[i + 1]]);
    if (shape.kind === "formation" && shape.objects.length > 2) edges.push([shape.objects[shape.objects.length - 1], shape.objects[0]]);
  }
  return { formations, edges };
}

/** Each formation's colour, by its key: its owner's fleet colour in `score` (grey: nobody's);
 *  a shape the score does not hold yet (or a system where each fleet scores its own dice) one
 *  colour each in turn. */
export function colours(layout, score = null) {
  const owners = new Map((score?.shapes || []).map((shape) => [shapeKey(shape.objects), shape.owner]));
  const map = new Map();
  (layout.formations || []).forEach((ids, i) => {
    const key = shapeKey(ids);
    const owner = owners.get(key);
    const fill = owner === 0 || owner === 1 ? OWNER_COLOURS[owner]
      : owners.has(key) && !(score.shapes || []).some((sh) => String(sh.note).startsWith("x")) ? NOBODY_COLOUR
        : FORMATION_FILLS[i % FORMATION_FILLS.length];
    map.set(key, fill);
  });
  return map;
}

/** The shapes that score (formations and strings), each with its letter; `system` is the
 *  scoring system in force (TableState.system). */
export function lettered(score, system) {
  return (score?.shapes || []).filter((shape) => shape.kind !== "single" || system === "multiplier")
    .map((shape, i) => ({ shape, letter: LETTERS[i % LETTERS.length], key: shapeKey(shape.objects) }));
}

/** A shape's tag on the table: its letter (when scored), whose it is, what it is worth and the
 *  sums that decided it ("A: Federation 3 pts, 25 to 6"; "B: nobody, tie 8 to 8"). */
export function tagText(shape, letter, system) {
  const pts = shape.points + (shape.bonus || 0);
  const t = shape.totals || [];
  let worth;
  if (system === "multiplier") {
    worth = `×${shape.points}`;
  } else if (shape.owner === 0 || shape.owner === 1) {
    const sums = t.length === 2 ? `, ${t[shape.owner]} to ${t[1 - shape.owner]}` : "";
    worth = `${FLEETS[shape.owner]} ${pts} pt${pts === 1 ? "" : "s"}${sums}`;
  } else {
    worth = /^tie/.test(shape.note || "") ? `nobody, tie ${t[0]} to ${t[1]}`
      : /Borg/.test(shape.note || "") ? "nobody, Borg unbeaten" : `${pts} pt${pts === 1 ? "" : "s"}`;
  }
  return letter ? `${letter}: ${worth}` : worth;
}

/** Each fleet in a line: its colour, the ships still to throw as icons, the ones out. */
export function drawFleets(state) {
  const { frozen, obs, viewer } = state;
  const shownObs = frozen ? frozen.obs : obs;
  if (!shownObs) return;
  const solo = soloMode(shownObs);
  const seats = solo && solo !== "objective2" ? [0] : [0, 1];
  state.ui.fleets.replaceChildren(...seats.map((seat) => {
    const hand = shownObs.hands[seat] || [];
    const out = (shownObs.eliminated || []).filter((id) => id.startsWith(seat ? "K." : "F."));
    const who = seat === viewer ? `You · ${FLEETS[seat]}` : playerName(seat, state.names());
    return h("p", { class: "stardice-fleet", dataset: { seat: String(seat) } },
      h("span", { class: "stardice-chip", dataset: { seat: String(seat) } }, `${who} (${FLEET_SETS[seat]})`),
      " ", hand.length ? `${hand.length} to throw: ` : "no ships left to throw",
      ...hand.map((name) => icon(kindOf(`X.${name}`), seat)),
      out.length ? h("span", { class: "stardice-out" }, ` · out: ${out.map((id) => kindOf(id)).join(", ")}`) : "");
  }));
}

/** One shape of the scoring in words: its name, what it is worth to whom, each fleet's dice. */
function shapeRow(state, { shape, letter, key }, values, fills, solo) {
  const viewer = state.viewer;
  const noun = shapeNoun(shape.kind, shape.objects.length);
  const owner = shape.owner === undefined ? null : shape.owner;
  const multiplier = state.system() === "multiplier";
  const best = state.system().startsWith("max");
  let head;
  if (multiplier) {
    head = `${Cap(noun)}: each fleet scores its dice ×${shape.points}`;
  } else {
    const pts = shape.points;
    const bonus = shape.bonus ? ` + ${shape.bonus} Borg bonus` : "";
    head = `${Cap(noun)}: ${pts} point${pts === 1 ? "" : "s"}${bonus} to ${owner === null ? "nobody" : state.you(owner)}`;
  }
  const dice = shape.dice?.length ? shape.dice : shape.objects.flatMap((o) => o.split("+"));
  const sides = (solo ? [0] : [0, 1]).map((seat) => {
    const mine = dice.filter((id) => ownerOf(id) === seat);
    if (!mine.length) return null;
    const who = seat === viewer ? "you" : FLEETS[seat];
    const total = shape.totals?.[seat] ?? 0;
    if (multiplier) {
      const sum = mine.reduce((acc, id) => acc + (values.get(id) ?? 0), 0);
      return `${who}: ${sumWords(mine, values, sum)} ×${shape.points} = ${total}`;
    }
    return `${who}: ${best ? `highest ${total} (${sumWords(mine, values, total).split(" = ")[0]})` : sumWords(mine, values, total)}`;
  }).filter(Boolean);
  if (dice.includes("borg")) {
    const beaten = shape.owner !== null && shape.owner !== undefined;
    sides.push(`the Borg die: ${values.get("borg") ?? "?"}${multiplier ? "" : beaten ? " (beaten)" : ""}`);
  }
  if (dice.includes("blank")) sides.push("the blank d6: 0");
  const why = shape.note && !shape.note.startsWith("Borg beaten") && !/^x\d/.test(shape.note)
    ? ` (${shape.note.replace("the Borg is not beaten", "the Borg die is not beaten").replace(/^tie:/, "a tie:")})` : "";
  const chip = h("span", { class: "stardice-letter", dataset: { owner: owner === null ? "none" : String(owner) } }, letter);
  const fill = fills.get(key);
  if (FORMATION_FILLS.includes(fill)) chip.classList.add(`fill-${FORMATION_FILLS.indexOf(fill)}`);
  const li = h("li", { class: "stardice-shape", tabindex: "0", dataset: { key, owner: owner === null ? "none" : String(owner) } },
    chip, " ", h("b", {}, head), why, h("br"), h("span", { class: "stardice-sums" }, sides.join(" · ")));
  li.addEventListener("pointerenter", () => { state.highlight = key; });
  li.addEventListener("pointerleave", () => { state.highlight = null; });
  li.addEventListener("focus", () => { state.highlight = key; });
  li.addEventListener("blur", () => { state.highlight = null; });
  return li;
}

/** The scoring panel: the shapes row by row, lone dice, the dice out, the battles, the war. */
export function drawScore(state) {
  const { obs, view, frozen, viewer } = state;
  const names = state.names();
  const mode = soloMode(obs);
  const solo = Boolean(mode) && mode !== "objective2"; // objective2's shapes mix white and red
  const score = state.shownScore();
  const values = frozen ? frozen.values : new Map((obs.table || []).map((pc) => [pc.id, pc.value]));
  const fills = colours(frozen ? layoutOf(frozen.score) : obs.layout ?? { formations: [] }, score);
  const rows = lettered(score, state.system()).map((entry) => shapeRow(state, entry, values, fills, solo));
  const lone = state.system() === "multiplier" ? [] : (score.shapes || []).filter((shape) => shape.kind === "single");
  const shownObs = frozen ? frozen.obs : obs;
  const battles = (obs.battle_points || []).map((p, i) => `${i + 1}: ${p[0]}–${p[1]}`).join(", ");
  const title = frozen ? `${frozen.event.kind === "round_scored" ? `Round ${frozen.event.data.round}` : `Battle ${frozen.event.data.battle}`} scoring`
    : view.terminal ? "Final scoring" : "On the table now";
  state.ui.scorePanel.replaceChildren(
    h("h3", {}, title),
    h("p", { class: "stardice-points" }, mode === "objective2" ? `White ${score.points[0]} · red ${score.points[1]}`
      : mode === "solo" ? `Points ${score.points[0]}`
      : solo ? `Points ${score.points[0]} (to beat: ${frozen ? frozen.event.data.target : obs.target})`
      : `${playerName(0, names)} ${score.points[0]} · ${playerName(1, names)} ${score.points[1]}`
      + (frozen || view.terminal ? "" : " if the battle ended now")),
    mode ? "" : h("p", { class: "stardice-legend" }, "On the table: the number on or beside each die is the face it "
      + "shows (the black and green die is the Borg die); each shape is filled in the colour of the fleet that scores it "
      + "(dashed grey: nobody), and its tag says whose it is, its points and the two fleets' sums."),
    h("ol", { class: "stardice-shapes" }, rows.length ? rows
      : [h("li", { class: "stardice-none" }, "No shape yet: dice within reach of each other link up; a closed loop of three or more scores.")]),
    lone.length ? h("p", { class: "stardice-singles" }, `Lone dice score nothing: ${piecesWords(lone.flatMap((sh) => sh.objects), viewer)}.`) : "",
    shownObs.eliminated?.length ? h("p", { class: "stardice-eliminated" },
      `Out of this ${mode ? "round" : "battle"} (knocked off the table or discarded): ${piecesWords(shownObs.eliminated, viewer)}.`) : "",
    battles && !mode ? h("p", { class: "stardice-battles" }, `Battles so far: ${battles}`) : "",
    obs.war_format === "rounds" ? h("p", { class: "stardice-war" }, `War: Federation ${obs.war[0]} · Klingon ${obs.war[1]}: after ${obs.war_rounds} battles the higher total wins (each battle's winner alone adds its points).`)
    : obs.war_format === "best_of" ? h("p", { class: "stardice-war" }, `Battles won: Federation ${obs.battles_won[0]} · Klingon ${obs.battles_won[1]}: the first to win ${Math.floor(obs.war_rounds / 2) + 1} of ${obs.war_rounds} wins the war.`)
    : obs.war_target ? h("p", { class: "stardice-war" }, `War: Federation ${obs.war[0]} · Klingon ${obs.war[1]} (to ${obs.war_target}): the first past ${obs.war_target} wins.`) : "");
}

/** The last battle's scoring for the end screen, so the answer to "why?" is in view beside who
 *  won: each lettered shape (as on the table and in the panel) in words. */
export function endSummary(state) {
  const score = state.obs?.last_score;
  if (!score || soloMode(state.obs) || state.system() === "multiplier") return null;
  const shapes = lettered(score, state.system());
  const names = state.names();
  return h("section", { class: "stardice-end-scoring", "aria-label": "Final scoring" },
    h("h3", {}, `Final scoring: ${playerName(0, names)} ${score.points[0]} · ${playerName(1, names)} ${score.points[1]}`),
    shapes.length ? h("ul", {}, shapes.map(({ shape, letter }) => h("li", { dataset: { owner: String(shape.owner ?? "none") } },
      scoredWords(shape, letter, state.viewer, names))))
      : h("p", {}, "No shape stood at the end: nobody scores."));
}
