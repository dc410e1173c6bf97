"""Parameters of The Wizard's Labyrinth: the final rules (8 Nov) as defaults, earlier rules as
variants. Each field cites the seed section it comes from (see RULES.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from playtable.core.errors import BadParameter
from playtable.games.wizard.content import load_content

COUNT_PREFIXES = ("cards_", "tiles_")
COUNT_RANGE = (0, 60)
"""Each content count's bounds (`validate`, and a remote client's, `core.params`)."""

def _count(default: int, space: tuple[int, int], what: str) -> Any:
    """A content count: its tuning space, the bounds every count shares, and what it counts."""
    return field(default=default, metadata={"space": space, "range": COUNT_RANGE, "doc": what})


# Remote bounds (`core.params`): each is what `validate` allows, so every value of the seed's
# versions, the variants, the tuner and the tests lies inside; the content directory is the
# operator's (it names a directory on the host). At the dearest ends (5 players, 60 of every
# card and tile) a new game took 10 ms, the heuristic bot's move under 10 ms and the greedy
# bot's at its bounds 1 s (benchmarks/remote_bounds.py).


@dataclass(frozen=True)
class WizardParams:
    players: int = field(default=4, metadata={"range": (3, 5)})
    """Seats: 1 wizard + 2-4 heroes (8 Nov 'Preparation')."""
    rules: Literal["final", "beta", "alpha"] = "final"
    """Which cards of the content are in the wizard deck (cards added after a version are out)."""
    keys_needed: int = field(default=2, metadata={"space": (1, 3), "range": (1, 3)})
    """Keys the heroes need to open the tower (8 Nov: 2 of 3; 23 Oct and 17 Oct: all 3)."""
    mana_start: int = field(default=2, metadata={"space": (1, 4), "range": (1, 20)})
    """Mana Wheel at the start (8 Nov: 2; 17 Oct: 1; 23 Oct silent, we use 1)."""
    mana_per_turn: int = field(default=0, metadata={"space": (0, 2), "range": (0, 5)})
    """Wheel spin at the start of each wizard turn (17 Oct: +1; removed in the 26 Oct update)."""
    mana_max: int = field(default=6, metadata={"space": (4, 10), "range": (1, 20)})
    """The wheel's maximum (the picture is missing; ours)."""
    mana_min: int = field(default=1, metadata={"space": (1, 3), "range": (1, 20)})
    """The wheel's minimum (ours)."""
    trap_rule: Literal["scaled", "per_trap"] = field(
        default="scaled", metadata={"choices": ("scaled", "per_trap")}
    )
    """8 Nov: one save per hero, harder the more traps (7+/10+/13+), 2 damage. 23 Oct/17 Oct:
    one save per trap at `trap_save`, 2 damage per failed save."""
    trap_save: int = field(default=10, metadata={"space": (5, 15), "range": (1, 21)})
    """The per-trap save of `trap_rule=per_trap` (23 Oct: 10+; 17 Oct: 5+)."""
    combat_rolls: Literal["best", "sum"] = "best"
    """Several heroes in one combat: best die (8 Nov, 23 Oct) or dice added (17 Oct)."""
    loss_damage: Literal["per_monster", "one"] = "per_monster"
    """Damage for a lost combat: 1 per monster (8 Nov, 23 Oct) or 1 (17 Oct)."""
    combat_loot: Literal["draw2keep1", "first_two", "two"] = "draw2keep1"
    """After a won combat: draw 2 keep 1 (8 Nov); 1 card, 2 the first time the room is cleared
    (23 Oct); 2 cards (17 Oct)."""
    flip_tiles: Literal["loot_phase", "on_enter"] = "loot_phase"
    """When a tile turns face up: in the loot phase once its monsters are beaten (8 Nov), or
    when a hero enters it, together with its tokens (23 Oct, 17 Oct)."""
    token_cap: int = field(default=0, metadata={"space": (0, 5), "range": (0, 10)})
    """Most tokens on one tile: 0 means the number of players (8 Nov, 23 Oct); 17 Oct: 3."""
    rage: bool = field(default=True, metadata={"choices": (True, False)})
    """The wizard's rage removes tiles once the keys are found (8 Nov, 23 Oct; not in 17 Oct)."""
    max_rounds: int = field(default=100, metadata={"range": (1, 1000)})
    """Ours: a game still running after this many rounds ends in a draw (the seed has no end
    for a game that no side can win)."""
    max_gives: int = field(default=3, metadata={"range": (0, 20)})
    """Ours: gifts (items or keys) a hero may make per turn, so every turn ends."""
    content: str = field(default="", metadata={"remote": False})
    """A directory with wizard_deck.json, loot_deck.json and tiles.json ('' = the package's)."""

    # -- Content counts: how many of each wizard card and room tile the game is built with. The
    # designers balanced by changing these (26 Oct update: "a lot of creatures that costs 1 mana",
    # the group-splitting Switcheroo and Whirlwind, traps "too powerful", "tweaked the numbers on
    # the tiles"). Defaults are the counts in the package's content files (a test keeps them
    # equal); a count left at its default keeps the content file's own count (so a designer's
    # `content=` directory is used as written), a count set to another value replaces it. 0
    # leaves the card or tile out. The key tiles stay 3 (8 Nov 'Preparation').
    cards_goblin: int = _count(6, (2, 12), "Goblin cards in the wizard deck")
    cards_rat_swarm: int = _count(3, (0, 8), "Rat Swarm cards in the wizard deck")
    cards_goblin_pack: int = _count(2, (0, 6), "Goblin Pack cards in the wizard deck")
    cards_orc: int = _count(6, (2, 12), "Orc cards in the wizard deck")
    cards_troll: int = _count(4, (0, 8), "Troll cards in the wizard deck")
    cards_ogre: int = _count(3, (0, 6), "Ogre cards in the wizard deck")
    cards_dragon: int = _count(1, (0, 3), "Dragon cards in the wizard deck")
    cards_spike_trap: int = _count(4, (0, 8), "Spike Trap cards in the wizard deck")
    cards_pit_traps: int = _count(2, (0, 6), "Pit Traps cards in the wizard deck")
    cards_frost_bolt: int = _count(3, (0, 6), "Frost Bolt cards in the wizard deck")
    cards_switcheroo: int = _count(2, (0, 5), "Switcheroo cards in the wizard deck")
    cards_whirlwind: int = _count(1, (0, 3), "Whirlwind cards in the wizard deck")
    cards_fireball: int = _count(2, (0, 5), "Fireball cards in the wizard deck")
    tiles_empty_room: int = _count(8, (4, 16), "Empty Room tiles in the labyrinth")
    tiles_library: int = _count(8, (4, 16), "Library tiles in the labyrinth")
    tiles_shrine: int = _count(12, (6, 20), "Shrine tiles in the labyrinth")
    tiles_altar: int = _count(10, (5, 18), "Altar tiles in the labyrinth")
    tiles_vault: int = _count(2, (0, 6), "Vault tiles in the labyrinth")
    tiles_ley_line: int = _count(2, (0, 6), "Ley Line tiles in the labyrinth")
    tiles_ransacked_study: int = _count(2, (0, 6), "Ransacked Study tiles in the labyrinth")
    tiles_drained_well: int = _count(2, (0, 6), "Drained Well tiles in the labyrinth")
    tiles_collapsed_hall: int = _count(1, (0, 4), "Collapsed Hall tiles in the labyrinth")
    tiles_mixed_blessing: int = _count(1, (0, 4), "Mixed Blessing tiles in the labyrinth")

    def validate(self) -> None:
        if not 3 <= self.players <= 5:
            raise BadParameter(f"players must be 3, 4 or 5, not {self.players}")
        if not 1 <= self.keys_needed <= 3:
            raise BadParameter(f"keys_needed must be 1 to 3, not {self.keys_needed}")
        if not 1 <= self.mana_min <= self.mana_max <= 20:
            raise BadParameter("the mana wheel needs 1 <= mana_min <= mana_max <= 20")
        if not self.mana_min <= self.mana_start <= self.mana_max:
            raise BadParameter(f"mana_start must lie on the wheel ({self.mana_min}..{self.mana_max})")
        if not 0 <= self.mana_per_turn <= 5:
            raise BadParameter("mana_per_turn must be 0 to 5")
        if not 1 <= self.trap_save <= 21:
            raise BadParameter("trap_save must be 1 to 21")
        if self.token_cap < 0 or self.token_cap > 10:
            raise BadParameter("token_cap must be 0 (= players) to 10")
        if not 1 <= self.max_rounds <= 1000:
            raise BadParameter("max_rounds must be 1 to 1000")
        if not 0 <= self.max_gives <= 20:
            raise BadParameter("max_gives must be 0 to 20")
        for name, _kind, _ident, count in self._counts():
            if not COUNT_RANGE[0] <= count <= COUNT_RANGE[1]:
                raise BadParameter(f"{name} must be {COUNT_RANGE[0]} to {COUNT_RANGE[1]}, not {count}")
        if self.count_overrides():
            # the deck and tile set these counts build must be playable (content.with_counts)
            load_content(self.content, self.count_overrides())

    def _counts(self) -> list[tuple[str, str, str, int]]:
        """(parameter, 'cards' or 'tiles', content id, value) for every content count."""
        return [(f.name, *f.name.split("_", 1), getattr(self, f.name))
                for f in fields(self) if f.name.startswith(COUNT_PREFIXES)]

    def count_overrides(self) -> tuple[tuple[str, str, int], ...]:
        """The counts set away from their defaults, as (kind, id, count): what `load_content`
        applies to the content files. Empty for the seed's content (today's games exactly)."""
        return tuple((kind, ident, count) for name, kind, ident, count in self._counts()
                     if count != _DEFAULTS[name])

    @property
    def cap(self) -> int:
        return self.token_cap or self.players

    @property
    def size(self) -> int:
        return {3: 5, 4: 6, 5: 7}[self.players]


_DEFAULTS = {f.name: f.default for f in fields(WizardParams) if f.name.startswith(COUNT_PREFIXES)}

VARIANTS: dict[str, dict[str, object]] = {
    "final": {},
    "beta": {
        "rules": "beta", "keys_needed": 3, "mana_start": 1, "trap_rule": "per_trap",
        "trap_save": 10, "combat_loot": "first_two", "flip_tiles": "on_enter",
    },
    "alpha": {
        "rules": "alpha", "keys_needed": 3, "mana_start": 1, "mana_per_turn": 1,
        "trap_rule": "per_trap", "trap_save": 5, "combat_rolls": "sum", "loss_damage": "one",
        "combat_loot": "two", "flip_tiles": "on_enter", "token_cap": 3, "rage": False,
    },
    # Tuned by the lab (`benchmarks/tune_shipped.py --only wizard`) for the wizard at 50 % with
    # the default (heuristic) bots at 3, 4 and 5 players at once, over the wheel's start, the
    # empty rooms (a content count) and the token cap: the finalist nearer 50 % on 400 fresh
    # seeds per player count. The final rules otherwise; the wheel starts at 5 instead of 2 and
    # there are 20 Empty Rooms instead of 8 (fewer of the tiles that spin the wheel turn up).
    # Re-measured on 2,000 other fresh seeds per player count in docs/lab.md.
    "balanced": {"mana_start": 5, "tiles_empty_room": 20},
}
