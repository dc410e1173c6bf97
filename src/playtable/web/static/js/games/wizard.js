// The Wizard's Labyrinth page: the grid of tiles (face down, or face up with their
// Card Draw and Mana Wheel values as symbols), the tower and its entrance, tokens as discs (face
// down until flipped), the heroes with hit points, keys and gear, the Mana Wheel drawn as a
// wheel, the wizard's hand and the heroes' loot as cards. Every seat only ever receives its own
// observation (the server keeps the secrets); the page names every card, tile and item by the
// names the observation carries (`names`, `faces`), never by an id. Board actions (moves,
// placements, hiding keys, the rage, spells' targets, retreats) are played on the squares; the
// rest from the cards and the frame's action list.

import { h, s } from "../util.js";


const CELL = 72;
const DIRS = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const DIR_WORDS = { N: "north", E: "east", S: "south", W: "west" };
const CORNERS = { NW: "north-west", NE: "north-east", SW: "south-west", SE: "south-east" };
const TORN = "torn out in the wizard's rage: nobody can go there"; // 8 Nov "Rage of the wizard!"
let names = {};
let seatNames = [];
let who = null; // the frame's names for seats: the player's name, else the seat's name in the game
let seen = null; // the observation and legal actions last drawn: some labels depend on the position

function parseSquare(name) {
  return { col: name.charCodeAt(0) - 97, row: Number(name.slice(1)) - 1 };
}

function squareName(col, row) {
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

function nameOf(id) {
  return names[id] ?? id.replaceAll("_", " ");
}

function heroName(arg) {
  // People by their names; a seat nobody named is "hero 2", as the rules say it.
  const seat = Number(String(arg).replace("hero", ""));
  const name = who?.(seat) ?? seatNames[seat];
  return name && name !== `hero${seat}` ? name : `hero ${seat}`;
}

/** Whether `action` is one this page offers now (the labels that depend on the position are
 * given only to the actions of the list: the log's past actions keep their plain words). */
function offeredNow(action) {
  return (seen?.legal || []).some((e) => e.action === action);
}

/** Whether `move D` takes this seat's hero from the entrance square into the tower (8 Nov "Keys":
 * with the keys the heroes "can enter the central wizard tower"). */
function entersTower(dir) {
  const obs = seen?.observation;
  const me = obs?.heroes?.find((x) => x.seat === obs.seat);
  if (!me || !DIRS[dir] || !offeredNow(`move ${dir}`)) return false;
  const { col, row } = parseSquare(me.square);
  return squareName(col + DIRS[dir][0], row + DIRS[dir][1]) === obs.tower;
}

/** Whether `boost K` plays this hero's last combat bonus: the fight then starts at once, since
 * "Fight!" would be the only choice left (RULES.md section 8, "The fight's steps"). */
function lastBonus(kind) {
  const obs = seen?.observation;
  const me = obs?.heroes?.find((x) => x.seat === obs.seat);
  if (!me || !offeredNow(`boost ${kind}`)) return false;
  const kinds = new Set((seen.legal || []).map((e) => e.action.split(" ")).filter(([v]) => v === "boost").map(([, k]) => k));
  return kinds.size === 1 && me.hand.filter((k) => k === kind).length === 1;
}

export function tokenWords(kind) {
  if (kind === "blank") return "a blank";
  if (kind === "trap") return "a trap";
  if (kind?.startsWith("m")) return `a level ${kind.slice(1)} monster`;
  return "a token";
}

/** Plain words for every action text (and for the redacted texts other seats read in the log). */
export function label(action) {
  const [verb, a, b] = action.split(" ");
  switch (verb) {
    case "tower": return `Raise the tower on ${a}`;
    case "entrance": return `Turn the tower's entrance to the ${DIR_WORDS[a] ?? a}`;
    case "key": return `Hide a key tile on ${a}`;
    case "hide": return "Hides a key tile (where is secret)";
    case "return": return a === "card" ? "Sends a card back (secret)" : `Send ${nameOf(a)} back into the deck`;
    case "start": return `Enter the labyrinth at the ${CORNERS[a] ?? a} corner`;
    case "remove": {
      const left = offeredNow(action) ? seen.observation.decision?.left : null;
      return `Tear ${a} out of the labyrinth${left ? ` (${left} ${left === 1 ? "tile" : "tiles"} to tear out this turn)` : ""}`;
    }
    case "play": return `Play ${nameOf(a)}`;
    case "end": return "End the wizard's turn";
    case "place": return a === "token" ? `Places a face-down token on ${b}` : `Place ${tokenWords(a)} on ${b}`;
    case "target": return `Cast the spell on ${a}`;
    case "switch": return `Swap ${heroName(a)} with a token on ${b}`;
    case "send": return `Blow the hero to ${a}`;
    case "discard": return `Discard ${nameOf(a)}`;
    case "move": return entersTower(a) ? `Enter the wizard's tower (move ${DIR_WORDS[a] ?? a})` : `Move ${DIR_WORDS[a] ?? a}`;
    case "stay": return "Stay where you are";
    case "sprint": return `Sprint ${[a, b].filter(Boolean).map((d) => DIR_WORDS[d] ?? d).join(", then ")}`;
    case "secret": return "Chooses a move (secret until all have chosen)";
    case "use": return `Drink ${nameOf(a)}`;
    case "give": return `Give ${nameOf(a)} to ${heroName(b)}`;
    case "givekey": return `Hand a key to ${heroName(a)}`;
    case "boost": return lastBonus(a) ? `Play ${nameOf(a)}, then fight (your last bonus)` : `Play ${nameOf(a)} in this fight`;
    case "fight": return "Fight!";
    case "retreat": return `Drive the hero back to ${a}`;
    case "keep": return `Keep ${nameOf(a)}`;
    default: return action;
  }
}

export function keyFor(action) {
  const [verb, a] = action.split(" ");
  if (verb === "move") return { N: "ArrowUp", E: "ArrowRight", S: "ArrowDown", W: "ArrowLeft" }[a] ?? null;
  if (verb === "end" || verb === "fight") return " ";
  return null;
}

// What the one deciding does, each a verb agreeing with its subject ("The wizard raises",
// "Alice prepares", "The heroes choose").
const DECISIONS = {
  tower: "raises his tower", entrance: "turns the tower's entrance", key: "hides the keys (heroes: eyes closed!)",
  opening: "chooses the cards to keep", start: "chooses where to enter", main: "plays cards",
  place: "places tokens", spell: "aims a spell", send: "blows the heroes away", discard: "discards",
  rage: (d) => `rages: tears ${d.left} more ${d.left === 1 ? "tile" : "tiles"} out of the labyrinth this turn`,
  commit: "choose their moves in secret", boost: "prepares for the fight: a combat bonus, or Fight!",
  retreat: "chooses where the hero retreats", keep: "chooses the loot to keep", give: "trades",
};

export function status(obs) {
  if (obs.end) return `Round ${obs.round} · the game is over`;
  const d = obs.decision || {};
  const subject = d.seat === 0 ? "The wizard" : d.kind === "commit" ? "The heroes" : heroName(d.seat ?? 1);
  const verb = DECISIONS[d.kind];
  const doing = typeof verb === "function" ? verb(d) : verb ?? d.kind ?? "";
  // 8 Nov "Rage of the wizard!": said in words, not a bare "RAGE".
  const rage = obs.rage ? " · the wizard's rage: he tears tiles out of the labyrinth each turn" : "";
  return `Round ${obs.round} · ${subject} ${doing} · keys found ${obs.keys_found} of ${obs.keys_needed}` +
    `${obs.door_open ? " · the tower door is open" : ""}${rage}`;
}

function card(id, face, actions, ctx, extra = "") {
  const f = face ?? { name: nameOf(id), text: "" };
  const el = h("div", { class: `wz-card ${f.owner ?? ""} ${f.type ?? ""} ${extra}`, "data-card": id },
    h("div", { class: "wz-card-head" }, h("strong", {}, f.name), f.cost !== undefined ? h("span", { class: "wz-cost", title: "mana cost" }, `${f.cost}✦`) : null),
    h("div", { class: "wz-card-type" }, f.type ?? ""),
    h("div", { class: "wz-card-text" }, f.text ?? ""));
  if (actions.length) ctx.offer(el, actions);
  return el;
}

function wheel(w) {
  // The Mana Wheel as a wheel: one segment per value 1..max, the current one lit.
  const max = w.wheel_max;
  const g = s("svg", { class: "wz-wheel", viewBox: "-50 -50 100 100", role: "img", "aria-label": `Mana Wheel at ${w.wheel} of ${max}` });
  for (let i = 1; i <= max; i += 1) {
    const a0 = ((i - 1) / max) * 2 * Math.PI - Math.PI / 2;
    const a1 = (i / max) * 2 * Math.PI - Math.PI / 2;
    const p = (a, r) => `${(Math.cos(a) * r).toFixed(1)},${(Math.sin(a) * r).toFixed(1)}`;
    g.append(s("path", { d: `M0,0 L${p(a0, 44)} A44,44 0 0 1 ${p(a1, 44)} Z`, class: i === w.wheel ? "lit" : i < w.wheel ? "on" : "off" }));
    const am = (a0 + a1) / 2;
    g.append(s("text", { x: (Math.cos(am) * 31).toFixed(1), y: (Math.sin(am) * 31 + 4).toFixed(1), "text-anchor": "middle" }, String(i)));
  }
  g.append(s("circle", { r: 12, class: "hub" }), s("text", { y: 4, "text-anchor": "middle", class: "hub-text" }, `${w.mana_left}`));
  return g;
}

function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

function tileValues(x, y, draw, mana) {
  // The tile's Card Draw (a small card) and Mana Wheel (a small wheel) values as symbols.
  return s("g", { class: "tile-values" },
    s("rect", { x: x + 10, y: y + 26, width: 9, height: 12, rx: 1.5, class: "icon-card" }),
    s("text", { x: x + 21, y: y + 36, class: "icon-num" }, signed(draw)),
    s("circle", { cx: x + 44, cy: y + 32, r: 5.5, class: "icon-mana" }),
    s("text", { x: x + 51, y: y + 36, class: "icon-num" }, signed(mana)));
}

function keyIcon(x, y, secret) {
  return s("g", { class: `key-icon${secret ? " secret" : ""}` },
    s("circle", { cx: x, cy: y, r: 3.2 }), s("rect", { x: x + 2.5, y: y - 1, width: 8, height: 2 }),
    s("rect", { x: x + 8, y: y, width: 1.6, height: 3.5 }),
    s("title", {}, secret ? "a key tile you hid here (only you know)" : "a key"));
}

/** What the tiles' colours mean, under the map (8 Nov "Tiles", "Rage of the wizard!"). */
function legend(obs) {
  const swatch = (kind) => h("span", { class: `wz-swatch ${kind}`, "aria-hidden": "true" });
  const when = obs.rage ? "" : ` (it begins once the heroes hold ${obs.keys_needed} keys)`;
  return h("p", { class: "wz-legend" },
    swatch("down"), " a room still face down · ", swatch("up"), " a room turned up: its card draw and mana · ",
    swatch("removed"), ` grey: a tile torn out in the wizard's rage${when}; nobody can go there`);
}

export function createBoard(host, ctx) {
  if (!document.querySelector("link[data-wizard-css]")) {
    document.head.append(h("link", { rel: "stylesheet", href: "/static/css/wizard.css", "data-wizard-css": "1" }));
  }
  const root = h("div", { class: "wizard-board" });
  host.replaceChildren(root);

  function squareActions(legal, obs) {
    // Which legal actions belong on which square.
    const me = obs.heroes.find((x) => x.seat === obs.seat);
    const bySquare = new Map();
    const add = (sq, a) => bySquare.set(sq, [...(bySquare.get(sq) ?? []), a]);
    for (const { action } of legal) {
      const [verb, a, b] = action.split(" ");
      if (["tower", "key", "remove", "target", "send", "retreat"].includes(verb)) add(a, action);
      else if (verb === "place" || verb === "switch") add(b, action);
      else if ((verb === "move" || verb === "sprint") && me) {
        let { col, row } = parseSquare(me.square);
        for (const d of action.split(" ").slice(1)) { col += DIRS[d][0]; row += DIRS[d][1]; }
        add(squareName(col, row), action);
      }
    }
    return bySquare;
  }

  return {
    label,
    keyFor,
    status,
    render(view) {
      const obs = view.observation;
      names = obs.names || {};
      seatNames = ctx.seatNames?.() ?? [];
      who = ctx.who ?? null;
      seen = { observation: obs, legal: view.legal };
      const faces = obs.faces || {};
      const legal = view.legal;
      const onSquare = squareActions(legal, obs);
      const n = obs.size;
      const svg = s("svg", { class: "wz-grid", viewBox: `-4 -4 ${n * CELL + 8} ${n * CELL + 8}`, role: "img", "aria-label": "The labyrinth" });
      const entrance = obs.entrance_square;
      for (const cell of obs.cells) {
        const { col, row } = parseSquare(cell.square);
        const x = col * CELL;
        const y = row * CELL;
        const g = s("g", { class: "wz-cell", "data-cell": cell.square });
        const kind = cell.removed ? "removed" : cell.tower ? "tower" : cell.flipped ? "up" : "down";
        g.append(s("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 5, class: `cell-hit tile ${kind}` }, cell.removed ? s("title", {}, TORN) : null));
        g.append(s("text", { x: x + 4, y: y + 11, class: "sq-name" }, cell.square));
        if (cell.tower) g.append(s("text", { x: x + CELL / 2, y: y + CELL / 2 + 10, "text-anchor": "middle", class: "tower-icon" }, "♜"));
        else if (cell.flipped && !cell.removed) {
          g.append(s("title", {}, `${nameOf(cell.tile)}: card draw ${signed(cell.draw)}, mana ${signed(cell.mana)}`));
          g.append(s("text", { x: x + CELL / 2, y: y + 22, "text-anchor": "middle", class: "tile-name" }, nameOf(cell.tile).slice(0, 16)));
          g.append(tileValues(x, y, cell.draw, cell.mana));
        }
        if (cell.key) g.append(keyIcon(x + CELL - 16, y + 9, !cell.flipped));
        if (cell.square === entrance) {
          g.append(s("rect", { x: x + CELL - 14, y: y + CELL - 16, width: 9, height: 12, rx: 4, class: "door-mark" },
            s("title", {}, "the tower's entrance square")));
        }
        cell.tokens.forEach((t, i) => {
          const cx = x + 9 + (i % 5) * 11;
          const cy = y + CELL - 8 - Math.floor(i / 5) * 11;
          const disc = s("circle", { cx, cy, r: 5, class: `token ${t.up ? "up" : "down"} ${t.kind ?? ""}` },
            s("title", {}, t.up ? tokenWords(t.kind) : t.kind ? `face down: ${tokenWords(t.kind)} (only you know)` : "a face-down token"));
          g.append(disc);
          if (t.kind && t.kind.startsWith("m")) g.append(s("text", { x: cx, y: cy + 3, "text-anchor": "middle", class: "token-level" }, t.kind.slice(1)));
        });
        if ((cell.items || []).length || cell.keys) {
          g.append(s("g", { class: "dropped" }, s("path", { d: `M${x + CELL - 12},${y + 44} l4,-6 l4,6 z`, class: "bag" }),
            cell.keys ? keyIcon(x + CELL - 22, y + 48, false) : null,
            s("title", {}, `Dropped here: ${(cell.items || []).map(nameOf).join(", ")}${cell.keys ? ` and ${cell.keys} ${cell.keys === 1 ? "key" : "keys"}` : ""}`)));
        }
        const acts = onSquare.get(cell.square);
        if (acts) ctx.offer(g, acts);
        svg.append(g);
      }
      obs.heroes.forEach((hero, i) => {
        if (!hero.alive || !obs.start) return; // not in the labyrinth before they choose where to enter
        const { col, row } = parseSquare(hero.square);
        const cx = col * CELL + 12 + i * 16;
        const cy = row * CELL + CELL - 26;
        svg.append(s("g", { class: `hero hero-${hero.seat}${hero.seat === obs.seat ? " me" : ""}` },
          s("circle", { cx, cy, r: 8 }), s("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, String(hero.seat)),
          s("title", {}, `${heroName(hero.seat)}: ${hero.hp} hp`)));
      });

      const w = obs.wizard;
      const heroesPanel = h("div", { class: "wz-heroes" }, obs.heroes.map((hero) => h("div", {
        class: `wz-hero hero-${hero.seat}${hero.alive ? "" : " dead"}${hero.seat === obs.seat ? " me" : ""}` },
      h("div", { class: "wz-hero-head" }, h("strong", {}, heroName(hero.seat)), hero.seat === obs.seat ? " (you)" : "",
        " · ", hero.alive ? `${hero.hp} hp` : "dead", ` · ${hero.square}`,
        hero.keys ? ` · ${hero.keys} key${hero.keys > 1 ? "s" : ""}` : "", hero.frozen ? " · frozen" : "", hero.stuck ? " · held by tokens" : "",
        view.waitingFor.includes(hero.seat) && obs.decision.kind === "commit" ? h("span", { class: "wz-waiting" }, " · choosing…")
          : hero.committed ? h("span", { class: "wz-ready" }, " · move chosen") : ""),
      h("div", { class: "wz-hero-gear" }, `Sword/boots bonus: combat +${hero.combat_bonus}, traps +${hero.save_bonus}`),
      h("div", { class: "wz-cards" },
        hero.equipped.map((id) => card(id, faces[id], [], ctx, "equipped")),
        hero.hand.map((id) => card(id, faces[id],
          legal.map((e) => e.action).filter((a) => /^(use|boost) /.test(a) && a.split(" ")[1] === id), ctx))))));

      const cardActions = (id) => legal.map((e) => e.action).filter((a) => {
        const [verb, arg] = a.split(" ");
        return ["play", "return", "discard", "keep"].includes(verb) && arg === id;
      });
      const wizardPanel = h("div", { class: "wz-wizard" },
        h("div", { class: "wz-wheel-box" }, wheel(w), h("div", {}, h("strong", {}, "Mana Wheel "), `${w.wheel} (mana left ${w.mana_left})`,
          h("br"), `Wizard's hand: ${w.hand_size} ${w.hand_size === 1 ? "card" : "cards"} · deck ${w.deck_size} · discard pile ${w.discard.length}`,
          w.discard.length ? h("div", { class: "wz-small" }, `Last played/discarded: ${nameOf(w.discard[w.discard.length - 1])}`) : null)),
        w.opening ? h("div", {}, h("h3", {}, "Your opening draw (keep 3, send the rest back)"), h("div", { class: "wz-cards" }, w.opening.map((id) => card(id, faces[id], cardActions(id), ctx)))) : null,
        w.hand ? h("div", {}, h("h3", {}, "Your hand (secret)"), h("div", { class: "wz-cards" }, w.hand.map((id) => card(id, faces[id], cardActions(id), ctx)))) : null,
        obs.decision.card ? h("div", { class: "wz-small" }, `In play: ${nameOf(obs.decision.card)}`) : null,
        obs.decision.tokens ? h("div", { class: "wz-small" }, `Tokens left to place: ${obs.decision.tokens.map(tokenWords).join(", ")}`) : null);

      const keep = obs.decision.kind === "keep" && obs.decision.cards
        ? h("div", { class: "wz-keep" }, h("h3", {}, `Loot for ${heroName(obs.decision.seat)}: keep one`),
          h("div", { class: "wz-cards" }, obs.decision.cards.map((id) => card(id, faces[id], cardActions(id), ctx)))) : null;
      const mine = obs.my_move ? h("div", { class: "wz-ready" }, `Your secret move: ${label(obs.my_move)} (waiting for the others)`) : null;
      root.replaceChildren(h("div", { class: "wz-layout" }, h("div", { class: "wz-map" }, svg, legend(obs), mine, keep),
        h("div", { class: "wz-side" }, wizardPanel, heroesPanel)));
    },
  };
}
