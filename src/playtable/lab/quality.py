"""Game-quality measures of one game from a per-step lead signal, after Browne and Ludii.

The signal is the game's own heuristic value of the position for each seat, `Game.evaluate`
(in [0, 1]), taken before every decision, as Ludii takes its state evaluations before every move
and TAG records each player's heuristic score at every action (`DramaMetrics.StateEstimate`).
The games' values are their running scores: Star Dice's war points plus what the table would
score now, the wizard game's keys and hit points against the wizard, the troll's bridge
(`bots.evaluate`), Rotator's depth. A game that keeps the protocol's default (0.5 until the end)
has no signal, and its measures are left empty (None).

At each decision the **leaders** are the seats with the top value (a team whose seats share a
value, the wizard's heroes, leads together). A one-seat game is read as the player against the
game, the game's value being 1 minus the player's: the player leads above 0.5, the game below
(our reading: Browne's and Ludii's measures are defined for several players). The **eventual
winners** are the row's `winners` (for one seat: the player if it won, else the game); games
that end in a draw, stop unfinished or crash have none, and the measures that need them are None.

* `lead_changes`: how many times the set of leaders changed from one decision to the next
  (Browne 2008, "lead change"; Ludii `LeadChange`, which divides by the moves: the report shows
  both, the count and the count per decision);
* `winner_behind`: the share of decisions at which the eventual winner trailed (its value below
  the top): how often the eventual winner was behind (Browne's drama, counted);
* `drama`: the mean over decisions of how far the eventual winner trailed (top value minus the
  winners' mean value, 0 while it led): Ludii `Drama` (average), "the severity of the eventual
  winner's trailing positions";
* `decided_at`: the share of the game's decisions played before the eventual winner's value
  first rose above the highest value any other seat reached in the whole game (Ludii
  `DecisivenessThreshold` and `DecisivenessMoves`; 1 when it never did): the lower, the earlier
  the game was decided and the longer it dragged on after (Browne's decisiveness).

Sources: C. Browne, "Automatic Generation and Evaluation of Recombination Games" (PhD thesis,
QUT, 2008) and C. Browne & F. Maire, "Evolutionary Game Design" (IEEE TCIAIG 2(1), 2010);
Ludii's `Evaluation/src/metrics` (LeadChange, Drama, DecisivenessThreshold, DecisivenessMoves);
TAG's `evaluation/metrics/DramaMetrics.java`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playtable.core.protocol import Game, State

COLUMNS = ("lead_changes", "winner_behind", "drama", "decided_at")
"""The result columns these measures fill (None where a game gives no answer)."""

EPSILON = 1e-9
"""Values closer than this are equal (a lead is not changed by rounding)."""


def has_signal(game: Any) -> bool:
    """Whether the game has a value of its own (`Game.evaluate` overridden)."""
    return getattr(type(game), "evaluate", Game.evaluate) is not Game.evaluate


def empty() -> dict[str, Any]:
    return dict.fromkeys(COLUMNS)


class QualityTrace:
    """The values of one game's positions, taken before each decision (`step`), and the
    measures they give once the game is over (`result`)."""

    def __init__(self, game: Any, players: int) -> None:
        self.game = game
        self.players = players
        self.on = has_signal(game)
        self.values: list[tuple[float, ...]] = []

    def step(self, state: State) -> None:
        if not self.on:
            return
        try:
            evaluate = self.game.evaluate
            self.values.append(tuple(float(evaluate(state, seat)) for seat in range(self.players)))
        except Exception:  # a value the game cannot give here: no measures, the game goes on
            self.on = False
            self.values = []

    def result(self, completed: bool, win: bool, winners: Sequence[int]) -> dict[str, Any]:
        """The measures of the game (`COLUMNS`), given how it ended."""
        if not self.on or not self.values:
            return empty()
        standings: list[tuple[float, ...]]
        if self.players == 1:
            standings = [(v[0], 1.0 - v[0]) for v in self.values]
            sides = [0] if win else [1]  # the player, or the game
        else:
            standings = self.values
            sides = list(winners)
        return measures(standings, sides if completed else [])


def leaders(values: Sequence[float]) -> frozenset[int]:
    top = max(values)
    return frozenset(i for i, v in enumerate(values) if top - v <= EPSILON)


def measures(standings: Sequence[Sequence[float]], winners: Sequence[int]) -> dict[str, Any]:
    """The measures of one game from each decision's values per side and the eventual winners
    (none: a draw or an unfinished game, and only `lead_changes` is given)."""
    out = empty()
    if not standings:
        return out
    changes = 0
    previous = leaders(standings[0])
    for values in standings[1:]:
        now = leaders(values)
        changes += now != previous
        previous = now
    out["lead_changes"] = changes
    sides = len(standings[0])
    won = [w for w in winners if 0 <= w < sides]
    if not won or len(won) == sides:
        return out
    others = [s for s in range(sides) if s not in won]
    behind = severity = 0.0
    threshold = max(values[s] for values in standings for s in others)
    decided = len(standings)
    for t, values in enumerate(standings):
        gap = max(values) - sum(values[w] for w in won) / len(won)
        if gap > EPSILON:
            behind += 1
            severity += gap
        if decided == len(standings) and any(values[w] > threshold + EPSILON for w in won):
            decided = t
    n = len(standings)
    out["winner_behind"] = behind / n
    out["drama"] = severity / n
    out["decided_at"] = decided / n
    return out
