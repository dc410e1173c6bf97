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


class SoloState(SolitaireState):
    """First Iteration (seed 002, "Objective: Achieve the highest score possible at the end of
    the match"): one player throws their dice once; the score is the result. No blank die
    (that came with the Second Iteration's Objective 1) and no rounds."""

    def start_round(self) -> list[Event]:
        p = self.params
        self.clear_table([[f"{SEATS[0]}.{n}" for n in die_names(p)], []], 0)
        self.phase = "throw"
        self.to_move = 0
        return [Event("round_started", "Throw every die for the highest score.", {"round": 1})]

    def _score_round(self, forfeiter: int | None) -> list[Event]:
        score = self.current_score()
        pts = 0 if forfeiter is not None else score.points[0]
        self.last_score = TableScore((pts,), score.shapes)
        self.battle_points.append([pts])
        self.war = [pts, 0]
        self.phase = "over"
        return [Event("game_over", f"The match ends with {pts} points.", {"points": pts})]

    def end_text(self) -> str | None:
        return f"The match ends with {self.war[0]} points." if self.is_terminal else None

    def returns(self) -> list[float]:
        """The score itself: the First Iteration's objective is the highest score."""
        return [float(self.war[0])] if self.is_terminal else [0.0]

    def metrics(self) -> dict[str, float | int | str | bool]:
        layout = self.engine.layout()
        return {"points": self.war[0], "throws": self.throws, "eliminated": len(self.eliminated),
                "formations": len(layout.formations), "forfeits": len(self.forfeits)}

    def observation(self, seat: int) -> dict[str, Any]:
        obs = super().observation(seat)
        for key in ("round", "target", "round_points", "rounds_cleared"):
            obs.pop(key, None)
        obs["mode"] = self.params.mode
        return obs

    def clone(self) -> SoloState:
        twin = type(self).__new__(type(self))
        twin.__dict__.update(SolitaireState.clone(self).__dict__)
        return twin


class Objective2State(SoloState):
    """Second Iteration, Objective 2 (seed 002): "A set of red dice matching the player's set of
    white dice"; setup: "Roll all the red dice at once onto the table"; "The white and red dice
    may mix within the same shape"; "After calculating the score of your own white dice,
    calculate the score of the red dice in exactly the same manner"; objective: "You win if your
    total score exceeds the total score of the red dice". The red dice are seat 1's ids (`K.`),
    owned by nobody who plays; `war` keeps [white, red] once scored."""

    def start_round(self) -> list[Event]:
        p = self.params
        self.clear_table([[f"{SEATS[0]}.{n}" for n in die_names(p)], []], 0)
        self.phase = "throw"
        self.to_move = 0
        events = [Event("round_started", "The red dice are rolled onto the table: beat their "
                        "score.", {"round": 1})]
        return events + self._roll_red()

    def _roll_red(self) -> list[Event]:
        """"Roll all the red dice at once": each red die lands at a random point of the touch
        surface and bounces like the blank d6 of Objective 1 (DROP_BOUNCE), one after another
        in hand order, so a later one may knock an earlier one; each shows a random face."""
        geo = self.params.physics_params().geometry
        events = []
        for name in die_names(self.params):
            die = f"{SEATS[1]}.{name}"
            kind = name.rstrip("abcdefghijklmnopqrstuvwxyz")
            x = self.chance.uniform(0.1, geo.width - 0.1)
            y = self.chance.uniform(0.1, geo.depth - 0.1)
            heading = self.chance.uniform(0.0, 2 * math.pi)
            speed = self.chance.uniform(0.0, DROP_BOUNCE)
            spin = self.chance.uniform(-6.0, 6.0)
            launch = Launch(Piece(die, kind, x, y, 0.0), speed * math.cos(heading),
                            speed * math.sin(heading), spin)
            result = simulate(list(self.table.values()), launch, self.physics())
            self.table = dict(result.pieces)
            for gone in result.off_table:
                self.values.pop(gone, None)
                self.eliminated.append(gone)
            if die in self.table:
                self.values[die] = self._roll_face(die)
            self._finish_frames(result.time)
        shown = ", ".join(f"{d.split('.', 1)[1]} {self.values[d]}" for d in sorted(self.values)
                          if d.startswith(SEATS[1] + "."))
        events.append(Event("red_rolled", f"The red dice show {shown}.",
                            {"values": {d: v for d, v in sorted(self.values.items())}}))
        return events

    def _score_round(self, forfeiter: int | None) -> list[Event]:
        score = self.current_score()
        white = 0 if forfeiter is not None else score.points[0]
        red = score.points[1]
        self.last_score = TableScore((white, red), score.shapes)
        self.battle_points.append([white])
        self.war = [white, red]
        self.phase = "over"
        verdict = "you win" if white > red else "the red dice win"
        return [Event("game_over", f"White {white}, red {red}: {verdict}.",
                      {"white": white, "red": red, "won": white > red})]

    def end_text(self) -> str | None:
        if not self.is_terminal:
            return None
        white, red = self.war
        return f"White {white} against red {red}: " + (
            "the player wins." if white > red else "the red dice win.")

    def returns(self) -> list[float]:
        """1 when the white dice scored more than the red (It. 2: "exceeds"), else 0."""
        return [1.0 if self.is_terminal and self.war[0] > self.war[1] else 0.0]

    def metrics(self) -> dict[str, float | int | str | bool]:
        out = super().metrics()
        white, red = self.war if self.is_terminal else self.current_score().points[:2]
        out.update({"points": white, "red_points": red, "won": bool(self.is_terminal and white > red),
                    "margin": white - red})
        return out

    def observation(self, seat: int) -> dict[str, Any]:
        obs = super().observation(seat)
        points = obs["score"]["points"]
        obs.update({"white_points": points[0], "red_points": points[1]})
        return obs


MODES: dict[str, type[SolitaireState]] = {
    "objective1": SolitaireState, "objective2": Objective2State, "solo": SoloState}
"""The one-player modes (params.mode) and their state classes."""


def solitaire_from_json(data: Any) -> SolitaireState:
    """A one-player state (objective1, objective2, solo) from its JSON form (the match's form,
    checked by `state_from_json`)."""
    from playtable.core.errors import BadPosition

    base = state_from_json(data, StarDiceState)
    if base.params.mode not in MODES:
        raise BadPosition("not a one-player position (params.mode)")
    if base.hands[1] or any(len(b) != 1 for b in base.battle_points):
        raise BadPosition("an objective1 position has one hand and one score per round")
    if base.to_move != 0:
        raise BadPosition("in objective1 the player is seat 0")
    cls = MODES[base.params.mode]
    state = cls.__new__(cls)
    state.__dict__.update(base.__dict__)
    return state


def evaluate(state: SolitaireState) -> float:
    """In [0, 1). Objective 1: rounds cleared plus how the table now stands against the round's
    target, squashed; monotone in rounds cleared. Objective 2: white against red (1 or 0 once
    over). Solo: the points, squashed."""
    if isinstance(state, Objective2State):
        if state.is_terminal:
            return state.returns()[0]
        white, red = state.current_score().points[:2]
        return 0.5 + 0.5 * math.tanh((white - red) / 10.0)
    if isinstance(state, SoloState):
        points = float(state.current_score().points[0])
        return points / (points + 30.0)
    raw = float(state.rounds_cleared)
    if not state.is_terminal:
        points = state.current_score().points[0]
        raw += 0.5 + 0.5 * math.tanh((points - state.target) / 10.0)
    return raw / (raw + 1.0)
