"""The game's content (wizard deck, loot deck, tiles) read from data files, with strict checks.

The package ships `content/wizard_deck.json`, `content/loot_deck.json` and `content/tiles.json`.
A designer may point the game at a directory holding their own versions of these three files
(parameter `content=/path/to/dir`). A file with an error is rejected with a `BadParameter`
whose message names the file, the entry and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from playtable.core.errors import BadParameter
from playtable.core.jsonio import read_json
from playtable.core.words import plural

PACKAGE_CONTENT = Path(__file__).parent / "content"
VERSIONS = ("alpha", "beta", "final")
SPELL_EFFECTS = ("frost_bolt", "switcheroo", "whirlwind", "fireball")
LOOT_EFFECTS = ("heal", "combat_bonus", "sprint")


@dataclass(frozen=True)
class WizardCard:
    id: str
    name: str
    type: str  # monster | trap | spell
    cost: int
    monsters: tuple[int, ...]
    traps: int
    blanks: int
    effect: str
    removed: bool
    count: int
    since: str
    source: str
    text: str

    def tokens(self) -> list[str]:
        """The tokens this card places: 'm<level>', 'trap' and 'blank'."""
        return [f"m{lv}" for lv in self.monsters] + ["trap"] * self.traps + ["blank"] * self.blanks

    def describe(self) -> str:
        if self.type == "monster":
            levels = "+".join(str(lv) for lv in self.monsters)
            return f"{self.name} (cost {self.cost}): monster level {levels}, {plural(self.blanks, 'blank')}"
        if self.type == "trap":
            return (f"{self.name} (cost {self.cost}): {plural(self.traps, 'trap')}, "
                    f"{plural(self.blanks, 'blank')}")
        return f"{self.name} (cost {self.cost}): {self.text.rstrip('.')}"


@dataclass(frozen=True)
class LootCard:
    id: str
    name: str
    type: str  # consumable | equipment
    effect: str  # heal | combat_bonus | sprint | "" for equipment
    value: int
    slot: str  # sword | boots | "" for consumables
    combat: int
    save: int
    count: int
    source: str
    text: str


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    draw: int
    mana: int
    key: bool
    count: int
    source: str


@dataclass(frozen=True)
class Content:
    wizard: dict[str, WizardCard]
    loot: dict[str, LootCard]
    tiles: dict[str, Tile]

    def wizard_instances(self, version: str) -> list[str]:
        """Card instance ids (`goblin.1`) of the wizard deck for a rules version."""
        rank = VERSIONS.index(version)
        out: list[str] = []
        for card in self.wizard.values():
            if VERSIONS.index(card.since) <= rank:
                out.extend(f"{card.id}.{i}" for i in range(1, card.count + 1))
        return out

    def loot_instances(self) -> list[str]:
        return [f"{c.id}.{i}" for c in self.loot.values() for i in range(1, c.count + 1)]

    def regular_tiles(self) -> list[str]:
        return [f"{t.id}.{i}" for t in self.tiles.values() if not t.key for i in range(1, t.count + 1)]

    def key_tiles(self) -> list[str]:
        return [f"{t.id}.{i}" for t in self.tiles.values() if t.key for i in range(1, t.count + 1)]

    def wcard(self, instance: str) -> WizardCard:
        return self.wizard[kind_of(instance)]

    def lcard(self, instance: str) -> LootCard:
        return self.loot[kind_of(instance)]

    def tile(self, instance: str) -> Tile:
        return self.tiles[kind_of(instance)]

    def names(self) -> dict[str, str]:
        """Every card, item and tile id with the name players read (`health_potion` ->
        `Health Potion`), so front ends never show an id. A fresh copy each call."""
        return dict(self._names)

    def faces(self) -> dict[str, dict[str, Any]]:
        """Every wizard and loot card as a player reads it on the table (name, type, cost, the
        effect in words), so a page draws a hand as cards without knowing the content files."""
        return {k: dict(v) for k, v in self._faces.items()}

    @cached_property
    def _faces(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for c in self.wizard.values():
            out[c.id] = {"name": c.name, "owner": "wizard", "type": c.type, "cost": c.cost,
                         "text": _card_words(c)}
        for lc in self.loot.values():
            out[lc.id] = {"name": lc.name, "owner": "loot", "type": lc.type, "text": lc.text}
        return out

    @cached_property
    def _names(self) -> dict[str, str]:
        return {**{t.id: t.name for t in self.tiles.values()},
                **{c.id: c.name for c in self.loot.values()},
                **{c.id: c.name for c in self.wizard.values()}}


def _card_words(c: WizardCard) -> str:
    """A wizard card's effect as its face would say it."""
    blanks = f" and {c.blanks} blank token{'s' if c.blanks != 1 else ''}" if c.blanks else ""
    if c.type == "monster":
        levels = " and ".join(f"a level {lv} monster" for lv in c.monsters)
        return f"Places {levels}{blanks}, face down."
    if c.type == "trap":
        return f"Places {c.traps} trap{'s' if c.traps != 1 else ''}{blanks}, face down."
    return c.text


def kind_of(instance: str) -> str:
    """`goblin.3` -> `goblin`."""
    return instance.rsplit(".", 1)[0]


class _Checker:
    """Reads one entry's fields, raising errors that name the file and the entry."""

    def __init__(self, file: str, entry: dict[str, Any], index: int):
        self.file = file
        self.entry = entry
        label = entry.get("id") if isinstance(entry.get("id"), str) else f"#{index + 1}"
        self.label = label

    def fail(self, problem: str) -> BadParameter:
        return BadParameter(f"content file {self.file}: entry '{self.label}': {problem}")

    def text(self, key: str, default: str | None = None) -> str:
        value = self.entry.get(key, default)
        if not isinstance(value, str) or (default is None and not value):
            raise self.fail(f"'{key}' must be a non-empty text")
        return value

    def integer(self, key: str, lo: int, hi: int, default: int | None = None) -> int:
        value = self.entry.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"'{key}' must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise self.fail(f"'{key}' must be between {lo} and {hi}, not {value}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: str | None = None) -> str:
        value = self.entry.get(key, default)
        if value not in options:
            raise self.fail(f"'{key}' must be one of {', '.join(options)}, not {value!r}")
        return str(value)

    def flag(self, key: str) -> bool:
        value = self.entry.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(f"'{key}' must be true or false, not {value!r}")
        return value


def _entries(path: Path, key: str) -> list[dict[str, Any]]:
    # the shared reader: a size limit, UTF-8 with a BOM dropped, no NaN, depth and digit limits
    data = read_json(path, "content file", max_bytes=1024 * 1024, error=BadParameter)
    if not isinstance(data, dict) or not isinstance(data.get(key), list) or not data[key]:
        raise BadParameter(f"content file {path}: must be an object with a non-empty list '{key}'")
    entries = data[key]
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise BadParameter(f"content file {path}: entry #{i + 1}: must be an object")
    return entries


def _unique(file: str, ck: _Checker, seen: set[str]) -> str:
    ident = ck.text("id")
    if not ident.replace("_", "").isalnum() or not ident.islower():
        raise ck.fail("'id' must be lower-case letters, digits and underscores")
    if ident in seen:
        raise ck.fail("the id appears twice in the file")
    seen.add(ident)
    return ident


def _read_wizard(path: Path) -> dict[str, WizardCard]:
    out: dict[str, WizardCard] = {}
    seen: set[str] = set()
    for i, entry in enumerate(_entries(path, "cards")):
        ck = _Checker(str(path), entry, i)
        ident = _unique(str(path), ck, seen)
        kind = ck.choice("type", ("monster", "trap", "spell"))
        monsters: tuple[int, ...] = ()
        traps = blanks = 0
        effect = ""
        if kind == "monster":
            raw = entry.get("monsters")
            if not isinstance(raw, list) or not raw or not all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 5 for v in raw
            ):
                raise ck.fail("'monsters' must be a non-empty list of monster levels 1 to 5")
            monsters = tuple(raw)
            blanks = ck.integer("blanks", 0, 10)
        elif kind == "trap":
            traps = ck.integer("traps", 1, 5)
            blanks = ck.integer("blanks", 0, 10)
        else:
            effect = ck.choice("effect", SPELL_EFFECTS)
        out[ident] = WizardCard(
            id=ident, name=ck.text("name"), type=kind, cost=ck.integer("cost", 0, 20),
            monsters=monsters, traps=traps, blanks=blanks, effect=effect,
            removed=ck.flag("removed"), count=ck.integer("count", 1, 50),
            since=ck.choice("since", VERSIONS, "alpha"), source=ck.text("source"),
            text=ck.text("text", ""),
        )
    return out


def _read_loot(path: Path) -> dict[str, LootCard]:
    out: dict[str, LootCard] = {}
    seen: set[str] = set()
    for i, entry in enumerate(_entries(path, "cards")):
        ck = _Checker(str(path), entry, i)
        ident = _unique(str(path), ck, seen)
        kind = ck.choice("type", ("consumable", "equipment"))
        if kind == "consumable":
            effect = ck.choice("effect", LOOT_EFFECTS)
            value = ck.integer("value", 1, 20)
            slot, combat, save = "", 0, 0
        else:
            effect, value = "", 0
            slot = ck.choice("slot", ("sword", "boots"))
            combat = ck.integer("combat", 0, 20, 0)
            save = ck.integer("save", 0, 20, 0)
            if combat == 0 and save == 0:
                raise ck.fail("equipment must give a 'combat' or a 'save' bonus")
        out[ident] = LootCard(
            id=ident, name=ck.text("name"), type=kind, effect=effect, value=value, slot=slot,
            combat=combat, save=save, count=ck.integer("count", 1, 50), source=ck.text("source"),
            text=ck.text("text", ""),
        )
    return out


def _read_tiles(path: Path) -> dict[str, Tile]:
    out: dict[str, Tile] = {}
    seen: set[str] = set()
    for i, entry in enumerate(_entries(path, "tiles")):
        ck = _Checker(str(path), entry, i)
        ident = _unique(str(path), ck, seen)
        out[ident] = Tile(
            id=ident, name=ck.text("name"), draw=ck.integer("draw", -5, 5),
            mana=ck.integer("mana", -5, 5), key=ck.flag("key"), count=ck.integer("count", 1, 60),
            source=ck.text("source"),
        )
    regular = sum(t.count for t in out.values() if not t.key)
    keys = sum(t.count for t in out.values() if t.key)
    if keys != 3:
        raise BadParameter(f"content file {path}: there must be exactly 3 key tiles, not {keys}")
    if regular < 48:
        raise BadParameter(
            f"content file {path}: {regular} room tiles is too few; a 7x7 grid needs 48"
        )
    return out


@cache
def load_content(directory: str = "", counts: tuple[tuple[str, str, int], ...] = ()) -> Content:
    """The content in `directory` (the package's own when empty), with `counts` (('cards' or
    'tiles', id, count), the game's count parameters) replacing the files' counts. Cached per
    directory and counts."""
    if counts:
        return with_counts(load_content(directory), counts)
    base = Path(directory) if directory else PACKAGE_CONTENT
    if not base.is_dir():
        raise BadParameter(f"content directory {base} does not exist")
    return Content(
        wizard=_read_wizard(base / "wizard_deck.json"),
        loot=_read_loot(base / "loot_deck.json"),
        tiles=_read_tiles(base / "tiles.json"),
    )


def with_counts(content: Content, counts: tuple[tuple[str, str, int], ...]) -> Content:
    """`content` with other counts of wizard cards ('cards') and room tiles ('tiles'); 0 leaves
    one out. The result must still be playable: at least one wizard card, and the 48 room tiles
    a 7x7 grid needs (the files' own rule; the key tiles cannot be changed)."""
    wizard, tiles = dict(content.wizard), dict(content.tiles)
    for kind, ident, count in counts:
        table: dict[str, Any] = wizard if kind == "cards" else tiles
        entry = table.get(ident)
        if entry is None or getattr(entry, "key", False):
            what = "wizard card" if kind == "cards" else "room tile"
            raise BadParameter(f"{kind}_{ident}: the content has no {what} '{ident}'")
        table[ident] = replace(entry, count=count)
    # an entry counted 0 stays known (its name, its face) but builds no instance
    if not sum(c.count for c in wizard.values()):
        raise BadParameter("the content counts leave the wizard deck empty")
    regular = sum(t.count for t in tiles.values() if not t.key)
    if regular < 48:
        raise BadParameter(f"the tile counts give {regular} room tiles; a 7x7 grid needs 48")
    return Content(wizard=wizard, loot=content.loot, tiles=tiles)
