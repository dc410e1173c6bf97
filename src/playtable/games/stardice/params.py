"""Star Dice parameters: the Final Rules as defaults, earlier iterations as named variants."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from playtable.core.errors import BadParameter
from playtable.games.stardice.formation import FormationParams
from playtable.games.stardice.physics import PIECE_TYPES, PhysicsParams, TableGeometry
from playtable.games.stardice.scoring import FINAL_POINTS, ScoringRules

DIE_KINDS = ("d4", "d6", "d8", "d10", "d12", "d20")
MAX_DICE = 12
"""Most dice in one player's hand. The Final Rules give 7 ("2d20, 1d12, 1d8, and 3d6"); the ninth
iteration tried two more each and found the Surface's 15-touch limit in the way, so a real
table holds 7 a side plus the Borg die. The simulated table has no touch limit; 12 a side (25
pieces on the glass) leaves room to try more while a die's name stays one letter per kind
(`d20a` to `d20l`: past 26 of a kind the names ran out of letters)."""

# Remote bounds (`core.params`): every value the seed's iterations, the variants, the tuner and
# the tests use lies inside. At the dearest ends (12 d20s a side, the widest connect range, 10
# re-throws; or 12 d4s and 6 torpedoes) a new state took under 10 ms, the game's own search bot
# under a second a move and the greedy bot at its bounds 6.6 s (benchmarks/remote_bounds.py,
# on the shared 2-core machine). The physics runs at most 12 simulated seconds a throw
# (`physics.SimParams.max_time`) whatever the values.


@dataclass(frozen=True)
class StarDiceParams:
    # -- materials (Final Rules: 2d20, 1d12, 1d8, 3d6 per player; the Borg die) --------------
    dice: tuple[str, ...] = field(default=("d20", "d20", "d12", "d8", "d6", "d6", "d6"), metadata={
        "one_of": DIE_KINDS, "min_items": 1, "max_items": MAX_DICE})
    """Each player's dice (Final Rules: 2d20, 1d12, 1d8, 3d6; earlier iterations other sets)."""
    use_borg: bool = True
    """The neutral Borg die is rolled first and lies in play (It. 3 onward); False: no neutral die."""
    borg_faces: tuple[int, ...] = field(  # search space: the Final Rules' faces or iteration 7's doubling
        default=(8, 16, 16, 24, 24, 32),
        metadata={"choices": ((8, 16, 16, 24, 24, 32), (2, 4, 8, 16, 32, 64)),
                  "range": (0, 100), "min_items": 1, "max_items": 20},
    )
    """The Borg die's values (Final Rules 8, 16, 16, 24, 24, 32; It. 7 the doubling d6 2-64)."""
    borg_pips: tuple[int, ...] = field(default=(3, 4, 4, 5, 5, 6), metadata={
        "range": (0, 6), "min_items": 1, "max_items": 20})
    """The pips on each Borg face, in order (Final Rules 3, 4, 4, 5, 5, 6): odds or evens, and the bonus."""
    # -- rules of play ---------------------------------------------------------------------
    slide_d6: bool = field(default=True, metadata={"choices": (True, False)})
    """Ninth iteration / Final Rules: a d6 may be slid instead of rolled."""
    torpedoes: int = field(default=0, metadata={"range": (0, 6)})
    """Photon torpedo stones per player. 0: cut, as the ninth iteration decided (RULES.md)."""
    torpedo_rule: Literal["iter8", "iter9"] = "iter9"
    """iter8: a torpedo instead of a ship, at most one per own d6 on the table; iter9: a torpedo
    only immediately after rolling a d6."""
    foul_rule: Literal["forfeit", "discard"] = "forfeit"
    """A foul (touching the table): Final Rules, the battle is forfeited; iterations 2-4, the
    player discards a die of their choice from hand (with none left, the battle is lost)."""
    max_rethrows: int = field(default=5, metadata={"range": (0, 10)})
    """Re-throws of a die that never entered (Other rules) allowed in one turn; past that the
    die is lost (a guard against endless misses)."""
    # -- scoring ---------------------------------------------------------------------------
    scoring: Literal["final", "multiplier", "max", "max_best"] = "final"
    """final: the points table (It. 5 onward); multiplier: face value times the shape's multiplier (It.
    1-2); max: the shape's maximum (It. 3 Scoring 1, It. 4); max_best: a player's best shape only (It. 3
    Scoring 2)."""
    single_value: Literal["face", "one"] = "face"
    """multiplier scoring: a single die scores its face (It. 1) or 1 (It. 2)."""
    formation_points: tuple[int, ...] = field(default=FINAL_POINTS, metadata={
        "range": (0, 1000), "min_items": 2, "max_items": 2 * MAX_DICE + 1})
    """Points of a closed formation of 3, 4, 5 ... dice (It. 5's table 3, 6, 10 ... 73; past its end the
    last step repeats)."""
    borg_must_be_beaten: bool = True
    """With the Borg die in a shape, the owner's sum must exceed the Borg's value to score it (Final
    Rules)."""
    borg_bonus: bool = True
    """Beating the Borg in a closed formation adds the Borg's pips (It. 7 "Borg 2", Final Rules)."""
    ignore_values: bool = False
    """Blank dice (It. 2 "Ignore numbers on the dice"; It. 6, Craig: "Make all dice blank d6.
    (Ignore rolled values.)"): every die counts 1, whatever it shows, so a shape goes to the
    player with more dice in it (the Borg die counts 1 too)."""
    borg_enemy: bool = False
    """The Borg die as the enemy (It. 6, Craig: "Borg die is the enemy; must be defeated"; Brent:
    "Secondary goal of not getting wiped out by Borg"): a shape holding the Borg that no player
    beats is the Borg's, and a player who ends the battle with fewer points than the Borg holds
    is wiped out and scores 0 for it."""
    # -- war -------------------------------------------------------------------------------
    war_target: int = field(default=50, metadata={"space": (20, 100), "range": (0, 500)})
    """The first player to exceed this many points wins the war; 0: a single battle."""
    war_scoring: Literal["both", "winner_only"] = "both"
    """both: each player adds their battle points (Final Rules); winner_only: only the battle's
    winner adds theirs (iteration 3/4)."""
    max_battles: int = field(default=40, metadata={"range": (1, 100)})
    """Ours: a war still undecided after this many battles ends: the higher war total wins (best_of: more
    battles won), equal is a draw, so every war ends."""
    war_format: Literal["target", "rounds", "best_of"] = "target"
    """target: the first to exceed `war_target` wins (Final Rules). rounds: play `war_rounds`
    battles, the higher total wins (It. 4 "Play to X number of rounds"). best_of: the first to
    win more than half of `war_rounds` battles wins the war (It. 7 "In rounds, best of X")."""
    war_rounds: int = field(default=5, metadata={"range": (1, 25)})
    """X of `war_format` rounds or best_of."""
    # -- turns -------------------------------------------------------------------------------
    many_per_turn: bool = False
    """Ninth iteration's idea, untested in the seed: "allowing the player to roll as many dice
    as he wishes in a turn". After each die the same player throws another or ends the turn
    (`hold`); a player out of dice passes the table to the other, who keeps throwing."""
    # -- the solitaire objective of iteration 2 ---------------------------------------------
    mode: Literal["versus", "objective1", "objective2", "solo"] = "versus"
    """versus: the two-player match. objective1 (Second Iteration, Objective 1): one player
    (seat 0, the white dice) plus a blank d6 dropped on the table; round n must score more than
    10n; the game ends at the first failed round (`solitaire.py`). `max_battles` caps rounds.
    objective2 (Second Iteration, Objective 2): one player; a matching set of red dice is rolled
    onto the table at once, then the player throws theirs; the player wins if their score
    exceeds the red dice's. solo (First Iteration): one player throws their dice for the
    highest score."""
    # -- the formation engine: FormationParams' fields and defaults (table units), repeated
    # flat so that `--param connect_range=0.3` reaches them ------------------------------------
    connect_range: float = field(default=FormationParams.connect_range,
                                 metadata={"space": (0.15, 0.4), "range": (0.05, 0.75)})
    """Seed iteration 1: "close enough" is "about a quarter of the screen"."""
    hysteresis: float = field(default=FormationParams.hysteresis, metadata={"range": (0.0, 0.1)})
    """Iteration 2 flicker fix: an existing connection breaks only beyond range + hysteresis."""
    min_angle_deg: float = field(default=FormationParams.min_angle_deg,
                                 metadata={"space": (0.0, 30.0), "range": (0.0, 90.0)})
    """Iteration 7: reject "very small angles" between two connections at one die (0 = off)."""
    jitter: float = field(default=FormationParams.jitter, metadata={"range": (0.0, 0.05)})
    """Iteration 3/4: movements under this distance from a die's resting point are ignored."""
    stop_speed: float = field(default=FormationParams.stop_speed, metadata={"range": (0.0, 0.5)})
    """Iteration 5: a die faster than this (table widths / s, when a speed is known) is moving."""
    settle_time: float = field(default=FormationParams.settle_time, metadata={"range": (0.0, 3.0)})
    """Iteration 5: a die must be still this long before it may connect."""
    merge_distance: float = field(default=FormationParams.merge_distance, metadata={"range": (0.0, 0.1)})
    """Dice whose centres are closer than this are detected as a single die (final rules)."""
    check_crossing: bool = FormationParams.check_crossing
    """Iteration 4: connections never cross."""
    disconnect_on_move: bool = FormationParams.disconnect_on_move
    """Iteration 7: a die that moves loses its connections (before: only distance breaks them)."""
    connect_while_moving: bool = FormationParams.connect_while_moving
    """Before iteration 5 a moving die could connect."""
    # -- the table simulation ---------------------------------------------------------------
    frame: float = field(default=0.06, metadata={"range": (0.03, 0.2)})
    """Width of the glass frame around the touch surface, in table widths: a die resting there is on the
    table but not seen."""
    max_speed: float = field(default=5.0, metadata={"range": (0.5, 10.0)})
    """Fastest throw, in table widths a second."""
    roll_dir_noise_deg: float = field(default=6.0, metadata={"range": (0.0, 45.0)})
    """A rolled die's aim wanders by up to this many degrees (a hand is not a machine)."""
    roll_speed_noise: float = field(default=0.12, metadata={"range": (0.0, 0.5)})
    """A rolled die's speed varies by up to this share."""
    slide_dir_noise_deg: float = field(default=1.5, metadata={"range": (0.0, 45.0)})
    """A slid d6's aim wanders by up to this many degrees (sliding is more precise, It. 9)."""
    slide_speed_noise: float = field(default=0.04, metadata={"range": (0.0, 0.5)})
    """A slid d6's speed varies by up to this share."""
    tumble_speed: float = field(default=0.25, metadata={"range": (0.0, 2.0)})
    """A die knocked faster than this tumbles and shows a new random face."""

    def validate(self) -> None:
        for d in self.dice:
            if d not in PIECE_TYPES or d in ("borg", "stone"):
                raise BadParameter(f"unknown die type '{d}' in dice (d4, d6, d8, d10, d12, d20)")
        if not self.dice:
            raise BadParameter("each player needs at least one die")
        if len(self.dice) > MAX_DICE:
            raise BadParameter(f"dice: at most {MAX_DICE} dice a player (the Final Rules give 7), "
                               f"not {len(self.dice)}")
        if len(self.borg_faces) != len(self.borg_pips) or not self.borg_faces:
            raise BadParameter("borg_faces and borg_pips must be non-empty and equally long")
        if len(self.formation_points) < 2:
            raise BadParameter("formation_points needs at least two values")
        if self.torpedoes < 0 or self.max_rethrows < 0 or self.war_target < 0:
            raise BadParameter("torpedoes, max_rethrows and war_target must not be negative")
        if self.mode not in ("versus", "objective1", "objective2", "solo"):
            raise BadParameter("mode must be 'versus', 'objective1', 'objective2' or 'solo'")
        if self.mode != "versus" and (self.use_borg or self.torpedoes or self.many_per_turn):
            raise BadParameter(f"mode={self.mode} is solitaire: it needs use_borg=false, "
                               "torpedoes=0 and many_per_turn=false")
        if self.borg_enemy and not self.use_borg:
            raise BadParameter("borg_enemy needs the Borg die (use_borg=true)")
        if self.many_per_turn and self.torpedoes:
            raise BadParameter("many_per_turn is played without torpedoes (the ninth iteration "
                               "cut them)")
        if self.war_format not in ("target", "rounds", "best_of") or self.war_rounds < 1:
            raise BadParameter("war_format must be target, rounds or best_of; war_rounds >= 1")
        if self.max_battles < 1:
            raise BadParameter("max_battles must be at least 1")
        if not 0 < self.connect_range < 2 or self.hysteresis < 0 or self.jitter < 0:
            raise BadParameter("connect_range must be in (0, 2); hysteresis, jitter >= 0")
        if self.settle_time < 0 or self.stop_speed < 0 or self.merge_distance < 0:
            raise BadParameter("settle_time, stop_speed and merge_distance must be >= 0")
        if not 0 <= self.min_angle_deg < 180:
            raise BadParameter("min_angle_deg must be in [0, 180)")
        if self.frame <= 0.02 or self.max_speed < 0.001:
            # a throw's speed is written in thousandths (Throw): below 0.001 no throw is legal
            raise BadParameter("frame must exceed 0.02 and max_speed must be at least 0.001")

    def formation_params(self) -> FormationParams:
        flat = {f.name: getattr(self, f.name) for f in fields(FormationParams) if hasattr(self, f.name)}
        return FormationParams(**flat)

    def scoring_rules(self) -> ScoringRules:
        return ScoringRules(
            system=self.scoring, formation_points=self.formation_points,
            borg_must_be_beaten=self.borg_must_be_beaten, borg_bonus=self.borg_bonus,
            single_value=self.single_value, ignore_values=self.ignore_values,
            borg_enemy=self.borg_enemy,
        )

    def physics_params(self) -> PhysicsParams:
        return PhysicsParams(geometry=TableGeometry(frame=self.frame))


_ONE_EACH = ("d4", "d6", "d8", "d10", "d12", "d20")
_OLD_ENGINE: dict[str, Any] = {"disconnect_on_move": False, "slide_d6": False, "war_target": 0}

_DOUBLING = {"borg_faces": (2, 4, 8, 16, 32, 64), "borg_pips": (1, 2, 3, 4, 5, 6)}
_NEUTRAL_D20 = {"borg_faces": tuple(range(1, 21)), "borg_pips": (0,) * 20, "borg_bonus": False}
_NEUTRAL_D12 = {"borg_faces": tuple(range(1, 13)), "borg_pips": (0,) * 12, "borg_bonus": False}
_EARLY_ENGINE = {"min_angle_deg": 0.0, "check_crossing": False, "connect_while_moving": True}

VARIANTS: dict[str, dict[str, Any]] = {
    "final": {},
    "battle": {"war_target": 0},
    "torpedoes_iter9": {"torpedoes": 3, "torpedo_rule": "iter9", "slide_d6": False},
    "torpedoes_iter8": {"torpedoes": 3, "torpedo_rule": "iter8", "slide_d6": False},
    "iteration8": {"torpedoes": 3, "torpedo_rule": "iter8", "slide_d6": False,
                   "dice": ("d20", "d12", "d8", "d6", "d6", "d6")},
    "iteration7_borg1": {**_DOUBLING, "borg_bonus": False, "slide_d6": False, "war_target": 0,
                         "dice": _ONE_EACH},
    "iteration7_borg2": {**_DOUBLING, "slide_d6": False, "war_target": 0, "dice": _ONE_EACH},
    "iteration5": {**_OLD_ENGINE, **_NEUTRAL_D20, "dice": _ONE_EACH, "min_angle_deg": 30.0},
    "iteration4": {**_OLD_ENGINE, **_NEUTRAL_D12, "dice": _ONE_EACH, "scoring": "max",
                   "foul_rule": "discard", "min_angle_deg": 30.0, "connect_while_moving": True},
    "iteration3_scoring1": {**_OLD_ENGINE, **_NEUTRAL_D20, **_EARLY_ENGINE, "dice": _ONE_EACH,
                            "scoring": "max", "foul_rule": "discard"},
    "iteration3_scoring2": {**_OLD_ENGINE, **_NEUTRAL_D20, **_EARLY_ENGINE, "dice": _ONE_EACH,
                            "scoring": "max_best", "foul_rule": "discard"},
    "iteration2_multipliers": {**_OLD_ENGINE, **_EARLY_ENGINE, "dice": _ONE_EACH,
                               "use_borg": False, "scoring": "multiplier",
                               "single_value": "one", "foul_rule": "discard"},
    "iteration1_multipliers": {**_OLD_ENGINE, **_EARLY_ENGINE, "dice": _ONE_EACH,
                               "use_borg": False, "scoring": "multiplier",
                               "single_value": "face", "hysteresis": 0.0, "jitter": 0.0},
}
VARIANTS["objective1"] = {**VARIANTS["iteration2_multipliers"], "mode": "objective1"}
# The seed's other modes; appended, so that every earlier variant keeps its place
# (the differential test seeds each variant by its position).
VARIANTS["objective2"] = {**VARIANTS["iteration2_multipliers"], "mode": "objective2"}
VARIANTS["solo_iteration1"] = {**VARIANTS["iteration1_multipliers"], "mode": "solo"}
VARIANTS["blank_dice"] = {"dice": ("d6",) * 7, "ignore_values": True}
VARIANTS["rounds_iter4"] = {"war_format": "rounds", "war_rounds": 5,
                            "war_scoring": "winner_only"}
VARIANTS["best_of_iter7"] = {"war_format": "best_of", "war_rounds": 5}
VARIANTS["any_dice_iter9"] = {"many_per_turn": True}
VARIANTS["borg_enemy"] = {"borg_enemy": True}
# The dice sets the seed tried and did not keep (It. 3 "we tried using 6d10 instead of the
# varied dice, which seemed to work pretty well"; It. 7 Stephen "Suggest 1d20, 2d12, 3d6", which
# It. 8 could not buy and the Final Rules replaced by 2d20, 1d12, 1d8, 3d6), under the Final Rules.
VARIANTS["dice_6d10_iter3"] = {"dice": ("d10",) * 6}
VARIANTS["dice_stephen_iter7"] = {"dice": ("d20", "d12", "d12", "d6", "d6", "d6")}
"""Named presets. `objective1`: iteration 2's solitaire Objective 1 (RULES.md). `battle`: one
battle of the final rules. The iteration presets put the
two-player match under that iteration's materials, engine and scoring (iterations 1 and 2 were
solitaire; as presets both players' dice are scored the way iteration 2's objective 2 scored the
red dice)."""
