"""People's rows in the lab: a playtest's export is read by `query` and `report` like
any result file, alone or beside bot rows of the same deals, and the report's "People and bots"
section gives the numbers the rows hold (win rates with Wilson intervals, the paired difference on
common deals with the exact sign test, Fisher's exact test, the questionnaire's means)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import fisher_exact

from playtable.agents import PERSON
from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.lab.columns import schema_for
from playtable.lab.people import people_table, person_row, write_people
from playtable.lab.report import write_report
from playtable.lab.report_people import people_section
from playtable.lab.runner import Arm, play_game
from playtable.lab.stats import binom_two_sided, wilson
from playtable.lab.storage import ResultWriter, query

SEEDS = range(10, 16)
VARIANTS = ("default", "no-limit")
QUESTIONS = [("fun", "scale"), ("confused", "text")]
Files = tuple[Path, Path, list[dict[str, Any]]]


def arm(variant: str, agent: str) -> Arm:
    game = get_game("rotator")
    params = resolve_params(game.params_type, game.variants, None if variant == "default" else variant)
    built = Arm.build("rotator", params, [agent], label=variant)
    return Arm(built.game, built.params, built.agents, built.label, keep_records=True)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    """people.parquet: each deal of each variant "played by a person" (the solver's record, but
    the last deal a random player's), with answers; bots.parquet: random bots on the same deals."""
    folder = tmp_path_factory.mktemp("people")
    rows, testers, answers = [], [], []
    for variant in VARIANTS:
        for k, seed in enumerate(SEEDS):
            record = play_game(arm(variant, "random" if seed == SEEDS[-1] else "solver"), seed)["actions"]
            rows.append(person_row("rotator", arm(variant, "solver").params, seed, record, [PERSON], variant))
            testers.append([f"tester-{k % 3 + 1}"])
            answers.append([{"fun": 2 + k % 4 if variant == "default" else 5, "confused": f"deal {seed}"}])
    people = folder / "people.parquet"
    write_people(people_table(rows, testers, answers, QUESTIONS), people, "test")
    bots = folder / "bots.parquet"
    writer = ResultWriter(bots, "test")
    bot_rows = []
    for variant in VARIANTS:
        bot_arm = arm(variant, "random")
        bot_rows += [play_game(Arm(bot_arm.game, bot_arm.params, bot_arm.agents, variant), s) for s in SEEDS]
    writer.write(bot_rows)
    writer.close()
    return people, bots, rows


def test_people_rows_have_the_sim_columns_and_read_in_query(files: Files) -> None:
    people, bots, rows = files
    columns, found = query("SELECT variant, agents[1], testers[1], q_fun[1], q_confused[1], win, m_turns "
                           "FROM games WHERE list_contains(agents, 'person') ORDER BY variant, seed",
                           [people, bots])
    assert len(found) == len(rows) == 12
    assert {r[1] for r in found} == {PERSON}
    assert [r[5] for r in found] == [r["win"] for r in sorted(rows, key=lambda r: (r["variant"], r["seed"]))]
    columns, both = query("SELECT count(*), count(testers) FROM games", [people, bots])
    assert both == [(24, 12)]  # bot rows have no testers: NULL under the united columns
    names = schema_for(rows).names
    assert query("SELECT * FROM games LIMIT 1", [people])[0][:len(names)] == names


def _row(page: str, variant: str, side: str) -> list[str]:
    found = re.search(rf"<tr><td>{re.escape(variant)}</td><td>{re.escape(side)}</td>(.*?)</tr>", page)
    assert found, (variant, side)
    return re.findall(r"<td>(.*?)</td>", found.group(1))


def test_the_report_shows_people_and_bots_side_by_side(files: Files,
                                                       tmp_path: Path) -> None:
    people, bots, rows = files
    out = write_report([people, bots], tmp_path / "report.html")
    page = out.read_text(encoding="utf-8")
    assert "<h2>People and bots</h2>" in page
    for variant in VARIANTS:
        mine = [r for r in rows if r["variant"] == variant]
        won = sum(r["win"] for r in mine)
        assert won == 5  # the solver wins every deal, the random player on the last one does not
        person = _row(page, variant, "people")
        low, high = wilson(won, len(mine))
        assert person[:5] == ["6", "3", f"{100 * won / 6:.1f}%", f"[{100 * low:.1f}%, {100 * high:.1f}%]",
                              f"{sum(r['length'] for r in mine) / 6:.1f}"]
        bot = _row(page, variant, "random")
        assert bot[0] == "6" and bot[2] == "0.0%"
        # on the 6 common deals: people won 5 the bots lost; the bots won none
        assert bot[5:11] == ["6", f"{-100 * 5 / 6:+.1f} pp", bot[7], "5", "0", f"{binom_two_sided(0, 5):.3g}"]
        fisher = fisher_exact([[5, 1], [0, 6]]).pvalue
        assert bot[11] == f"{fisher:.3g}" and bot[12] == "no"  # the paired test decides: p = 0.0625
    # the questionnaire: each variant's mean fun with its count
    assert "fun (1-5)" in page and "5.00 [5.00, 5.00] (n=6)" in page  # every answer 5
    fun = [2 + k % 4 for k in range(6)]
    assert f"{sum(fun) / 6:.2f} [" in page
    assert "“deal 10”" in page


def test_a_report_of_bots_alone_has_no_people_section(files: Files) -> None:
    people, bots, _ = files
    assert people_section([bots]) == ""  # write_report then renders the page as before
    alone = people_section([people])
    assert alone.startswith("<h2>People and bots</h2>") and "won only by people" in alone
    assert "<td>random</td>" not in alone  # no bot line without bot rows


def test_people_at_the_heroes_seats_are_rated_by_the_heroes_result(tmp_path: Path) -> None:
    """People play the wizard game's heroes against a bot wizard: their line is the heroes'
    result (0 % when every hero died, not the bot wizard's 100 %), the bots' line is taken at the
    same seats, and each side's result is shown apart."""
    game = get_game("wizard")
    params = resolve_params(game.params_type, game.variants, None, ["players=3"])
    built = Arm.build("wizard", params, ["heuristic"])
    bots_arm = Arm(built.game, built.params, built.agents, "default", keep_records=True)
    played = {s: play_game(bots_arm, s) for s in range(40)}
    lost = [s for s, r in played.items() if r["winners"] == [0]][:3]  # the wizard won: heroes lost
    assert len(lost) == 3
    rows = [person_row("wizard", built.params, s, played[s]["actions"], ["heuristic", PERSON, PERSON],
                       "default") for s in lost]
    people = write_people(people_table(rows, [[None, "Ann", "Bo"]] * 3, [[None, None, None]] * 3, []),
                          tmp_path / "people.parquet")
    bots = tmp_path / "bots.parquet"
    writer = ResultWriter(bots, "test")
    writer.write([{k: v for k, v in played[s].items() if k != "actions"} for s in lost])
    writer.close()
    section = people_section([people, bots])
    person = _row(section, "default", "people")
    assert person[2] == "0.0%"  # the heroes' result: every hero lost
    assert "wizard 100.0%" in person[-1] and "heroes" not in person[-1]
    bot = _row(section, "default", "heuristic, heuristic, heuristic")
    assert bot[2] == "0.0%" and bot[6] == "+0.0 pp"  # the same deals, the same seats: no difference
    assert "the seats the people held" in section and "default: heroes (hero1, hero2)" in section


def test_the_questionnaire_is_broken_down_by_role_and_result_with_each_texts_tester(files: Files) -> None:
    """Each scale's mean by the tester's role and whether their seat won or lost, and each text
    answer with its tester, seat, role and result."""
    people, _, rows = files
    page = people_section([people])
    split = page.split("won, lost or drew the game.</p>", 1)[1].split("</table>", 1)[0]
    found = {tuple(cells[:4]): cells[4] for cells in
             (re.findall(r"<td>(.*?)</td>", line) for line in split.split("<tr>")[2:])}
    role = rows[0]["seat_names"][0].rstrip("0123456789 ")
    expected: dict[tuple[str, ...], list[int]] = {}
    for k, row in enumerate(rows):
        result = "won" if 0 in row["winners"] else "draw" if row["draw"] else "lost"
        fun = 2 + (k % len(SEEDS)) % 4 if row["variant"] == "default" else 5
        expected.setdefault((row["variant"], role, result), []).append(fun)
    assert len({key[2] for key in expected}) > 1, "the deals hold won and lost games"
    assert {key: found[key][:4] for key in found} == {
        (v, r, res, str(len(fun))): f"{sum(fun) / len(fun):.2f}" for (v, r, res), fun in expected.items()}
    last = rows[len(SEEDS) - 1]
    result = "won" if 0 in last["winners"] else "lost"
    assert f"“deal {SEEDS[-1]}” (tester-{(len(SEEDS) - 1) % 3 + 1}, seat 0 ({role}, {result}))" in page
