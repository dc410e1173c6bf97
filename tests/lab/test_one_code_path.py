"""One code path plays "these agents on this seed" for every tool: `sim`, `compare`,
`tournament`, `playtest`, `tune`, the notebook API and the benchmark that reports the wizard's
balance all hand their games to the runner's `play_game`, so the same agents on the same seed
give the identical row, and each tool's figure is the one those rows give."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.cli.cli_runner import run

from playtable.core.params import resolve_params
from playtable.games.wizard.game import GAME
from playtable.lab import runner
from playtable.lab.runner import Arm, RunOptions, play_game

SEEDS = range(3, 9)
PLAYERS = 3
AGENTS = ("heuristic",) * PLAYERS
ROOT = Path(__file__).resolve().parents[2]


def _params() -> Any:
    return resolve_params(GAME.params_type, GAME.variants, None, [f"players={PLAYERS}"])


def _key(arm: Arm, seed: int) -> tuple[str, tuple[str, ...], int]:
    return json.dumps(arm.params, sort_keys=True), arm.agents, seed


def _same(row: dict[str, Any]) -> str:
    """A row without its tool's label for the arm (NaN written alike on both sides)."""
    return json.dumps({k: v for k, v in row.items() if k != "variant"}, sort_keys=True, default=str)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[tuple[Any, dict[str, Any]]]]]:
    """Every game any tool plays in this process, by tool, through the runner's `play_game`."""
    seen: dict[str, list[tuple[Any, dict[str, Any]]]] = {"current": []}
    real = runner.play_game

    def recording(arm: Arm, seed: int, record: Any = None) -> dict[str, Any]:
        row = real(arm, seed, record)
        seen["current"].append((_key(arm, seed), row))
        return row

    monkeypatch.setattr(runner, "play_game", recording)
    yield seen


def _tool(seen: dict[str, list[tuple[Any, dict[str, Any]]]], name: str) -> None:
    seen[name], seen["current"] = seen["current"], []


def _benchmark(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_tool_plays_the_same_rows_through_one_path(
        played: dict[str, list[tuple[Any, dict[str, Any]]]], tmp_path: Path) -> None:
    from playtable.lab import api
    from playtable.lab.compare import run_compare
    from playtable.lab.playtest import play
    from playtable.lab.tournament import play_tournament
    from playtable.lab.tune import Objective, TuneSpec, measure

    arm = Arm.build("wizard", _params(), AGENTS)
    reference = {_key(arm, s): play_game(arm, s) for s in SEEDS}
    wins = sum(bool(r["win"]) for r in reference.values())
    first, n = str(SEEDS[0]), str(len(SEEDS))

    sim = run("sim", "wizard", "--agent", "heuristic", "--param", f"players={PLAYERS}", "-n", n,
              "--seed", first, "-w", "1", "-q", "--json", "--out", str(tmp_path / "sim.parquet"))
    assert sim.code == 0, sim.err
    assert json.loads(sim.out)["wins"] == wins
    _tool(played, "sim")

    comparison = run_compare([arm, Arm.build("wizard", _params(), AGENTS, label="again")],
                             seed=SEEDS[0], games=len(SEEDS))
    assert comparison.paired("again").mean_a == wins / len(SEEDS)
    _tool(played, "compare")

    rows = play("wizard", "heuristic", len(SEEDS), SEEDS[0], RunOptions(), params=[f"players={PLAYERS}"])
    assert sum(bool(r["win"]) for r in rows) == wins
    _tool(played, "playtest")

    spec = TuneSpec("wizard", Objective.parse("win=0.5"), [], AGENTS, base={"players": PLAYERS})
    assert measure(spec, {}, SEEDS[0], len(SEEDS), RunOptions())[0][0] == wins / len(SEEDS)
    _tool(played, "tune")

    frame = api.sim("wizard", agents="heuristic", games=len(SEEDS), params={"players": PLAYERS},
                    seed=SEEDS[0])
    assert int(frame["win"].sum()) == wins
    _tool(played, "api")

    balance = _benchmark("wizard_balance").run(PLAYERS, len(SEEDS), SEEDS[0], None, "heuristic", "heuristic",
                                               [], 1)
    assert balance["wizard"] == sum(r["metrics"]["winner"] == "wizard" for r in reference.values())
    _tool(played, "wizard_balance")

    # The tournament pits different agents, so its games are checked against play_game's own.
    play_tournament("wizard", ["heuristic", "random"], _params(), games=2, seed=SEEDS[0], bootstrap=0)
    _tool(played, "tournament")

    for tool in ("sim", "compare", "playtest", "tune", "api", "wizard_balance"):
        games = {key: row for key, row in played[tool]}
        assert set(reference) <= set(games), f"{tool} did not play every seed through play_game"
        for key, row in reference.items():
            assert _same(games[key]) == _same(row), f"{tool} gave another row for seed {key[2]}"
    assert len(played["tournament"]) == 4
    for (params, agents, seed), row in played["tournament"]:
        again = play_game(Arm("wizard", json.loads(params), agents), seed)
        assert _same(row) == _same(again)
