// The lobby's live Star Dice tables (a real table in the browser): the live tables this server runs, each a
// link to watch it. Starting, controlling and closing them is the operator's, on /operator
// (docs/web.md, "Live tables are the operator's").

import { getJson, h } from "./util.js";

const host = document.getElementById("live-tables");

async function start() {
  if (!host) return;
  const list = h("div", { class: "live-list" });
  host.append(list);
  let answer;
  try {
    answer = await getJson("/api/live");
  } catch (err) {
    list.replaceChildren(h("p", {}, `Live tables cannot be listed: ${err.message}`));
    return;
  }
  list.replaceChildren(...(answer.tables.length ? answer.tables.map((t) => h("p", { class: "live-row" },
    h("a", { href: t.url }, `Watch live table ${t.id}`), ` · ${t.source} · ${t.pages} page${t.pages === 1 ? "" : "s"} open`))
    : [h("p", {}, "No live table yet: the server's operator starts them.")]));
}

start();
