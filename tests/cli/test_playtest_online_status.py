"""`playtest-online status` says what the finished games can tell so far: the people's seats'
result per variant, and whether the variants are separated or how many deals (and `--games`)
would separate them (docs/lab.md, "Playtests with people")."""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from playtable.cli import cli
from playtable.cli.playtest_online import sample_lines
from playtable.lab.stats import paired_counts, seeds_to_separate
from playtable.web.server.playtests.playtest_spec import DEFAULT_QUESTIONS, check_spec
from playtable.web.server.playtests.playtests import PlaytestStore
from playtable.web.server.store.store import SeatRow, SqlStore, TableRow


def test_a_handful_of_deals_is_too_small_to_separate_and_says_how_many_would() -> None:
    # four deals: 'easy' won three, 'default' one (people at seat 1 of two seats)
    won, lost = [0.0, 1.0], [1.0, 0.0]
    results = [("easy", s, won if s < 3 else lost) for s in range(4)]
    results += [("default", s, won if s == 0 else lost) for s in range(4)]
    lines = sample_lines(["default", "easy"], [1], results)
    assert lines[0] == "the people's seats won: default 1/4 [5%, 70%], easy 3/4 [30%, 95%]"
    target, deals = seeds_to_separate(paired_counts({(1.0, 1.0): 1, (0.0, 1.0): 2, (0.0, 0.0): 1}), 0.05) \
        or (0, 0)
    assert deals > 4
    assert lines[1] == (f"easy against default: too small to separate (4 common deals); a {100 * target:.1f} "
                        f"pp difference needs about {deals:,} deals, --games {2 * deals:,} "
                        "(5 % level, 80 % power)")


def test_variants_apart_on_many_deals_are_separated() -> None:
    results = [(v, s, [1.0] if v == "easy" else [0.0]) for s in range(40) for v in ("default", "easy")]
    lines = sample_lines(["default", "easy"], [0], results)
    assert lines[1].startswith("easy against default: +100.0 pp") and lines[1].endswith("separated")


def test_one_variant_says_how_far_its_rate_can_move_and_no_game_says_so() -> None:
    assert sample_lines(["easy"], [0], []) == ["no finished game yet: nothing to compare"]
    lines = sample_lines(["easy"], [0], [("easy", 1, [1.0]), ("easy", 2, [0.0])])
    assert lines[1].startswith("easy: ±") and "±5 pp needs about" in lines[1]


def test_status_reads_the_finished_games_of_the_playtest(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    playtests = PlaytestStore(db)
    spec = check_spec("rotator", ["easy", "default"], 4, 100, None, list(DEFAULT_QUESTIONS), "t")
    pid = playtests.create(spec, random.Random(3))
    tables = SqlStore(db)
    for slot in playtests.slots(pid):
        row = TableRow(f"tab{slot.slot}", "rotator", slot.variant, {}, slot.seed, [SeatRow("human", "a")],
                       "2026-12-06T00:00:00+00:00")
        tables.create(row)
        playtests.take(slot, row.id, "p1", 0, "net")
        if slot.slot < 3:  # the fourth game is still played
            tables.mark_ended(row.id, "2026-12-06T01:00:00+00:00", {"returns": [1.0 if slot.slot else 0.0]})
    tables.close()
    playtests.close()
    done = CliRunner().invoke(cli, ["playtest-online", "status", pid, "--db", str(db)])
    assert done.exit_code == 0, done.output
    assert "the people's seats won: " in done.output
    assert "1 common deal); a " in done.output and "--games " in done.output
