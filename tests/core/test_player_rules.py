"""Every game ships its rules for players: one markdown file per game package that the
terminal apps' `?` screens and the web app's rules panel both show."""

from __future__ import annotations

import re

import pytest

from playtable.core.errors import UnknownGame
from playtable.core.registry import game_ids, player_rules


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_plain_markdown_player_rules(game_id: str) -> None:
    text = player_rules(game_id)
    assert text.startswith("# ")
    assert "## " in text
    # plain markdown only, so every front end can show it: no tables, no images, no html
    assert not re.search(r"^\s*\|", text, re.MULTILINE)
    assert "![" not in text and "<" not in text


def test_unknown_game_is_one_clear_error() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        player_rules("chess")
