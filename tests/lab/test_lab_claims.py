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
