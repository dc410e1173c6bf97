"""Rotator (seed 004): how hard the three sample boards and the generator's levels are.

The seed offers "three basic sample boards of varying difficulty" (easy, medium, hard) and the
generator makes winnable boards by level. Each is played by the agent on the same seeds: a
sample board is the same board on every seed (only the agent's own randomness varies), a level
is a new board per seed. Measured: the share of games won and the turns a win takes.
"""

from __future__ import annotations

from typing import Any

from playtable.lab.playtest import Answer, play, rate
from playtable.lab.runner import RunOptions
from playtable.lab.stats import mean_sd

SETTINGS = (
    ("sample board", "board", ("easy", "medium", "hard")),
    ("generator level", "level", ("easy", "medium", "hard")),
)


def _turns(rows: list[dict[str, Any]]) -> list[float]:
    won = [r.get("metrics") or {} for r in rows if r.get("win")]
    return [float(m["turns"]) for m in won if "turns" in m]


def answers(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    out = []
    for what, key, names in SETTINGS:
        detail = []
        for name in names:
            rows = play("rotator", agent, games, seed, options, params=[f"{key}={name}"])
            wins = sum(1 for r in rows if r.get("win"))
            turns = _turns(rows)
            mean, sd = mean_sd(turns)
            detail.append({what: name, "games": len(rows), "won": wins,
                           "turns_to_win_mean": round(mean, 2) if turns else None,
                           "turns_to_win_min": min(turns) if turns else None})
            answer = rate(f"How hard is the {what} '{name}'?", "'Below are three basic sample boards of "
                          "varying difficulty'" if key == "board" else "the generator's levels (RULES.md)",
                          f"{name}" if key == "board" else "levels should order by difficulty", agent, wins,
                          len(rows), "won" + (f", {mean:.1f} turns to win on average" if turns else ""))
            out.append(answer)
        out[-1].detail = detail
    return out
