// Ratings and personal bests (docs/web.md "Ratings"): the lobby's Leaderboard tab (a
// game's rated people and bots, best first, with this player's solitaire bests and last scores),
// each bot's rating where seats are chosen, and on a finished table how its end counted (each
// seat's rating before and after, or the solitaire score with the player's best).

import { playerKey, playerName } from "./player.js";
import { ago, getJson, h, postJson } from "./util.js";

const PAGE = 25;
const botCache = new Map(); // game id -> promise of {agent: rating}

/** "1523 ± 120" (a "?" after a provisional rating: too few games to trust it yet). */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""} ± ${r.uncertainty}`;
}

function botRatings(gameId) {
  if (!botCache.has(gameId)) {
    botCache.set(gameId, getJson(`/api/games/${encodeURIComponent(gameId)}/bots`).then((a) => a.bots)
      .catch(() => ({})));
  }
  return botCache.get(gameId);
}

/** Write each bot's rating into the seat chooser's bot options (`bot: heuristic · 1620 ± 80`). */
export async function labelBots(gameId, host) {
  const bots = await botRatings(gameId);
  for (const option of host.querySelectorAll('option[value^="bot:"]')) {
    const r = bots[option.value.slice(4)];
    if (!r) continue;
    const label = option.dataset.label ?? `bot: ${option.value.slice(4)}`;
    option.textContent = `${label} · ${r.measured ? `rated ${ratingText(r)}` : "not rated yet"}`;
  }
}

/** The creator's choice: a rated game (the default) or a friendly one; shown for rated games. */
export function ratedField(game) {
  if ((game.sides ?? 1) < 2) return { field: null, value: () => null };
  const box = h("input", { id: "rated", name: "rated", type: "checkbox", checked: true });
  const field = h("div", { class: "field checkbox-field" },
    h("label", { for: "rated" }, box, " Rated game"),
    h("p", { class: "note" }, "A rated game at the standard rules moves every named player's and bot's rating when it ends."));
  return { field, value: () => (box.checked ? null : false) };
}

// -- the Leaderboard tab ----------------------------------------------------------------------------
let boardGame = null;
let boardOffset = 0;

function boardTable(board) {
  return h("table", { class: "leaderboard" },
    h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Won"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, board.entries.map((e) => h("tr", { dataset: { kind: e.kind } },
      h("td", { "data-label": "#" }, String(e.rank)),
      h("td", { "data-label": "Player" }, e.kind === "bot" ? h("span", { class: "bot-name" }, e.name) : e.name),
      h("td", { "data-label": "Rating", class: "rating" }, ratingText(e)),
      h("td", { "data-label": "Games" }, String(e.games)),
      h("td", { "data-label": "Won" }, String(e.wins))))));
}

// What a solitaire game's score counts (the server sends the game's `score` metric, else its
// return: Rotator's is 1 for a crossing, Star Dice alone counts the rounds cleared).
const SCORE_WORDS = {
  troll: (n) => `${n} ${n === 1 ? "card" : "cards"} left`,
  rotator: (n) => (n >= 1 ? "crossed" : "not crossed"),
  stardice: (n) => `${n} ${n === 1 ? "round" : "rounds"} cleared`,
};

export function scoreWords(score, gameId) {
  return (SCORE_WORDS[gameId] ?? String)(score);
}

async function personalPanel(games) {
  if (!playerName()) return h("p", { class: "note" }, "Choose a name above: your solitaire scores and best are kept for it.");
  let mine;
  try {
    mine = await postJson("/api/players/me/scores", { key: playerKey() });
  } catch (err) {
    return h("p", { class: "error" }, err.message);
  }
  const name = (id) => games.find((g) => g.id === id)?.name ?? id;
  // A variant as players read it (its title), "standard rules", or "other settings".
  const rules = (id, variant) => (variant === "standard" ? "standard rules" : variant === "custom" ? "other settings"
    : games.find((g) => g.id === id)?.variants.find((v) => v.name === variant)?.title ?? variant);
  if (!mine.bests.length) return h("p", { class: "note" }, "You have finished no solitaire game yet (Angry Troll, Rotator, Star Dice alone).");
  return h("div", { class: "personal" },
    h("table", { class: "bests" },
      h("thead", {}, h("tr", {}, ["Game", "Rules", "Your best", "Games", "Won", "Last"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, mine.bests.map((b) => h("tr", {},
        h("td", { "data-label": "Game" }, name(b.game)), h("td", { "data-label": "Rules" }, rules(b.game, b.variant)),
        h("td", { "data-label": "Your best", class: "best" }, scoreWords(b.best, b.game)),
        h("td", { "data-label": "Games" }, String(b.games)), h("td", { "data-label": "Won" }, String(b.wins)),
        h("td", { "data-label": "Last" }, ago(b.last)))))),
    h("p", { class: "history-title" }, "Your last games"),
    h("ol", { class: "history" }, mine.history.slice(0, 10).map((s) => h("li", {},
      `${name(s.game)} (${rules(s.game, s.variant)}): ${s.won ? "won" : "lost"}, ${scoreWords(s.score, s.game)} · `,
      h("a", { href: `/t/${encodeURIComponent(s.table_id)}/replay` }, "replay"), ` · ${ago(s.ended)}`))));
}

/** The Leaderboard tab's content in `host`: a game picker, that game's board, paging, and
 * this player's solitaire bests. */
export async function drawLeaderboard(host, games) {
  const rated = games.filter((g) => (g.sides ?? 1) >= 2);
  if (!rated.length) {
    host.replaceChildren(h("p", { class: "empty" }, "No game here is rated."));
    return;
  }
  if (!rated.some((g) => g.id === boardGame)) boardGame = rated[0].id;
  const picker = h("select", { id: "board-game", "aria-label": "Leaderboard of" },
    rated.map((g) => h("option", { value: g.id, selected: g.id === boardGame }, g.name)));
  picker.addEventListener("change", () => { boardGame = picker.value; boardOffset = 0; drawLeaderboard(host, games); });
  let board;
  try {
    board = await getJson(`/api/leaderboard?game=${encodeURIComponent(boardGame)}&offset=${boardOffset}&limit=${PAGE}`);
  } catch (err) {
    host.replaceChildren(h("p", { class: "error" }, err.message));
    return;
  }
  const page = (delta) => { boardOffset = Math.max(0, boardOffset + delta); drawLeaderboard(host, games); };
  host.replaceChildren(h("div", { class: "board-head" }, h("label", { for: "board-game" }, "Leaderboard of "), picker),
    board.entries.length ? boardTable(board)
      : h("p", { class: "empty" }, "Nobody has played a rated game of this one yet: people join the board once established."),
    h("div", { class: "buttons paging" },
      boardOffset > 0 ? h("button", { type: "button", onClick: () => page(-PAGE) }, "Better") : null,
      board.offset + board.entries.length < board.total ? h("button", { type: "button", onClick: () => page(PAGE) }, "More") : null),
    h("p", { class: "note" }, "A rating starts at 1500; ± is its uncertainty (95%), and ? marks one that rests on too few games. "
      + "The list is ordered by the rating less three times its spread, so a few lucky games do not top it. "
      + "Bots are rated too: they start from their games against each other. "
      + `A person joins the board after ${board.established.games} rated games against `
      + `${board.established.opponents} different opponents; until then their rating shows on their end screens.`),
    h("h3", {}, "Your solitaire games"), await personalPanel(games));
}

// -- a finished table ---------------------------------------------------------------------------------
const settled = new Map(); // table id -> the server's answer once it is settled

/** Add to a finished table's end screen how its end counted (fetched once per table). */
export async function endRating(screen, tableId, gameId) {
  if (!screen) return;
  let answer = settled.get(tableId);
  if (!answer) {
    try {
      answer = await getJson(`/api/tables/${encodeURIComponent(tableId)}/rating`);
    } catch {
      return;
    }
    if (!answer.settled) return;
    settled.set(tableId, answer);
  }
  if (!screen.isConnected || screen.querySelector(".end-rating")) return;
  const lines = answer.seats.map((s) => {
    if (s.score !== undefined) {
      const best = s.best === s.score && s.games > 1 ? " A new personal best!" : "";
      return `${s.name}: ${scoreWords(s.score, gameId)}. Best at these rules: ${scoreWords(s.best, gameId)} `
        + `(${s.games} ${s.games === 1 ? "game" : "games"}).${best}`;
    }
    const delta = s.after.rating - s.before.rating;
    return `${s.name}: ${s.before.rating} → ${s.after.rating} (${delta >= 0 ? "+" : ""}${delta})`;
  });
  const solitaire = answer.why?.includes("solitaire");
  const why = solitaire ? "Choose a name in the lobby, and your scores and best at each game are kept."
    : `Not rated: ${answer.why}.`;
  const note = h("div", { class: "end-rating" },
    answer.rated ? h("p", { class: "end-rating-title" }, "Rated game") : null,
    !answer.rated && !lines.length && answer.why ? h("p", { class: "note" }, why) : null,
    lines.length ? h("ul", {}, lines.map((line) => h("li", {}, line))) : null);
  screen.querySelector(".end-reason")?.after(note);
}
