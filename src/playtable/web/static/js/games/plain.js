// The board of a game that has no page module of its own yet: its observation shown as a
// readable outline. Actions are played from the frame's list and keys. Star Dice and the wizard
// game replace this with their own modules (a canvas table fed by `onStream`, a map with
// secret commitments) without touching the frame.

import { h } from "../util.js";

export const hints = true;

function outline(value) {
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return h("span", {}, value.map((v) => v ?? "?").join(", ") || "—");
    return h("ol", {}, value.map((v) => h("li", {}, outline(v))));
  }
  if (value && typeof value === "object") {
    return h("dl", {}, Object.entries(value).flatMap(([k, v]) => [h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, outline(v))]));
  }
  return h("span", {}, value === null ? "—" : String(value));
}

export function createBoard(host) {
  const box = h("div", { class: "plain-board" });
  host.replaceChildren(box);
  return {
    render(view) {
      box.replaceChildren(outline(view.observation));
    },
  };
}
