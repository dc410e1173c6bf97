// The live table's scoring beside the canvas (stardice_live.js): the war's points, each shape's
// sums and who scores it, the dice whose values are still to enter, and the contacts the table
// sees against the Surface's limit (It. 9). Each function redraws its boxes from one report.

import { h } from "../util.js";

const SIDE = ["Federation", "Klingon"];

export function drawContacts(r, contactsBox) {
  if (r.touch_limit === undefined) return;
  const full = r.touch_limit > 0 && r.contacts >= r.touch_limit;
  contactsBox.textContent = r.touch_limit > 0 ? `Contacts ${r.contacts}/${r.touch_limit}` : `Contacts ${r.contacts}`;
  contactsBox.classList.toggle("full", full);
  contactsBox.dataset.full = String(full);
}

export function drawScore(r, pointsBox, scorePanel) {
  pointsBox.textContent = `Federation ${r.points[0]} · Klingon ${r.points[1]}`;
  const rows = (r.shapes || []).map((shape) => {
    const who = shape.waiting?.length ? "undecided" : shape.owner === null ? "nobody" : SIDE[shape.owner];
    const bonus = shape.bonus ? `, Borg bonus ${shape.bonus}` : "";
    const note = shape.note ? ` (${shape.note})` : "";
    return h("li", { class: "live-shape" }, `${shape.kind[0].toUpperCase()}${shape.kind.slice(1)} of ${shape.objects.length}: `
      + `sums Federation ${shape.totals[0]} · Klingon ${shape.totals[1]}; ${shape.points} point${shape.points === 1 ? "" : "s"} to ${who}${bonus}${note}`);
  });
  const unknown = r.dice.filter((d) => d.known && d.value === null).map((d) => d.id);
  scorePanel.replaceChildren(
    h("ol", {}, rows.length ? rows : [h("li", {}, "No formation yet.")]),
    unknown.length ? h("p", { class: "live-unknown" }, `Values not entered yet (shown "?", tap the die): ${unknown.join(", ")}`) : "");
}
