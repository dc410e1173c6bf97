"""`playtable claims troll`: seed 000 §4.2's intended consequences against measured values."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from playtable.cli import main
from playtable.core.registry import game_ids

pytestmark = pytest.mark.skipif("troll" not in game_ids(), reason="troll not registered")


def test_claims_are_measured_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    """§4.2 "A rare artifact", "A really easy game is unlikely", "Game time is balanced", and
    §7 "Destructive variations" (27 / 15 / 3 minimum awakenings)."""
    main(["claims", "troll", "-n", "20", "--json"])
    rows = json.loads(capsys.readouterr().out)
    by_claim = {r["claim"]: r for r in rows}
    assert by_claim["ace of clubs dealt into the bridge"]["n"] == 20
    assert by_claim["ace of clubs dealt into the bridge"]["interval"].startswith("[")
    for name, value in (("final", "27"), ("plus-one", "15"), ("tutorial", "3")):
        claim = by_claim[f"minimum awakenings, {name}"]
        assert claim["measured"].split(";")[0] == value and claim["verdict"] == "consistent"
    assert any(r["claim"].startswith("THE CLUB acquired") for r in rows)
    assert any(r["claim"].startswith("perfectly easy game") for r in rows)


def test_claims_for_other_games_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["claims", "rotator"])
    assert done.value.code == 2
    assert "troll game only" in capsys.readouterr().err


def test_claims_report_every_game_for_a_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    """`claims` was silent for 12 s; now every game played is heard, per difficulty,
    and the table view shows a progress bar on stderr (sim's)."""
    from playtable.games.troll.claims import DIFFICULTIES
    from playtable.lab.claims import measure_claims

    heard: list[tuple[str, bool]] = []
    measure_claims("troll", 5, 0, "heuristic", lambda difficulty, won: heard.append((difficulty, won)))
    assert [d for d, _ in heard] == [name for name, _ in DIFFICULTIES for _ in range(5)]
    main(["claims", "troll", "-n", "5"])
    captured = capsys.readouterr()
    assert "claims: " in captured.err and "5/" in captured.err and "troll design claims" in captured.out


def test_designer_claims_of_section_4_2_are_measured(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000 §4.2: the row bias ("Raw mechanics ... sufficiently random"), "a minimum
    of 21 bricks", hearts that "dismay", stomping not "repeatedly possible" ("Boring actions have
    a cost"), the ends "most tactically dangerous" ("Player must constantly balance
    positioning") and "three turns to cross" ("Movement rules extend the metaphorical playing
    space"), each with its measured value and interval."""
    main(["claims", "troll", "-n", "20", "--json"])
    rows = {r["claim"]: r for r in json.loads(capsys.readouterr().out)}
    row = rows["the row with more bricks is the one awakened (all cards, heuristic)"]
    assert row["interval"].startswith("[") and row["n"] > 100
    assert rows["bricks subdued in a won game, final rules (heuristic)"]["seed_says"].startswith(
        "'a minimum of 21")
    assert "points" in rows["awakened hearts escape, against other suits (heuristic)"]["measured"]
    assert rows["turns in which a stomp is possible (heuristic)"]["interval"].startswith("[")
    for place in ("an end", "a second", "a middle"):
        assert rows[f"turns lost with the troll starting at {place} position (heuristic)"]["n"] > 0
    assert rows["bridges crossed in three turns, every turn's bridge (heuristic)"]["verdict"]


def test_three_turns_cross_a_whole_bridge() -> None:
    """§4.2 "Movement rules extend the metaphorical playing space": two steps a turn, six
    positions, "three turns to cross"; a gap that forces a change of rows can make it four."""
    from playtable.games.troll.claims import crossing_turns

    assert crossing_turns([3, 2, 1, 1, 2, 3] * 2) == 3
    assert crossing_turns([1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0]) == 4  # lower 3 gone: round by upper
    assert crossing_turns([1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]) is None


def test_clustered_intervals_widen_with_correlated_games() -> None:
    """The claims' shares cluster by game: ten games all-or-nothing give a wider interval than
    the same share spread evenly over the games."""
    from playtable.lab.claims import clustered, clustered_diff

    spread = clustered([(5.0, 10.0)] * 10)
    lumped = clustered([(10.0, 10.0)] * 5 + [(0.0, 10.0)] * 5)
    assert spread[0] == lumped[0] == 0.5
    assert lumped[2] - lumped[1] > spread[2] - spread[1]
    d = clustered_diff([(3.0, 4.0, 1.0, 4.0)] * 10)
    assert abs(d[0] - 0.5) < 1e-12 and d[1] <= d[0] <= d[2]


def test_the_lab_measures_whatever_claims_a_game_states() -> None:
    """The lab knows no game's claims: it plays and estimates for any game whose `claims()` says
    something (here a made-up claim about the rotator), and names the games that do when asked
    for one that does not."""
    from playtable.core.claims import Claim, DesignClaims, Estimates, Player
    from playtable.core.errors import BadParameter
    from playtable.core.registry import get_game
    from playtable.lab.claims import design_claims, games_with_claims, measure_claims

    rotator = get_game("rotator")

    class RandomWins(DesignClaims):
        title = "made-up claims"
        runs = ("default",)

        def measure(self, games: int, seed: int, agent: str, new_player: Callable[[], Player],
                    estimates: Estimates,
                    on_game: Callable[[str, bool], None] | None = None) -> list[Claim]:
            player, wins = new_player(), 0
            for deal in range(seed, seed + games):
                state = rotator.new_state(None, deal)
                choose = player(state, deal)
                while not state.is_terminal:
                    state.apply(choose())
                wins += state.returns()[0] >= 1
            low, high = estimates.wilson(wins, games)
            return [Claim("random play wins", "rarely", f"{wins}/{games}", f"[{low:.2f}, {high:.2f}]",
                          games)]

    assert games_with_claims() == ["troll"]
    with pytest.raises(BadParameter, match="troll game only, not 'rotator'"):
        design_claims("rotator")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(rotator), "claims", lambda self: RandomWins())
        first, again = (measure_claims("rotator", 3, 5, "random") for _ in range(2))
    assert first == again and first[0].n == 3 and first[0].interval.startswith("[0.")


def test_luck_is_refused_for_a_game_whose_claims_are_not_the_troll_s(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`--luck` splits deals with the troll's clairvoyant solver; another game that states
    claims gets a clear error, not the troll's deals."""
    from playtable.core.registry import get_game
    from playtable.games.troll.claims import TrollClaims

    rotator = get_game("rotator")
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as done:
        patch.setattr(type(rotator), "claims", lambda self: TrollClaims(self))
        main(["claims", "rotator", "--luck", "-n", "1", "--agent", "random"])
    assert done.value.code == 2
    assert "--luck is measured for the troll game only, not 'rotator'" in capsys.readouterr().err
