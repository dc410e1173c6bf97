// The lobby's live Star Dice tables (a real table in the browser): the live tables this server runs, each a
// link to watch it, shown only while there is one. Starting, controlling and closing them (and the
// words about TUIO) are the operator's, on /operator (docs/web.md, "Live tables are the operator's").

import { getJson, h } from "./util.js";

const host = document.getElementById("live-tables");

async function start() {
  if (!host) return;
  const list = h("div", { class: "live-list" });
  host.append(list);
  let answer;
  try {
    answer = await getJson("/api/live");
  } catch {
    return; // a player loses nothing: the section stays hidden
  }
  if (!answer.tables.length) return;
  list.replaceChildren(...answer.tables.map((t) => h("p", { class: "live-row" },
    h("a", { href: t.url }, `Watch live table ${t.id}`), ` · ${t.pages} page${t.pages === 1 ? "" : "s"} open`)));
  host.hidden = false;
}

start();
