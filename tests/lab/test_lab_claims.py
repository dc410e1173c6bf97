"""`playtable claims troll`: seed 000 §4.2's intended consequences against measured values."""

from __future__ import annotations

import json

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
    """Issue 14: `claims` was silent for 12 s; now every game played is heard, per difficulty,
    and the table view shows a progress bar on stderr (sim's)."""
    from playtable.lab.claims import DIFFICULTIES, troll_claims

    heard: list[tuple[str, bool]] = []
    troll_claims(5, 0, "heuristic", lambda difficulty, won: heard.append((difficulty, won)))
    assert [d for d, _ in heard] == [name for name, _ in DIFFICULTIES for _ in range(5)]
    main(["claims", "troll", "-n", "5"])
    captured = capsys.readouterr()
    assert "claims: " in captured.err and "5/" in captured.err and "troll design claims" in captured.out
