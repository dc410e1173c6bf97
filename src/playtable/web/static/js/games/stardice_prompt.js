// The words over the Star Dice table: the one line in the colour of
// whoever acts that says what happens now and what to do (call odd or even, roll the Borg die,
// pick a ship and throw it, press "Next battle"), the end of a battle, a round or the war, and
// the frame's status line (the battle and the war's total). Words only: they come from the
// observation and the shared TableState, never a coordinate or an action's text.

import { Cap } from "./stardice_state.js";
import { FLEETS } from "./stardice_words.js";

/** The one-player modes (RULES.md): objective1 (rounds against 10, 20, 30...), objective2
 *  (outscore the red dice rolled at setup), solo (the first iteration's highest score). */
export function soloMode(obs) {
  return obs?.mode && obs.mode !== "versus" ? obs.mode : null;
}

/** How the war is won, in words: to a score (Final Rules), after X battles (It. 4) or best of X
 *  (It. 7). */
export function warGoal(obs) {
  if (obs.war_format === "rounds") return `${obs.war_rounds} battles`;
  if (obs.war_format === "best_of") return `best of ${obs.war_rounds}`;
  return `to ${obs.war_target}`;
}

export function status(obs) {
  if (obs.mode === "objective1") {
    return `Round ${obs.round} · beat ${obs.target} · ${obs.points_now} now · ${obs.rounds_cleared} cleared`;
  }
  if (obs.mode === "objective2") return `White ${obs.score.points[0]} · red ${obs.score.points[1]} now`;
  if (obs.mode === "solo") return `${obs.score.points[0]} points now`;
  if (!obs.war_target) return `One battle · Federation ${obs.score.points[0]}, Klingon ${obs.score.points[1]} now`;
  if (obs.war_format === "best_of") {
    return `Battle ${obs.battle} · battles won: Federation ${obs.battles_won[0]}, Klingon ${obs.battles_won[1]} · ${warGoal(obs)}`;
  }
  return `Battle ${obs.battle} · war: Federation ${obs.war[0]}, Klingon ${obs.war[1]} · ${warGoal(obs)}`;
}

/** The line over the table, in the colour of its seat (the stylesheet's data-seat). */
export function drawPrompt(state) {
  const { text, seat } = promptWords(state);
  const prompt = state.ui.prompt;
  prompt.textContent = text;
  prompt.dataset.seat = seat === 0 || seat === 1 ? String(seat) : "none";
}

/** What happens now and what to do, in words: {text, seat (whose colour, or null)}. */
function promptWords(state) {
  const { obs, view, frozen, viewer } = state;
  const you = (seat) => state.you(seat);
  if (!obs || !view) return { text: "Loading the table…", seat: null };
  const solo = soloMode(obs);
  if (frozen) {
    const d = frozen.event.data;
    const next = (words) => (state.ctx.replay ? "" : words); // a replay's next step moves on by itself
    if (frozen.event.kind === "round_scored") {
      return { text: `Round ${d.round}: ${d.points} points against ${d.target}, ${d.cleared ? "cleared" : "failed"}.${next(` Press “Next round” for round ${d.round + 1}.`)}`, seat: null };
    }
    return { text: `Battle ${d.battle} is over: ${FLEETS[0]} ${d.points[0]}, ${FLEETS[1]} ${d.points[1]} (war ${d.war[0]}–${d.war[1]}, ${warGoal(obs)}).${next(" Press “Next battle”.")}`, seat: null };
  }
  if (view.terminal) {
    if (solo === "objective2") {
      const [white, red] = obs.score.points;
      return { text: `The game is over: white ${white}, red ${red}: ${white > red ? "you beat the red dice" : "the red dice win"}.`, seat: null };
    }
    if (solo === "solo") return { text: `The game is over: ${obs.score.points[0]} points.`, seat: null };
    if (solo) return { text: `The game is over: ${obs.rounds_cleared} round${obs.rounds_cleared === 1 ? "" : "s"} cleared.`, seat: null };
    const pts = obs.war_format === "best_of" ? obs.battles_won
      : obs.war_target || obs.war_format ? obs.war : obs.last_score?.points ?? obs.score.points;
    const what = obs.war_target || obs.war_format ? "war" : "battle";
    if (obs.winner === null || obs.winner === undefined) return { text: `The ${what} is over: a draw, ${pts[0]} to ${pts[1]}.`, seat: null };
    const w = obs.winner;
    return { text: `The ${what} is over: ${you(w)} win${w === viewer ? "" : "s"}, ${pts[w]} to ${pts[1 - w]}.`, seat: w };
  }
  const mover = obs.to_move;
  const mine = view.yourTurn;
  const them = you(mover);
  const rolling = state.rolling(); // this page's throw is on its way
  if (solo === "objective2" || solo === "solo") {
    const goal = solo === "solo" ? "Throw for the highest score" : `Beat the red dice's ${obs.score.points[1]}`;
    return { text: rolling ? "Your die is on its way…" : `${goal}: pick a die below, then drag from the grey frame onto the table.`, seat: 0 };
  }
  if (solo) {
    if (!mine) return { text: `Round ${obs.round}: beat ${obs.target} points.`, seat: 0 };
    return { text: rolling ? "Your die is on its way…" : `Round ${obs.round}, beat ${obs.target}: pick a die below, then drag from the grey frame onto the table.`, seat: 0 };
  }
  const roller = obs.borg_roller;
  const caller = 1 - roller;
  if (obs.phase === "call") {
    if (mine) return { text: `Battle ${obs.battle}: ${you(roller)} roll${roller === viewer ? "" : "s"} the Borg die. Call its pips, odd or even: call right and you go first.`, seat: mover };
    return { text: `Battle ${obs.battle}: ${Cap(you(caller))} call${caller === viewer ? "" : "s"} odd or even, then ${you(roller)} roll${roller === viewer ? "" : "s"} the Borg die.`, seat: mover };
  }
  if (obs.phase === "borg") {
    const called = `${Cap(you(caller))} called ${obs.call}.`;
    if (mine) return { text: rolling ? "The Borg die is on its way…" : `Roll the Borg die: drag from the grey frame onto the table. ${called}`, seat: mover };
    return { text: `${Cap(them)} roll${mover === viewer ? "" : "s"} the Borg die. ${called}`, seat: mover };
  }
  if (obs.phase === "torpedo") {
    if (mine) return { text: "Fire your torpedo (drag from the grey frame) or hold fire.", seat: mover };
    return { text: `${Cap(them)} may fire a torpedo.`, seat: mover };
  }
  const otherEmpty = obs.hands[1 - mover]?.length === 0;
  if (mine) {
    if (rolling) return { text: "Your ship is on its way…", seat: mover };
    return { text: `Your turn: pick a ship below, then drag from the grey frame onto the table.${otherEmpty ? ` ${Cap(you(1 - mover))} has none left.` : ""}`, seat: mover };
  }
  return { text: `${Cap(them)}’s turn: a ship is coming.`, seat: mover };
}
