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
    "deck_x_empty", "pending", "weak_end",
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
    return [1.0, bricks / 10, empty, awake, len(state.set_aside), min(left, right, 3), *held,
            float(1 <= column <= 4), deck / 10, cut, thin, out_of_reach(state), deck * awake / 10,
            deck * empty / 10, awake + len(state.set_aside), float(min(left, right) <= 1)]


# Fitted by `benchmarks/troll_value_fit.py --games 2000 --rounds 2` (default rules; 87,739 turn
# ends of 4,000 deals; the one-turn search on these weights won 181 of its 2,000 deals, on the
# tuned score 120): one weight per FEATURES entry.
WIN_WEIGHTS: tuple[float, ...] = (
    -5.0474,  # bias
    +2.0752,  # bricks
    +0.9235,  # empty
    -0.2092,  # awake
    +0.0226,  # set_aside
    +0.3291,  # end_cover
    +0.8006,  # the_club
    +1.1102,  # diamond
    +0.1908,  # club
    -0.4543,  # spade
    -0.5111,  # dormant_carried
    +0.2221,  # centre
    -1.6244,  # deck
    -0.3532,  # cut
    +0.0401,  # thin
    +0.8883,  # reach
    +0.0719,  # deck_x_awake
    -0.0790,  # deck_x_empty
    -0.1866,  # pending
    +0.0934,  # weak_end
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
