"""The seat chooser offers each game's ladder by name (agents/levels.py, docs/web.md "Bot
levels"): the catalogue lists the levels weakest first with their titles, a table seats a level
by its name, and the bots' ratings list every level."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create

from playtable.agents import ladder
from playtable.web.server.people.ratings import BOT_RATINGS_FILE


def test_the_catalogue_offers_each_ladder_weakest_first_by_title(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    for game_id in ("stardice", "wizard"):
        levels = games[game_id]["levels"]
        assert [lv["agent"] for lv in levels] == [lv.agent for lv in ladder(game_id)]
        assert levels[0]["title"] == "Beginner"
        assert levels[-1]["title"] == ("Strongest" if game_id == "stardice" else "Strong")
        assert all(lv["about"] for lv in levels)
        assert {lv["agent"] for lv in levels} <= set(games[game_id]["agents"])
    assert games["troll"]["levels"] == [] and games["rotator"]["levels"] == []


def test_a_table_seats_a_level_by_its_name(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "strongest"}]
    created = create(client, game="stardice", seats=seats)
    summary = client.get(f"/api/tables/{created['table_id']}").json()
    assert [s.get("agent") for s in summary["seats"]][1] == "strongest"
    refused = client.post("/api/tables", json={"game": "stardice", "seats": [
        {"kind": "human"}, {"kind": "bot", "agent": "strongest:samples=8"}]})
    assert refused.status_code == 400 and "takes no options" in refused.json()["error"]


def test_every_level_is_rated(client: TestClient) -> None:
    """Every level of both ladders is rated (benchmarks/bot_ratings.py --ladder), the wizard's
    strongest search too: none is left to start as a newcomer."""
    for game_id in ("stardice", "wizard"):
        bots = client.get(f"/api/games/{game_id}/bots").json()["bots"]
        assert all(bots[lv.agent]["measured"] for lv in ladder(game_id)), game_id


@pytest.mark.parametrize("game_id", ["stardice", "wizard"])
def test_each_level_shows_its_measured_rating_weakest_lowest(client: TestClient,
                                                              game_id: str) -> None:
    bots = client.get(f"/api/games/{game_id}/bots").json()["bots"]
    shown = [bots[lv.agent]["rating"] for lv in ladder(game_id)]
    assert shown == sorted(shown), shown


def measured_pairs(game_id: str) -> list[dict[str, Any]]:
    """The ladder's pairs as `benchmarks/bot_ratings.py --ladder` wrote them in the shipped file."""
    source = resources.files("playtable.web.server.people") / BOT_RATINGS_FILE
    pairs: list[dict[str, Any]] = json.loads(source.read_text(encoding="utf-8"))["ladders"][game_id]
    return pairs


@pytest.mark.parametrize("game_id", ["stardice", "wizard"])
def test_the_pairs_measured_are_the_levels_as_they_are(game_id: str) -> None:
    """A level whose spec changes is measured again: the file's pairs are the ladder's own."""
    specs = list(dict.fromkeys(lv.spec for lv in ladder(game_id)))
    adjacent = list(zip(specs, specs[1:], strict=False))
    assert [(p["lower"], p["upper"]) for p in measured_pairs(game_id)] == adjacent


@pytest.mark.parametrize("game_id", ["stardice", "wizard"])
def test_each_level_beats_the_one_below_in_paired_games(game_id: str) -> None:
    """The ladder's rule (docs/web.md "Bot levels"): each level took more than half the points
    from the level below on the same deals in both seatings, by the whole of its 95% interval."""
    pairs = measured_pairs(game_id)
    assert all(p["low"] > 0.5 and p["seeds"] >= 8 for p in pairs), pairs
