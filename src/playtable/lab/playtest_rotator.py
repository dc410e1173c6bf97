"""Rotator (seed 004): how hard the three sample boards and the generator's levels are.

The seed offers "three basic sample boards of varying difficulty" (easy, medium, hard) and the
generator makes winnable boards by level. Each is played by the agent on the same seeds: a
sample board is the same board on every seed (only the agent's own randomness varies), a level
is a new board per seed. Measured: the share of games won and the turns a win takes.
"""

from __future__ import annotations

from typing import Any

from playtable.lab.metrics import Moments
from playtable.lab.playtest import Answer, play_each, rate
from playtable.lab.runner import RunOptions

SETTINGS = (
    ("sample board", "board", ("easy", "medium", "hard")),
    ("generator level", "level", ("easy", "medium", "hard")),
)


class _Tally:
    """Games, wins and the turns a win took (running sums and the fewest), the rows streamed
    past: memory stays the same however many games a setting plays."""

    def __init__(self) -> None:
        self.games = self.wins = 0
        self.turns = Moments()
        self.fewest: float | None = None

    def add(self, row: dict[str, Any]) -> None:
        self.games += 1
        if not row.get("win"):
            return
        self.wins += 1
        turns = (row.get("metrics") or {}).get("turns")
        if turns is not None:
            self.turns.add(float(turns))
            self.fewest = float(turns) if self.fewest is None else min(self.fewest, float(turns))


def answers(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    out = []
    for what, key, names in SETTINGS:
        detail = []
        for name in names:
            tally = _Tally()
            play_each(tally.add, "rotator", agent, games, seed, options, params=[f"{key}={name}"])
            mean = tally.turns.result()["mean"]
            won_some = bool(tally.turns.n)
            detail.append({what: name, "games": tally.games, "won": tally.wins,
                           "turns_to_win_mean": round(mean, 2) if won_some else None,
                           "turns_to_win_min": tally.fewest})
            answer = rate(f"How hard is the {what} '{name}'?", "'Below are three basic sample boards of "
                          "varying difficulty'" if key == "board" else "the generator's levels (RULES.md)",
                          f"{name}" if key == "board" else "levels should order by difficulty", agent,
                          tally.wins, tally.games,
                          "won" + (f", {mean:.1f} turns to win on average" if won_some else ""))
            out.append(answer)
        out[-1].detail = detail
    return out
