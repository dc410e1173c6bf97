// The Angry Troll page: the bridge as two rows of six card stacks (heights, face-up faces, the
// bricks you remember), the troll and what it carries, both flight stacks, the deck and the
// phase, with the legal actions clickable on the bridge itself. Awakenings, flights and the
// troll's steps are animated from the events of the step just played.

import { prefersReducedMotion, s } from "../util.js";
import {
  BANK_X, CARD_H, CARD_W, cardElement, cardInfo, cardXY, defs, footprints, LAYOUTS, scenery, slotName, slotOf,
  slotXY, trollFigure,
} from "./troll_draw.js";

// The troll game gives no hints (State.hint is Rotator's alone today); its bots play at tables.
export const hints = false;

const NEIGHBOUR = {
  left: (slot) => (slot % 6 > 0 ? slot - 1 : -1),
  right: (slot) => (slot % 6 < 5 ? slot + 1 : -1),
  up: (slot) => (slot < 6 ? slot + 6 : -1),
  down: (slot) => (slot >= 6 ? slot - 6 : -1),
};
const VERB_WORDS = {
  move: (d) => `Move ${d}`,
  pick: (d) => `Pick up the brick ${d === "up" || d === "down" ? d : `to the ${d}`}`,
  club: (d) => `Club the brick ${d === "up" || d === "down" ? d : `to the ${d}`}`,
  throw: (d) => `Throw the diamond ${d}`,
  shovel: (d) => `Shovel the brick ${d === "up" || d === "down" ? d : `to the ${d}`}`,
  wake: (d) => `Wake the brick ${d === "up" || d === "down" ? d : `to the ${d}`} (spade)`,
};
const ARROWS = { left: "ArrowLeft", right: "ArrowRight", up: "ArrowUp", down: "ArrowDown" };

export function label(action) {
  const words = action.split(" ");
  if (words[0] === "stomp") return "Stomp the brick under the troll";
  if (words[0] === "wait") return "Wait (nothing else is possible)";
  if (words[0] === "lay") return `Lay the carried brick at ${words[1]} ${words[2]}`;
  return VERB_WORDS[words[0]]?.(words[1]) ?? action;
}

/** Stacks as a flat list of 12 observation stacks (slot = row * 6 + column). */
function stacksOf(obs) {
  return [...obs.bridge.lower, ...obs.bridge.upper];
}

/** The slot a legal action points at on the bridge, or null if it is played from the list only. */
function targetOf(action, obs) {
  const [verb, a, b] = action.split(" ");
  const troll = slotOf(obs.troll);
  if (verb === "stomp") return troll;
  if (verb === "lay") return (a === "upper" ? 6 : 0) + Number(b) - 1;
  if (!NEIGHBOUR[a]) return null;
  if (verb === "throw") {
    // The diamond hits the first awake brick that way (§7.1: no lobbing over one).
    const stacks = stacksOf(obs);
    for (let slot = NEIGHBOUR[a](troll); slot >= 0; slot = NEIGHBOUR[a](slot)) {
      if (stacks[slot].height && stacks[slot].awake) return slot;
    }
    return null;
  }
  const slot = NEIGHBOUR[a](troll);
  return slot >= 0 ? slot : null;
}

export function createBoard(host, ctx) {
  const svg = s("svg", { class: "troll-board", viewBox: LAYOUTS.wide.viewBox, role: "group",
    "aria-label": "The magic bridge" });
  const layer = s("g", { class: "bridge-layer" });
  const troll = s("g", { class: "troll" }, trollFigure());
  const carried = s("g", { class: "carried" });
  const side = s("g", { class: "side-stacks" });
  const effects = s("g", { class: "effects", "aria-hidden": "true" });
  troll.append(carried);
  svg.append(defs(), scenery(), labels(), layer, side, troll, effects);
  host.replaceChildren(svg);
  let last = null;
  let layout = LAYOUTS.wide;
  const chooseLayout = () => {
    const next = host.clientWidth && host.clientWidth < 620 ? LAYOUTS.compact : LAYOUTS.wide;
    if (next === layout) return;
    layout = next;
    svg.setAttribute("viewBox", layout.viewBox);
    svg.classList.toggle("compact", layout === LAYOUTS.compact);
    if (last) drawSide(last);
  };
  new ResizeObserver(chooseLayout).observe(host);

  function drawStacks(obs, view) {
    layer.replaceChildren();
    const stacks = stacksOf(obs);
    const trollSlot = slotOf(obs.troll);
    const visited = new Set((obs.visited || []).map(slotOf));
    const bySlot = new Map();
    for (const entry of view.legal) {
      const slot = targetOf(entry.action, obs);
      if (slot === null) continue;
      if (!bySlot.has(slot)) bySlot.set(slot, []);
      bySlot.get(slot).push(entry.action);
    }
    for (let slot = 0; slot < 12; slot += 1) {
      const stack = stacks[slot];
      const { x, y } = slotXY(slot);
      const g = s("g", { class: "stack", dataset: { slot: slotName(slot) } });
      // The empty place stays visible: lay actions and the awakening rule refer to it.
      g.append(s("rect", { class: "slot-outline", x: x - 4, y: y - 4, width: CARD_W + 8, height: CARD_H + 8, rx: 9 }));
      stack.cards.forEach((card, depth) => {
        const top = depth === stack.cards.length - 1;
        const { x: cx, y: cy } = cardXY(slot, depth);
        const el = cardElement(card, top && stack.awake, cx, cy, { awake: top && stack.awake });
        if (top) el.classList.add("top-card");
        g.append(el);
      });
      if (stack.height) {
        g.append(s("text", { x: x + CARD_W / 2, y: y + CARD_H + 22, class: "height-label", "text-anchor": "middle" },
          `${stack.height} ${stack.height === 1 ? "card" : "cards"}`));
      } else {
        g.append(s("text", { x: x + CARD_W / 2, y: y + CARD_H / 2 + 5, class: "empty-label", "text-anchor": "middle" }, "empty"));
      }
      if (stack.flees) {
        const ty = y - (stack.height - 1) * 7 - 12;
        g.append(s("text", { x: x + CARD_W / 2, y: ty, class: "flees", "text-anchor": "middle" },
          stack.flees === "left" ? "◀ flees" : "flees ▶"));
      }
      if (visited.has(slot) && slot !== trollSlot && !view.terminal) g.append(footprints(x + CARD_W - 22, y + CARD_H - 12));
      // On top of the cards: the outline that shows this stack can be clicked.
      const topY = cardXY(slot, Math.max(0, stack.height - 1)).y;
      g.append(s("rect", { class: "slot-hit", x: x - 5, y: topY - 5, width: CARD_W + 10, height: y - topY + CARD_H + 10, rx: 9 }));
      const top = stack.height ? stack.cards[stack.cards.length - 1] : null;
      const topWords = !stack.height ? "empty" : `${stack.height} ${stack.height === 1 ? "card" : "cards"}, top `
        + (stack.awake ? `${cardInfo(top).name}, awake` : top ? `${cardInfo(top).name}, dormant` : "dormant, unseen");
      g.append(s("title", {}, `${slotName(slot)}: ${topWords}${slot === trollSlot ? " (the troll stands here)" : ""}`));
      if (bySlot.has(slot)) ctx.offer(g, bySlot.get(slot));
      layer.append(g);
    }
  }

  function drawTroll(obs) {
    const slot = slotOf(obs.troll);
    const height = stacksOf(obs)[slot].height;
    const { x, y } = cardXY(slot, Math.max(0, height - 1));
    // The troll stands on the top card, off-centre so the card's rank stays readable.
    troll.style.transform = `translate(${x + CARD_W / 2 + 8}px, ${y + 56}px)`;
    troll.classList.toggle("gone", Boolean(obs.outcome === "loss" && obs.end_reason === "double_awakening"));
    carried.replaceChildren();
    (obs.carried || []).forEach((item, i) => {
      const el = cardElement(item.card, item.awake, -68 + i * 24, -98, { width: 46, height: 64 });
      el.classList.add("carried-card");
      if (!item.awake) {
        el.append(s("text", { x: 23, y: 58, "text-anchor": "middle", class: "asleep-tag" }, "asleep"));
      }
      carried.append(el);
    });
  }

  function drawSide(obs) {
    side.replaceChildren();
    const lowerColour = obs.lower_colour;
    const upperColour = lowerColour === "red" ? "black" : "red";
    for (const [row, colour] of [["upper", upperColour], ["lower", lowerColour]]) {
      const { x, y } = layout[row];
      const cards = obs.flight_stacks[row];
      const g = s("g", { class: `flight-stack ${row}` });
      g.append(s("text", { x: x + CARD_W / 2, y: y - 12, class: "side-label", "text-anchor": "middle" }, `${row} stack`));
      if (cards.length) {
        g.append(cardElement(cards[cards.length - 1], true, x, y));
      } else {
        g.append(s("rect", { class: "slot-outline", x, y, width: CARD_W, height: CARD_H, rx: 7 }));
      }
      g.append(s("text", { x: x + CARD_W / 2, y: y + CARD_H + 20, class: "side-note", "text-anchor": "middle" },
        `${cards.length} ${colour}`));
      side.append(g);
    }
    const { x: deckX, y: deckY } = layout.deck;
    if (obs.deck_count > 0) {
      for (let i = Math.min(4, obs.deck_count - 1); i >= 0; i -= 1) side.append(cardElement(null, false, deckX + i * 2, deckY - i * 2));
    } else {
      side.append(s("rect", { class: "slot-outline", x: deckX, y: deckY, width: CARD_W, height: CARD_H, rx: 7 }));
    }
    side.append(s("text", { x: deckX + CARD_W / 2, y: deckY - 16, class: "side-label", "text-anchor": "middle" }, "deck"),
      s("text", { x: deckX + CARD_W / 2, y: deckY + CARD_H + 22, class: "deck-count", "text-anchor": "middle" }, `${obs.deck_count} left`));
    if (obs.set_aside?.length) {
      const text = obs.set_aside.map((c) => cardInfo(c).pretty).join(" ");
      // Below the deck beside the bridge; to its right when the stacks sit below the river.
      const wide = layout === LAYOUTS.wide;
      side.append(s("text", { x: wide ? deckX + CARD_W / 2 : deckX + CARD_W + 20, y: wide ? deckY + CARD_H + 44 : deckY + CARD_H / 2,
        class: "side-note", "text-anchor": wide ? "middle" : "start" }, `next: ${text}`));
    }
  }

  function ghost(card, faceUp, x, y) {
    const el = cardElement(card, faceUp, x, y);
    effects.append(el);
    return el;
  }

  function animate(events, obs) {
    effects.replaceChildren();
    if (prefersReducedMotion()) return;
    let delay = 0;
    const stacks = stacksOf(obs);
    const topOf = (slot) => layer.querySelector(`[data-slot="${slotName(slot)}"] .top-card .card-inner`);
    const topXY = (slot) => cardXY(slot, Math.max(0, stacks[slot].height - 1));
    const play = (el, frames, ms = 450) => el?.animate(frames, { duration: ms, delay, easing: "ease-in-out", fill: "backwards" });
    for (const event of events) {
      const d = event.data || {};
      if (event.kind === "awakened") {
        play(topOf(d.slot), [{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }]);
      } else if (event.kind === "flew_away") {
        const { x, y } = topXY(d.slot);
        const el = ghost(d.card, true, x, y - 7);
        el.querySelector(".card-inner").animate([{ transform: "translate(0px, 0px) rotate(0deg)", opacity: 1 },
          { transform: "translate(40px, -320px) rotate(25deg)", opacity: 0 }], { duration: 900, delay, fill: "both" });
      } else if (event.kind === "fled_step") {
        const dx = (d.from % 6 - d.to % 6) * 100;
        play(topOf(d.to), [{ transform: `translate(${dx}px, 0px)` }, { transform: "translate(0px, 0px)" }], 500);
      } else if (event.kind === "fled") {
        const { x, y } = cardXY(d.from, 0);
        const el = ghost(d.card, true, x, y);
        el.querySelector(".card-inner").animate([{ transform: "translate(0px, 0px)", opacity: 1 },
          { transform: `translate(${BANK_X[d.bank] - x}px, 60px)`, opacity: 0 }], { duration: 800, delay, fill: "both" });
      } else if (["stomped", "clubbed", "thrown"].includes(event.kind) && d.slot !== null && d.slot !== undefined) {
        play(topOf(d.slot), [{ transform: "translateY(0px)" }, { transform: "translateY(10px)" }, { transform: "translateY(0px)" }], 300);
      } else if (event.kind === "card_played") {
        const row = d.row === 0 ? "lower" : "upper";
        play(side.querySelector(`.flight-stack.${row} .card .card-inner`),
          [{ transform: "translate(95px, 0px)", opacity: 0.3 }, { transform: "translate(0px, 0px)", opacity: 1 }]);
      } else {
        continue;
      }
      delay += 260;
    }
  }

  return {
    label,
    keyFor(action) {
      const [verb, dir] = action.split(" ");
      if (verb === "move") return ARROWS[dir];
      if (verb === "stomp") return "s";
      if (verb === "wait") return "w";
      return null;
    },
    status(obs) {
      if (obs.outcome) return `${obs.outcome === "win" ? "Won" : "Lost"} on turn ${obs.turn} · score ${obs.score} (cards left in the deck)`;
      const left = obs.actions_left === 1 ? "1 action left" : `${obs.actions_left} actions left`;
      const carries = obs.carried.length ? ` · carries ${obs.carried.map((c) => cardInfo(c.card).pretty).join(", ")}` : "";
      return `Turn ${obs.turn} · the troll's actions: ${left}${carries} · deck ${obs.deck_count} · lower row ${obs.lower_colour}`;
    },
    render(view) {
      const obs = view.observation;
      drawStacks(obs, view);
      drawTroll(obs);
      drawSide(obs);
      if (view.animate && last) animate(view.events, obs);
      else effects.replaceChildren();
      last = obs;
    },
  };
}

function labels() {
  const g = s("g", { class: "bridge-labels", "aria-hidden": "true" });
  for (let c = 0; c < 6; c += 1) {
    const { x } = slotXY(c);
    g.append(s("text", { x: x + CARD_W / 2, y: 28, class: "position-label", "text-anchor": "middle" }, String(c + 1)));
  }
  g.append(s("text", { x: 60, y: 195, class: "row-label", "text-anchor": "middle" }, "upper"),
    s("text", { x: 60, y: 385, class: "row-label", "text-anchor": "middle" }, "lower"));
  return g;
}
