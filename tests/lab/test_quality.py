"""Game-quality measures ("What designers measure elsewhere"): lead changes, how often
and how far the eventual winner was behind (drama), when the game was decided (Ludii's
decisiveness), from the game's value of each position; in every `sim` row (schema 2), in the
summaries with intervals, and read from files of schema 1 that lack them."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from playtable.core.protocol import Game
from playtable.lab import quality, storage
from playtable.lab.metrics import Histogram, Moments, RunningSummary, summarize
from playtable.lab.quality import QualityTrace, has_signal, measures
from playtable.lab.report import render_report
from playtable.lab.report_data import from_files, from_rows
from playtable.lab.runner import Arm, play_game, resolve_game, run_tasks
from playtable.lab.storage import ResultWriter, file_info, query, read_rows

TOY = "tests.lab.lab_toygame:GAME"


# -- the measures of one game ----------------------------------------------------------------------
def test_lead_changes_count_changes_of_the_leading_set() -> None:
    # seat 0 leads, they tie (both lead), seat 1 leads, seat 1 again, seat 0
    standings = [(0.6, 0.4), (0.5, 0.5), (0.3, 0.7), (0.2, 0.8), (0.9, 0.1)]
    assert measures(standings, [])["lead_changes"] == 3
    assert measures(standings, [])["winner_behind"] is None  # a draw: no eventual winner


def test_drama_and_decisiveness_of_a_comeback() -> None:
    # seat 0 trails by 0.4 and 0.2, ties, then leads and ends far above what seat 1 ever reached
    standings = [(0.3, 0.7), (0.4, 0.6), (0.5, 0.5), (0.6, 0.4), (0.8, 0.2)]
    out = measures(standings, [0])
    assert out["lead_changes"] == 2  # seat 1, both (a tie), seat 0
    assert out["winner_behind"] == pytest.approx(2 / 5)
    assert out["drama"] == pytest.approx((0.4 + 0.2) / 5)
    assert out["decided_at"] == pytest.approx(4 / 5)  # seat 1's best was 0.7: passed at step 4
    # the same game won by seat 1: it led from the start, and was never behind
    out = measures(standings, [1])
    assert out["winner_behind"] == pytest.approx(2 / 5)  # behind at steps 3 and 4
    assert out["drama"] == pytest.approx((0.2 + 0.6) / 5)
    assert out["decided_at"] == 1.0  # never above seat 0's best (0.8)


def test_a_team_of_winners_leads_together() -> None:
    """The wizard's heroes share one value: they lead, trail and win as one side."""
    standings = [(0.6, 0.4, 0.4, 0.4), (0.3, 0.7, 0.7, 0.7)]
    out = measures(standings, [1, 2, 3])
    assert out["lead_changes"] == 1
    assert out["winner_behind"] == 0.5 and out["drama"] == pytest.approx(0.2 / 2)
    assert out["decided_at"] == 0.5


class _Values:
    """A stand-in game whose value of a position is given by the test."""

    def __init__(self, values: list[float]) -> None:
        self.values = iter(values)

    def evaluate(self, state: Any, seat: int) -> float:
        return next(self.values)


def test_a_solitaire_game_is_the_player_against_the_game() -> None:
    trace = QualityTrace(_Values([0.7, 0.6, 0.4, 0.3]), 1)
    for _ in range(4):
        trace.step(None)  # type: ignore[arg-type]
    lost = trace.result(completed=True, win=False, winners=[])
    assert lost["lead_changes"] == 1  # above 0.5, then below: the game took the lead
    assert lost["winner_behind"] == 0.5  # the game (the eventual winner) trailed for two steps
    assert trace.result(completed=True, win=True, winners=[0])["winner_behind"] == 0.5
    unfinished = trace.result(completed=False, win=False, winners=[])
    assert unfinished["lead_changes"] == 1 and unfinished["drama"] is None


def test_a_game_without_a_value_of_its_own_has_no_measures() -> None:
    class NoValue(type(resolve_game(TOY))):  # type: ignore[misc]
        evaluate = Game.evaluate

    assert has_signal(resolve_game(TOY)) and not has_signal(NoValue())
    trace = QualityTrace(NoValue(), 1)
    trace.step(None)  # type: ignore[arg-type]
    assert trace.result(True, True, [0]) == quality.empty()


def test_a_value_that_fails_leaves_the_measures_empty_not_the_game() -> None:
    class Broken:
        def evaluate(self, state: Any, seat: int) -> float:
            raise ValueError("no value here")

    trace = QualityTrace(Broken(), 2)
    trace.step(None)  # type: ignore[arg-type]
    assert trace.result(True, True, [0]) == quality.empty()


# -- in the rows ------------------------------------------------------------------------------------
CHEAP = [("troll", "heuristic", 60), ("rotator", "random", 60), ("wizard", "heuristic", 100_000),
         (TOY, "greedy:samples=2", 60), ("stardice", "random-thrower", 12)]


@pytest.mark.parametrize(("game_ref", "agent", "max_steps"), CHEAP)
def test_taking_the_values_never_changes_a_game(game_ref: str, agent: str, max_steps: int) -> None:
    """`Game.evaluate` only reads: the same seeds give the same games with the measures on or off."""
    game = resolve_game(game_ref)
    arm = Arm.build(game_ref, game.params_type(), [agent], max_steps=max_steps)
    plain = dataclasses.replace(arm, quality=False)
    for seed in range(2):
        with_values, without = play_game(arm, seed), play_game(plain, seed)
        assert without["error"] is None and with_values["error"] is None
        for key in quality.COLUMNS:
            assert without.pop(key) is None
            with_values.pop(key)
        assert with_values == without
        assert play_game(arm, seed)["lead_changes"] is not None


def test_rows_carry_the_measures_and_a_summary_averages_them() -> None:
    game = resolve_game(TOY)
    duel = Arm.build(TOY, game.params_type(players=2), ["random", "greedy:samples=2"])
    rows = run_tasks([(duel, s) for s in range(60)])
    decided = [r for r in rows if r["winners"]]
    assert decided and all(isinstance(r["drama"], float) and 0 <= r["winner_behind"] <= 1 for r in decided)
    assert all(r["drama"] is None for r in rows if r["draw"])
    summary = summarize(rows)["quality"]
    drama = [r["drama"] for r in decided]
    assert summary["drama"]["games"] == len(drama)
    assert summary["drama"]["mean"] == pytest.approx(sum(drama) / len(drama))
    assert summary["drama"]["low"] < summary["drama"]["mean"] < summary["drama"]["high"]
    rates = [r["lead_changes"] / r["length"] for r in rows]
    assert summary["lead_change_rate"]["mean"] == pytest.approx(sum(rates) / len(rates))
    lengths = [float(r["length"]) for r in rows]
    mean = sum(lengths) / len(lengths)
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (len(lengths) - 1))
    spread = summary["length"]
    assert spread["mean"] == pytest.approx(mean) and spread["sd"] == pytest.approx(sd)
    assert spread["sd_low"] < sd < spread["sd_high"] and spread["cv"] == pytest.approx(sd / mean)
    # merged chunk by chunk (the workers' summaries), the same numbers
    merged = RunningSummary()
    for start in range(0, 60, 7):
        merged.merge(RunningSummary().add(rows[start:start + 7]))
    again = merged.result()["quality"]
    for key in ("drama", "lead_changes", "decided_at", "winner_behind", "lead_change_rate"):
        for field in ("games", "mean", "low", "high"):
            assert again[key][field] == pytest.approx(summary[key][field])


def test_moments_and_spread_of_few_values() -> None:
    one = Moments()
    one.add(3.0)
    assert one.result()["mean"] == 3.0 and math.isnan(one.result()["low"])
    assert math.isnan(Histogram().spread()["mean"])
    assert Histogram.of([4.0, 4.0, 4.0, 4.0, 4.0]).spread()["sd"] == 0.0


# -- on disk: schema 2, and files of schema 1 still read -------------------------------------------
def _rows() -> list[dict[str, Any]]:
    game = resolve_game(TOY)
    arms = [Arm.build(TOY, game.params_type(players=2), ["random", "greedy:samples=2"], label="duel"),
            Arm.build(TOY, game.params_type(), ["random"], label="solo")]
    return run_tasks([(arm, s) for arm in arms for s in range(30)])


def test_result_files_hold_the_measures_as_schema_2(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    with ResultWriter(out) as writer:
        writer.write(_rows())
    assert storage.SCHEMA_VERSION == 2 and file_info(out)["schema"] == "2"
    schema = pq.read_schema(out)
    assert [schema.field(c).type for c in quality.COLUMNS] == [
        schema.field("length").type, schema.field("return_0").type,
        schema.field("return_0").type, schema.field("return_0").type]
    sql = "SELECT variant, count(drama), avg(lead_changes) FROM games GROUP BY 1 ORDER BY 1"
    _, found = query(sql, [out])
    assert [v for v, *_ in found] == ["duel", "solo"] and all(n > 0 for _, n, _ in found)


def test_files_of_schema_1_without_the_measures_still_read_and_report(tmp_path: Path) -> None:
    out = tmp_path / "new.parquet"
    with ResultWriter(out) as writer:
        writer.write(_rows())
    table = pq.read_table(out).drop_columns(list(quality.COLUMNS))
    metadata = dict(table.schema.metadata or {})
    metadata[b"playtable.schema"] = b"1"
    old = tmp_path / "old.parquet"
    pq.write_table(table.replace_schema_metadata(metadata), old)
    assert file_info(old)["schema"] == "1"
    rows = read_rows([old])
    assert len(rows) == 60 and all("drama" not in r for r in rows)
    assert "quality" in summarize(rows) and "drama" not in summarize(rows)["quality"]
    # one report over a file of each version: the old file's groups show no measures
    both = [old, out]
    data = from_files(both)
    try:
        groups = {label: group.result() for label, group in data.groups.items()}
        page = render_report(data, "t", ["old", "new"])
    finally:
        data.close()
    assert not any("drama" in s["quality"] for label, s in groups.items() if label.startswith("old"))
    assert any("drama" in s["quality"] for label, s in groups.items() if label.startswith("new"))
    assert "Game quality" in page
    reference = {label: g.result() for label, g in from_rows(read_rows(both)).groups.items()}
    assert list(reference) == list(groups)
    for label in groups:
        for key, value in reference[label]["quality"].items():
            for field, number in value.items():
                assert groups[label]["quality"][key][field] == pytest.approx(number, nan_ok=True)


def test_sim_fills_the_columns_unless_told_not_to(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli.cli_runner import run_captured

    for flag, filled in (("--quality", True), ("--no-quality", False)):
        out = tmp_path / f"{flag}.parquet"
        code, text, err = run_captured(capsys, "sim", TOY, "--variant", "duel", "-n", "20", flag,
                                       "--out", str(out), "-q")
        assert code == 0, err
        assert ("lead changes a game" in text) == filled
        _, found = query("SELECT count(lead_changes), count(drama) FROM games", [out])
        assert (found[0][0] == 20) == filled and (found[0][1] > 0) == filled
