"""The table server's HTTP API (docs/web.md): the games catalogue, creating and listing tables,
and clear 4xx errors for bad requests that change nothing."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create

from playtable.core.registry import game_ids


def test_games_catalogue_has_every_game_with_pitch_and_variant_lines(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == game_ids()
    for game in games:
        assert len(game["pitch"]) > 100, game["id"]
        assert game["variants"] and all(v["description"] for v in game["variants"]), game["id"]
        assert "random" in game["agents"]
        assert game["players"][0] <= game["players"][1]
        assert {"name", "default", "type", "doc"} <= set(game["params"][0])
    wizard = next(g for g in games if g["id"] == "wizard")
    assert wizard["players"] == [3, 5]
    troll = next(g for g in games if g["id"] == "troll")
    assert "strongest" in troll["agents"]  # the lobby's seat menu offers the strongest bot


def test_menus_list_the_standard_rules_once_then_the_games_groups(client: TestClient) -> None:
    """Each game's menus group its variants (`Game.variant_groups`): every grouped name is one of
    its variants, in one group at most; a variant that changes nothing is the standard rules,
    under the game's own title for them. Star Dice lists its 22 rules as the standard rules, then
    ways to play, solitaires and the designer's earlier versions apart, with a line for each."""
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    for game in games.values():
        names = [v["name"] for v in game["variants"]]
        grouped = [n for g in game["variant_groups"] for n in g["names"]]
        assert set(grouped) <= set(names) and len(grouped) == len(set(grouped)), game["id"]
        assert all(g["title"] and g["note"] for g in game["variant_groups"]), game["id"]
        assert game["standard"]["title"] and game["standard"]["description"], game["id"]
        assert not {v["name"] for v in game["variants"] if v["standard"]} & set(grouped), game["id"]
    stardice = games["stardice"]
    assert [v["name"] for v in stardice["variants"] if v["standard"]] == ["final"]
    assert stardice["standard"]["title"] == "Standard rules: a war to 50"
    assert stardice["standard"]["description"].startswith("The Final Rules")
    groups = {g["title"]: g for g in stardice["variant_groups"]}
    earlier = groups["The designer's earlier versions"]
    assert "playtests" in earlier["note"]
    assert set(earlier["names"]) == {v["name"] for v in stardice["variants"] if v["name"].startswith(
        ("iteration", "torpedoes"))}  # seed 002's iterations (its first solitaire is a solitaire)
    assert len(stardice["variants"]) == 1 + sum(len(g["names"]) for g in groups.values())
    titles = [v["title"] for v in stardice["variants"]]
    assert len(titles) == len(set(titles)) and stardice["standard"]["title"] not in titles[1:]
    (easier,) = games["troll"]["variant_groups"]
    assert easier["first"] and easier["names"][0] == "plus-one"
    assert games["troll"]["standard"]["title"] == "Standard rules (hardest)"


def test_rules_are_the_player_facing_file(client: TestClient) -> None:
    rules = client.get("/api/games/troll/rules").json()
    assert rules["game"] == "troll" and rules["markdown"].startswith("# Angry Troll")
    assert client.get("/api/games/chess/rules").status_code == 404


def test_the_catalogue_titles_each_default_seat(client: TestClient) -> None:
    wizard = next(g for g in client.get("/api/games").json()["games"] if g["id"] == "wizard")
    assert wizard["seat_names_default"] == ["wizard", "hero1", "hero2", "hero3"]
    assert wizard["seat_titles_default"] == ["the wizard", "Hero 1", "Hero 2", "Hero 3"]


def test_create_gives_join_links_with_tokens_and_a_watch_link(client: TestClient) -> None:
    created = create(client, game="troll", variant="plus-one", seed=7)
    table_id = created["table_id"]
    assert created["watch_url"] == f"/t/{table_id}"
    (seat,) = created["seats"]
    assert seat["join_url"].startswith(f"/t/{table_id}?seat=0&token=") and seat["name"] == "troll"
    assert seat["title"] == "the troll"  # the page's words; the name stays the id
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "open" and summary["step"] == 0 and summary["variant"] == "plus-one"
    assert summary["params"]["extra_per_slot"] == 1
    assert "seed" not in summary  # the seed is every future card: only once finished
    assert client.get("/api/tables?status=open").json()["tables"][0]["id"] == table_id
    assert client.get("/api/tables?status=finished").json()["tables"] == []


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "chess"}, "unknown game"),
    ({"game": "troll", "variant": "nope"}, "unknown variant"),
    ({"game": "troll", "params": {"colour": "red"}}, "unknown parameter"),
    ({"game": "troll", "params": {"turn_limit": "many"}}, "whole number"),
    ({"game": "troll", "seats": [{"kind": "bot", "agent": "genius"}]}, "unknown agent"),
    ({"game": "troll", "seats": [{"kind": "human"}, {"kind": "human"}]}, "1 seat"),
    ({"game": "troll", "seed": "seven"}, "'seed'"),
    ({"game": "troll", "players": 3}, "no choice of player count"),
    ([1, 2], "JSON object"),
])
def test_bad_create_requests_are_400_with_one_sentence(client: TestClient, body: object, words: str) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []


def test_malformed_body_and_unknown_table(client: TestClient) -> None:
    answer = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert answer.status_code == 400 and "not valid JSON" in answer.json()["error"]
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables?status=weird").status_code == 400
    assert client.post("/api/tables/nope/rematch", json={}).status_code == 404


def test_wizard_table_takes_a_player_count(client: TestClient) -> None:
    created = create(client, game="wizard", players=4, seats=[{"kind": "bot", "agent": "random"}] * 4)
    assert [s["name"] for s in created["seats"]] == ["wizard", "hero1", "hero2", "hero3"]


def test_record_and_positions_are_refused_while_running(client: TestClient) -> None:
    created = create(client, game="troll", seed=3)
    for path in ("record", "position?step=0"):
        answer = client.get(f"/api/tables/{created['table_id']}/{path}")
        # The reason in a player's words ("seed" is the designer's document there).
        assert answer.status_code == 403 and "deal number" in answer.json()["error"]


def test_pages_are_routed(client: TestClient) -> None:
    created = create(client, game="troll", seed=3)
    for path in ("/", f"/t/{created['table_id']}", f"/t/{created['table_id']}/replay"):
        answer = client.get(path)
        # The pages are written beside this server; until one exists its route answers 404.
        assert answer.status_code in (200, 404)
        if answer.status_code == 200:
            assert "html" in answer.headers["content-type"]
