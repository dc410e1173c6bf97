"""A troll position's chance of being won, as a logistic model fitted to the lab's own games.

`evaluation.score` is a hand-set weighted sum squeezed into [0, 1]; it ranks positions well but
is not a probability, and expectimax averages its values over the next awakening as if it were
one. `win_chance` is the same kind of formula, but its weights are a logistic regression of
"was this deal won in the end?" on `features` of the positions that a troll bot really left at
the end of its turns, so its values are calibrated chances and their averages mean something.

`benchmarks/troll_value_fit.py` plays the games, fits the weights and prints the table behind
`WIN_WEIGHTS` (data, fit and held-out log loss); rerunning it reproduces them. The features read
only what the player sees (the shape of the bridge, face-up cards, what the troll carries, the
number of cards left), never a hidden card.
"""

from __future__ import annotations

import math

from playtable.games.troll import bridge as geo
from playtable.games.troll.cards import ACE_OF_CLUBS, CLUBS, DIAMONDS, SPADES
from playtable.games.troll.evaluation import cut_slots, hit_chance, out_of_reach
from playtable.games.troll.rules import TrollState

FEATURES = (
    "bias", "bricks", "empty", "awake", "set_aside", "end_cover", "the_club", "diamond", "club",
    "spade", "dormant_carried", "centre", "deck", "cut", "thin", "reach", "deck_x_awake",
    "deck_x_empty", "pending", "weak_end", "outer_bricks", "middle_bricks", "inner_bricks",
    "outer_empty", "middle_empty", "inner_empty", "awake_far", "awake_cut", "deck_low",
)


def features(state: TrollState) -> list[float]:
    """The model's inputs for a position held at the end of a turn (not over), in `FEATURES`
    order."""
    stacks, face_up = state.stacks, state.face_up
    bricks = sum(len(s) for s in stacks)
    empty = sum(1 for s in stacks if not s)
    awake = sum(1 for s in stacks if s and s[-1] in face_up)
    left, right = len(stacks[0]) + len(stacks[geo.COLUMNS]), len(stacks[geo.COLUMNS - 1]) + len(stacks[-1])
    held = [0.0] * 5  # THE CLUB, diamond, club, spade (awake, usable), a dormant brick to lay
    for card in state.carried:
        if card == ACE_OF_CLUBS:
            held[0] = 1.0
        elif card not in face_up:
            held[4] = 1.0
        elif card // 13 == DIAMONDS:
            held[1] = 1.0
        elif card // 13 == CLUBS:
            held[2] = 1.0
        elif card // 13 == SPADES:
            held[3] = 1.0
    deck = len(state.deck)
    column = state.troll % geo.COLUMNS
    cut = sum(1.0 / len(stacks[s]) for s in cut_slots(stacks))
    thin = sum(1 for s in stacks if len(s) == 1)
    # The bridge's shape, folded left-right (the rules are symmetric): the end columns, the next
    # ones, the two in the middle.
    shape = [0.0] * 6
    for slot, stack in enumerate(stacks):
        ring = _RING[slot % geo.COLUMNS]
        shape[ring] += len(stack) / 10
        shape[3 + ring] += not stack
    troll_row, troll_col = divmod(state.troll, geo.COLUMNS)
    cuts = set(cut_slots(stacks))
    awake_far = awake_cut = 0
    for slot, stack in enumerate(stacks):
        if stack and stack[-1] in face_up:
            row, col = divmod(slot, geo.COLUMNS)
            awake_far += abs(row - troll_row) + abs(col - troll_col) > 2
            awake_cut += slot in cuts
    return [1.0, bricks / 10, empty, awake, len(state.set_aside), min(left, right, 3), *held,
            float(1 <= column <= 4), deck / 10, cut, thin, out_of_reach(state), deck * awake / 10,
            deck * empty / 10, awake + len(state.set_aside), float(min(left, right) <= 1), *shape,
            awake_far, awake_cut, float(deck <= 3)]


_RING = (0, 1, 2, 2, 1, 0)  # column -> end, next, middle


# Fitted by `benchmarks/troll_value_fit.py --games 2000 --rounds 3` (default rules; 134,666 turn
# ends of 6,000 deals; the one-turn search won 120 of its 2,000 deals on the tuned score, then
# 205 and 242 on the first two fits): one weight per FEATURES entry.
WIN_WEIGHTS: tuple[float, ...] = (
    -1.0553,  # bias
    -0.1323,  # bricks
    +0.4934,  # empty
    -0.3058,  # awake
    +0.0676,  # set_aside
    +0.0257,  # end_cover
    +0.7105,  # the_club
    +1.1543,  # diamond
    +0.0745,  # club
    -0.5624,  # spade
    -0.6680,  # dormant_carried
    +0.1730,  # centre
    -1.5540,  # deck
    -0.4361,  # cut
    +0.0152,  # thin
    +0.7434,  # reach
    +0.1784,  # deck_x_awake
    -0.0719,  # deck_x_empty
    -0.2382,  # pending
    -0.1311,  # weak_end
    +2.1343,  # outer_bricks
    +1.9201,  # middle_bricks
    -4.1867,  # inner_bricks
    +0.0578,  # outer_empty
    +0.5320,  # middle_empty
    -0.0964,  # inner_empty
    -0.1123,  # awake_far
    +0.0113,  # awake_cut
    +0.9342,  # deck_low
)


def win_chance(state: TrollState, weights: tuple[float, ...] = WIN_WEIGHTS) -> float:
    """The fitted chance that the troll wins from a position held at the end of a turn (1 or 0
    once the game is over), times the chance that the troll is not thrown off by a double
    awakening next turn when it stands on an awake brick (as `evaluation.score` does)."""
    if state.outcome:
        return 1.0 if state.outcome == "win" else 0.0
    z = sum(w * x for w, x in zip(weights, features(state), strict=True))
    value = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    stacks = state.stacks
    if stacks[state.troll] and stacks[state.troll][-1] in state.face_up:
        cards_next_turn = len(state.set_aside) or min(1, len(state.deck))
        value *= (1.0 - hit_chance(state, state.troll)) ** cards_next_turn
    return value
