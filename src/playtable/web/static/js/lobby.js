// The lobby: the games with a picture and a pitch, the form that creates a table (variant with
// its one-line description, seats as people or bots, seed), the links a new table gives, and the
// lists of tables: yours (remembered in this browser, with their join links), open, running and
// finished.

import { ago, getJson, h, postJson } from "./util.js";

// Variants a newcomer should start on: the designer's default rules are the hardest (seed 000
// §4.1 "Destructive variations": one brick more per slot is "much easier", two is "tutorial
// mode"), so the picker offers these first, marked "easier".
const EASIER = { troll: ["tutorial", "plus-one"] };
const MINE_KEY = "playtable.myTables";
const MINE_LIMIT = 30;

let games = [];

function mine() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function remember(created, game) {
  const entry = { table_id: created.table_id, game: game.id, game_name: game.name, watch_url: created.watch_url,
    seats: created.seats, saved: new Date().toISOString() };
  const list = [entry, ...mine().filter((t) => t.table_id !== created.table_id)].slice(0, MINE_LIMIT);
  try {
    localStorage.setItem(MINE_KEY, JSON.stringify(list));
  } catch {
    // Private windows may refuse storage; the links are still shown on the page.
  }
}

function absolute(path) {
  return new URL(path, window.location.origin).href;
}

// -- the games ------------------------------------------------------------------------------------
function gameCard(game) {
  const [min, max] = game.players;
  const players = min === max ? `${min} ${min === 1 ? "player" : "players"}` : `${min}-${max} players`;
  return h("article", { class: "game-card", dataset: { game: game.id } },
    h("img", { src: game.picture, alt: "", width: 320, height: 180 }),
    h("div", { class: "body" },
      h("h2", {}, game.name),
      h("p", { class: "players" }, players),
      h("p", { class: "pitch" }, game.pitch),
      h("div", { class: "buttons" },
        h("button", { class: "primary", onClick: () => showForm(game) }, "New table"))));
}

function variantSelect(game) {
  const select = h("select", { id: "variant", name: "variant" });
  const easier = EASIER[game.id] || [];
  const byName = new Map(game.variants.map((v) => [v.name, v]));
  const option = (v, suffix = "") => h("option", { value: v.name }, `${v.name}${suffix}`);
  if (easier.length) {
    select.append(h("optgroup", { label: "Easier: for a first game" },
      easier.filter((n) => byName.has(n)).map((n) => option(byName.get(n), " (easier)"))));
  }
  const standard = h("option", { value: "" }, easier.length ? "standard rules (hardest)" : "standard rules");
  const others = game.variants.filter((v) => !easier.includes(v.name)).map((v) => option(v));
  select.append(h("optgroup", { label: "The designer's rules" }, standard), others.length ? h("optgroup", { label: "Other variants" }, others) : null);
  select.value = easier.find((n) => byName.has(n) && n === "plus-one") ?? easier[0] ?? "";
  return select;
}

function describeVariant(game, name) {
  if (!name) {
    return EASIER[game.id] ? "The designer's own rules, as written in the seed: a hard game." : "The game's standard rules.";
  }
  return game.variants.find((v) => v.name === name)?.description ?? "";
}

function seatRows(game, count, host) {
  host.replaceChildren(h("legend", {}, "Seats"));
  for (let i = 0; i < count; i += 1) {
    const name = game.seat_names_default?.[i] ?? `seat ${i}`;
    const select = h("select", { name: `seat-${i}`, "aria-label": `Who plays ${name}` },
      h("option", { value: "human" }, "a person"),
      game.agents.map((agent) => h("option", { value: `bot:${agent}` }, `bot: ${agent}`)));
    host.append(h("div", { class: "seat-row" }, h("span", { class: "seat-name" }, name), select));
  }
}

function parseParams(text) {
  const params = {};
  for (const part of text.split(/[,\s]+/).filter(Boolean)) {
    const [key, ...rest] = part.split("=");
    if (!key || !rest.length) throw new Error(`'${part}' is not key=value`);
    params[key] = rest.join("=");
  }
  return params;
}

function showForm(game) {
  const host = document.getElementById("created");
  const [min, max] = game.players;
  const description = h("p", { class: "note", id: "variant-description" });
  const variant = variantSelect(game);
  const seats = h("fieldset", { class: "seats" });
  // The game's usual count is preselected and sent as `players: null`; only a different choice is sent.
  const usual = Math.min(max, Math.max(min, game.seat_names_default?.length || min));
  const players = min === max ? null : h("select", { id: "players", name: "players" },
    Array.from({ length: max - min + 1 }, (_, k) => h("option", { value: min + k, selected: min + k === usual }, String(min + k))));
  const seed = h("input", { id: "seed", name: "seed", type: "number", min: 0, step: 1, inputmode: "numeric", placeholder: "random" });
  const timer = h("input", { id: "turn-timer", name: "turn_timer", type: "number", min: 1, max: 3600, step: 1, inputmode: "numeric", placeholder: "off" });
  const params = h("input", { id: "params", name: "params", type: "text", placeholder: "e.g. extra_end_bricks=1", autocomplete: "off" });
  const problem = h("p", { class: "error", role: "alert" });
  const update = () => {
    description.textContent = describeVariant(game, variant.value);
    seatRows(game, players ? Number(players.value) : usual, seats);
  };
  variant.addEventListener("change", () => { description.textContent = describeVariant(game, variant.value); });
  players?.addEventListener("change", update);
  const form = h("form", { class: "create-form", "aria-label": `New ${game.name} table` },
    h("h2", {}, `New table: ${game.name}`),
    h("div", { class: "field" }, h("label", { for: "variant" }, "Rules"), variant, description),
    players ? h("div", { class: "field" }, h("label", { for: "players" }, "Players"), players) : null,
    seats,
    h("div", { class: "field" }, h("label", { for: "seed" }, "Seed (optional)"), seed,
      h("p", { class: "note" }, "The same seed deals the same game; leave it empty for a random one.")),
    h("div", { class: "field" }, h("label", { for: "turn-timer" }, "Turn timer in seconds (optional)"), timer,
      h("p", { class: "note" }, "When a person's turn waits this long, a bot plays that one turn for them. Empty: no timer.")),
    h("details", {}, h("summary", {}, "More parameters"),
      h("div", { class: "field" }, h("label", { for: "params" }, "key=value, separated by spaces"), params)),
    problem,
    h("div", { class: "buttons" }, h("button", { class: "primary", type: "submit" }, "Create the table"),
      h("button", { type: "button", class: "quiet", onClick: () => { host.hidden = true; } }, "Cancel")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    let body;
    try {
      body = {
        game: game.id, variant: variant.value || null, params: parseParams(params.value),
        seed: seed.value === "" ? null : Number(seed.value),
        turn_timer: timer.value === "" ? null : Number(timer.value),
        players: players && Number(players.value) !== usual ? Number(players.value) : null,
        seats: [...seats.querySelectorAll("select")].map((sel) => (sel.value === "human" ? { kind: "human" }
          : { kind: "bot", agent: sel.value.slice(4) })),
      };
    } catch (err) {
      problem.textContent = err.message;
      return;
    }
    try {
      const created = await postJson("/api/tables", body);
      remember(created, game);
      showCreated(created, game);
      loadTables();
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  update();
  host.replaceChildren(form);
  host.hidden = false;
  host.classList.remove("done");
  host.scrollIntoView({ behavior: "smooth", block: "start" });
  variant.focus();
}

function linkRow(label, path, primary) {
  const url = absolute(path);
  const copy = h("button", { type: "button", class: "quiet" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch {
      copy.textContent = "Select and copy the address";
    }
  });
  return h("div", { class: "link-row" }, h("a", { class: `button${primary ? " primary" : ""}`, href: path }, label),
    h("code", {}, url), copy);
}

/** One page for every person's seat: it shows a "pass the device" screen between seats. */
function hotSeatUrl(created, people) {
  const pairs = people.map((seat) => `${seat.seat}.${new URLSearchParams(seat.join_url.split("?")[1]).get("token")}`);
  return `${people[0].join_url}&hot=${pairs.join(",")}`;
}

function showCreated(created, game) {
  const host = document.getElementById("created");
  const people = created.seats.filter((seat) => seat.join_url);
  host.replaceChildren(h("div", { class: "created-links" },
    h("h2", {}, `Your ${game.name} table is ready`),
    h("p", {}, people.length > 1 ? "Each person gets their own private link: send the others theirs."
      : people.length ? "The link below is your seat: keep it private, it lets whoever has it play for you."
        : "Every seat is a bot: watch them play."),
    people.map((seat, i) => linkRow(`Join as ${seat.name}`, seat.join_url, i === 0)),
    people.length > 1 ? linkRow("Or play every seat on this one screen (hot seat, passing the device)", hotSeatUrl(created, people), false) : null,
    created.seats.filter((seat) => !seat.join_url).map((seat) => h("p", { class: "note" }, `${seat.name}: bot (${seat.agent})`)),
    h("p", {}, "Anyone may watch (they see only what a spectator may see):"),
    linkRow("Watch", created.watch_url, !people.length)));
  host.classList.add("done");
  host.hidden = false;
}

// -- the table lists -------------------------------------------------------------------------------
let currentTab = "mine";

function seatsText(seats) {
  return seats.map((seat) => `${seat.name}: ${seat.kind === "bot" ? `bot ${seat.agent}` : seat.connected ? "person (here)" : "person"}`).join(", ");
}

function tableRow(table, saved) {
  const join = saved?.seats?.find((seat) => seat.join_url);
  const status = table.status === "finished" ? (table.result?.text ?? "finished") : `${table.status}, step ${table.step}`;
  return h("tr", {},
    h("td", {}, h("strong", {}, table.game_name), table.variant ? ` · ${table.variant}` : ""),
    h("td", {}, seatsText(table.seats)),
    h("td", {}, status),
    h("td", {}, ago(table.created)),
    h("td", {}, h("div", { class: "buttons" },
      join && table.status !== "finished" ? h("a", { class: "button primary", href: join.join_url }, "Join") : null,
      table.status !== "finished" ? h("a", { class: "button", href: `/t/${table.id}` }, "Watch") : null,
      h("a", { class: "button", href: `/t/${table.id}/replay${join ? join.join_url.slice(join.join_url.indexOf("?")) : ""}` }, "Replay"))));
}

async function loadTables() {
  const host = document.getElementById("table-list");
  const saved = new Map(mine().map((t) => [t.table_id, t]));
  let tables;
  try {
    if (currentTab === "mine") {
      const found = await Promise.all([...saved.keys()].map((id) => getJson(`/api/tables/${encodeURIComponent(id)}`).catch(() => null)));
      tables = found.filter(Boolean);
    } else {
      tables = (await getJson(`/api/tables?status=${currentTab}`)).tables;
    }
  } catch (err) {
    host.replaceChildren(h("p", { class: "error" }, err.message));
    return;
  }
  if (!tables.length) {
    const empty = { mine: "You have made no tables in this browser yet.", open: "No open tables.",
      running: "No table is being played right now.", finished: "No finished tables yet." };
    host.replaceChildren(h("p", { class: "empty" }, empty[currentTab]));
    return;
  }
  host.replaceChildren(h("table", {},
    h("thead", {}, h("tr", {}, ["Game", "Seats", "State", "Made", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, tables.map((t) => tableRow(t, saved.get(t.id))))));
}

async function main() {
  const host = document.getElementById("games");
  try {
    games = (await getJson("/api/games")).games;
    host.replaceChildren(...games.map(gameCard));
  } catch (err) {
    host.replaceChildren(h("p", { class: "error" }, err.message));
  }
  for (const tab of document.querySelectorAll(".tabs [role=tab]")) {
    tab.addEventListener("click", () => {
      currentTab = tab.dataset.status;
      document.querySelectorAll(".tabs [role=tab]").forEach((t) => t.setAttribute("aria-selected", String(t === tab)));
      loadTables();
    });
  }
  loadTables();
}

main();
