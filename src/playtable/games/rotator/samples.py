"""How the three shipped sample boards (boards/easy.txt, medium.txt, hard.txt) were made.

The seed promised "three basic sample boards of varying difficulty" but its pictures are lost.
Ours are generated and rated by the solver:

* easy:   the board of `level=easy`, seed 1 (`playtable state new rotator --seed 1 --param level=easy`)
* medium: the board of `level=medium`, seed 1
* hard:   the first `level=hard` seed (from 1) whose best line needs 13 turns: seed 1

Run `python -m playtable.games.rotator.samples` to write them again (the output is identical).
"""

from __future__ import annotations

from pathlib import Path

from playtable.games.rotator.board import SAMPLES_DIR
from playtable.games.rotator.game import GAME, level_of
from playtable.games.rotator.rules import RotatorParams
from playtable.games.rotator.solver import solve_state

CHOICES = {"easy": ("easy", 1), "medium": ("medium", 1), "hard": ("hard", 1)}


def sample_text(name: str) -> str:
    level, seed = CHOICES[name]
    state = GAME.new_state(RotatorParams(level=level), seed)  # type: ignore[arg-type]
    solution = solve_state(state)
    rated = level_of(solution.turns, solution.boosts)
    header = [
        f"; Rotator sample board: {name}",
        f"; generated: level={level}, seed {seed} (see playtable.games.rotator.samples)",
        f"; solver: best line wins on turn {solution.turns} using {solution.boosts} boost "
        f"space(s) -> level {rated}",
        f"; best line: {', '.join(solution.actions)}",
        "; . air   # land   @ control node",
    ]
    return "\n".join(header) + "\n" + state.board.to_text()


def write_samples(directory: Path = SAMPLES_DIR) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name in CHOICES:
        (directory / f"{name}.txt").write_text(sample_text(name), encoding="utf-8")


if __name__ == "__main__":
    write_samples()
