"""`playtable sim | compare | query` on the toy game (a `module:attribute` game reference)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from tests.cli.cli_runner import run_captured as _run

from playtable.cli.compare import parse_variant_spec
from playtable.lab.runner import resolve_game

TOY = "tests.lab.lab_toygame:GAME"


def test_sim_writes_one_row_per_game_and_summarises(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "toy.parquet"
    code, text, err = _run(
        capsys, "sim", TOY, "-n", "12", "--seed", "5", "--agent", "greedy:samples=2", "--out", str(out), "-q"
    )
    assert code == 0, err
    assert "win rate" in text and "95% CI" in text
    table = pq.read_table(out)
    assert table.column("seed").to_pylist() == list(range(5, 17))
    assert set(table.column("agents").to_pylist()[0]) == {"greedy:samples=2"}
    code, text, _ = _run(
        capsys, "sim", TOY, "-n", "12", "--seed", "5", "--agent", "greedy:samples=2", "-q", "--json"
    )
    summary = json.loads(text)
    assert summary["games"] == 12 and summary["wins"] == sum(table.column("win").to_pylist())


def test_sim_seat_agents_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _run(
        capsys, "sim", TOY, "--variant", "duel", "--agent", "1=greedy", "-n", "6", "-q", "--json"
    )
    assert code == 0, err
    summary = json.loads(text)
    assert summary["players"] == 2 and len(summary["seat_win_rates"]) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "oracle"], "unknown agent"),
        (["--param", "nope=1"], "unknown parameter"),
        (["--agent", "3=random"], "seats 0..0"),
        (["--workers", "0"], "at least 1"),
        (["-n", "0"], "at least 1"),
    ],
)
def test_sim_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = _run(capsys, "sim", TOY, "-q", *args)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_sim_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "sim", "chess", "-q")
    assert code == 2 and "unknown game" in err


def test_variant_specs() -> None:
    game = resolve_game(TOY)
    label, params, agents = parse_variant_spec(game, "hard:target=40,agent=ismcts:iterations=5,c=0.3", [], [])
    assert label == "hard" and params.target == 40 and agents == ["ismcts:iterations=5,c=0.3"]
    label, params, agents = parse_variant_spec(game, "duel:agent1=greedy", ["turns=3"], ["random"])
    assert params.players == 2 and params.turns == 3 and agents == ["random", "greedy"]


def test_compare_variant_takes_list_valued_parameters() -> None:
    """A list-valued parameter's commas stay in its value (Star Dice's `dice`, the troll's
    `heights`), before and after other assignments and the agent."""
    stardice = resolve_game("stardice")
    label, params, _ = parse_variant_spec(
        stardice, "x:dice=d20,d20,d8,d8,d6,d6,d6,war_target=40,agent=random", [], [])
    assert label == "x" and params.war_target == 40
    assert [str(d) for d in params.dice] == ["d20", "d20", "d8", "d8", "d6", "d6", "d6"]
    troll = resolve_game("troll")
    _, params, _ = parse_variant_spec(troll, "t:heights=4,2,1,1,2,4", [], [])
    assert tuple(params.heights) == (4, 2, 1, 1, 2, 4)


def test_compare_pairs_variants_on_common_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cmp.parquet"
    code, text, err = _run(
        capsys,
        "compare",
        TOY,
        "--variant",
        "base:",
        "--variant",
        "easy:target=25",
        "-n",
        "30",
        "-q",
        "--json",
        "--out",
        str(out),
    )
    assert code == 0, err
    result = json.loads(text)
    diff = result["differences"]["easy"]
    assert diff["n"] == 30 and diff["diff"] >= 0 and diff["low"] <= diff["diff"] <= diff["high"]
    rows = pq.read_table(out).to_pylist()
    assert sorted(r["seed"] for r in rows if r["variant"] == "base") == list(range(30))
    assert sorted(r["seed"] for r in rows if r["variant"] == "easy") == list(range(30))


def test_compare_stops_early_with_sprt_and_until_ci(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _run(
        capsys,
        "compare",
        TOY,
        "--variant",
        "random:agent=random",
        "--variant",
        "greedy:agent=greedy:samples=2",
        "--sprt",
        "--p1",
        "0.8",
        "-n",
        "400",
        "--round",
        "20",
        "-q",
        "--json",
    )
    assert code == 0, err
    result = json.loads(text)
    assert result["sprt"]["decision"] == "H1"
    assert result["variants"]["greedy"]["games"] < 400
    code, text, err = _run(
        capsys,
        "compare",
        TOY,
        "--variant",
        "a:",
        "--variant",
        "b:target=34",
        "--until-ci",
        "0.2",
        "-n",
        "400",
        "--round",
        "20",
        "-q",
        "--json",
    )
    assert code == 0, err
    result = json.loads(text)
    assert result["differences"]["b"]["half_width"] <= 0.2
    assert result["variants"]["a"]["games"] < 400


def test_compare_needs_two_distinct_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "compare", TOY, "--variant", "a:", "-q")
    assert code == 2 and "at least two" in err
    code, _, err = _run(capsys, "compare", TOY, "--variant", "a:", "--variant", "a:target=3", "-q")
    assert code == 2 and "must differ" in err


def test_query_over_result_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "toy.parquet"
    _run(capsys, "sim", TOY, "-n", "10", "--out", str(out), "-q")
    code, text, _ = _run(
        capsys, "query", "SELECT count(*) AS n, max(seed) AS top FROM games", str(out), "--format", "json"
    )
    assert code == 0 and json.loads(text) == [{"n": 10, "top": 9}]
    code, text, _ = _run(
        capsys, "query", "SELECT seed FROM games ORDER BY seed LIMIT 2", str(out), "--format", "csv"
    )
    assert text.split() == ["seed", "0", "1"]
    code, _, err = _run(capsys, "query", "SELECT nothing FROM games", str(out))
    assert code == 2 and "query failed" in err
