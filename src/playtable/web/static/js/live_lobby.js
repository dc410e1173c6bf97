// The lobby's live Star Dice tables (issue 15, mode 2): the live tables this server runs, and a
// form to start one driven by a real table's TUIO stream (a UDP port on this machine) and/or a
// recording the server keeps (or the shipped sample). The server checks everything; its one
// sentence is shown when it refuses.

import { getJson, h, postJson } from "./util.js";

const host = document.getElementById("live-tables");

async function refresh(list) {
  let answer;
  try {
    answer = await getJson("/api/live");
  } catch (err) {
    list.replaceChildren(h("p", {}, `Live tables cannot be listed: ${err.message}`));
    return [];
  }
  list.replaceChildren(...(answer.tables.length ? answer.tables.map((t) => h("p", { class: "live-row" },
    h("a", { href: t.url }, `Live table ${t.id}`), ` · ${t.source} · ${t.pages} page${t.pages === 1 ? "" : "s"} open`))
    : [h("p", {}, "No live table yet.")]));
  return answer.recordings;
}

async function start() {
  if (!host) return;
  const list = h("div", { class: "live-list" });
  const port = h("input", { type: "number", min: "1024", max: "65535", placeholder: "3333", id: "live-port", name: "tuio_port" });
  const replay = h("select", { id: "live-replay", name: "replay" }, h("option", { value: "" }, "none"));
  const dice = h("input", { type: "text", id: "live-dice", name: "dice", value: "sample", size: "40",
    title: "'sample' or fiducial=die pairs: 0=F.d20a,7=K.d20a,14=borg (values tapped in on the table)" });
  const message = h("p", { class: "live-message", role: "status" });
  const form = h("form", { class: "live-form" },
    h("label", { for: "live-port" }, "TUIO UDP port "), port, " ",
    h("label", { for: "live-replay" }, "or replay "), replay, " ",
    h("label", { for: "live-dice" }, "dice map "), dice, " ",
    h("button", { type: "submit" }, "Start a live table"), message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { dice: dice.value.trim() || "sample" };
    if (port.value) body.tuio_port = Number(port.value);
    if (replay.value) body.replay = replay.value;
    try {
      const created = await postJson("/api/live", body);
      message.replaceChildren("Started: ", h("a", { href: created.url }, `open ${created.url}`), " (full screen on the table)");
      await refresh(list);
    } catch (err) {
      message.textContent = err.message;
    }
  });
  host.append(list, form);
  const recordings = await refresh(list);
  replay.append(...recordings.map((name) => h("option", { value: name }, name)));
}

start();
