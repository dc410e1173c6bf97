// Star Dice in words ("the virtual table, for a newcomer"): the pieces, the shapes,
// the actions and the events of a step as a person says them, from where the reader sits
// ("your d6", "the Klingon d12", "a square"), never a coordinate, a speed or a piece id such as
// `K.d20b` or `F.d6a+K.d20b`. The engine's own event texts (match.py) stay what the lab, the
// terminal and the records keep; the page words the events' data instead. Pure functions: no
// DOM, no state.

export const FLEETS = ["Federation", "Klingon"];
/** The seed's sets: "white Federation dice", "red Klingon dice" (Final Rules, Materials). */
export const FLEET_SETS = ["white", "red"];

const POLYGONS = { 3: "triangle", 4: "square", 5: "pentagon", 6: "hexagon", 7: "heptagon", 8: "octagon" };

/** The name of a closed formation of `n` dice: "triangle", "square", ..., "9-sided formation". */
export function shapeName(n) {
  return POLYGONS[n] ?? `${n}-sided formation`;
}

/** A shape of the scoring (kind, number of objects) as a noun: "square", "string of 3", "lone die". */
export function shapeNoun(kind, n) {
  if (kind === "formation") return shapeName(n);
  if (kind === "string") return `string of ${n}`;
  return "lone die";
}

/** "d20" for F.d20a, "borg", "blank", "stone" for a torpedo (F.t1). */
export function kindOf(id) {
  if (id === "borg" || id === "blank") return id;
  const name = id.includes(".") ? id.split(".")[1] : id;
  if (/^t\d*$/.test(name) || name === "torpedo") return "stone";
  return name.replace(/[a-z]+$/, "");
}

/** 0 (Federation), 1 (Klingon) or null (the Borg die, the blank d6). */
export function ownerOf(id) {
  if (id === "borg" || id === "blank") return null;
  if (id.startsWith("F.")) return 0;
  if (id.startsWith("K.")) return 1;
  return null;
}

function thing(kind) {
  return kind === "stone" ? "torpedo" : kind;
}

/** One piece from `viewer`'s side of the table (null: a watcher): "your d20", "the Klingon d12",
 *  "the Borg die", "the blank d6"; dice the table sees as one ("F.d6b+K.d20a") are named together. */
export function pieceName(id, viewer) {
  if (id.includes("+")) return listWords(groupedNames(id.split("+"), viewer)) + " (touching: seen as one)";
  if (id === "borg") return "the Borg die";
  if (id === "blank") return "the blank d6";
  const owner = ownerOf(id);
  if (owner === null) return `the ${thing(kindOf(id))}`;
  return owner === viewer ? `your ${thing(kindOf(id))}` : `the ${FLEETS[owner]} ${thing(kindOf(id))}`;
}

/** "a, b and c". */
export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

const KIND_RANK = ["d20", "d12", "d10", "d8", "d6", "d4", "stone"];
const NUMBERS = ["", "one", "two", "three", "four", "five", "six", "seven"];

/** Kinds counted, biggest first: ["two d20s", "d12", "d8"]. */
function countedKinds(ids) {
  const count = new Map();
  for (const id of ids) count.set(thing(kindOf(id)), (count.get(thing(kindOf(id))) ?? 0) + 1);
  return [...count].sort((a, b) => KIND_RANK.indexOf(a[0]) - KIND_RANK.indexOf(b[0]))
    .map(([kind, n]) => (n > 1 ? `${NUMBERS[n] ?? n} ${kind}s` : kind));
}

/** Pieces grouped by owner, the reader's first: ["your two d20s and d8", "the Klingon d12", "the Borg die"]. */
export function groupedNames(ids, viewer) {
  const pieces = ids.flatMap((id) => id.split("+"));
  const groups = new Map();
  for (const id of pieces) {
    const owner = ownerOf(id);
    const key = owner === null ? id : String(owner);
    if (!groups.has(key)) groups.set(key, { owner, ids: [] });
    groups.get(key).ids.push(id);
  }
  const order = [...groups.values()].sort((a, b) => rank(a.owner, viewer) - rank(b.owner, viewer));
  return order.map(({ owner, ids: group }) => {
    if (owner === null) return pieceName(group[0], viewer);
    const counted = countedKinds(group);
    const kinds = listWords(counted);
    if (owner === viewer) return `your ${kinds}`;
    return counted.some((k) => k.includes(" ")) ? `the ${FLEETS[owner]}’s ${kinds}` : `the ${FLEETS[owner]} ${kinds}`;
  });
}

function rank(owner, viewer) {
  if (owner === null) return 3;
  return owner === viewer ? 0 : 1 + owner;
}

/** Pieces in words, grouped by owner: "your d6 and d8, the Klingon d12 and the Borg die". */
export function piecesWords(ids, viewer) {
  return listWords(groupedNames(ids, viewer));
}

/** The letters that tag a scored battle's shapes, in the order the scoring lists them. */
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** One shape of a scored battle in words, as the scoring panel letters it: "A (triangle: your
 *  d20 and d6 with the Klingon d6): yours, 3 points (25 to 6)." */
export function scoredWords(shape, letter, viewer, names) {
  const members = membersWords(shape.objects || [], viewer);
  const what = `${letter} (${shapeNoun(shape.kind, (shape.objects || []).length)}: ${members})`;
  const t = shape.totals || [];
  if (shape.owner !== 0 && shape.owner !== 1) {
    const why = /^tie/.test(shape.note || "") ? `a tie, ${t[0]} to ${t[1]}`
      : /Borg/.test(shape.note || "") ? "the Borg die is not beaten" : "nobody's";
    return `${what}: nobody scores (${why}).`;
  }
  const pts = shape.points + (shape.bonus || 0);
  const whose = shape.owner === viewer ? "yours" : `${who(shape.owner, viewer, names).name}’s`;
  const sums = t.length === 2 ? ` (${t[shape.owner]} to ${t[1 - shape.owner]})` : "";
  return `${what}: ${whose}, ${pts} point${pts === 1 ? "" : "s"}${sums}.`;
}

/** The members of a shape in words: "your d20 and d8 with the Klingon d12 and the Borg die". */
export function membersWords(ids, viewer) {
  const groups = groupedNames(ids, viewer);
  return groups.length > 1 ? `${groups[0]} with ${listWords(groups.slice(1))}` : groups.join("");
}

/** A player as the subject of a sentence: "You" / "Klingon", with the verb's ending. */
function who(seat, viewer, names) {
  if (seat === viewer && seat !== null && seat !== undefined) return { name: "you", s: "", es: "" };
  return { name: names?.[seat] ?? FLEETS[seat] ?? "someone", s: "s", es: "es" };
}

function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** A player's name with their fleet when the seat carries a person's name: "Ann (Klingon)". */
export function playerName(seat, names) {
  const name = names?.[seat];
  const fleet = FLEETS[seat] ?? `seat ${seat}`;
  return name && name !== fleet ? `${name} (${fleet})` : fleet;
}

// -- actions -----------------------------------------------------------------------------------

const THROW_RE = /^(roll|slide) (\S+) at |^torpedo at /;

/** An action as a person would say it (the log's step heads, a chooser): never its numbers. */
export function actionWords(action) {
  const m = THROW_RE.exec(action);
  if (m) {
    if (!m[1]) return "Fire a torpedo";
    if (m[2] === "borg") return "Roll the Borg die";
    const kind = kindOf(`X.${m[2]}`);
    return m[1] === "slide" ? `Slide a ${kind}` : `Roll a ${kind}`;
  }
  if (action === "touch") return "Foul: touch the table (forfeits the battle)";
  if (action.startsWith("touch ")) return `Foul: discard a ${kindOf(`X.${action.slice(6)}`)}`;
  if (action === "hold") return "Hold fire";
  if (action.startsWith("call ")) return `Call ${action.slice(5)}`;
  return action;
}

/** The piece a throw's text names, as a head: "roll d20a" -> {mode: "roll", name: "d20a", kind: "d20"}. */
export function throwHead(head) {
  if (head === "torpedo") return { mode: "torpedo", name: "torpedo", kind: "stone" };
  const [mode, name] = head.split(" ");
  return { mode, name, kind: name === "borg" ? "borg" : kindOf(`X.${name}`) };
}

// -- events ------------------------------------------------------------------------------------

function onSurface(x, y) {
  return x > 0 && x < 1 && y > 0 && y < 0.75;
}

/** What a throw's events say: the piece landing, dice knocked (out of their shape, off the
 *  table), a miss, formations forming and breaking. Each returns a sentence, or null when the
 *  event was already told with another (a die knocked out of the formation it broke). */
const THROW_SENTENCES = {
  landed(d, step) {
    const { viewer } = step;
    const piece = d.piece;
    const t = who(d.seat, viewer, step.names);
    const verb = { roll: "roll", slide: "slide", fire: "fire" }[step.mode] ?? "roll";
    const what = piece === "borg" ? "the Borg die" : kindOf(piece) === "stone" ? "a torpedo"
      : `${ownerOf(piece) === d.seat && d.seat === viewer ? "your" : "a"} ${thing(kindOf(piece))}`;
    const face = d.value === null || d.value === undefined || kindOf(piece) === "stone" || piece === "blank" ? ""
      : ` showing ${d.value}`;
    const where = onSurface(d.x, d.y) ? "" : " on the grey frame, where the table cannot see it";
    const rests = kindOf(piece) === "stone" ? "it stops" : "it comes to rest";
    return `${cap(t.name)} ${verb}${t.s} ${what}: ${rests}${where}${face}.`;
  },
  knocked(d, step) {
    if (step.told.has(d.piece)) return null;
    const out = step.broken.find((objects) => objects.some((o) => o.split("+").includes(d.piece)));
    const shape = out ? ` out of the ${shapeName(out.length)}` : "";
    if (out) step.broken.splice(step.broken.indexOf(out), 1);
    const falls = step.fell.has(d.piece);
    step.told.add(d.piece);
    return `${cap(step.hitter)} knocks ${pieceName(d.piece, step.viewer)}${shape}${falls ? "" : `: it now shows ${d.value}`}.`;
  },
  knocked_off(d, step) {
    const piece = d.piece;
    const off = piece === step.thrown ? `${cap(pieceName(piece, step.viewer))} goes off the table`
      : `${cap(pieceName(piece, step.viewer))} is knocked off the table`;
    const gone = piece === "borg" ? "." : kindOf(piece) === "stone" ? "." : ": it is out of this battle.";
    return off + gone;
  },
  rethrow(d, step) {
    const t = who(d.seat, step.viewer, step.names);
    return `${cap(pieceName(d.die, step.viewer))} misses the table without touching anything: ${t.name} may throw it again.`;
  },
  formation_closed(d, step) {
    return `A ${shapeName((d.objects || []).length)} forms: ${membersWords(d.objects || [], step.viewer)}.`;
  },
  formation_broken(d, step) {
    const objects = d.objects || [];
    if (!step.broken.includes(objects)) return null; // already told with the die knocked out of it
    const moved = objects.flatMap((o) => o.split("+")).find((p) => step.knocked.has(p) || step.fell.has(p));
    const why = moved && !step.told.has(moved) ? `: ${pieceName(moved, step.viewer)} was knocked away` : "";
    return `The ${shapeName(objects.length)} of ${membersWords(objects, step.viewer)} breaks${why}.`;
  },
};

/** What the match's events say: a battle starting, the call and the Borg roll, its end, the
 *  war's, forfeits, fouls, held fire, the solitaire's blank d6. */
const MATCH_SENTENCES = {
  battle_started(d, { viewer, names }) {
    if (d.roller === undefined) {
      const f = who(d.first, viewer, names);
      return `Battle ${d.battle}: ${f.name} throw${f.s} first.`;
    }
    const r = who(d.roller, viewer, names);
    const c = who(1 - d.roller, viewer, names);
    return `Battle ${d.battle}: ${r.name} roll${r.s} the Borg die and ${c.name} call${c.s} odd or even.`;
  },
  called(d, { viewer, names }) {
    const c = who(d.seat, viewer, names);
    return `${cap(c.name)} call${c.s} ${d.call}.`;
  },
  first_player(d, { viewer, names }) {
    const f = who(d.first, viewer, names);
    const parity = d.pips % 2 ? "odd" : "even";
    return `The Borg die shows ${d.value}; its face has ${d.pips} dot${d.pips === 1 ? "" : "s"}, an ${parity} number: ${f.name} go${f.es} first.`;
  },
  borg_reroll: () => "The Borg die left the table: it is rolled again, and the call may be made again.",
  battle_scored(d, { viewer, names, options }) {
    const [f, k] = d.points;
    const war = d.war ? ` The war stands ${d.war[0]} to ${d.war[1]}${options.warTarget ? ` (first past ${options.warTarget} wins)` : ""}.` : "";
    const shapes = (d.shapes || []).map((shape, i) => scoredWords(shape, LETTERS[i % LETTERS.length], viewer, names));
    const why = shapes.length ? ` ${shapes.join(" ")}` : " No shape stood at the end: nobody scores.";
    return `Battle ${d.battle} is over: ${playerName(0, names)} ${f}, ${playerName(1, names)} ${k}.${why}${options.warTarget ? war : ""}`;
  },
  war_over(d, { viewer, names }) {
    if (d.winner === null || d.winner === undefined) return `The war ends in a draw, ${d.war[0]} to ${d.war[1]}.`;
    const w = who(d.winner, viewer, names);
    return `${cap(w.name)} win${w.s} the war, ${d.war[d.winner]} to ${d.war[1 - d.winner]}!`;
  },
  forfeit(d, { viewer, names, options }) {
    const f = who(d.seat, viewer, names);
    return `${cap(f.name)} ${d.why} and forfeit${f.s} the ${options.solo ? "round" : "battle"}.`;
  },
  foul(d, { viewer, names }) {
    const f = who(d.seat, viewer, names);
    return `${cap(f.name)} foul${f.s} and discard${f.s} a ${kindOf(d.die)}.`;
  },
  held_fire(d, { viewer, names }) {
    const f = who(d.seat, viewer, names);
    return `${cap(f.name)} hold${f.s} fire.`;
  },
  blank_dropped: () => "The blank d6 is dropped onto the table.",
};

/**
 * One step of the log in words, from `viewer`'s seat (null: watching): [{kind, text}].
 * `entry` is {step, seat, action, events: [{kind, text, data}]}; `options.names` the seats'
 * names, `options.warTarget` the war's target. An event with no sentence of its own keeps
 * the engine's text.
 */
export function stepLines(entry, viewer, options = {}) {
  const events = entry.events || [];
  const thrown = events.find((e) => e.kind === "landed")?.data?.piece ?? null;
  const step = {
    viewer,
    names: options.names,
    options,
    thrown,
    hitter: thrown ? pieceName(thrown, viewer) : "a throw",
    mode: /^(roll|slide)\b/.exec(entry.action || "")?.[1] ?? (entry.action?.startsWith("torpedo") ? "fire" : "roll"),
    knocked: new Map(events.filter((e) => e.kind === "knocked").map((e) => [e.data.piece, e.data.value])),
    fell: new Set(events.filter((e) => e.kind === "knocked_off").map((e) => e.data.piece)),
    broken: events.filter((e) => e.kind === "formation_broken").map((e) => e.data.objects || []),
    told: new Set(), // knocked dice already worded with the formation they left
  };
  const lines = [];
  for (const e of events) {
    const sentence = Object.hasOwn(THROW_SENTENCES, e.kind) ? THROW_SENTENCES[e.kind]
      : Object.hasOwn(MATCH_SENTENCES, e.kind) ? MATCH_SENTENCES[e.kind] : null;
    const text = sentence ? sentence(e.data || {}, step) : e.text;
    if (text !== null) lines.push({ kind: e.kind, text });
  }
  return lines;
}

// -- scoring -----------------------------------------------------------------------------------

/** A fleet's dice of a shape with their values: "d20 12 + d8 5 = 17" (or one die: "d20 12"). */
export function sumWords(dice, values, total) {
  if (!dice.length) return "no dice";
  const parts = dice.map((id) => `${thing(kindOf(id))} ${values.get(id) ?? "?"}`);
  return parts.length === 1 ? parts[0] : `${parts.join(" + ")} = ${total}`;
}
