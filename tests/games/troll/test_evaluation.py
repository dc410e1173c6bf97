"""The position score shared by the heuristic and expectimax bots (`games/troll/evaluation.py`)."""

from __future__ import annotations

from playtable.games.troll import bridge as geo
from playtable.games.troll.bots import evaluate
from playtable.games.troll.evaluation import HEURISTIC_WEIGHTS, TUNED_WEIGHTS, cut_slots, score
from playtable.games.troll.game import GAME


def test_cut_slots_are_exactly_the_slots_whose_loss_collapses_the_bridge() -> None:
    """§6.2/§7.1 brick flight phase: the bridge must connect both banks, with an end slot on each;
    the search's bit-mask version agrees with `bridge.collapse_reason` on every one of the 4096
    patterns of filled slots."""
    for mask in range(1 << geo.SLOTS):
        stacks = [[1] if mask >> s & 1 else [] for s in range(geo.SLOTS)]
        expected = []
        for slot in range(geo.SLOTS):
            if stacks[slot]:
                without = [[] if s == slot else stack for s, stack in enumerate(stacks)]
                if geo.collapse_reason(without) is not None:
                    expected.append(slot)
        assert list(cut_slots(stacks)) == expected, bin(mask)


def test_the_heuristic_evaluation_is_the_score_with_its_own_weights() -> None:
    for seed in range(20):
        state = GAME.new_state(seed=seed)
        while not state.is_terminal:
            assert evaluate(state) == score(state, HEURISTIC_WEIGHTS)
            assert 0.0 <= score(state, TUNED_WEIGHTS) <= 1.0
            state.apply(state.legal_actions()[seed % len(state.legal_actions())])
        assert evaluate(state) == (1.0 if state.outcome == "win" else 0.0)
