"""The seeds' playtest questions (lab/playtest*.py): every answer is computed from played games,
not from constants: it has a sample behind it, other seeds move it, and a changed parameter
moves the answer that depends on it. Tiny budgets; the questions cite seeds 000, 002, 003, 004."""

from __future__ import annotations

import math

import pytest

from playtable.core.errors import BadParameter
from playtable.lab import playtest_wizard
from playtable.lab.playtest import Answer, _mark_disagreements, answer_rows, playtest


def _numbers(answers: list[Answer]) -> dict[tuple[str, str], float]:
    return {(a.question, a.agent): a.value for a in answers if not math.isnan(a.value)}


@pytest.mark.parametrize(
    ("game", "agents", "games"),
    [("troll", ["heuristic"], 40), ("stardice", ["random-thrower"], 4), ("wizard", ["random"], 2),
     ("rotator", ["random"], 2)],
)
def test_every_answer_comes_from_games(game: str, agents: list[str], games: int) -> None:
    first = playtest(game, agents, games, seed=0)
    assert first and all(a.agent == agents[0] and a.question and a.measured and a.source for a in first)
    assert all(a.n > 0 for a in first if not math.isnan(a.value)), [a.question for a in first if a.n == 0]
    rows = answer_rows(first)
    assert len(rows) == len(first) and "detail" not in rows[0]
    if game != "rotator":  # a random driller wins no Rotator board on any seed: nothing to move
        moved = _numbers(playtest(game, agents, games, seed=500))
        before = _numbers(first)
        changed = [k for k in before if k in moved and moved[k] != before[k]]
        assert len(changed) >= len(before) // 3, "answers did not move with the seeds"


def test_a_changed_parameter_changes_the_answer_that_depends_on_it() -> None:
    """Seed 003's weekly update: the wheel grew 'too fast' with +1 mana a turn. Playing the same
    seeds with that rule back (mana_per_turn=1) must raise the measured wheel."""
    from playtable.lab.playtest import Setting, play_settings

    def wheel_at(extra: list[str]) -> float:
        four = playtest_wizard._FourPlayers()
        settings = [Setting(s.variant, (*s.params, *extra)) for s in playtest_wizard.PAIRED]
        play_settings(four.add, "wizard", "random", 4, 0, None, settings, probe=playtest_wizard.PROBE)
        return playtest_wizard._wheel("random", four).detail[4]["mean_wheel"]

    assert wheel_at(["mana_per_turn=1"]) > wheel_at([])


def test_two_agents_are_compared_and_disagreements_marked() -> None:
    answers = playtest("troll", ["random", "heuristic"], 30)
    by_question: dict[str, set[str]] = {}
    for a in answers:
        by_question.setdefault(a.question, set()).add(a.agent)
    assert all(agents == {"random", "heuristic"} for agents in by_question.values())
    weak = Answer("q", "s", "x", "weak", "0%", 0.0, 0.0, 0.1, 30)
    strong = Answer("q", "s", "x", "strong", "90%", 0.9, 0.8, 1.0, 30)
    close = Answer("r", "s", "x", "weak", "50%", 0.5, 0.3, 0.7, 30)
    close2 = Answer("r", "s", "x", "strong", "60%", 0.6, 0.4, 0.8, 30)
    _mark_disagreements([weak, strong, close, close2])
    assert weak.disagree and strong.disagree and not close.disagree and not close2.disagree


def test_unknown_game_or_no_games_is_one_clear_error() -> None:
    with pytest.raises(BadParameter, match="no playtest questions"):
        playtest("chess")
    with pytest.raises(BadParameter):
        playtest("troll", ["heuristic"], 0)


def test_intervals_are_printed_in_their_answers_units() -> None:
    """A share prints in percent, a paired difference of two shares (the wizard's trap and rage
    questions) in signed percentage points, anything else as it is: the same text in the terminal
    table, the report page and the benchmark's table."""
    share = Answer("q", "s", "x", "a", "12.0%", 0.12, 0.081, 0.17, 100, unit="%")
    diff = Answer("q", "s", "x", "a", "-10.0 points", -0.1, -0.27, 0.0703, 50, unit="points")
    turns = Answer("q", "s", "x", "a", "20.2 turns", 20.2, 19.6, 20.8, 100)
    assert share.interval_text() == "[8.1%, 17.0%]"
    assert diff.interval_text() == "[-27.0, +7.0] points"
    assert turns.interval_text() == "[19.6, 20.8]"
    assert not diff.is_share() and share.is_share()
    trap = [a for a in playtest_wizard.answers("random", 2, 0, None) if "minus beta" in a.question]
    assert trap and trap[0].unit == "points" and trap[0].interval_text().endswith("points")


def test_an_answer_says_how_far_it_can_still_move_or_that_it_cannot_separate() -> None:
    fair = Answer("Fair at 3 players?", "seed", "50%", "heuristic", "50.0%", 0.5, 0.299, 0.701, 20, unit="%")
    assert fair.reach_text() == "±20.1 pp; ±5 pp needs about 381 games"
    tied = Answer("Does the rule change it?", "seed", "yes", "heuristic", "+2.0 points", 0.02, -0.05, 0.09,
                  100, unit="points")
    text = tied.reach_text()
    assert text.startswith("too small to separate: 5 pp needs about ")
    assert int(text.split("about ")[1].split(" ")[0].replace(",", "")) > 100
    apart = Answer("q", "s", "x", "a", "+9 points", 0.09, 0.02, 0.16, 100, unit="points")
    assert apart.reach_text() == "separated"
