"""The beta (23 Oct) and alpha (17 Oct) rules as variants."""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.wizard.helpers import put, ready, rig, sq, to_heroes

from playtable.games.wizard.state import WizardState
from playtable.games.wizard.wizard_turn import placeable


def test_beta_needs_all_three_keys() -> None:
    """23 Oct 'Artifacts/keys': the heroes need all 3 keys to enter the tower."""
    st = ready(variant="beta")
    st.hero(1).keys = 2
    assert not st.door_open()
    st.hero(2).keys = 1
    assert st.door_open()


def test_beta_traps_one_save_per_trap_at_ten() -> None:
    """23 Oct 'Wizard Cards / Traps' and 26 Oct update: a 10+ save per trap, 2 damage each."""
    st = ready(variant="beta")
    put(st, "b1", "trap", "trap")
    to_heroes(st)
    rig(st, 9, 10)
    st.apply_text("move E")
    st.apply_text("stay")
    assert st.hero(1).hp == 8


def test_beta_tile_turns_on_entering_and_loots_without_monsters() -> None:
    """23 Oct 'Movement phase': entering a new tile flips it and its tokens; with no monsters
    the hero loots 1 card (one per room when several enter)."""
    st = ready(variant="beta")
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("move E")
    assert st.cells[sq("b1")].flipped
    assert len(st.hero(1).items) + len(st.hero(2).items) == 1


def test_beta_tile_flipped_even_if_the_fight_is_lost() -> None:
    """23 Oct: tiles and monsters are flipped together (the 26 Oct feedback changed this)."""
    st = ready(variant="beta")
    put(st, "b1", "m1")
    to_heroes(st)
    rig(st, 20, 1)
    st.apply_text("move E")
    st.apply_text("stay")
    assert st.cells[sq("b1")].flipped and st.hero(1).pos == sq("a1")


def test_beta_combat_loot_two_the_first_time() -> None:
    """23 Oct 'Combat phase': 1 loot card, 2 if this is the first time monsters are defeated in
    this room."""
    st = ready(variant="beta")
    put(st, "b1", "m1")
    to_heroes(st)
    rig(st, 1, 20)
    st.apply_text("move E")
    st.apply_text("stay")
    assert len(st.hero(1).items) == 2


def test_alpha_dice_added_and_one_damage() -> None:
    """17 Oct 'Combat phase': several heroes combine their rolls; losers take 1 damage."""
    st = ready(variant="alpha")
    put(st, "b1", "m1", "m1")
    to_heroes(st)
    rig(st, 15, 9, 8)  # 15+2=17 against 9+8=17: a tie, heroes win
    st.apply_text("move E")
    st.apply_text("move E")
    assert st.stats["combats_won"] == 1
    st2 = ready(variant="alpha")
    put(st2, "b1", "m1", "m1")
    to_heroes(st2)
    rig(st2, 20, 1)
    st2.apply_text("move E")
    st2.apply_text("stay")
    assert st2.hero(1).hp == 9


def test_alpha_wheel_spins_each_turn_and_token_cap_three() -> None:
    """17 Oct 'First turn' (1 mana) and 'The Turn / Wizard' (+1 each turn); 'Placement':
    at most 3 tokens on a tile."""
    st = ready(variant="alpha", players=5, keys=("g7", "a7", "g1"))
    assert st.wheel in (1, 2, 3)  # 1 + the first turn's spin (+ the start tile's mana)
    before = st.wheel
    to_heroes(st)
    for _ in range(4):
        st.apply_text("stay")
    assert st.round == 2 and st.wheel == min(6, before + 1)
    put(st, "d2", "blank", "blank", "blank")
    assert sq("d2", 7) not in placeable(st, "m1")


def test_alpha_has_no_rage() -> None:
    """17 Oct: no 'Rage of the wizard!' section."""
    st = ready(variant="alpha", keys=("b1", "a2", "e5"))
    to_heroes(st)
    st.apply_text("move E")
    st.apply_text("move S")
    assert st.keys_found == 2 and not st.rage
    st2 = ready(variant="beta", keys=("b1", "a2", "e5"))
    to_heroes(st2)
    st2.apply_text("move E")
    st2.apply_text("move S")
    assert st2.keys_found == 2 and not st2.rage  # beta: rage after all three


def _sprint_through_b1(variant: str | None, **kw: Any) -> tuple[WizardState, list[str]]:
    """Hero 1 sprints from a1 through b1 to c1, hero 2 stays: the state and the event kinds."""
    st = ready(variant=variant, **kw)
    st.hero(1).items = ["sprint.1"]
    to_heroes(st)
    st.apply_text("sprint E E")
    kinds = [e.kind for e in st.apply_text("stay")]
    while st.decision.get("kind") == "discard":  # a tile's negative Card Draw (8 Nov 'Tiles')
        kinds += [e.kind for e in st.apply(st.legal_actions()[0])]
    assert st.hero(1).pos == sq("c1")
    return st, kinds


@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_beta_and_alpha_sprint_flips_and_loots_the_tile_gone_through(variant: str) -> None:
    """23 Oct and 17 Oct 'Movement phase': "When a player enters a new tile, that player flips
    that tile and all tokens ... if there are no monsters on that tile the player get to loot
    that room ... If a player can move more than 1 tile due to abilities, that player then gets
    to loot every tile without monsters on it that the player enters." `sprint E E` from a1
    enters b1 and c1: both are turned face up and each loots one card (b1 used to
    stay face down)."""
    st, kinds = _sprint_through_b1(variant)
    assert st.cells[sq("b1")].flipped and st.cells[sq("c1")].flipped
    assert len(st.hero(1).items) == 2
    assert kinds.index("hero_passes") < kinds.index("tile_flipped")


@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_beta_and_alpha_sprint_takes_the_key_of_the_tile_gone_through(variant: str) -> None:
    """23 Oct 'Movement phase' (entering flips the tile) and 'Artifacts/keys' (a key on a tile
    with no enemies left is received): a key tile a sprint goes through gives its key."""
    st, _ = _sprint_through_b1(variant, keys=("b1", "e5", "a5"))
    assert st.cells[sq("b1")].flipped and not st.cells[sq("b1")].key
    assert st.hero(1).keys == 1 and st.keys_found == 1


def test_final_sprint_leaves_the_tile_gone_through_face_down() -> None:
    """8 Nov 'Loot phase': only "face down tiles that have one or more heroes on them" are
    turned, so under the final rules the tile a sprint went through stays face down."""
    st, kinds = _sprint_through_b1(None)
    assert not st.cells[sq("b1")].flipped and st.cells[sq("c1")].flipped
    assert "hero_passes" not in kinds
