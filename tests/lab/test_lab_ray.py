"""The Ray backend against a local Ray instance: the same rows as the local backend. Skipped when
Ray (the optional extra `playtable[ray]`) is not installed."""

from __future__ import annotations

import pytest

from playtable.core.registry import game_ids
from playtable.lab.runner import Arm, RunOptions, run_tasks

ray = pytest.importorskip("ray")


@pytest.mark.skipif("troll" not in game_ids(), reason="troll not registered")
def test_ray_backend_gives_the_rows_of_the_local_backend() -> None:
    from playtable.core.registry import get_game

    game = get_game("troll")
    arm = Arm.build("troll", game.default_params(), ["heuristic"])
    tasks = [(arm, s) for s in range(12)]
    local = run_tasks(tasks, RunOptions(workers=1))
    remote = run_tasks(tasks, RunOptions(workers=1, backend="ray", batch_size=3))
    assert remote == local
    assert not ray.is_initialized()  # the backend shut down the Ray it started
