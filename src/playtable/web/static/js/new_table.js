// The lobby's New-table form (variant with its one-line description, seats as you, anyone,
// someone invited or bots, seed, clock, rating) and what a new table gives: the links of the seats
// for others, or, at a table whose only people are its creator, straight to their seat.
// The tables made in this browser are remembered here (their links), for "Yours".

import { clockField } from "./clocks.js";
import { playerKey, playerName } from "./player.js";
import { labelBots, ratedField } from "./ratings.js";
import { upperFirst } from "./proposal.js";
import { h, postJson, seatTitle } from "./util.js";

// Games whose board a player may draw (seed 004 "Getting Started": Rotator's players choose
// where the ten Control Nodes go), and the editor page that does it.
export const EDITORS = { rotator: "/rotator/editor" };
const MINE_KEY = "playtable.myTables";
const MINE_LIMIT = 30;

/** The tables made in this browser (their links), newest first. */
export function mine() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function remember(created, game) {
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


// The rules to choose from, grouped as the game groups them (`variant_groups` of GET /api/games):
// a group offered first (the troll's easier bridges: its standard rules are the hardest), the
// standard rules, the other groups (Star Dice's earlier versions kept apart), the rest.
function variantSelect(game) {
  const select = h("select", { id: "variant", name: "variant" });
  const byName = new Map(game.variants.map((v) => [v.name, v]));
  const groups = game.variant_groups ?? [];
  const grouped = new Set(groups.flatMap((g) => g.names));
  const option = (name) => h("option", { value: name }, byName.get(name).title ?? name);
  const optgroup = (g) => h("optgroup", { label: g.title }, g.names.filter((n) => byName.has(n)).map(option));
  const others = game.variants.filter((v) => !v.standard && !grouped.has(v.name)).map((v) => option(v.name));
  select.append(...groups.filter((g) => g.first).map(optgroup),
    h("option", { value: "" }, game.standard?.title ?? "Standard rules"),
    ...groups.filter((g) => !g.first).map(optgroup),
    ...(others.length ? [h("optgroup", { label: groups.length ? "Other variants" : "Variants" }, others)] : []));
  select.value = groups.find((g) => g.first)?.names.find((n) => byName.has(n)) ?? "";
  return select;
}

// The chosen rules' one line, after what its group is; its designer id (what the lab and the
// command line call it) only behind "more".
function describeVariant(game, name, host) {
  if (!name) {
    host.replaceChildren(game.standard?.description ?? "The game's standard rules.");
    return;
  }
  const variant = game.variants.find((v) => v.name === name);
  const group = (game.variant_groups ?? []).find((g) => g.names.includes(name));
  host.replaceChildren(group ? h("span", { class: "variant-group-note" }, `${group.title}: ${group.note} `) : "",
    variant?.description ?? "", " ",
    h("details", { class: "variant-id" }, h("summary", {}, "more"), "In the lab and on the command line: ", h("code", {}, name)));
}

// Who may sit at a person's seat: you, anyone (listed under Open), or someone you send its
// link to (kept for them: never offered to strangers).
const PEOPLE = [["me", "you"], ["open", "anyone (an open seat in the lobby)"], ["invite", "someone you invite (private link)"]];

function seatRows(game, count, host) {
  host.replaceChildren(h("legend", {}, "Seats"),
    h("p", { class: "note" }, "An open seat is listed under Open for anyone to join; an invited one only through its link."));
  for (let i = 0; i < count; i += 1) {
    const name = game.seat_titles_default?.[i] ?? game.seat_names_default?.[i] ?? `seat ${i}`;
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

export function showForm(game, onCreated) {
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
    await createTable(game, body, [...seats.querySelectorAll("select")].map((sel) => sel.value), problem, onCreated);
  });
  update();
  host.replaceChildren(form);
  host.hidden = false;
  host.classList.remove("done");
  host.scrollIntoView({ behavior: "smooth", block: "start" });
  variant.focus();
}

async function createTable(game, body, choices, problem, onCreated) {
  try {
    const created = await postJson("/api/tables", body);
    remember(created, game);
    const seat = creatorsOwnSeat(created, choices);
    if (seat) {
      window.location.assign(seat);
      return;
    }
    showCreated(created, game);
    onCreated();
  } catch (err) {
    problem.textContent = err.message;
  }
}

/** A table whose only people are its creator (every other seat a bot) has nobody to send a
 * link to: its game starts at once with the creator at their seat (several "you" seats: the hot
 * seat's one page). Null for a table with a seat for someone else, or bots only (watched). */
function creatorsOwnSeat(created, choices) {
  if (!choices.includes("me") || !choices.every((c) => c === "me" || c.startsWith("bot:"))) return null;
  const people = created.seats.filter((seat) => seat.join_url);
  if (!people.length) return null;
  return people.length > 1 ? hotSeatUrl(created, people) : people[0].join_url;
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
    people.map((seat) => h("div", {}, linkRow(`Join as ${seatTitle(seat)}`, seat.join_url, seat === first),
      people.length > 1 ? h("p", { class: "note" }, `${upperFirst(seatTitle(seat))}${whose(seat)}`) : null)),
    people.length > 1 ? linkRow("Or play every seat on this one screen (hot seat, passing the device)", hotSeatUrl(created, people), false) : null,
    created.seats.filter((seat) => !seat.join_url).map((seat) => h("p", { class: "note" }, `${upperFirst(seatTitle(seat))}: bot (${seat.agent})`)),
    h("p", {}, "Anyone may watch (they see only what a spectator may see):"),
    linkRow("Watch", created.watch_url, !people.length)));
  host.classList.add("done");
  host.hidden = false;
}

