"""Star Dice, Second Iteration, Objective 1 (seed 002): the solitaire rounds game.

One player (seat 0) holds the iteration's white dice; at the start of every round a blank d6 is
dropped onto the empty table ("Drop the blank d6 from directly over the table onto the table");
it "is treated as a die that is always worth 0 (but it still counts for making shapes)". The
player throws every die in hand; the table is then scored with iteration 2's scoring (the
`multiplier` system of `scoring.py`, singles worth 1); round n must score more than 10n
(`objective1_target`). A cleared round starts the next one; the first failed round ends the game.

The state reuses the match's machinery (`StarDiceState`): throws, the table, the formation
engine, fouls. Only the round structure differs. Storage: `battle` is the current round and
`battle_points` lists each scored round's points as a one-element list, so the match's JSON form
serves unchanged (params.mode tells the two apart).
"""

from __future__ import annotations

import math
from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import TERMINAL, Event
from playtable.games.stardice.actions import BLANK, SEAT_NAMES, SEATS, die_names
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.physics import Launch, Piece, simulate
from playtable.games.stardice.scoring import TableScore, objective1_target
from playtable.games.stardice.state_json import state_from_json

DROP_BOUNCE = 0.3
"""Largest speed (table widths/s) of the blank die's bounce after its drop."""


class SolitaireState(StarDiceState):
    """Objective 1 of the Second Iteration: rounds against a rising target."""

    # -- setup -----------------------------------------------------------------------------------
    def start_round(self) -> list[Event]:
        """A round: the table cleared, the full hand, the blank d6 dropped (RULES.md)."""
        p = self.params
        self.clear_table([[f"{SEATS[0]}.{n}" for n in die_names(p)], []], 0)
        self.phase = "throw"
        self.to_move = 0
        events = [Event("round_started", f"Round {self.battle}: beat {self.target} points.",
                        {"round": self.battle, "target": self.target})]
        return events + self._drop_blank()

    def start_battle(self) -> list[Event]:
        return self.start_round()

    def _drop_blank(self) -> list[Event]:
        """The blank d6 falls from overhead onto a random point of the touch surface and bounces
        a little (random direction, speed up to DROP_BOUNCE, spin), all from the state's
        stream. Should the bounce ever carry it off the touch surface, it lies where it fell."""
        geo = self.params.physics_params().geometry
        x = self.chance.uniform(0.1, geo.width - 0.1)
        y = self.chance.uniform(0.1, geo.depth - 0.1)
        heading = self.chance.uniform(0.0, 2 * math.pi)
        speed = self.chance.uniform(0.0, DROP_BOUNCE)
        spin = self.chance.uniform(-6.0, 6.0)
        launch = Launch(Piece(BLANK, "d6", x, y, 0.0), speed * math.cos(heading),
                        speed * math.sin(heading), spin)
        result = simulate([], launch, self.params.physics_params())
        piece = result.pieces.get(BLANK)
        if piece is None or not geo.on_surface(piece.x, piece.y):
            piece = Piece(BLANK, "d6", x, y, 0.0)
        self.table = {BLANK: piece}
        self.values = {BLANK: 0}
        self._finish_frames(result.time)
        return [Event("blank_dropped", f"The blank d6 is dropped onto the table and comes to "
                      f"rest at ({piece.x:.2f}, {piece.y:.2f}).",
                      {"piece": BLANK, "x": piece.x, "y": piece.y})]

    # -- protocol --------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 1

    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else 0

    @property
    def target(self) -> int:
        """The score the current round must beat."""
        return objective1_target(self.battle)

    @property
    def rounds_cleared(self) -> int:
        return sum(1 for i, b in enumerate(self.battle_points) if b[0] > objective1_target(i + 1))

    def _roll_face(self, die: str) -> int:
        if die == BLANK:  # "always worth 0": knocked about, it still shows no value
            return 0
        return super()._roll_face(die)

    def _next_turn(self, seat: int) -> list[Event]:
        self.rethrows = 0
        if self.hands[0]:
            self.to_move = 0
            return []
        return self._score_round(None)

    def _forfeit(self, seat: int, why: str) -> list[Event]:
        """Only reachable with foul_rule=forfeit: the round is lost with 0 points."""
        self.forfeits.append(seat)
        events = [Event("forfeit", f"{SEAT_NAMES[0]} {why} and loses the round.",
                        {"seat": seat, "why": why})]
        return events + self._score_round(0)

    def _score_round(self, forfeiter: int | None) -> list[Event]:
        score = self.current_score()
        pts = 0 if forfeiter is not None else score.points[0]
        self.last_score = TableScore((pts,), score.shapes)
        self.battle_points.append([pts])
        self.war = [self.war[0] + pts, 0]
        target = self.target
        cleared = pts > target
        events = [Event("round_scored", f"Round {self.battle}: {pts} points against {target}: "
                        + ("cleared." if cleared else "failed."),
                        {"round": self.battle, "points": pts, "target": target,
                         "cleared": cleared})]
        if cleared and self.battle < self.params.max_battles:
            self.battle += 1
            return events + self.start_round()
        self.phase = "over"
        n = self.rounds_cleared
        text = (f"The game ends: {n} round{'s' if n != 1 else ''} cleared."
                if not cleared else f"The round limit ({self.params.max_battles}) is reached: "
                f"{n} rounds cleared.")
        return events + [Event("game_over", text, {"rounds_cleared": n})]

    def end_text(self) -> str | None:
        if not self.is_terminal:
            return None
        n = self.rounds_cleared
        return (f"Round {self.battle} scored {self.battle_points[-1][0]} points, not more than its "
                f"target of {self.target}: {n} round{'s' if n != 1 else ''} cleared."
                if n < self.battle else f"Every round was cleared: {n} rounds.")

    # -- outcome ---------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """The number of rounds cleared so far (the seed's objective: "see how far you can get";
        so the lab counts a game that clears round 1 as a win)."""
        return [float(self.rounds_cleared)]

    def metrics(self) -> dict[str, float | int | str | bool]:
        rounds = [b[0] for b in self.battle_points]
        layout = self.engine.layout()
        return {
            "rounds_cleared": self.rounds_cleared,
            "rounds_played": len(rounds),
            "last_round_points": rounds[-1] if rounds else 0,
            "last_target": objective1_target(len(rounds)) if rounds else 0,
            "best_round_points": max(rounds, default=0),
            "total_points": sum(rounds),
            "throws": self.throws,
            "eliminated": len(self.eliminated),
            "formations": len(layout.formations),
            "forfeits": len(self.forfeits),
        }

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything is public (the seat is 0); only the future is hidden."""
        obs = super().observation(seat)
        for key in ("war", "war_target", "call", "borg_roller", "torpedoes_left", "borg_pips",
                    "winner", "battle", "battle_points"):
            obs.pop(key, None)
        obs["hands"] = [self.hand_names(0)]
        obs.update({"mode": "objective1", "round": self.battle, "target": self.target,
                    "round_points": [b[0] for b in self.battle_points],
                    "rounds_cleared": self.rounds_cleared,
                    "points_now": obs["score"]["points"][0]})
        return obs

    def determinize(self, seat: int, rng: Chance) -> SolitaireState:
        clone = self.clone()
        clone.chance = Chance(rng.next_u64())
        return clone

    def clone(self) -> SolitaireState:
        twin = SolitaireState.__new__(SolitaireState)
        twin.__dict__.update(StarDiceState.clone(self).__dict__)  # the match's copy, no JSON
        twin.setup_events = list(self.setup_events)
        return twin


def solitaire_from_json(data: Any) -> SolitaireState:
    """A SolitaireState from its JSON form (the match's form, checked by `state_from_json`)."""
    from playtable.core.errors import BadPosition

    base = state_from_json(data, StarDiceState)
    if base.params.mode != "objective1":
        raise BadPosition("not an objective1 position (params.mode)")
    if base.hands[1] or any(len(b) != 1 for b in base.battle_points):
        raise BadPosition("an objective1 position has one hand and one score per round")
    if base.to_move != 0:
        raise BadPosition("in objective1 the player is seat 0")
    state = SolitaireState.__new__(SolitaireState)
    state.__dict__.update(base.__dict__)
    return state


def evaluate(state: SolitaireState) -> float:
    """In [0, 1): rounds cleared plus how the table now stands against the round's target,
    squashed; monotone in rounds cleared."""
    raw = float(state.rounds_cleared)
    if not state.is_terminal:
        points = state.current_score().points[0]
        raw += 0.5 + 0.5 * math.tanh((points - state.target) / 10.0)
    return raw / (raw + 1.0)
