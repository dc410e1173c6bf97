// The match on the live table (seed It. 3 "Wish that the game could keep track of the
// score", FR War): the server's `match` view (games/stardice/live_match.py) drawn beside the
// table, and the buttons with which the players confirm what the table cannot see: the call,
// the Borg die rolled off at the opening, each die's face (the picker), a throw the table never
// saw, a forfeit, the end of a battle. Every button sends one `match` message; the server checks
// it and answers with the new view (or one error, nothing changed).

import { h } from "../util.js";

const SIDE = ["Federation", "Klingon"];
const SIDE_CLASS = ["fed", "kli"];
const LOG_SHOWN = 6;

function kindOf(die) {
  return die.includes(".") ? die.split(".")[1].replace(/[a-z]+$/, "") : die;
}

function war(view) {
  const target = view.war_target ? `War to ${view.war_target}` : "One battle";
  const battle = view.battle ? ` · battle ${view.battle}` : "";
  const totals = view.war || [0, 0];
  return h("div", { class: "live-war" },
    h("span", { class: "live-war-title" }, `${target}${battle}`),
    h("span", { class: "live-war-side fed", "data-side": "0" }, `Federation ${totals[0]}`),
    h("span", { class: "live-war-side kli", "data-side": "1" }, `Klingon ${totals[1]}`));
}

function hands(view) {
  return h("div", { class: "live-hands" }, [0, 1].map((seat) => h("div", { class: `live-hand ${SIDE_CLASS[seat]}` },
    h("span", { class: "live-hand-name" }, `${SIDE[seat]}:`),
    view.hands[seat].length
      ? view.hands[seat].map((d) => h("span", { class: "chip", title: d }, kindOf(d)))
      : h("span", { class: "chip none" }, "all in"))));
}

function lastBattle(view) {
  const n = view.battle_points.length;
  if (!n || !view.last_score || !["call", "borg", "over"].includes(view.phase)) return null;
  const [f, k] = view.battle_points[n - 1];
  const shapes = view.last_score.shapes.filter((s) => s.kind !== "single" && s.owner !== null);
  return h("div", { class: "live-last" },
    h("strong", {}, `Battle ${view.phase === "over" ? view.battle : view.battle - 1}: Federation ${f} · Klingon ${k}`),
    shapes.length ? h("ul", {}, shapes.map((s) => h("li", {},
      `${s.kind === "formation" ? `Formation of ${s.objects.length}` : "String"}: ${s.points}${s.bonus ? ` + ${s.bonus} Borg` : ""} to ${SIDE[s.owner]} (sums ${s.totals[0]}–${s.totals[1]})`)))
      : h("p", { class: "quiet" }, "No shape scored."));
}

/** What the players confirm when the table did not see it: a die never seen, a touch, leaving the war. */
function unseenControls(view, button) {
  const more = [];
  if (view.phase === "throw") {
    const seat = view.to_move;
    more.push(h("p", {}, `${SIDE[seat]}'s die never seen by the table (on the frame, or off after touching a die):`),
      h("div", { class: "live-row" }, view.hands[seat].map((d) => button(kindOf(d) + d.slice(-1), { do: "unseen", die: d },
        { class: "chip-button", dataset: { act: "unseen", die: d } }))));
  }
  more.push(h("p", {}, "A touch changed the table (FR: the toucher forfeits the battle):"),
    h("div", { class: "live-row" }, [0, 1].map((seat) => button(`${SIDE[seat]} forfeits`, { do: "forfeit", seat, why: "touch" },
      { class: SIDE_CLASS[seat], dataset: { act: `forfeit-touch-${seat}` } }))));
  more.push(h("p", {}, "Or leave this war:"),
    button("Start a new war", { do: "start" }, { dataset: { act: "restart" } }));
  return h("details", { class: "live-more" }, h("summary", {}, "Something the table did not see…"), more);
}

/** The buttons of the match's phase; `button(label, message, opts)` sends a `match` message. */
function controls(view, button, pick) {
  const out = [];
  const phase = view.phase;
  if (phase === "unavailable") return out;
  if (phase === "idle" || phase === "over") {
    out.push(button(phase === "over" ? "New war" : "Start a war", { do: "start" }, { class: "primary", dataset: { act: "start" } }));
    return out;
  }
  if (phase === "call") {
    const blocked = view.ships_on_table.length > 0;
    for (const parity of ["odd", "even"]) {
      out.push(button(`${SIDE[view.caller]} calls ${parity}`, { do: "call", seat: view.caller, parity },
        { class: `primary ${SIDE_CLASS[view.caller]}`, disabled: blocked, dataset: { act: `call-${parity}` } }));
    }
  }
  if (phase === "borg") {
    out.push(button("The Borg die rolled off: roll again", { do: "borg_off" }, { dataset: { act: "borg-off" } }));
  }
  if (view.missing.length) {
    out.push(h("div", { class: "live-missing" }, h("span", {}, "Enter the faces:"),
      view.missing.map((d) => h("button", { type: "button", class: "chip-button", dataset: { die: d },
        onClick: () => pick(d) }, `${d} ?`))));
  }
  if (phase === "count") {
    out.push(button("Score the battle", { do: "score" },
      { class: "primary", disabled: view.missing.length > 0 || view.moving.length > 0, dataset: { act: "score" } }));
  }
  if (phase === "throw" || phase === "count") {
    if (view.borg_off) {
      out.push(h("div", { class: "live-borg-off", role: "alert" },
        h("span", {}, "The Borg die left the table: who hit it off forfeits."),
        [0, 1].map((seat) => button(`${SIDE[seat]} forfeits`, { do: "forfeit", seat, why: "borg" },
          { class: SIDE_CLASS[seat], dataset: { act: `forfeit-borg-${seat}` } })),
        button("It lies on the frame: play on", { do: "borg_on_frame" }, { dataset: { act: "borg-on-frame" } })));
    }
    out.push(unseenControls(view, button));
  }
  return out;
}

/** The panel: `show(view)` redraws it; `send(message)` and `pick(die)` are the page's. */
export function matchPanel(send, pick) {
  const el = h("section", { class: "live-match", "aria-label": "The match" });
  const act = (message) => send({ type: "match", ...message });
  const button = (label, message, opts = {}) => h("button", {
    type: "button", class: opts.class || null, disabled: opts.disabled || null,
    dataset: opts.dataset || null, onClick: () => act(message) }, label);

  function show(view) {
    const turn = view.phase === "throw" ? SIDE_CLASS[view.to_move] : view.phase === "call" ? SIDE_CLASS[view.caller] : "";
    el.dataset.phase = view.phase;
    const open = el.querySelector("details.live-more")?.open;
    el.replaceChildren(...[
      view.phase === "unavailable" ? null : war(view),
      h("p", { class: `live-prompt ${turn}`, role: "status", "aria-live": "polite" }, view.prompt),
      h("div", { class: "live-controls" }, controls(view, button, pick)),
      view.hands && view.phase !== "over" && view.phase !== "idle" ? hands(view) : null,
      view.battle_points ? lastBattle(view) : null,
      view.log.length ? h("ol", { class: "live-log" }, view.log.slice(-LOG_SHOWN).map((line) => h("li", {}, line.text))) : null,
    ].filter(Boolean));
    if (open) el.querySelector("details.live-more")?.setAttribute("open", "");
  }

  return { el, show };
}
