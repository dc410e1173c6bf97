"""A troll bot that searches whole turns against the exact odds of the next awakenings.

Turn-level expectimax (the bots part of RULES.md explains it for players):

- A decision is the rest of the troll's turn (both actions, or the one left): every distinct
  position the turn can end in is tried, the flight phase and the collapse check resolved (they
  are deterministic), stopping before the next awakening.
- Chance is the next turn's awakening phase, enumerated exactly from what the player knows:
  the cards set aside are known, each goes to the row of its colour; a card drawn from the deck
  is red or black with the odds of the cards the player has not seen; the die is uniform 1-6,
  an empty position redirecting as `bridge.awakening_target` says; an awake brick hit again flies
  away (and the troll with it when it stands there). A face-down brick the player has never seen
  turns up as a card of the unseen pool, with the pool's odds (only what a card can do matters:
  THE CLUB, a club, a diamond, a spade or a heart).
- The search alternates: decision, chance, decision, ..., `depth` troll turns in all; positions
  at the horizon are scored with the heuristic's `evaluate`. Inner decisions (and the root, when
  `width` is set) keep only the best few turn endings by that static score.

The bot never reads a hidden card or the real random stream: it plans on a "belief" copy of the
position in which every card the player has not seen is put in a fixed, sorted order and the
random stream is replaced, so two positions that look the same to the player get the same move.
Everything is exact enumeration: no sampling, so the bot is deterministic (the rng is unused).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.protocol import State
from playtable.games.troll import bridge as geo
from playtable.games.troll import kernel
from playtable.games.troll.actions import TrollAction, items_used, priced
from playtable.games.troll.cards import ACE_OF_CLUBS, ACE_OF_DIAMONDS, is_red
from playtable.games.troll.leaves import LEAVES
from playtable.games.troll.rules import TrollState

Key = tuple[object, ...]
Outcomes = list[tuple[float, TrollState]]


# -- what the player knows ------------------------------------------------------------------
def unseen_places(state: TrollState) -> list[tuple[list[int], int]]:
    """Every place that holds a card the player has never seen: face-down bricks never turned
    up (in stack order) and the deck (every card in it)."""
    places: list[tuple[list[int], int]] = []
    for stack in state.stacks:
        places.extend((stack, i) for i, c in enumerate(stack) if c not in state.seen)
    places.extend((state.deck, i) for i in range(len(state.deck)))
    return places


def belief(state: TrollState) -> TrollState:
    """A copy that keeps only what the player knows: unseen cards in a fixed sorted order (so
    nothing depends on where they really are), a fresh random stream, and the turn held before
    the next awakening (the search plays those itself)."""
    out = state.clone()
    out.chance = Chance(0)
    places = unseen_places(out)
    for (lst, i), card in zip(places, sorted(lst[i] for lst, i in places), strict=True):
        lst[i] = card
    out.hold_next_turn = True
    out._legal = None
    return out


def unseen_pool(state: TrollState) -> list[int]:
    return sorted(lst[i] for lst, i in unseen_places(state))


def _card_class(card: int, reusable_diamond: bool) -> int:
    """Cards that behave alike in play: THE CLUB, the reusable ace of diamonds (variant), then
    one class per suit."""
    if card == ACE_OF_CLUBS:
        return 4
    if reusable_diamond and card == ACE_OF_DIAMONDS:
        return 5
    return card // 13


def _swap(state: TrollState, a: int, b: int) -> None:
    """Exchange two unseen cards' places (both in stacks or the deck)."""
    if a == b:
        return
    spots: list[tuple[list[int], int]] = []
    for lst in (*state.stacks, state.deck):
        for i, c in enumerate(lst):
            if c in (a, b):
                spots.append((lst, i))
    (l1, i1), (l2, i2) = spots
    l1[i1], l2[i2] = l2[i2], l1[i1]


def position_key(state: TrollState) -> Key:
    """What decides the future, as the player sees it (card identities included: they are the
    belief's, not the real ones)."""
    return (tuple(tuple(s) for s in state.stacks), frozenset(state.face_up), state.troll,
            tuple(state.carried), tuple(state.set_aside), tuple(state.deck),
            state.actions_left, frozenset(state.visited), state.outcome, state.lower_red)


# -- the chance model -----------------------------------------------------------------------
def awakening_outcomes(state: TrollState) -> Outcomes:
    """The exact distribution of positions at the start of the next troll action phase, from a
    position held at the end of a turn (`hold_next_turn`, not over). Identical positions are
    merged; the probabilities sum to 1."""
    base = state.clone()
    base.turn += 1
    base.visited = {base.troll}
    base.actions_left = 2
    base.hold_next_turn = False
    base._legal = None
    if base.set_aside:
        cards: list[int | None] = list(base.set_aside)
        base.set_aside = []
    elif base.deck:
        cards = [None]  # one card drawn from the deck: only its colour is known in advance
    else:
        return [(1.0, base)]
    dist: Outcomes = [(1.0, base)]
    for i, card in enumerate(cards):
        merged: dict[Key, tuple[float, TrollState]] = {}
        for p, current in dist:
            if current.outcome:
                _add(merged, p, current)
                continue
            for q, after in _play_one(current, card):
                if after.outcome:  # the cards not yet played wait, as in the rules
                    after.set_aside = [c for c in cards[i + 1:] if c is not None] + after.set_aside
                _add(merged, p * q, after)
        dist = list(merged.values())
    for _, after in dist:
        after.hold_next_turn = True
        after._legal = None
    return dist


def _add(merged: dict[Key, tuple[float, TrollState]], p: float, state: TrollState) -> None:
    key = position_key(state)
    if key in merged:
        merged[key] = (merged[key][0] + p, merged[key][1])
    else:
        merged[key] = (p, state)


def _play_one(state: TrollState, card: int | None) -> Outcomes:
    """One card played into the stacks and its die (seed 000 §7.1 "Brick awakening phase")."""
    out: Outcomes = []
    if card is None:
        pool = unseen_pool(state)
        reds = [c for c in pool if is_red(c)]
        blacks = [c for c in pool if not is_red(c)]
        draws = [(len(group) / len(pool), _representative(group)) for group in (reds, blacks) if group]
    else:
        draws = [(1.0, card)]
    for p_card, drawn in draws:
        current = state.clone()
        if card is None:
            _swap(current, drawn, current.deck[-1])
            current.deck.pop()
        row = 0 if is_red(drawn) == current.lower_red else 1
        current.played[row].append(drawn)
        current.seen.add(drawn)
        faces: dict[int, int] = {}
        for column in range(geo.COLUMNS):
            target = kernel.awakening_target(current.stacks, row, column)  # compiled; -1: none
            faces[target] = faces.get(target, 0) + 1
        identities: list[tuple[float, int]] | None = None  # the same for every unseen top
        for target, count in faces.items():
            p = p_card * count / geo.COLUMNS
            if target < 0:
                out.append((p, current.clone()))
                continue
            top = current.stacks[target][-1]
            if top in current.seen:
                after = current.clone()
                after._awaken_top(target, [], by_troll=False)
                out.append((p, after))
                continue
            if identities is None:
                identities = _identities(current)
            for q, identity in identities:
                after = current.clone()
                _swap(after, identity, top)
                after._awaken_top(target, [], by_troll=False)
                out.append((p * q, after))
    return out


def _representative(group: list[int]) -> int:
    """The drawn card of a colour: from the suit with most unseen cards left, never an ace (the
    odds of THE CLUB turning up in the bridge are kept)."""
    by_suit: dict[int, list[int]] = {}
    for c in group:
        by_suit.setdefault(c // 13, []).append(c)
    suit = max(sorted(by_suit), key=lambda s: len(by_suit[s]))
    return max(by_suit[suit])


def _identities(state: TrollState) -> list[tuple[float, int]]:
    """What an unseen face-down brick may turn out to be: one card per class of the unseen pool,
    with the class's share of the pool."""
    pool = unseen_pool(state)
    classes: dict[int, list[int]] = {}
    for c in pool:
        classes.setdefault(_card_class(c, state.params.reusable_ace_of_diamonds), []).append(c)
    return [(len(group) / len(pool), max(group)) for _, group in sorted(classes.items())]


# -- the troll's turn -----------------------------------------------------------------------
def turn_ends(state: TrollState) -> list[tuple[list[TrollAction], TrollState]]:
    """Every distinct position the rest of this turn can end in (held before the next
    awakening), with the actions that reach it (the first found, preferring fewer items)."""
    out: dict[Key, tuple[list[TrollAction], TrollState]] = {}
    frontier: list[tuple[list[TrollAction], TrollState]] = [([], state)]
    within_turn = state.params.rules != "draft"  # a draft spade's wake reveals a card mid-turn
    while frontier:
        actions, current = frontier.pop(0)
        for action in current.legal_actions():
            after = current.clone(within_turn)
            after.hold_next_turn = True
            after.apply(action)
            line = [*actions, action]
            if after.outcome or after.actions_left == 0:
                key = end_key(after)
                if key not in out or items_used(line) < items_used(out[key][0]):
                    out[key] = (line, after)
            else:
                frontier.append((line, after))
    return list(out.values())


def best_turn_value(state: TrollState, evaluate: Callable[[TrollState], float]) -> float:
    """The best static score of an ending of the rest of this turn, `max(evaluate(after) for _,
    after in turn_ends(state))`, found without telling the endings apart: an ending reached twice
    is scored twice, alike, since a leaf reads only what `end_key` holds and the deck and seen
    cards the turn shares (leaves.py). Most turns searched are horizon turns, where keys and
    lines cost more than the few repeats they save (one ending in seven is reached twice).
    In the draft's rules a spade wakes a brick mid-turn and so reveals it: two ways can end
    alike with different bricks seen, of which `turn_ends` keeps the first and this the better."""
    best = -1.0
    within_turn = state.params.rules != "draft"
    for action in state.legal_actions():
        after = state.clone(within_turn)
        after.hold_next_turn = True
        after.apply(action)
        if after.outcome or after.actions_left == 0:
            value = evaluate(after)
        else:
            value = best_turn_value(after, evaluate)
        if value > best:
            best = value
    return best


def end_key(state: TrollState) -> Key:
    """What tells two endings of the same turn apart (the deck and the seen cards are the same)."""
    return (tuple(tuple(s) for s in state.stacks), frozenset(state.face_up), state.troll,
            tuple(state.carried), tuple(state.set_aside), state.outcome)


def _terminal_value(state: TrollState) -> float:
    return 1.0 if state.outcome == "win" else 0.0


def follow_plan(plan: dict[Any, TrollAction], state: TrollState, legal: list[TrollAction],
                find_line: Callable[[], list[TrollAction]],
                key: Callable[[TrollState], Any]) -> TrollAction:
    """The next action of a bot that searches once a turn: the planned second action when the
    position is the one it was planned for (by `key`, what the player sees), else the first of a
    new line from `find_line`, whose second action is kept in `plan` for the position it leads to."""
    planned = plan.pop(key(state), None)
    if planned is not None and planned in legal:
        return planned
    plan.clear()
    line = find_line()
    if len(line) > 1:
        after = state.clone()
        after.hold_next_turn = True
        after.apply(line[0])
        plan[key(after)] = line[1]
    return line[0]


class PlansEachTurn:
    """A troll bot that searches once a turn for the best rest of it (`best_line`) and then plays
    that line's second action at the position it was planned for (`follow_plan`, by what the
    player sees); the bot's dataclass holds the plan in `_plan`."""

    _plan: dict[Any, TrollAction]

    def best_line(self, state: TrollState, rng: Chance) -> list[TrollAction]:
        raise NotImplementedError

    def choose(self, state: State, rng: Chance) -> Any:
        assert isinstance(state, TrollState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return follow_plan(self._plan, state, legal, lambda: self.best_line(state, rng), seen_key)


def seen_key(state: TrollState) -> Any:
    """What the player sees, to recognise the position the second action was planned for."""
    b = belief(state)
    return (tuple(tuple(s) for s in b.stacks), frozenset(b.face_up), b.troll, tuple(b.carried),
            tuple(b.set_aside), len(b.deck), b.actions_left, frozenset(b.visited), b.turn)


@dataclass
class ExpectimaxTroll:
    """Turn-level expectimax over the exact awakening odds; see the module documentation."""

    # Remote bounds (`core.params`): depth 2 took at most 2.0 s a move with any leaf and any
    # bridge a client may set (benchmarks/remote_bounds.py); depth 3 took 298 s on one move at
    # inner_width=16 and 68.8 CPU s a game at inner_width=2 (docs/lab.md): a lab setting.
    depth: int = field(default=2, metadata={"range": (1, 2)})
    """Troll turns searched, this one included (1 = pick the best turn by the static score)."""
    width: int = field(default=0, metadata={"range": (0, 1000)})
    """Turn endings tried at the root, best by the static score first (0 = all of them)."""
    inner_width: int = field(default=4, metadata={"range": (1, 16)})
    """Turn endings tried at inner decisions that are not at the horizon (so only from depth 3 on:
    at depth 2 every reply is scored by the leaf)."""
    leaf: str = field(default="tuned", metadata={"one_of": tuple(LEAVES)})
    """The static score, one of `leaves.LEAVES`: "tuned", "heuristic", "learned", "distilled",
    "network", "rows" or "draws"."""
    _plan: dict[str, TrollAction] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.leaf not in LEAVES:
            raise BadParameter(f"expectimax: leaf must be one of {', '.join(LEAVES)}, not '{self.leaf}'")

    def evaluate(self, state: TrollState) -> float:
        return LEAVES[self.leaf](state)

    name = "expectimax"

    def choose(self, state: State, rng: Chance) -> Any:
        assert isinstance(state, TrollState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return follow_plan(self._plan, state, legal, lambda: self.best_line(state), _observation_key)

    def best_line(self, state: TrollState) -> list[TrollAction]:
        """The actions of the best rest of this turn (as the player knows the position)."""
        return best_of(self.root_values(state))

    def root_values(self, state: TrollState) -> list[tuple[list[TrollAction], TrollState, float]]:
        """The turn endings weighed at the root (best by the static score first), each with its
        searched value (`benchmarks/troll_distil.py` fits a leaf to these)."""
        ends = turn_ends(belief(state))
        ranked = sorted(ends, key=lambda e: priced(self.evaluate(e[1]), e[0]), reverse=True)
        if self.width > 0:
            ranked = ranked[: self.width]
        return [(line, after, self.value_after_turn(after, self.depth - 1)) for line, after in ranked]

    def value_after_turn(self, state: TrollState, turns: int) -> float:
        """The expected value of a position held at the end of a turn, with `turns` more troll
        turns to search."""
        if state.outcome:
            return _terminal_value(state)
        if turns <= 0:
            return self.evaluate(state)
        total = 0.0
        for p, nxt in awakening_outcomes(state):
            total += p * (_terminal_value(nxt) if nxt.outcome else self.value_of_turn(nxt, turns))
        return total

    def value_of_turn(self, state: TrollState, turns: int) -> float:
        """The value of the best turn from the start of a troll action phase."""
        if turns <= 1:
            return best_turn_value(state, self.evaluate)
        ends = turn_ends(state)
        ranked = sorted(ends, key=lambda e: self.evaluate(e[1]), reverse=True)[: max(1, self.inner_width)]
        return max(self.value_after_turn(after, turns - 1) for _, after in ranked)


@dataclass
class StrongestTroll(ExpectimaxTroll):
    """The strongest troll bot measured (troll RULES.md, "The expectimax bot"): the depth-2
    search on the `rows` leaf, under a name of its own so that the menus that offer bot names
    (the web lobby) offer it too;
    `strongest` and `expectimax:leaf=rows` are the same bot."""

    leaf: str = field(default="rows", metadata={"one_of": tuple(LEAVES)})

    name = "strongest"


def best_of(weighed: Iterable[tuple[list[TrollAction], TrollState, float]]) -> list[TrollAction]:
    """The line of the best weighed turn ending, each item used costing a thousandth (the first
    of equals)."""
    best_value, best_line = -2.0, []
    for line, _, value in weighed:
        value = priced(value, line)
        if value > best_value:
            best_value, best_line = value, line
    return best_line


def _observation_key(state: TrollState) -> str:
    return json.dumps([repr(state.params), state.observation(0)], sort_keys=True)
