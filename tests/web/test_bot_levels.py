"""The seat chooser offers each game's ladder by name (agents/levels.py, docs/web.md "Bot
levels"): the catalogue lists the levels weakest first with their titles, a table seats a level
by its name, and the bots' ratings list every level."""

from __future__ import annotations

from starlette.testclient import TestClient
from tests.web.conftest import create

from playtable.agents import ladder


def test_the_catalogue_offers_each_ladder_weakest_first_by_title(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    for game_id in ("stardice", "wizard"):
        levels = games[game_id]["levels"]
        assert [lv["agent"] for lv in levels] == [lv.agent for lv in ladder(game_id)]
        assert levels[0]["title"] == "Beginner" and levels[-1]["title"] == "Strongest"
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



def test_each_level_shows_its_measured_rating_weakest_lowest(client: TestClient) -> None:
    """Star Dice's levels are all rated (benchmarks/bot_ratings.py); the wizard's are as far as
    their specs were (the strongest, a search, starts as a newcomer until it is)."""
    for game_id in ("stardice", "wizard"):
        bots = client.get(f"/api/games/{game_id}/bots").json()["bots"]
        rated = [bots[lv.agent] for lv in ladder(game_id) if bots[lv.agent]["measured"]]
        assert len(rated) >= (len(ladder(game_id)) if game_id == "stardice" else 3), game_id
        shown = [r["rating"] for r in rated]
        assert shown == sorted(shown), (game_id, shown)
