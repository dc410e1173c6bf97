"""Our readings where the seed is silent or ambiguous (RULES.md, 'Interpretations'), each tested
next to the seed section it reads."""

from __future__ import annotations

import pytest
from tests.games.wizard.helpers import params, put, ready, rig, sq, to_heroes

from playtable.core.errors import BadParameter
from playtable.games.wizard.game import GAME
from playtable.games.wizard.state import WizardState
from playtable.games.wizard.wizard_turn import removable


def test_players_must_be_three_to_five() -> None:
    """8 Nov 'Preparation': 3, 4 or 5 players."""
    with pytest.raises(BadParameter, match="players"):
        params(6)


def test_start_tile_is_flipped_with_its_key() -> None:
    """Interpretation 1: the start corner is turned face up at once, key included."""
    st = ready(keys=("a1", "b5", "e5"))
    assert st.cells[sq("a1")].flipped and st.hero(1).keys == 1 and st.keys_found == 1


def test_wheel_stays_within_one_and_six() -> None:
    """Interpretation 3 and 8 Nov 'The Turn / Wizard': the wheel cannot go above its maximum."""
    st = ready()
    st.wheel = 6
    st.cells[sq("b1")].tile = "ley_line.1"
    st.cells[sq("a2")].tile = "shrine.1"
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("move S")
    assert st.wheel == 6


def test_several_heroes_on_a_new_tile_share_one_loot_card() -> None:
    """Interpretation 5 (23 Oct 'Movement phase': 'they have to choose who gets the loot')."""
    st = ready()
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("move E")
    assert len(st.hero(1).items) + len(st.hero(2).items) == 1


def test_sprint_stops_at_the_first_tile_with_tokens() -> None:
    """Interpretation 7 / 8 Nov 'Movement phase' ('or further if they've used an ability')."""
    st = ready()
    st.hero(1).items = ["sprint.1"]
    put(st, "b1", "blank")
    to_heroes(st)
    st.apply_text("sprint E E")
    st.apply_text("stay")
    assert st.hero(1).pos == sq("b1")


def test_frozen_heroes_take_no_part_in_fights() -> None:
    """Interpretation 8: a frozen hero skips movement, fights and loot."""
    st = ready()
    st.hero(1).frozen = True
    st.hero(2).pos = sq("b1")
    put(st, "a1", "m1")  # as if Switcheroo had left a token with the frozen hero
    to_heroes(st)
    assert st.current_player == 2
    st.apply_text("stay")
    assert st.hero(1).hp == 10 and [t.up for t in st.cells[sq("a1")].tokens] == [False]


def test_whirlwind_monsters_respect_the_token_cap() -> None:
    """Interpretation 10: Whirlwind's two level-5 monsters fit within the cap."""
    st = ready()
    put(st, "b2", "blank", "blank")
    st.hero(1).pos = st.hero(2).pos = sq("b2")
    st.cells[sq("b2")].tokens = st.cells[sq("b2")].tokens[:2]
    st.hand = ["whirlwind.1"]
    st.mana = 5
    st.apply_text("play whirlwind")
    st.apply_text("target b2")
    while st.decision["kind"] == "send":
        st.apply(st.legal_actions()[0])
    assert len(st.cells[sq("b2")].tokens) == 3  # cap 3 players: 2 blanks + 1 monster


def test_rage_keeps_a_path_to_dropped_keys() -> None:
    """8 Nov 'Rage of the wizard!': never cut a hero off from a tile with dropped keys."""
    st = ready()
    st.rage = True
    st.cells[sq("e5")].keys = 1
    st.cells[sq("e4")].removed = True
    assert sq("d5") not in removable(st) and sq("e5") not in removable(st)


def test_removed_tiles_take_their_tokens_and_loot() -> None:
    """Interpretation 13: tokens on a removed tile are lost, dropped loot is discarded."""
    st = ready()
    st.rage = True
    put(st, "e1", "m3")
    st.cells[sq("e1")].items = ["sprint.1"]
    to_heroes(st)
    st.apply_text("stay")
    st.apply_text("stay")
    assert st.decision["kind"] == "rage"
    st.apply_text("remove e1")
    assert st.cells[sq("e1")].removed and st.cells[sq("e1")].tokens == []
    assert "sprint.1" in st.loot_discard and [t.kind for t in st.lost] == ["m3"]


def test_death_in_the_tower_drops_keys_at_the_entrance() -> None:
    """Interpretation 12 / 8 Nov 'Dying'."""
    st = ready()
    h = st.hero(1)
    h.keys, h.hp, h.pos = 2, 1, sq("c4")
    st.keys_found = 2
    put(st, "c3", "m5")
    to_heroes(st)
    rig(st, 20, 1)
    st.apply_text("move N")
    st.apply_text("stay")
    assert not h.alive and st.cells[sq("c4")].keys == 2


def test_gifts_per_turn_are_limited() -> None:
    """Interpretation 14: at most max_gives gifts per hero per turn, so every turn ends."""
    st = ready(max_gives=1)
    st.hero(1).items = ["sprint.1", "sprint.2"]
    to_heroes(st)
    st.apply_text("give sprint hero2")
    assert not any(str(a).startswith("give") for a in st.legal_actions())


def test_dead_heroes_never_act() -> None:
    """8 Nov 'Dying': a dead hero is out of the game."""
    st = ready()
    st.hero(1).hp, st.hero(1).alive = 0, False
    to_heroes(st)
    assert st.current_player == 2


def test_state_new_from_the_command_line_shape() -> None:
    """The registry line makes `playtable state new wizard --param players=4` work."""
    from playtable.core.registry import get_game

    game = get_game("wizard")
    assert game is GAME and game.new_state(params(4), 0).size == 6


def _removable_by_brute_force(st: WizardState) -> list[tuple[int, int]]:
    from playtable.games.wizard import board

    ring = board.ring(st.tower, st.size)
    heroes = {h.pos for h in st.living()}
    targets = [st.entrance_square()] + [s for s, c in st.cells.items() if c.keys and not c.removed]
    out = []
    for s, cell in sorted(st.cells.items()):
        if cell.removed or s == st.tower or s in ring or s in heroes or s in targets:
            continue
        reach = board.distances(st.entrance_square(),
                                lambda x, gone=s: x != gone and st.open_square(x), st.size)
        if all(p in reach for p in heroes) and all(t in reach for t in targets):
            out.append(s)
    return out


def test_rage_rule_matches_a_brute_force_check() -> None:
    """8 Nov 'Rage of the wizard!': the fast cut-vertex search agrees with trying each tile."""
    from playtable.core.chance import Chance
    from playtable.games.wizard import board

    for seed in range(60):
        st = ready(players=3 + seed % 3, seed=seed, keys=("a3", "b3", "a2"))
        rng = Chance(seed)
        ring = board.ring(st.tower, st.size)
        for square, cell in st.cells.items():
            if square != st.tower and square not in ring and rng.below(100) < 35:
                cell.removed = True
        for h in st.heroes:
            h.pos = rng.choice([s for s, c in st.cells.items() if not c.removed and s != st.tower])
        if seed % 4 == 0:
            st.cells[rng.choice(sorted(st.cells))].keys = 1
        assert removable(st) == _removable_by_brute_force(st), seed
