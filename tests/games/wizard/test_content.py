"""The content files (wizard deck, loot deck, tiles) and their loader."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tests.games.wizard.helpers import params

from playtable.core.errors import BadParameter
from playtable.games.wizard.content import PACKAGE_CONTENT, load_content
from playtable.games.wizard.game import GAME


def test_package_content_names_the_seed_cards() -> None:
    """8 Nov 'Wizard Cards' and 26 Oct update: Frost Bolt, Switcheroo and Whirlwind exist;
    monsters of levels 1 to 5; 3 key tiles; every entry says where it comes from."""
    c = load_content()
    assert {"frost_bolt", "switcheroo", "whirlwind"} <= set(c.wizard)
    levels = {lv for card in c.wizard.values() for lv in card.monsters}
    assert levels == {1, 2, 3, 4, 5}
    assert len(c.key_tiles()) == 3 and len(c.regular_tiles()) >= 48
    assert {"health_potion", "sprint", "great_sword", "boots_of_leaping"} <= set(c.loot)
    for entries in (c.wizard.values(), c.loot.values(), c.tiles.values()):
        for e in entries:
            assert e.source.startswith(("seed", "ours"))


def test_earlier_rules_have_fewer_cards() -> None:
    """26 Oct update: Switcheroo and Whirlwind were added after the alpha."""
    c = load_content()
    alpha = {i.split(".")[0] for i in c.wizard_instances("alpha")}
    assert "switcheroo" not in alpha and "whirlwind" not in alpha
    assert "switcheroo" in {i.split(".")[0] for i in c.wizard_instances("beta")}


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "mycontent"
    shutil.copytree(PACKAGE_CONTENT, target)
    return target


def _edit(path: Path, key: str, index: int, **changes: object) -> None:
    data = json.loads(path.read_text())
    data[key][index].update(changes)
    path.write_text(json.dumps(data))


def test_designer_content_directory_is_used(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    goblins = load_content().wizard["goblin"].count
    _edit(d / "wizard_deck.json", "cards", 0, count=20)
    s = GAME.new_state(params(3, content=str(d)), 1)
    total = len(s.deck) + len(s.offered) + len(s.hand) + len(s.discard)
    assert total == len(load_content().wizard_instances("final")) - goblins + 20


@pytest.mark.parametrize(
    ("file", "key", "change", "words"),
    [
        ("wizard_deck.json", "cards", {"cost": -1}, ["wizard_deck.json", "goblin", "'cost'"]),
        ("wizard_deck.json", "cards", {"monsters": [7]}, ["goblin", "levels 1 to 5"]),
        ("wizard_deck.json", "cards", {"type": "dragonish"}, ["goblin", "'type'"]),
        ("wizard_deck.json", "cards", {"id": "orc"}, ["orc", "twice"]),
        ("loot_deck.json", "cards", {"effect": "fly"}, ["loot_deck.json", "health_potion",
                                                        "'effect'"]),
        ("tiles.json", "tiles", {"draw": "lots"}, ["tiles.json", "empty_room", "'draw'"]),
        ("tiles.json", "tiles", {"count": 1}, ["tiles.json", "too few"]),
    ],
)
def test_bad_content_is_rejected_naming_file_entry_and_problem(
    tmp_path: Path, file: str, key: str, change: dict[str, object], words: list[str]
) -> None:
    d = _copy(tmp_path)
    _edit(d / file, key, 0, **change)
    with pytest.raises(BadParameter) as err:
        load_content(str(d))
    for w in words:
        assert w in str(err.value)


def test_broken_json_and_missing_files(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    (d / "tiles.json").write_text("{ nope")
    with pytest.raises(BadParameter, match="tiles.json: not valid JSON"):
        load_content(str(d))
    (d / "tiles.json").unlink()
    with pytest.raises(BadParameter, match="tiles.json: cannot be read"):
        load_content(str(d))
    with pytest.raises(BadParameter, match="does not exist"):
        load_content(str(tmp_path / "nowhere"))
