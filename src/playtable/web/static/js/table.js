// The table page (/t/ID?seat=N&token=T): finds which game the table plays, loads that game's
// page module (js/games/<id>.js, or the plain fallback for a game without one yet) and starts
// the shared frame on it.

import { TableFrame } from "./frame.js";
import { guide, tutorialName } from "./tutorial.js";
import { gameModule, getJson, h, tableAddress } from "./util.js";

async function main() {
  const root = document.getElementById("app");
  const { tableId, seat, token } = tableAddress();
  let table;
  try {
    if (!tableId) throw new Error("This address names no table.");
    table = await getJson(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (err) {
    root.replaceChildren(h("main", { class: "page-error" }, h("h1", {}, "No such table"),
      h("p", {}, err.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
    return;
  }
  const module = await gameModule(table.game);
  document.body.dataset.game = table.game;
  const frame = new TableFrame(root, { tableId, seat, token, gameModule: module });
  window.playtable = frame; // for the browser tests and for curious players' consoles
  frame.start();
  if (tutorialName()) guide(frame, tutorialName()); // a tutorial's table (&tutorial=NAME)
  playtestBar();
}

/** A playtest's table (`&playtest=ID`): the way back to the playtest's questions. */
function playtestBar() {
  const id = new URLSearchParams(window.location.search).get("playtest");
  if (!id || !/^[A-Za-z0-9_-]{12}$/.test(id)) return;
  document.body.prepend(h("p", { class: "playtest-bar" }, "A playtest game. When it is over, ",
    h("a", { href: `/p/${id}`, id: "playtest-back" }, "answer the playtest's questions"), "."));
}

main();
