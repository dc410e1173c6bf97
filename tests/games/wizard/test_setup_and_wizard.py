"""Preparation and the wizard's turn (seed 003, 'The Rules (Final)' of 8 Nov 2013)."""

from __future__ import annotations

import pytest
from tests.games.wizard.helpers import params, put, ready, sq, to_heroes

from playtable.core.errors import IllegalAction
from playtable.games.wizard import board
from playtable.games.wizard.game import GAME
from playtable.games.wizard.wizard_turn import placeable


@pytest.mark.parametrize(("players", "size"), [(3, 5), (4, 6), (5, 7)])
def test_grid_size_by_player_count(players: int, size: int) -> None:
    """8 Nov 'Preparation': 3 players 5x5, 4 players 6x6, 5 players 7x7."""
    st = GAME.new_state(params(players), 0)
    assert st.size == size and len(st.cells) == size * size
    assert st.num_players == players and len(st.heroes) == players - 1


def test_tower_at_centre_and_wizard_picks_on_even_grid() -> None:
    """8 Nov 'Preparation': the tower replaces the centre tile; on 6x6 the wizard chooses one of
    the centre tiles, then the entrance direction."""
    st = GAME.new_state(params(3), 0)
    assert st.tower == (2, 2) and st.decision["kind"] == "entrance"
    st6 = GAME.new_state(params(4), 0)
    assert st6.decision["kind"] == "tower"
    assert [str(a) for a in st6.legal_actions()] == ["tower c3", "tower d3", "tower c4", "tower d4"]
    st6.apply_text("tower d4")
    assert st6.tower == (3, 3)
    st6.apply_text("entrance E")
    assert st6.entrance_square() == (3, 4)


def test_mana_wheel_starts_at_two_and_heroes_at_ten() -> None:
    """8 Nov 'Preparation': the wheel is spun to 2; 'Heroes': each hero starts with 10 hp."""
    st = ready()
    assert st.wheel == 2 or st.round == 1  # tile effects of the start tile may turn it
    st2 = GAME.new_state(params(3), 5)
    assert st2.wheel == 2
    assert all(h.hp == 10 for h in st2.heroes)


def test_three_key_tiles_hidden_by_the_wizard() -> None:
    """8 Nov 'Preparation': the wizard secretly replaces 3 tiles with the 3 key tiles."""
    st = ready(keys=("e5", "a5", "e1"))
    keyed = sorted(board.name(s) for s, c in st.cells.items() if c.key)
    assert keyed == ["a5", "e1", "e5"]
    hero_view = st.observation(1)
    assert not any(c.get("key") for c in hero_view["cells"] if not c["flipped"])
    wizard_view = st.observation(0)
    assert sorted(c["square"] for c in wizard_view["cells"] if c.get("key")) == keyed


def test_key_cannot_go_on_the_tower() -> None:
    """8 Nov 'Preparation': keys replace tiles on the board (the tower is not a tile)."""
    st = GAME.new_state(params(3), 0)
    st.apply_text("entrance N")
    with pytest.raises(IllegalAction):
        st.apply_text("key c3")


def test_opening_draw_five_keep_three() -> None:
    """8 Nov 'Preparation': the wizard draws 5 cards, keeps 3, shuffles the rest back."""
    st = GAME.new_state(params(3), 2)
    st.apply_text("entrance S")
    for k in ("a2", "b2", "d2"):
        st.apply_text(f"key {k}")
    assert st.decision["kind"] == "opening" and len(st.offered) == 5
    deck_before = len(st.deck)
    st.apply(st.legal_actions()[0])
    st.apply(st.legal_actions()[0])
    assert len(st.hand) == 3 and len(st.deck) == deck_before + 2
    assert st.decision["kind"] == "start"


def test_wizard_goes_first_and_draws_a_card() -> None:
    """8 Nov 'First Turn' and 'The Turn / Wizard': the wizard starts by drawing a card."""
    st = ready()
    assert st.round == 1 and st.current_player == 0
    assert len(st.hand) >= 3  # 3 kept + 1 drawn (the start tile may make him discard)


def test_full_wheel_draws_an_extra_card() -> None:
    """8 Nov 'The Turn / Wizard': if the Mana Wheel is on max the wizard draws an extra card."""
    st = ready()
    st.wheel = st.params.mana_max
    hand = len(st.hand)
    to_heroes(st)
    while st.current_player != 0 or st.decision["kind"] != "main":
        st.apply_text("stay" if st.decision["kind"] == "commit" else str(st.legal_actions()[0]))
    assert len(st.hand) >= hand + 2 - 0  # two draws at the new turn (no tile flipped: all stayed)


def test_cards_cost_mana_from_the_wheel() -> None:
    """8 Nov 'The Turn / Wizard': cards are played with the mana the wheel gives."""
    st = ready()
    st.hand = ["dragon.1", "goblin.1"]
    st.mana = 2
    legal = [str(a) for a in st.legal_actions()]
    assert "play goblin" in legal and "play dragon" not in legal
    with pytest.raises(IllegalAction):
        st.apply_text("play dragon")


def test_monster_card_places_monsters_and_blanks_face_down() -> None:
    """8 Nov 'Wizard Cards': monster cards place monster tokens plus X blank tokens."""
    st = ready()
    st.hand = ["troll.1"]
    st.mana = 3
    st.apply_text("play troll")
    assert sorted(st.decision["tokens"]) == ["blank", "blank", "m3"]
    st.apply_text("place m3 b2")
    st.apply_text("place blank b3")
    st.apply_text("place blank d1")
    assert st.decision["kind"] == "main" and st.discard[-1] == "troll.1" and st.mana == 0
    assert [t.kind for t in st.cells[sq("b2")].tokens] == ["m3"]
    assert not st.cells[sq("b2")].tokens[0].up
    hero_cell = next(c for c in st.observation(1)["cells"] if c["square"] == "b2")
    assert hero_cell["tokens"] == [{"up": False, "batch": 1}]


def test_tokens_never_on_a_hero_tile_and_capped_by_players() -> None:
    """8 Nov 'Placement of traps and Monsters': never on a tile with a hero; at most as many
    tokens on a tile as there are players."""
    st = ready(players=3)
    assert sq("a1") not in placeable(st, "m1")
    put(st, "b2", "blank", "blank")
    assert sq("b2") in placeable(st, "m1")
    put(st, "b2", "blank")
    assert sq("b2") not in placeable(st, "m1")


def test_tower_takes_monsters_only_after_the_keys() -> None:
    """8 Nov 'Monsters in the wizard tower': monsters and blanks in the tower only after the
    heroes hold two keys (never traps: the rule names monsters and blanks)."""
    st = ready()
    assert st.tower not in placeable(st, "m1")
    st.keys_found = 2
    assert st.tower in placeable(st, "m1") and st.tower in placeable(st, "blank")
    assert st.tower not in placeable(st, "trap")


def test_discard_pile_reshuffled_when_deck_runs_out() -> None:
    """8 Nov 'Discard': when the deck runs out the discard pile becomes the new deck."""
    st = ready()
    st.discard.extend(st.deck)
    st.deck = []
    n = len(st.discard)
    assert st.draw_wizard(1) == 1
    assert len(st.deck) == n - 1 and st.discard == []


def test_removed_cards_leave_the_game() -> None:
    """8 Nov 'Removed': some powerful cards (Whirlwind) are removed from the game when played."""
    st = ready()
    st.hand = ["whirlwind.1"]
    st.mana = 5
    st.apply_text("play whirlwind")
    st.apply_text("target a1")
    while st.decision["kind"] == "send":
        st.apply(st.legal_actions()[0])
    assert st.out == ["whirlwind.1"] and "whirlwind.1" not in st.discard


def test_frost_bolt_freezes_the_heroes_of_one_tile() -> None:
    """8 Nov 'Wizard Cards / Spells': Frost Bolt - all heroes in 1 tile skip their turn."""
    st = ready()
    st.hand = ["frost_bolt.1"]
    st.mana = 2
    st.apply_text("play frost_bolt")
    st.apply_text("target a1")
    to_heroes(st)
    # nobody commits: both heroes are frozen, so the turn passes straight back to the wizard
    assert st.current_player == 0 and st.decision["kind"] == "main" and st.round == 2
    assert all(h.pos == (0, 0) for h in st.heroes)


def test_switcheroo_swaps_a_hero_with_a_token() -> None:
    """26 Oct update: Switcheroo switches a hero with another token on the board."""
    st = ready()
    put(st, "d4", "m2")
    st.hand = ["switcheroo.1"]
    st.mana = 2
    st.apply_text("play switcheroo")
    st.apply_text("switch hero1 d4")
    assert st.hero(1).pos == sq("d4")
    assert [t.kind for t in st.cells[sq("a1")].tokens] == ["m2"]
    assert st.cells[sq("d4")].tokens == []


def test_whirlwind_separates_heroes_and_leaves_two_level_five_monsters() -> None:
    """26 Oct update: Whirlwind moves all heroes in a room one room away from each other, then
    places 2 level 5 creatures in the room they were in."""
    st = ready()
    st.hand = ["whirlwind.1"]
    st.mana = 5
    st.apply_text("play whirlwind")
    st.apply_text("target a1")
    assert [str(a) for a in st.legal_actions()] == ["send b1", "send a2"]
    st.apply_text("send b1")
    assert [str(a) for a in st.legal_actions()] == ["send a2"]  # away from each other
    st.apply_text("send a2")
    assert {st.hero(1).pos, st.hero(2).pos} == {sq("b1"), sq("a2")}
    assert [(t.kind, t.up) for t in st.cells[sq("a1")].tokens] == [("m5", True), ("m5", True)]


def test_rage_removes_tiles_but_never_the_ring_or_a_path() -> None:
    """8 Nov 'Rage of the wizard!': after 2 keys are picked up, each wizard turn removes as
    many tiles as players; never the last ring around the tower, never cutting a hero off from
    the tower or from dropped keys."""
    st = ready()
    st.rage = True
    to_heroes(st)
    while st.decision["kind"] == "commit":
        st.apply_text("stay")
    while st.decision["kind"] != "rage":
        st.apply(st.legal_actions()[0])
    legal = {str(a)[7:] for a in st.legal_actions()}
    ring = {board.name(s) for s in board.ring(st.tower, st.size)}
    assert not legal & ring and "a1" not in legal  # heroes stand on a1
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    assert sum(c.removed for c in st.cells.values()) == 3 and st.decision["kind"] == "main"
    # a hero at a1 must keep a path to the tower entrance c4
    st2 = ready()
    st2.rage = True
    st2.cells[sq("b1")].removed = True
    from playtable.games.wizard.wizard_turn import removable

    assert sq("a2") not in removable(st2)


def test_negative_card_draw_makes_the_wizard_discard() -> None:
    """8 Nov 'Tiles': a tile's negative Card Draw value makes the wizard discard."""
    st = ready()
    st.cells[sq("b1")].tile = "ransacked_study.1"
    st.hand = ["goblin.1", "orc.1"]
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("stay")
    assert st.decision["kind"] == "discard" and st.current_player == 0
    st.apply_text("discard orc")
    assert "orc.1" not in st.hand and "goblin.1" in st.hand and "orc.1" in st.discard


def test_positive_values_draw_cards_and_spin_the_wheel() -> None:
    """8 Nov 'Tiles': draw cards equal to the Card Draw value and spin the wheel by the Mana
    value, up or down."""
    st = ready()
    st.cells[sq("b1")].tile = "altar.1"
    st.cells[sq("a2")].tile = "drained_well.1"
    hand, wheel = len(st.hand), st.wheel
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("move S")
    assert st.cells[sq("b1")].flipped and st.cells[sq("a2")].flipped
    assert st.wheel == wheel + 1 - 1
    assert len(st.hand) >= hand + 1


def test_fireball_hurts_every_hero_in_one_tile() -> None:
    """Ours, a spell 'that targets heroes or rooms directly' (8 Nov 'Wizard Cards'): Fireball,
    1 damage to each hero in one tile."""
    st = ready()
    st.hand = ["fireball.1"]
    st.mana = 3
    st.apply_text("play fireball")
    st.apply_text("target a1")
    assert [h.hp for h in st.heroes] == [9, 9] and st.discard[-1] == "fireball.1"
