"""Every named variant of every game has a name a player understands and a one-line description
(menus showed designer ids such as `ladder-10`, `expert-70`, `iteration7_borg1`,
`territory-buffer`). A game that gains a variant without them fails here."""

from __future__ import annotations

import re

import pytest

from playtable.core.registry import game_ids, get_game

DESIGNER_ID = re.compile(r"^[a-z0-9]+([_-][a-z0-9]+)+$|_")
"""What an id looks like (`ladder-10`, `iteration7_borg1`): never a player-facing name."""


@pytest.mark.parametrize("game_id", game_ids())
def test_every_variant_has_a_player_facing_name_and_description(game_id: str) -> None:
    game = get_game(game_id)
    assert game.variants, f"{game_id} has named variants to name"
    assert set(game.variant_titles) == set(game.variants), \
        f"{game_id}: names for {sorted(set(game.variants) - set(game.variant_titles))}, " \
        f"none for the unknown {sorted(set(game.variant_titles) - set(game.variants))}"
    assert set(game.variant_descriptions) >= set(game.variants)
    titles = [game.variant_titles[name] for name in game.variants]
    assert len(set(titles)) == len(titles), f"{game_id}: two variants share a name"
    for name, title in game.variant_titles.items():
        assert title.strip() and title[0].isupper() and len(title) <= 40, (name, title)
        assert title != name and not DESIGNER_ID.search(title), f"{name}: {title!r} reads like an id"
        description = game.variant_descriptions[name]
        assert description.strip() and "\n" not in description and description.endswith((".", "...")), name
        assert not DESIGNER_ID.search(description.split(" ")[0]), name


def test_the_lobby_catalogue_carries_the_names() -> None:
    from playtable.web.server.tables.api import game_entry

    for game_id in game_ids():
        game = get_game(game_id)
        entries = game_entry(game_id)["variants"]
        assert [(v["name"], v["title"], v["description"]) for v in entries] == \
            [(name, game.variant_titles[name], game.variant_descriptions[name]) for name in game.variants]
