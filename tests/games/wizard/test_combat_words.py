"""The fight told in a sentence (8 Nov "Combat": the wizard's d20 plus the monsters' levels
against the heroes' best d20 plus their equipment; a tie goes to the heroes)."""

from __future__ import annotations

from playtable.games.wizard.hero_turn import _combat_words


def test_8nov_combat_in_words_best_die_and_tie() -> None:
    text = _combat_words("c3", 6, 1, [3, 1], False, 0, False)
    assert text == ("Combat on c3: the wizard rolls 6 and adds 1 for the monsters' levels, 7; the "
                    "heroes roll 3 and 1 and keep the best (3), plus 0 for swords and bonuses, 3. "
                    "The monsters win.")
    tie = _combat_words("the tower", 5, 2, [7], False, 0, True)
    assert "the hero rolls 7" in tie and tie.endswith("The heroes win (a tie goes to the heroes).")


def test_17oct_alpha_dice_added() -> None:
    assert "add them up (9)" in _combat_words("a1", 2, 1, [4, 5], True, 1, True)
