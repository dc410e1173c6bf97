"""A troll position's chance of being won, as a logistic model fitted to the lab's own games.

`evaluation.score` is a hand-set weighted sum squeezed into [0, 1]; it ranks positions well but
is not a probability, and expectimax averages its values over the next awakening as if it were
one. `win_chance` is the same kind of formula, but its weights are a logistic regression of
"was this deal won in the end?" on `features` of the positions that a troll bot really left at
the end of its turns, so its values are calibrated chances and their averages mean something.

`distilled_chance` is the same model with six more inputs, `next_awakening_risks` (the next
awakening phase's odds of hitting an awake brick again, a brick out of the troll's reach, a slot
it would empty), fitted not to the deals' ends but to the depth-2 search's own values of the turn
endings it weighed, so that a search scoring its horizon with it would see about one turn further
(`leaf=distilled`; measured, it lifts the one-turn search but hardly the two-turn one: RULES.md).

`rows_chance` is `win_chance` with the rows' inputs (`row_features`: how bare the thinner row
is; a card naming an empty row awakens nothing) and the next awakening's risks, fitted to how the
deals ended (`leaf=rows`: RULES.md). `draws_chance` adds both rows weighed against the cards
still to come (`draw_features`: how many will name the thinner row, how many of them will awaken
nothing, each row's cards per occupied slot), fitted the same way (`leaf=draws`).

`benchmarks/troll_value_fit.py` plays the games, fits the weights and prints the table behind
`WIN_WEIGHTS` (data, fit and held-out log loss; `--model rows` those behind `ROWS_WEIGHTS`,
`--model draws` those behind `DRAWS_WEIGHTS`),
`benchmarks/troll_distil.py` those behind `DISTILLED_WEIGHTS`; rerunning them reproduces the
weights (`ROWS_WEIGHTS` to within 0.003: see there). The features read only what the player
sees (the shape of the bridge, face-up cards, what the troll carries, the number of cards left,
the colours of the cards not seen yet), never a hidden card.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from playtable.games.troll import bridge as geo
from playtable.games.troll import kernel
from playtable.games.troll.cards import ACE_OF_CLUBS, CLUBS, DECK, DIAMONDS, SPADES, is_red
from playtable.games.troll.evaluation import cut_slots, hit_chance, out_of_reach, troll_reach
from playtable.games.troll.rules import TrollState

HELD_BACK_SEEDS = range(90_000_000, 90_001_000)
"""Deals no fit or tuning of a troll leaf has played (`benchmarks/troll_value_fit.py` refuses
them): the bots are measured on them once, to report a win rate that no choice was made on
(docs/lab.md, "The held-back deals")."""

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

ROW_FEATURES = ("thin_row", "row_empty", "thin_row_slots", "row_empty_x_deck", "thin_row_x_deck",
                "thin_row_slots_le2")


def row_features(state: TrollState) -> list[float]:
    """The thinner row, in `ROW_FEATURES` order: its bricks, whether it is empty, its slots that
    hold a brick, emptiness and bricks each times the deck left, and whether at most two of its
    slots hold a brick. A card whose colour names an empty row awakens nothing (seed 000 §7.1,
    "No brick there...": "If no bricks exist in that row, no brick is awakened"), so a bridge
    left with one row faces half the deck; one playtester won "with a single-row strategy" (seed
    000 §5.3, the physical playtest of Test #6). The other features count both rows together and
    cannot tell one bare row from two thin ones."""
    bricks = [sum(len(s) for s in state.stacks[r * geo.COLUMNS:(r + 1) * geo.COLUMNS]) for r in (0, 1)]
    thin = min(bricks)
    row = state.stacks[bricks.index(thin) * geo.COLUMNS:][:geo.COLUMNS]
    slots = sum(1 for s in row if s)
    deck = len(state.deck)
    return [thin / 10, float(thin == 0), slots, float(thin == 0) * deck / 10, thin * deck / 100,
            float(slots <= 2)]


DRAW_FEATURES = ("thick_row", "thick_row_slots", "thin_row_draws", "dead_draws", "thin_row_pressure",
                 "thick_row_pressure", "troll_in_thin_row", "thin_row_awake")


def draw_features(state: TrollState) -> list[float]:
    """Both rows against the cards still to come, in `DRAW_FEATURES` order: the thicker row's
    bricks and slots that hold one; the cards still to come that name the thinner row (a card's
    colour names its row, seed 000 §7.1 "Brick awakening phase"); those of them that will awaken
    nothing because that row is bare (§7.1 "No brick there...": "If no bricks exist in that row,
    no brick is awakened"); for each row, its cards to come per slot that holds a brick (the die
    picks a position and an empty one redirects to the next brick, so a row's awakenings fall on
    its occupied slots: the fewer they are, the sooner one is hit twice and flies away); whether
    the troll stands in the thinner row; and the thinner row's awake bricks.

    `row_features` knows how bare the thinner row is but not how many cards will still name it:
    the colours left decide whether a bare row spares half the deck or less. The cards to come
    are those set aside (colours known) and the deck's, each red with the odds of the cards not
    seen yet (as `next_awakening_risks` counts them); cards that fly away later are not foreseen.
    """
    stacks = state.stacks
    bricks = [sum(len(s) for s in stacks[r * geo.COLUMNS:(r + 1) * geo.COLUMNS]) for r in (0, 1)]
    thin_row = bricks.index(min(bricks))
    thick_row = 1 - thin_row
    slots = [sum(1 for s in stacks[r * geo.COLUMNS:(r + 1) * geo.COLUMNS] if s) for r in (0, 1)]
    red = unseen_red_odds(state)
    lower_share = red if state.lower_red else 1.0 - red
    to_come = [len(state.deck) * lower_share, len(state.deck) * (1.0 - lower_share)]
    for card in state.set_aside:
        to_come[0 if is_red(card) == state.lower_red else 1] += 1.0
    pressure = [to_come[r] / slots[r] if slots[r] else 0.0 for r in (0, 1)]
    awake_thin = sum(1 for s in stacks[thin_row * geo.COLUMNS:(thin_row + 1) * geo.COLUMNS]
                     if s and s[-1] in state.face_up)
    return [bricks[thick_row] / 10, slots[thick_row], to_come[thin_row] / 10,
            to_come[thin_row] / 10 * (not slots[thin_row]), pressure[thin_row] / 10,
            pressure[thick_row] / 10, float(state.troll // geo.COLUMNS == thin_row), awake_thin]


def unseen_red_odds(state: TrollState) -> float:
    """The odds that a card the player has not seen yet is red (even when every card was seen)."""
    unseen = len(DECK) - len(state.seen)
    if not unseen:
        return 0.5
    red_seen = 0
    for card in state.seen:
        red_seen += is_red(card)
    return (len(DECK) // 2 - red_seen) / unseen


RISK_FEATURES = ("next_double", "next_out_of_reach", "next_hole", "next_cut_hole", "next_in_reach",
                 "next_out_x_deck")


def next_awakening_risks(state: TrollState) -> list[float]:
    """What the next awakening phase may do, in expected cards (seed 000 §7.1 "Brick awakening
    phase"), in `RISK_FEATURES` order: hit an awake brick again (it flies away), awaken a brick
    the troll cannot reach next turn (`troll_reach`: stomp one step away, club two, a diamond
    anywhere), leave a slot empty by either, the same on a slot whose loss collapses the
    bridge, awaken a brick within reach, and the out-of-reach odds times the deck left. The cards
    set aside go to the rows of their known colours; a card drawn is red with the odds of the
    cards not seen yet; the die is even and an empty position redirects (`awakening_target`)."""
    stacks, face_up, troll = state.stacks, state.face_up, state.troll
    if state.set_aside:
        lower_odds = [1.0 if is_red(c) == state.lower_red else 0.0 for c in state.set_aside]
    elif state.deck:
        red = unseen_red_odds(state)
        lower_odds = [red if state.lower_red else 1.0 - red]
    else:
        lower_odds = []
    reach = troll_reach(state)
    cuts = cut_slots(stacks)
    troll_row, troll_col = divmod(troll, geo.COLUMNS)
    double = out = hole = cut_hole = near = 0.0
    for row in (0, 1):
        # Summed from 0.0: compiled by mypyc (setup.py), a sum from 0 is typed int | float and
        # a float result is refused.
        p_row = sum(lower_odds, 0.0) if row == 0 else len(lower_odds) - sum(lower_odds, 0.0)
        if not p_row:
            continue
        for column in range(geo.COLUMNS):
            target = kernel.awakening_target(stacks, row, column)  # compiled, -1 for none
            if target < 0 or target == troll:  # nothing, or `win_chance`'s own factor
                continue
            p, stack = p_row / geo.COLUMNS, stacks[target]
            t_row, t_col = divmod(target, geo.COLUMNS)
            if stack[-1] in face_up:
                double += p
            elif abs(t_row - troll_row) + abs(t_col - troll_col) > reach:
                out += p
            else:
                near += p
                continue
            if len(stack) == 1:
                hole += p
                cut_hole += p * (target in cuts)
    return [double, out, hole, cut_hole, near, out * len(state.deck) / 10]


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

# Fitted by `benchmarks/troll_distil.py --games 700 --seed-base 5100000` (77,169 turn endings that
# the depth-2 search on `WIN_WEIGHTS` weighed in 700 deals, 132 of them won): one weight per
# FEATURES and RISK_FEATURES entry.
DISTILLED_WEIGHTS: tuple[float, ...] = (
    -1.7893,  # bias
    +0.8775,  # bricks
    +0.5152,  # empty
    -0.0843,  # awake
    -0.0467,  # set_aside
    +0.0446,  # end_cover
    +0.5176,  # the_club
    +0.6716,  # diamond
    -0.1052,  # club
    -0.4820,  # spade
    +0.1561,  # dormant_carried
    +0.0953,  # centre
    -1.6295,  # deck
    -0.3861,  # cut
    -0.0084,  # thin
    +0.2773,  # reach
    +0.0344,  # deck_x_awake
    -0.0437,  # deck_x_empty
    -0.1310,  # pending
    -0.0753,  # weak_end
    +1.0088,  # outer_bricks
    +0.6479,  # middle_bricks
    -0.7792,  # inner_bricks
    -0.0612,  # outer_empty
    +0.3194,  # middle_empty
    +0.2569,  # inner_empty
    -0.1615,  # awake_far
    -0.0984,  # awake_cut
    +0.6635,  # deck_low
    +0.0514,  # next_double
    -0.5012,  # next_out_of_reach
    +0.3356,  # next_hole
    -1.3965,  # next_cut_hole
    -0.0590,  # next_in_reach
    +0.1924,  # next_out_x_deck
)


# Fitted by `benchmarks/troll_value_fit.py --model rows --start learned --games 3000 --rounds 6
# --seed-base 7000000` (default rules; 6 rounds of 3,000 deals by the one-turn search, each on the
# model fitted to all the rounds before; it won 331 of the first round's deals, on `WIN_WEIGHTS`,
# and 530 of the last): one weight per FEATURES, ROW_FEATURES and RISK_FEATURES entry. A rerun
# on another day (one BLAS thread, as the script now sets) won 531 in the last round and ended
# within 0.003 of every weight: the search's ties make the rounds sensitive to the last digits.
ROWS_WEIGHTS: tuple[float, ...] = (
    +6.8979,  # bias
    +1.0014,  # bricks
    -0.7642,  # empty
    -0.2091,  # awake
    +0.0186,  # set_aside
    +0.0359,  # end_cover
    +0.7399,  # the_club
    +0.7570,  # diamond
    -0.5107,  # club
    -0.1682,  # spade
    +0.5059,  # dormant_carried
    +0.1273,  # centre
    -2.2015,  # deck
    +0.0341,  # cut
    -0.1530,  # thin
    +0.5440,  # reach
    +0.1373,  # deck_x_awake
    +0.0110,  # deck_x_empty
    -0.1905,  # pending
    -0.0218,  # weak_end
    +2.0063,  # outer_bricks
    +1.3354,  # middle_bricks
    -2.3403,  # inner_bricks
    -0.1342,  # outer_empty
    -0.1577,  # middle_empty
    -0.4724,  # inner_empty
    -0.1213,  # awake_far
    -0.1175,  # awake_cut
    +0.7293,  # deck_low
    -5.0928,  # thin_row
    +0.0886,  # row_empty
    -0.6610,  # thin_row_slots
    -0.1381,  # row_empty_x_deck
    +0.6911,  # thin_row_x_deck
    +0.0269,  # thin_row_slots_le2
    -0.0327,  # next_double
    -1.4446,  # next_out_of_reach
    +0.1210,  # next_hole
    -1.8187,  # next_cut_hole
    -0.2211,  # next_in_reach
    +0.6357,  # next_out_x_deck
)


# Fitted by `benchmarks/troll_value_fit.py --model draws --start rows --games 3000 --rounds 4
# --seed-base 7100000` (default rules; 4 rounds of 3,000 deals by the one-turn search, 305,538
# turn ends; it won 524 of the first round's deals, on `ROWS_WEIGHTS` with the new inputs at 0,
# then 474, 562 and 634): one weight per FEATURES, ROW_FEATURES, RISK_FEATURES and DRAW_FEATURES
# entry.
DRAWS_WEIGHTS: tuple[float, ...] = (
    +0.2470,  # bias
    -0.1945,  # bricks
    -0.1962,  # empty
    -0.3201,  # awake
    +0.0108,  # set_aside
    +0.0596,  # end_cover
    +1.1181,  # the_club
    +0.7629,  # diamond
    -0.2265,  # club
    -0.0987,  # spade
    +0.4213,  # dormant_carried
    +0.1337,  # centre
    -3.0643,  # deck
    -0.0613,  # cut
    -0.1299,  # thin
    +0.6010,  # reach
    +0.1618,  # deck_x_awake
    -0.0143,  # deck_x_empty
    -0.3093,  # pending
    -0.0646,  # weak_end
    +1.3141,  # outer_bricks
    +1.1919,  # middle_bricks
    -2.7004,  # inner_bricks
    +0.0928,  # outer_empty
    +0.0609,  # middle_empty
    -0.3499,  # inner_empty
    -0.0557,  # awake_far
    -0.0012,  # awake_cut
    +0.9018,  # deck_low
    -2.8069,  # thin_row
    +0.0986,  # row_empty
    -0.0425,  # thin_row_slots
    -0.6193,  # row_empty_x_deck
    +0.3603,  # thin_row_x_deck
    -0.1006,  # thin_row_slots_le2
    -0.1044,  # next_double
    -1.1333,  # next_out_of_reach
    -0.0022,  # next_hole
    -1.1135,  # next_cut_hole
    +0.0014,  # next_in_reach
    +0.5179,  # next_out_x_deck
    +2.6124,  # thick_row
    +0.2386,  # thick_row_slots
    +2.4282,  # thin_row_draws
    +1.2679,  # dead_draws
    +0.1026,  # thin_row_pressure
    -0.7832,  # thick_row_pressure
    -0.1401,  # troll_in_thin_row
    +0.2425,  # thin_row_awake
)


def win_chance(state: TrollState, weights: tuple[float, ...] = WIN_WEIGHTS) -> float:
    """The fitted chance that the troll wins from a position held at the end of a turn (1 or 0
    once the game is over), times the chance that the troll is not thrown off by a double
    awakening next turn when it stands on an awake brick (as `evaluation.score` does)."""
    return _fitted_chance(state, weights, features)


def distilled_chance(state: TrollState, weights: tuple[float, ...] = DISTILLED_WEIGHTS) -> float:
    """`win_chance` with the next awakening's risks as inputs too, fitted to the depth-2
    search's values (`DISTILLED_WEIGHTS`)."""
    return _fitted_chance(state, weights, distilled_inputs)


def rows_chance(state: TrollState, weights: tuple[float, ...] = ROWS_WEIGHTS) -> float:
    """`win_chance` with the rows' inputs and the next awakening's risks too, fitted to how the
    deals ended (`ROWS_WEIGHTS`): the leaf that knows a bridge of one row is the surest to hold."""
    return _fitted_chance(state, weights, rows_inputs)


def draws_chance(state: TrollState, weights: tuple[float, ...] = DRAWS_WEIGHTS) -> float:
    """`rows_chance` with both rows weighed against the cards still to come (`draw_features`),
    fitted to how the deals ended (`DRAWS_WEIGHTS`)."""
    return _fitted_chance(state, weights, draws_inputs)


def draws_inputs(state: TrollState) -> list[float]:
    """`rows_inputs` then `draw_features`: the inputs of `draws_chance`."""
    return rows_inputs(state) + draw_features(state)


def rows_inputs(state: TrollState) -> list[float]:
    """`features`, `row_features`, then `next_awakening_risks`: the inputs of `rows_chance`."""
    return features(state) + row_features(state) + next_awakening_risks(state)


def distilled_inputs(state: TrollState) -> list[float]:
    """`features` then `next_awakening_risks`: the inputs of `distilled_chance`."""
    return features(state) + next_awakening_risks(state)


def _fitted_chance(state: TrollState, weights: tuple[float, ...],
                   inputs: Callable[[TrollState], list[float]]) -> float:
    if state.outcome:
        return 1.0 if state.outcome == "win" else 0.0
    values = inputs(state)
    if len(values) != len(weights):
        raise ValueError(f"{len(weights)} weights for {len(values)} inputs")
    # A loop, not sum() over zip(): compiled (setup.py) it adds in the same order without a
    # closure and a generator for every position scored.
    z = 0.0
    for i in range(len(values)):
        z += weights[i] * values[i]
    return _logistic(state, z)


def chance_from_logit(state: TrollState, logit: Callable[[TrollState], float]) -> float:
    """The form every fitted leaf shares: 1 or 0 once the game is over, else the logistic curve
    of the model's `logit` times `survival`."""
    if state.outcome:
        return 1.0 if state.outcome == "win" else 0.0
    return _logistic(state, logit(state))


def _logistic(state: TrollState, z: float) -> float:
    return survival(state) / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def survival(state: TrollState) -> float:
    """The chance that the next awakening phase does not throw the troll off the awake brick it
    stands on (1 when it stands on none): the factor both models multiply their fit by."""
    stacks = state.stacks
    if stacks[state.troll] and stacks[state.troll][-1] in state.face_up:
        cards_next_turn = len(state.set_aside) or min(1, len(state.deck))
        return (1.0 - hit_chance(state, state.troll)) ** cards_next_turn
    return 1.0
