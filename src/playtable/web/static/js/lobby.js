// The lobby: who you are (a name), the games with a picture and a pitch, their New-table form
// (new_table.js), and the lists of tables: your turn, yours (every
// table you sit at, from the server, plus the ones made in this browser), open (a free seat
// anyone may take: Join), running and finished. The tab title and, once allowed, a notification
// say when it is your move somewhere.

import { moveLeftText, soonestMoveLeft } from "./clocks.js";
import { EDITORS, mine, remember, showForm } from "./new_table.js";
import { askToNotify, canAskToNotify, myTables, nameForm, notify, playerKey, playerName } from "./player.js";
import { drawLeaderboard } from "./ratings.js";
import { learnButtons } from "./tutorial.js";
import { upperFirst } from "./proposal.js";
import { ago, getJson, h, postJson, seatTitle } from "./util.js";

const POLL_MS = 15000;

let games = [];
let me = null; // the server's answer about this player: {player, tables, your_turn}
let notified = new Set(); // tables already announced as "your turn"

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
        h("button", { class: "primary", onClick: () => showForm(game, loadTables) }, "New table"),
        learnButtons(game.id),
        EDITORS[game.id] ? h("a", { class: "button", href: EDITORS[game.id] }, "Make your own board") : null)));
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
  return h("ul", { class: "seat-list" }, seats.map((seat) => h("li", {}, h("span", { class: "seat-role" }, `${upperFirst(seatTitle(seat))}: `), seatWords(seat))));
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

/** End one of this player's tutorials (its bots wait for nobody): it leaves "Yours". */
async function leaveTutorial(table, button) {
  const problem = button.closest("tr").querySelector(".row-problem");
  try {
    await postJson(`/api/tables/${encodeURIComponent(table.id)}/leave`, { key: playerKey() });
    loadTables();
  } catch (err) {
    problem.textContent = err.message;
  }
}

function tableRow(table, saved, yours) {
  const finished = table.status === "finished";
  const join = finished ? null : ownJoin(table, yours, saved);
  const status = finished ? (table.result?.text ?? "finished")
    : table.your_turn ? `your turn, step ${table.step}` : `${table.status}, step ${table.step}`;
  const free = !finished && !join ? table.seats.filter((seat) => seat.free) : [];
  // A come-back-later move's time left ("You: 1 d 23 h left to move").
  const moveLeft = finished ? "" : moveLeftText(table.clock, (s) => (yours.includes(s) ? "You" : table.seats[s].player ?? upperFirst(seatTitle(table.seats[s]))));
  const query = join && join.includes("token=") ? join.slice(join.indexOf("?")) : "";
  return h("tr", { dataset: { table: table.id } },
    h("td", { "data-label": "Game" }, h("strong", {}, table.game_name), table.variant ? ` · ${table.variant_title ?? table.variant}` : "",
      table.tutorial ? h("span", { class: "tag tutorial-tag" }, "Tutorial") : null),
    h("td", { "data-label": "Seats" }, seatsCell(table.seats)),
    h("td", { "data-label": "State" }, status, moveLeft ? h("span", { class: "move-left" }, moveLeft) : null),
    h("td", { "data-label": "Made" }, ago(table.created)),
    h("td", { class: "row-buttons" }, h("div", { class: "buttons" },
      join ? h("a", { class: "button primary", href: join }, table.your_turn ? "Play" : "Join") : null,
      free.map((seat) => h("button", { type: "button", class: "primary", onClick: (e) => takeSeat(table, seat, e.currentTarget) },
        free.length > 1 || table.seats.length > 1 ? `Join as ${seatTitle(seat)}` : "Join")),
      !finished ? h("a", { class: "button", href: `/t/${table.id}` }, "Watch") : null,
      table.tutorial && !finished && yours.length ? h("button", { type: "button", class: "quiet",
        title: "End this tutorial's game: it leaves your tables", onClick: (e) => leaveTutorial(table, e.currentTarget) }, "Leave") : null,
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
  // The tabs answer from the first moment; a tab the person picks while the page still loads
  // is the one shown (it used to be replaced by the starting tab once the player's tables came).
  let picked = false;
  for (const tab of document.querySelectorAll(".tabs [role=tab]")) {
    tab.addEventListener("click", () => { picked = true; selectTab(tab.dataset.status); });
  }
  const host = document.getElementById("games");
  try {
    games = (await getJson("/api/games")).games;
    host.replaceChildren(...games.map(gameCard));
  } catch (err) {
    host.replaceChildren(h("p", { class: "error" }, err.message));
  }
  if (picked && currentTab === "leaderboard") loadTables(); // picked before the games were known
  await refreshMine();
  // A player coming back to moves waiting for them starts on "Your turn".
  if (!picked) selectTab(me?.your_turn?.length ? "turn" : "mine");
  setInterval(() => (["turn", "mine"].includes(currentTab) ? loadTables() : refreshMine()), POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) loadTables(); });
}

main();
