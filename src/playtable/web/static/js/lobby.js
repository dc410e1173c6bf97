// The lobby: who you are (a name), the games with a picture and a pitch, the form that
// creates a table (variant with its one-line description, seats as you, anyone, someone invited
// or bots, seed), the links a new table gives, and the lists of tables: your turn, yours (every
// table you sit at, from the server, plus the ones made in this browser), open (a free seat
// anyone may take: Join), running and finished. The tab title and, once allowed, a notification
// say when it is your move somewhere.

import { clockField, moveLeftText, soonestMoveLeft } from "./clocks.js";
import { askToNotify, canAskToNotify, myTables, nameForm, notify, playerKey, playerName } from "./player.js";
import { drawLeaderboard, labelBots, ratedField } from "./ratings.js";
import { learnButtons } from "./tutorial.js";
import { ago, getJson, h, postJson } from "./util.js";

// Variants a newcomer should start on: the designer's default rules are the hardest (seed 000
// §4.1 "Destructive variations": one brick more per slot is "much easier", two is "tutorial
// mode"), so the picker offers these first, marked "easier".
const EASIER = { troll: ["tutorial", "plus-one"] };
// Games whose board a player may draw (seed 004 "Getting Started": Rotator's players choose
// where the ten Control Nodes go), and the editor page that does it.
const EDITORS = { rotator: "/rotator/editor" };
const MINE_KEY = "playtable.myTables";
const MINE_LIMIT = 30;
const POLL_MS = 15000;

let games = [];
let me = null; // the server's answer about this player: {player, tables, your_turn}
let notified = new Set(); // tables already announced as "your turn"

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
        h("button", { class: "primary", onClick: () => showForm(game) }, "New table"),
        learnButtons(game.id),
        EDITORS[game.id] ? h("a", { class: "button", href: EDITORS[game.id] }, "Make your own board") : null)));
}

function variantSelect(game) {
  const select = h("select", { id: "variant", name: "variant" });
  const easier = EASIER[game.id] || [];
  const byName = new Map(game.variants.map((v) => [v.name, v]));
  const option = (v, suffix = "") => h("option", { value: v.name }, `${v.title ?? v.name}${suffix}`);
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

// The chosen variant's one line; its designer id (what the lab and the command line call it)
// only behind "more".
function describeVariant(game, name, host) {
  if (!name) {
    host.replaceChildren(EASIER[game.id] ? "The designer's own rules, as first written: a hard game." : "The game's standard rules.");
    return;
  }
  const variant = game.variants.find((v) => v.name === name);
  host.replaceChildren(variant?.description ?? "", " ",
    h("details", { class: "variant-id" }, h("summary", {}, "more"), "In the lab and on the command line: ", h("code", {}, name)));
}

// Who may sit at a person's seat: you, anyone (listed under Open), or someone you send its
// link to (kept for them: never offered to strangers).
const PEOPLE = [["me", "you"], ["open", "anyone (an open seat in the lobby)"], ["invite", "someone you invite (private link)"]];

function seatRows(game, count, host) {
  host.replaceChildren(h("legend", {}, "Seats"),
    h("p", { class: "note" }, "An open seat is listed under Open for anyone to join; an invited one only through its link."));
  for (let i = 0; i < count; i += 1) {
    const name = game.seat_names_default?.[i] ?? `seat ${i}`;
    const select = h("select", { name: `seat-${i}`, "aria-label": `Who plays ${name}` },
      PEOPLE.map(([value, words]) => h("option", { value }, words)), botOptions(game));
    select.value = i === 0 ? "me" : "open";
    host.append(h("div", { class: "seat-row" }, h("span", { class: "seat-name" }, name), select));
  }
  labelBots(game.id, host); // each bot's rating, so people know how strong it is
}

// The bots a seat may take: the game's ladder first, by each level's name ("Beginner" to
// "Strongest", docs/web.md "Bot levels"), then every other bot by its agent name.
function botOptions(game) {
  const levels = game.levels ?? [];
  const named = new Set(levels.map((l) => l.agent));
  const option = (agent, label, about) =>
    h("option", { value: `bot:${agent}`, dataset: { label }, title: about ?? "" }, label);
  const others = game.agents.filter((a) => !named.has(a)).map((a) => option(a, `bot: ${a}`));
  if (!levels.length) return others;
  return [h("optgroup", { label: "Bots, weakest to strongest" },
    levels.map((l) => option(l.agent, `bot: ${l.title}`, l.about))),
  h("optgroup", { label: "Other bots" }, others)];
}

// "you" without a name yet: the seat is kept for the link this lobby shows (never offered under
// Open); the table page asks for a name and puts it on the seat.
function seatRequest(value) {
  if (value === "me") return playerName() ? { kind: "human", mine: true } : { kind: "human", reserved: true };
  if (value === "invite") return { kind: "human", reserved: true };
  if (value === "open") return { kind: "human" };
  return { kind: "bot", agent: value.slice(4) };
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
  const description = h("div", { class: "note", id: "variant-description" });
  const variant = variantSelect(game);
  const seats = h("fieldset", { class: "seats" });
  // The game's usual count is preselected and sent as `players: null`; only a different choice is sent.
  const usual = Math.min(max, Math.max(min, game.seat_names_default?.length || min));
  const players = min === max ? null : h("select", { id: "players", name: "players" },
    Array.from({ length: max - min + 1 }, (_, k) => h("option", { value: min + k, selected: min + k === usual }, String(min + k))));
  const seed = h("input", { id: "seed", name: "seed", type: "number", min: 0, step: 1, inputmode: "numeric", placeholder: "random" });
  const clock = clockField();
  const params = h("input", { id: "params", name: "params", type: "text", placeholder: "e.g. extra_end_bricks=1", autocomplete: "off" });
  const problem = h("p", { class: "error", role: "alert" });
  const rated = ratedField(game);
  const update = () => {
    describeVariant(game, variant.value, description);
    seatRows(game, players ? Number(players.value) : usual, seats);
  };
  variant.addEventListener("change", () => { describeVariant(game, variant.value, description); });
  players?.addEventListener("change", update);
  const form = h("form", { class: "create-form", "aria-label": `New ${game.name} table` },
    h("h2", {}, `New table: ${game.name}`),
    h("div", { class: "field" }, h("label", { for: "variant" }, "Rules"), variant, description,
      EDITORS[game.id] ? h("p", { class: "note" }, "Or ", h("a", { href: EDITORS[game.id] }, "make your own board"), " and play it.") : null),
    players ? h("div", { class: "field" }, h("label", { for: "players" }, "Players"), players) : null,
    seats,
    rated.field,
    h("div", { class: "field" }, h("label", { for: "seed" }, "Deal number (optional)"), seed,
      h("p", { class: "note" }, "The same deal number deals the same game; leave it empty for a random one.")),
    clock.field,
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
        clock: clock.value(),
        players: players && Number(players.value) !== usual ? Number(players.value) : null,
        seats: [...seats.querySelectorAll("select")].map((sel) => seatRequest(sel.value)),
        rated: rated.value(),
      };
      if (body.seats.some((seat) => seat.mine)) body.key = playerKey();
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
  const first = people.find((seat) => seat.player) ?? people[0];
  const whose = (seat) => (seat.player ? ` (you, ${seat.player})` : seat.reserved ? " (kept for whoever has this link)" : " (open: listed under Open)");
  host.replaceChildren(h("div", { class: "created-links" },
    h("h2", {}, `Your ${game.name} table is ready`),
    h("p", {}, people.length > 1 ? "Each person gets their own private link: send the others theirs, or let them join from the Open list."
      : people.length ? "The link below is your seat: keep it private, it lets whoever has it play for you."
        : "Every seat is a bot: watch them play."),
    people.map((seat) => h("div", {}, linkRow(`Join as ${seat.name}`, seat.join_url, seat === first),
      people.length > 1 ? h("p", { class: "note" }, `${seat.name}${whose(seat)}`) : null)),
    people.length > 1 ? linkRow("Or play every seat on this one screen (hot seat, passing the device)", hotSeatUrl(created, people), false) : null,
    created.seats.filter((seat) => !seat.join_url).map((seat) => h("p", { class: "note" }, `${seat.name}: bot (${seat.agent})`)),
    h("p", {}, "Anyone may watch (they see only what a spectator may see):"),
    linkRow("Watch", created.watch_url, !people.length)));
  host.classList.add("done");
  host.hidden = false;
}

// -- who you are -------------------------------------------------------------------------------------
function drawPlayer() {
  const host = document.getElementById("player");
  const name = playerName();
  const form = nameForm({
    label: name ? "Your name" : "Choose a name to play with others",
    button: name ? "Change" : "Save",
    primary: !name,
    onSaved: () => { drawPlayer(); refreshMine(); },
  });
  const notifyButton = canAskToNotify() && name
    ? h("button", { type: "button", class: "quiet", onClick: async () => { await askToNotify(); drawPlayer(); } },
      "Tell me when it is my turn (browser notifications)") : null;
  host.replaceChildren(...[form,
    h("p", { class: "note" }, name
      ? `Others see you as ${name}. This browser keeps a private key that lets only you sit at your seats: no account, no password.`
      : "No account needed: the name is what others see at your seats, and this browser keeps a private key for you."),
    notifyButton].filter(Boolean));
}

// -- the table lists -------------------------------------------------------------------------------
let currentTab = "mine";

function seatWords(seat) {
  if (seat.kind === "bot") return `bot (${seat.agent})`;
  if (seat.player) return `${seat.player}${seat.connected ? " (here)" : ""}`;
  if (seat.free) return "open seat";
  if (seat.reserved) return "invited";
  return seat.connected ? "a person (here)" : "a person";
}

function seatsCell(seats) {
  return h("ul", { class: "seat-list" }, seats.map((seat) => h("li", {}, h("span", { class: "seat-role" }, `${seat.name}: `), seatWords(seat))));
}

/** The Join link of one of this player's seats: the link kept in this browser if there is one,
 * else the seat alone (the table page then asks for it with the player key, never in the URL). */
function ownJoin(table, yours, saved) {
  const kept = (saved?.seats ?? []).filter((seat) => seat.join_url);
  // A table made here but sat at by no name (an anonymous creator, a hot seat) keeps its first link.
  const link = kept.find((seat) => yours.includes(seat.seat)) ?? (yours.length ? null : kept[0]);
  if (link) return link.join_url;
  return yours.length ? `/t/${encodeURIComponent(table.id)}?seat=${yours[0]}` : null;
}

async function takeSeat(table, seat, button) {
  const problem = button.closest("tr").querySelector(".row-problem");
  problem.textContent = "";
  if (!playerName()) {
    problem.textContent = "Choose your name first (at the top of the page): it is what the others see.";
    document.getElementById("player-name")?.focus();
    return;
  }
  try {
    const taken = await postJson(`/api/tables/${encodeURIComponent(table.id)}/take`, { key: playerKey(), seat: seat.seat });
    const game = games.find((g) => g.id === table.game) ?? { id: table.game, name: table.game_name };
    remember({ table_id: table.id, watch_url: `/t/${table.id}`, seats: [{ seat: taken.seat, name: taken.name, join_url: taken.join_url }] }, game);
    window.location.assign(taken.join_url);
  } catch (err) {
    problem.textContent = err.message;
    loadTables();
  }
}

function tableRow(table, saved, yours) {
  const finished = table.status === "finished";
  const join = finished ? null : ownJoin(table, yours, saved);
  const status = finished ? (table.result?.text ?? "finished")
    : table.your_turn ? `your turn, step ${table.step}` : `${table.status}, step ${table.step}`;
  const free = !finished && !join ? table.seats.filter((seat) => seat.free) : [];
  // A come-back-later move's time left ("You: 1 d 23 h left to move").
  const moveLeft = finished ? "" : moveLeftText(table.clock, (s) => (yours.includes(s) ? "You" : table.seats[s].player ?? table.seats[s].name));
  const query = join && join.includes("token=") ? join.slice(join.indexOf("?")) : "";
  return h("tr", { dataset: { table: table.id } },
    h("td", { "data-label": "Game" }, h("strong", {}, table.game_name), table.variant ? ` · ${table.variant_title ?? table.variant}` : ""),
    h("td", { "data-label": "Seats" }, seatsCell(table.seats)),
    h("td", { "data-label": "State" }, status, moveLeft ? h("span", { class: "move-left" }, moveLeft) : null),
    h("td", { "data-label": "Made" }, ago(table.created)),
    h("td", { class: "row-buttons" }, h("div", { class: "buttons" },
      join ? h("a", { class: "button primary", href: join }, table.your_turn ? "Play" : "Join") : null,
      free.map((seat) => h("button", { type: "button", class: "primary", onClick: (e) => takeSeat(table, seat, e.currentTarget) },
        free.length > 1 || table.seats.length > 1 ? `Join as ${seat.name}` : "Join")),
      !finished ? h("a", { class: "button", href: `/t/${table.id}` }, "Watch") : null,
      h("a", { class: "button", href: `/t/${table.id}/replay${query}` }, "Replay")),
    h("p", { class: "error row-problem", role: "alert" })));
}

/** The server's tables of this player (null: anonymous or unreachable), and the title/tabs/notes. */
async function refreshMine() {
  try {
    me = await myTables();
  } catch {
    me = null;
  }
  const turns = me?.your_turn ?? [];
  const tab = document.querySelector('.tabs [data-status="turn"]');
  // The move with the least time left on a come-back-later clock, if any ("Your turn (2 · 5 h left)").
  const soonest = soonestMoveLeft((me?.tables ?? []).filter((t) => turns.includes(t.id)));
  tab.textContent = turns.length ? `Your turn (${turns.length}${soonest ? ` · ${soonest} left` : ""})` : "Your turn";
  document.title = turns.length ? `(${turns.length}) Your turn · playtable` : "playtable";
  for (const id of turns) {
    if (notified.has(id)) continue;
    const table = me.tables.find((t) => t.id === id);
    const url = ownJoin(table, table.your_seats, new Map(mine().map((t) => [t.table_id, t])).get(id));
    if (document.hidden || !document.hasFocus()) notify(`Your turn: ${table.game_name}`, `${me.player.name}, it is your move.`, id, url);
  }
  notified = new Set(turns);
  return me;
}

async function loadTables() {
  const host = document.getElementById("table-list");
  const saved = new Map(mine().map((t) => [t.table_id, t]));
  if (currentTab === "leaderboard") {
    await Promise.all([drawLeaderboard(host, games), refreshMine()]);
    return;
  }
  let tables;
  try {
    if (currentTab === "mine" || currentTab === "turn") {
      await refreshMine();
      const fromServer = me?.tables ?? [];
      const known = new Set(fromServer.map((t) => t.id));
      const local = currentTab === "mine" ? (await Promise.all([...saved.keys()].filter((id) => !known.has(id))
        .map((id) => getJson(`/api/tables/${encodeURIComponent(id)}`).catch(() => null)))).filter(Boolean) : [];
      tables = [...fromServer, ...local];
      if (currentTab === "turn") tables = tables.filter((t) => t.your_turn);
    } else {
      [tables] = await Promise.all([getJson(`/api/tables?status=${currentTab}`).then((a) => a.tables), refreshMine()]);
    }
  } catch (err) {
    host.replaceChildren(h("p", { class: "error" }, err.message));
    return;
  }
  if (!tables.length) {
    const empty = {
      turn: playerName() ? "No table waits for your move." : "Choose a name above: your tables and turns are kept for it.",
      mine: "You sit at no table yet.", open: "No table has a free seat right now: make one with an open seat.",
      running: "No table is being played right now.", finished: "No finished tables yet." };
    host.replaceChildren(h("p", { class: "empty" }, empty[currentTab]));
    return;
  }
  const yours = new Map((me?.tables ?? []).map((t) => [t.id, t.your_seats]));
  host.replaceChildren(h("table", {},
    h("thead", {}, h("tr", {}, ["Game", "Seats", "State", "Made", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, tables.map((t) => tableRow({ ...t, your_turn: t.your_turn ?? (me?.your_turn ?? []).includes(t.id) },
      saved.get(t.id), yours.get(t.id) ?? [])))));
}

function selectTab(status) {
  currentTab = status;
  document.querySelectorAll(".tabs [role=tab]").forEach((t) => t.setAttribute("aria-selected", String(t.dataset.status === status)));
  loadTables();
}

async function main() {
  drawPlayer();
  const host = document.getElementById("games");
  try {
    games = (await getJson("/api/games")).games;
    host.replaceChildren(...games.map(gameCard));
  } catch (err) {
    host.replaceChildren(h("p", { class: "error" }, err.message));
  }
  for (const tab of document.querySelectorAll(".tabs [role=tab]")) {
    tab.addEventListener("click", () => selectTab(tab.dataset.status));
  }
  await refreshMine();
  // A player coming back to moves waiting for them starts on "Your turn".
  selectTab(me?.your_turn?.length ? "turn" : "mine");
  setInterval(() => (["turn", "mine"].includes(currentTab) ? loadTables() : refreshMine()), POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) loadTables(); });
}

main();
