"""Content counts as parameters (RULES.md §6): how many of each wizard card and room
tile, the numbers the designers changed while balancing (26 Oct update: "a lot of creatures that
costs 1 mana", Switcheroo and Whirlwind, traps "too powerful", "tweaked the numbers on the
tiles"). The defaults are the content files' counts and play today's games exactly."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from tests.games.wizard.helpers import params

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.games.wizard import position
from playtable.games.wizard.content import PACKAGE_CONTENT, kind_of, load_content
from playtable.games.wizard.game import GAME
from playtable.games.wizard.params import COUNT_PREFIXES, WizardParams
from playtable.games.wizard.state import WizardState


def _count_fields() -> list[dataclasses.Field[int]]:
    return [f for f in dataclasses.fields(WizardParams) if f.name.startswith(COUNT_PREFIXES)]


def test_every_card_and_room_tile_has_a_count_whose_default_is_the_files() -> None:
    content = load_content()
    expected = {f"cards_{c.id}": c.count for c in content.wizard.values()}
    expected |= {f"tiles_{t.id}": t.count for t in content.tiles.values() if not t.key}
    assert {f.name: f.default for f in _count_fields()} == expected
    for f in _count_fields():  # a declared search space around the default, for `playtable tune`
        low, high = f.metadata["space"]
        assert low <= f.default <= high
    assert WizardParams().count_overrides() == ()


def _wizard_cards(st: WizardState) -> Counter[str]:
    return Counter(kind_of(c) for c in st.deck + st.hand + st.offered + st.discard)


def _tiles(st: WizardState) -> Counter[str]:
    return Counter(kind_of(t) for t in [c.tile for c in st.cells.values() if c.tile] + st.unused_tiles)


def test_a_count_changes_the_deck() -> None:
    base = GAME.new_state(params(3), 5)
    more = GAME.new_state(params(3, cards_goblin=11, cards_whirlwind=0), 5)
    assert _wizard_cards(base)["goblin"] == 6 and _wizard_cards(base)["whirlwind"] == 1
    assert _wizard_cards(more)["goblin"] == 11 and "whirlwind" not in _wizard_cards(more)
    assert sum(_wizard_cards(more).values()) == sum(_wizard_cards(base).values()) + 4


def test_a_count_changes_the_tiles_on_the_board() -> None:
    st = GAME.new_state(params(5, tiles_empty_room=0, tiles_shrine=20), 2)
    tiles = _tiles(st)
    assert "empty_room" not in tiles and tiles["shrine"] == 20 and tiles["key_chamber"] == 3
    on_board = Counter(kind_of(c.tile) for c in st.cells.values() if c.tile)
    assert "empty_room" not in on_board  # 7x7: 48 room tiles, every one of them laid out


def _fingerprint(p: WizardParams, seed: int) -> tuple[int, str, object]:
    st = GAME.new_state(p, seed)
    agents = [make_agent(GAME, "heuristic") for _ in range(p.players)]
    rng = Chance(seed + 1_000_003)
    digest = hashlib.sha256()
    n = 0
    while not st.is_terminal:
        a = agents[st.current_player].choose(st, rng)
        digest.update(str(a).encode())
        st.apply(a)
        n += 1
    return n, digest.hexdigest(), st.metrics()["winner"]


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (4, 1), (5, 2)])
def test_the_defaults_play_the_content_files_games_exactly(
    players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same seed, same game: the defaults, every count written out at its default, and the
    game built from the content files with the count parameters ignored altogether."""
    default = _fingerprint(params(players), seed)
    spelled = params(players, **{f.name: f.default for f in _count_fields()})
    assert _fingerprint(spelled, seed) == default
    monkeypatch.setattr(position, "load_content", lambda directory, counts=(): load_content(directory))
    assert _fingerprint(params(players), seed) == default


def test_another_count_plays_another_game() -> None:
    assert _fingerprint(params(3, tiles_shrine=20), 0) != _fingerprint(params(3), 0)


@pytest.mark.parametrize(("change", "words"), [
    ({"tiles_shrine": 11}, "47 room tiles; a 7x7 grid needs 48"),
    ({f"cards_{c}": 0 for c in ("goblin", "rat_swarm", "goblin_pack", "orc", "troll", "ogre",
                                "dragon", "spike_trap", "pit_traps", "frost_bolt", "switcheroo",
                                "whirlwind", "fireball")}, "wizard deck empty"),
    ({"cards_orc": 61}, "cards_orc must be 0 to 60"),
    ({"cards_orc": -1}, "cards_orc must be 0 to 60"),
])
def test_unplayable_counts_are_one_clear_error(change: dict[str, int], words: str) -> None:
    with pytest.raises(BadParameter, match=words):
        params(4, **change)


def test_a_designers_content_keeps_its_counts_unless_one_is_set(tmp_path: Path) -> None:
    d = tmp_path / "mine"
    shutil.copytree(PACKAGE_CONTENT, d)
    data = json.loads((d / "wizard_deck.json").read_text())
    data["cards"] = [c for c in data["cards"] if c["id"] != "dragon"]
    data["cards"][0]["count"] = 9  # goblin
    (d / "wizard_deck.json").write_text(json.dumps(data))
    assert _wizard_cards(GAME.new_state(params(3, content=str(d)), 1))["goblin"] == 9
    assert _wizard_cards(GAME.new_state(params(3, content=str(d), cards_goblin=2), 1))["goblin"] == 2
    with pytest.raises(BadParameter, match="cards_dragon: the content has no wizard card 'dragon'"):
        params(3, content=str(d), cards_dragon=2)
