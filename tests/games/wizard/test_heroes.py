"""The heroes' turn (seed 003, 'The Rules (Final)' of 8 Nov 2013)."""

from __future__ import annotations

import pytest
from tests.games.wizard.helpers import put, ready, rig, sq, to_heroes

from playtable.core.errors import IllegalAction
from playtable.games.wizard.hero_turn import trap_threshold


def test_movement_is_one_step_and_commits_are_secret() -> None:
    """8 Nov 'Movement phase': all movement is simultaneous; each hero moves one step to an
    adjacent room. Commits stay hidden from the other seats until all are revealed."""
    st = ready()
    to_heroes(st)
    assert st.current_player == 1
    moves = sorted(str(a) for a in st.legal_actions() if str(a).startswith("move"))
    assert moves == ["move E", "move S"]  # a1 is a corner
    st.apply_text("move E")
    assert st.hero(1).pos == sq("a1")  # not moved yet
    other = st.observation(2)
    assert "my_move" not in other and other["heroes"][0]["committed"] is True
    assert "move E" not in str(other) and "move E" not in str(st.observation(0))
    assert st.observation(1)["my_move"] == "move E"
    st.apply_text("move S")
    assert st.hero(1).pos == sq("b1") and st.hero(2).pos == sq("a2")


def test_hero_cannot_leave_the_grid_or_enter_removed_tiles() -> None:
    """8 Nov 'Movement phase' and 'Rage of the wizard!': moves go to adjacent rooms; removed
    tiles are out of the game."""
    st = ready()
    st.cells[sq("b1")].removed = True
    to_heroes(st)
    assert [str(a) for a in st.legal_actions() if str(a).startswith("move")] == ["move S"]
    with pytest.raises(IllegalAction):
        st.apply_text("move N")


def test_hero_starting_on_tokens_cannot_move() -> None:
    """8 Nov 'Movement phase': a hero who starts the turn on a tile with tokens cannot move;
    the tokens are flipped and resolved as usual."""
    st = ready()
    st.hero(1).pos = sq("b2")
    put(st, "b2", "blank")
    to_heroes(st)
    assert st.hero(1).stuck and st.current_player == 2
    st.apply_text("stay")
    assert st.cells[sq("b2")].tokens == []  # the blank was flipped and removed


def test_combat_wizard_die_plus_levels_against_best_hero_die_ties_to_heroes() -> None:
    """8 Nov 'Combat': the wizard rolls a d20 and adds all monster levels; the heroes all roll,
    take the highest and add all their equipment; a tie goes to the heroes."""
    st = ready()
    put(st, "b1", "m2", "m1")
    st.hero(1).items = ["short_sword.1"]
    to_heroes(st)
    rig(st, 10, 5, 12)  # wizard 10+3=13; heroes best(5, 12)+1 = 13 -> tie -> heroes
    st.apply_text("move E")
    st.apply_text("move E")
    assert st.cells[sq("b1")].tokens == []
    assert st.stats["combats_won"] == 1


def test_lost_combat_retreat_and_one_damage_per_monster() -> None:
    """8 Nov 'Combat': if the monsters win, the heroes move back to their previous tile and take
    1 damage for each monster in the room."""
    st = ready()
    put(st, "b1", "m1", "m1")
    to_heroes(st)
    rig(st, 20, 1)
    st.apply_text("move E")
    st.apply_text("stay")
    assert st.hero(1).pos == sq("a1") and st.hero(1).hp == 8
    assert [t.up for t in st.cells[sq("b1")].tokens] == [True, True]


def test_wizard_chooses_retreat_for_a_hero_who_did_not_move() -> None:
    """8 Nov 'Movement phase': if a hero who could not move loses, the wizard chooses the tile
    he retreats to, possibly one with tokens."""
    st = ready()
    st.hero(1).pos = sq("b2")
    put(st, "b2", "m1")
    put(st, "c2", "blank")
    to_heroes(st)
    rig(st, 20, 1)
    st.apply_text("stay")
    assert st.decision["kind"] == "retreat" and st.current_player == 0
    assert "retreat c2" in [str(a) for a in st.legal_actions()]
    st.apply_text("retreat c2")
    assert st.hero(1).pos == sq("c2")


def test_won_combat_draw_two_keep_one() -> None:
    """8 Nov 'Combat': the winners remove the monsters and draw 2 loot cards, keep one and
    discard the other."""
    st = ready()
    put(st, "b1", "m1")
    to_heroes(st)
    st.chance.rigged["loot_draw"] = ["great_sword", "health_potion"]
    rig(st, 1, 20)
    st.apply_text("move E")
    st.apply_text("stay")
    assert st.decision["kind"] == "keep" and st.current_player == 1
    assert sorted(str(a) for a in st.legal_actions()) == ["keep great_sword", "keep health_potion"]
    st.apply_text("keep great_sword")
    assert [c.split(".")[0] for c in st.hero(1).items] == ["great_sword"]
    assert any(c.startswith("health_potion") for c in st.loot_discard)


def test_explore_loot_only_without_a_fight() -> None:
    """8 Nov 'Loot the room': a hero who flips a tile and fought no monsters draws one loot card."""
    st = ready()
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("stay")
    assert len(st.hero(1).items) == 1 and st.hero(2).items == []
    assert st.cells[sq("b1")].flipped


def test_tile_is_flipped_only_after_its_monsters_are_beaten() -> None:
    """8 Nov 'Loot phase' (and the 26 Oct update): tokens are flipped first; the room tile is
    turned in the loot phase only if heroes hold it."""
    st = ready()
    put(st, "b1", "m1")
    to_heroes(st)
    rig(st, 20, 1)
    st.apply_text("move E")
    st.apply_text("stay")
    assert not st.cells[sq("b1")].flipped


@pytest.mark.parametrize(("traps", "need"), [(1, 7), (2, 10), (3, 13)])
def test_trap_saves(traps: int, need: int) -> None:
    """8 Nov 'Avoiding traps': 7+, 10+, 13+ for 1, 2, 3 traps; each hero rolls; a failure costs
    2 damage."""
    st = ready()
    assert trap_threshold(st, traps) == need
    put(st, "b1", *["trap"] * traps)
    to_heroes(st)
    rig(st, need - 1, need)
    st.apply_text("move E")
    st.apply_text("move E")
    assert st.hero(1).hp == 8 and st.hero(2).hp == 10
    assert st.cells[sq("b1")].tokens == []


def test_boots_help_against_traps() -> None:
    """8 Nov 'Loot Cards / Equipment': '+2 when Avoiding Traps'."""
    st = ready()
    st.hero(1).items = ["boots_of_leaping.1"]
    put(st, "b1", "trap")
    to_heroes(st)
    rig(st, 5)
    st.apply_text("move E")
    st.apply_text("stay")
    assert st.hero(1).hp == 10


def test_dying_drops_items_and_keys_on_the_tile() -> None:
    """8 Nov 'Dying': at 0 hp a hero dies; loot and keys are placed on the tile where he died;
    another hero picks them up by moving in and beating any monsters there."""
    st = ready()
    h1 = st.hero(1)
    h1.hp, h1.keys, h1.items = 1, 1, ["short_sword.1"]
    put(st, "b1", "m3")
    to_heroes(st)
    rig(st, 20, 1)
    st.apply_text("move E")
    st.apply_text("stay")
    assert not h1.alive and st.cells[sq("b1")].items == ["short_sword.1"]
    assert st.cells[sq("b1")].keys == 1
    assert st.current_player == 0
    st.apply_text("end")
    rig(st, 1, 20)
    st.apply_text("move E")
    while st.decision.get("kind") == "keep":
        st.apply(st.legal_actions()[0])
    assert st.hero(2).keys == 1 and "short_sword.1" in st.hero(2).items


def test_wizard_wins_when_all_heroes_are_dead() -> None:
    """8 Nov 'Wizard victory': when all heroes are dead, the wizard wins."""
    st = ready()
    for h in st.heroes:
        h.hp = 1
    put(st, "b1", "m1")
    to_heroes(st)
    rig(st, 20, 1)
    st.apply_text("move E")
    st.apply_text("move E")
    assert st.is_terminal and st.winner == "wizard" and st.returns() == [1.0, 0.0, 0.0]
    assert st.end == "heroes_dead"


def test_key_tile_gives_a_key_and_two_keys_open_the_tower() -> None:
    """8 Nov 'Keys': flipping a key tile gives the hero a key; with 2 of the 3 keys the heroes
    can enter the tower; keys can be handed over on the same tile."""
    st = ready(keys=("b1", "a2", "e5"))
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("move S")
    assert st.hero(1).keys == 1 and st.hero(2).keys == 1 and st.keys_found == 2
    assert st.door_open() and st.rage


def test_keys_handed_over_on_the_same_tile() -> None:
    """8 Nov 'Keys': a hero can give his keys to another hero on the same tile."""
    st = ready()
    st.hero(1).keys = 1
    to_heroes(st)
    assert "givekey hero2" in [str(a) for a in st.legal_actions()]
    st.apply_text("givekey hero2")
    assert st.hero(1).keys == 0 and st.hero(2).keys == 1
    st.hero(2).pos = sq("b1")
    assert "givekey hero2" not in [str(a) for a in st.legal_actions()]


def test_entering_the_tower_and_beating_its_monsters_wins() -> None:
    """8 Nov 'Keys' and 'Monsters in the wizard tower': with 2 keys the heroes enter the tower;
    beating its monsters wins the game."""
    st = ready()
    st.hero(1).keys = 2
    st.keys_found = 2
    st.hero(1).pos = sq("c4")  # the entrance square (entrance faces S)
    put(st, "c3", "m2")
    to_heroes(st)
    assert "move N" in [str(a) for a in st.legal_actions()]
    rig(st, 5, 10)
    st.apply_text("move N")
    st.apply_text("stay")
    assert st.winner == "heroes" and st.end == "tower" and st.returns() == [0.0, 1.0, 1.0]


def test_tower_closed_without_keys_and_only_through_the_entrance() -> None:
    """8 Nov 'Keys': 2 keys must be used to enter; the tower has one entrance direction."""
    st = ready()
    st.hero(1).pos = sq("c4")
    to_heroes(st)
    assert "move N" not in [str(a) for a in st.legal_actions()]
    st2 = ready()
    st2.hero(1).keys = 2
    st2.hero(1).pos = sq("b3")  # west of the tower, not the entrance
    to_heroes(st2)
    assert "move E" not in [str(a) for a in st2.legal_actions()]


def test_equipment_limits_two_swords_one_boots() -> None:
    """8 Nov 'Loot Cards': only 2 swords and 1 pair of boots are equipped; extras stay in hand."""
    st = ready()
    h = st.hero(1)
    h.items = ["short_sword.1", "long_sword.1", "great_sword.1", "leather_boots.1",
               "boots_of_leaping.1"]
    assert st.combat_bonus(h) == 5 and st.save_bonus(h) == 2
    view = st.observation(2)["heroes"][0]
    assert view["equipped"] == ["boots_of_leaping", "great_sword", "long_sword"]
    assert view["hand"] == ["leather_boots", "short_sword"]


def test_potion_at_any_time_heals_up_to_ten() -> None:
    """8 Nov 'Loot Cards / Consumables': health potions, played at any time."""
    st = ready()
    st.hero(1).items = ["health_potion.1"]
    st.hero(1).hp = 8
    to_heroes(st)
    st.apply_text("use health_potion")
    assert st.hero(1).hp == 10 and st.hero(1).items == []


def test_combat_bonus_consumable() -> None:
    """8 Nov 'Loot Cards / Consumables': one use combat bonuses."""
    st = ready()
    st.hero(1).items = ["battle_cry.1"]
    put(st, "b1", "m1")
    to_heroes(st)
    rig(st, 10, 9)  # 10+1=11 against 9+3=12 with the bonus
    st.apply_text("move E")
    st.apply_text("stay")
    assert st.decision["kind"] == "boost"
    st.apply_text("boost battle_cry")  # no bonus card left: the combat is rolled at once
    assert st.stats["combats_won"] == 1


def test_sprint_moves_two_tiles() -> None:
    """17 Oct/23 Oct 'abilities such as sprint'; 8 Nov 'or further if they've used an ability'."""
    st = ready()
    st.hero(1).items = ["sprint.1"]
    to_heroes(st)
    st.apply_text("sprint E E")
    st.apply_text("stay")
    assert st.hero(1).pos == sq("c1") and st.hero(1).items[:1] != ["sprint.1"]


def test_trading_on_the_same_tile() -> None:
    """8 Nov 'Trading': heroes in the same tile can give loot cards to each other."""
    st = ready()
    st.hero(1).items = ["long_sword.1"]
    to_heroes(st)
    st.apply_text("give long_sword hero2")
    assert st.hero(2).items == ["long_sword.1"]


def test_turn_limit_ends_in_a_draw() -> None:
    """Ours (RULES.md interpretation): after max_rounds rounds the game is a draw."""
    st = ready(max_rounds=1)
    to_heroes(st)
    st.apply_text("stay")
    st.apply_text("stay")
    assert st.is_terminal and st.winner == "draw" and st.end == "turn_limit"
    assert st.returns() == [0.5, 0.5, 0.5]


def test_empty_tower_is_won_on_entering() -> None:
    """8 Nov 'Keys': with the keys the heroes enter the tower; with no monsters to beat there,
    they win at once."""
    st = ready()
    st.hero(2).keys = 2
    st.keys_found = 2
    st.hero(1).pos = st.hero(2).pos = sq("c4")
    to_heroes(st)
    st.apply_text("move N")
    st.apply_text("stay")
    assert st.winner == "heroes" and st.end == "tower"


def test_more_than_three_traps_get_harder_still() -> None:
    """8 Nov 'Avoiding traps' lists 1-3 traps; with 4 or 5 players a tile can hold more, and we
    go on in steps of 3 (16+, 19+)."""
    st = ready(players=5, keys=("g7", "a7", "g1"))
    assert trap_threshold(st, 4) == 16 and trap_threshold(st, 5) == 19
    put(st, "b1", "trap", "trap", "trap", "trap")
    to_heroes(st)
    rig(st, 15)
    st.apply_text("move E")
    for _ in range(3):
        st.apply_text("stay")
    assert st.hero(1).hp == 8
