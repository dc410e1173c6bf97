// The operator's page (docs/web.md, "Live tables are the operator's"): with the operator token
// the server printed at start (in this page's #token= fragment, or typed in), start live Star
// Dice tables driven by a real table's TUIO stream (a UDP port on this machine) and/or a
// recording the server keeps, open each with its control link, close them. The token goes to
// the server only as an Authorization header; the server checks everything and its one
// sentence is shown when it refuses.

import { getJson, h, postJson, requestJson } from "./util.js";

const host = document.getElementById("operator");
const tokenField = h("input", { type: "password", id: "operator-token", name: "token", size: "40",
  autocomplete: "off", value: new URLSearchParams(location.hash.slice(1)).get("token") || "" });
const list = h("div", { class: "live-list" });
const message = h("p", { class: "live-message", role: "status" });

function auth() {
  return { Authorization: `Bearer ${tokenField.value.trim()}` };
}

function controlLink(t) {
  return `${t.url}#control=${encodeURIComponent(t.control)}`;
}

async function refresh() {
  let answer;
  try {
    answer = await getJson("/api/live", auth());
  } catch (err) {
    list.replaceChildren(h("p", {}, `Live tables cannot be listed: ${err.message}`));
    return [];
  }
  list.replaceChildren(...(answer.tables.length ? answer.tables.map((t) => h("p", { class: "live-row", dataset: { id: t.id } },
    t.control ? h("a", { href: controlLink(t) }, `Live table ${t.id} (control)`) : h("a", { href: t.url }, `Live table ${t.id}`),
    ` · ${t.source} · ${t.pages} page${t.pages === 1 ? "" : "s"} open `,
    h("button", { type: "button", class: "live-close", onClick: () => closeTable(t.id) }, "Close")))
    : [h("p", {}, "No live table yet.")]));
  return answer.recordings;
}

async function closeTable(id) {
  try {
    await requestJson("DELETE", `/api/live/${encodeURIComponent(id)}`, undefined, auth());
    message.textContent = `Closed live table ${id}.`;
  } catch (err) {
    message.textContent = err.message;
  }
  await refresh();
}

async function start() {
  if (!host) return;
  const port = h("input", { type: "number", min: "0", max: "65535", placeholder: "3333", id: "live-port", name: "tuio_port" });
  const replay = h("select", { id: "live-replay", name: "replay" }, h("option", { value: "" }, "none"));
  const dice = h("input", { type: "text", id: "live-dice", name: "dice", value: "sample", size: "40",
    title: "'sample' or fiducial=die pairs: 0=F.d20a,7=K.d20a,14=borg (values tapped in on the table)" });
  const form = h("form", { class: "live-form" },
    h("label", { for: "live-port" }, "TUIO UDP port (0: any free one; 1024-65535) "), port, " ",
    h("label", { for: "live-replay" }, "or replay "), replay, " ",
    h("label", { for: "live-dice" }, "dice map "), dice, " ",
    h("button", { type: "submit" }, "Start a live table"), message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { dice: dice.value.trim() || "sample" };
    if (port.value) body.tuio_port = Number(port.value);
    if (replay.value) body.replay = replay.value;
    try {
      const created = await postJson("/api/live", body, auth());
      message.replaceChildren("Started: ", h("a", { href: controlLink(created) }, `open ${created.url}`),
        " full screen on the table (its control link: keep it for the table's own screen)");
      await refresh();
    } catch (err) {
      message.textContent = err.message;
    }
  });
  tokenField.addEventListener("change", () => refresh());
  host.append(h("p", {}, h("label", { for: "operator-token" }, "Operator token "), tokenField), list, form);
  const recordings = await refresh();
  replay.append(...recordings.map((name) => h("option", { value: name }, name)));
}

start();
