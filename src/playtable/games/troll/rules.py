"""The transitions of Angry Troll versus Magic Bridge (seed 000 §6-§7.1): `TrollState`, the
position (state.py) with its rules; its JSON form and views are in serialize.py and views.py.

A turn (§6.2): 1. bricks awaken, 2. the troll takes two actions, 3. awakened bricks flee, then
the bridge is checked. The awakening phase is resolved automatically inside `apply` (it is all
chance), so the only decisions are the troll's actions. See RULES.md for every rule and the
interpretations this code follows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, IllegalAction
from playtable.core.presentation import Presentation
from playtable.core.protocol import Event, State
from playtable.games.troll import bridge as geo
from playtable.games.troll import events as ev
from playtable.games.troll import fatal, serialize, views
from playtable.games.troll.actions import (
    DIRECTED_ACTIONS,
    DIRECTIONS,
    LAY,
    STOMP,
    WAIT,
    TrollAction,
)
from playtable.games.troll.cards import (
    ACE_OF_CLUBS,
    ACE_OF_DIAMONDS,
    CLUBS,
    DECK,
    DIAMONDS,
    HEARTS,
    SPADES,
    is_red,
    parse_card,
)
from playtable.games.troll.events import Record
from playtable.games.troll.state import TrollPosition

_UNSEEN = b"\xff" * 256
"""The translate table of `info_key` before any card is seen: every byte becomes 255."""

THROWN_OFF = "The troll's brick flies away, and the troll with it."


class TrollState(Presentation, TrollPosition):
    """The rules: legal actions, turns and their phases, setup (RULES.md); copies are the
    position's (`TrollPosition.clone`).

    This is the readable reference. The games are played by `engine.FastTrollState`, which
    does the same faster; `tests/games/troll/test_engine_differential.py` plays both side by
    side. What happened is noted as event records (events.py), turned into events on return."""

    def legal_actions(self) -> list[TrollAction]:
        if self._legal is None:
            self._legal = [] if self.outcome else self._compute_legal()
        return self._legal

    def _top_awake(self, slot: int) -> bool:
        stack = self.stacks[slot]
        return bool(stack) and stack[-1] in self.face_up

    def throw_target(self, direction: str) -> int | None:
        """The first slot in `direction` whose top brick is awake (§7.1: no lobbing over one)."""
        slot = geo.NEIGHBOUR[self.troll][direction]
        while slot >= 0:
            if self._top_awake(slot):
                return slot
            slot = geo.NEIGHBOUR[slot][direction]
        return None

    def _compute_legal(self) -> list[TrollAction]:
        stacks, troll, draft = self.stacks, self.troll, self.params.rules == "draft"
        out: list[TrollAction] = []
        neighbours = geo.NEIGHBOUR[troll]
        for d in DIRECTIONS:
            n = neighbours[d]
            if n >= 0 and stacks[n] and n not in self.visited:
                out.append(DIRECTED_ACTIONS["move", d])
        if self._top_awake(troll):
            out.append(STOMP)
        if not self.carried:
            for d in DIRECTIONS:
                n = neighbours[d]
                if n >= 0 and self._top_awake(n) and stacks[n][-1] // 13 != HEARTS:
                    out.append(DIRECTED_ACTIONS["pick", d])
        for card in self.carried:
            suit = card // 13
            if card not in self.face_up:
                out.extend(self._lay_actions(draft))
                continue
            for d in DIRECTIONS:
                n = neighbours[d]
                if suit == CLUBS and n >= 0 and self._top_awake(n):
                    out.append(DIRECTED_ACTIONS["club", d])
                elif suit == DIAMONDS and (draft or self.throw_target(d) is not None):
                    out.append(DIRECTED_ACTIONS["throw", d])
                elif suit == SPADES and n >= 0 and stacks[n]:
                    if stacks[n][-1] in self.face_up:
                        out.append(DIRECTED_ACTIONS["shovel", d])
                    elif draft:
                        out.append(DIRECTED_ACTIONS["wake", d])
        return out or [WAIT]

    def _lay_actions(self, draft: bool) -> list[TrollAction]:
        """Where a carried dormant brick may be laid: next to the troll in an original bridge
        position (§7.1), or in the draft anywhere it touches two bricks (§4.1). Never onto an
        awake brick (interpretation I9)."""
        if draft:
            spots = [s for s in range(geo.SLOTS) if s != self.troll
                     and geo.supporting_neighbours(self.stacks, s) >= 2]
        else:
            spots = list(geo.ADJACENT[self.troll])
        return [LAY[s] for s in sorted(spots) if not self._top_awake(s)]

    def apply(self, action: Any) -> Sequence[Event]:
        if not isinstance(action, TrollAction):
            raise IllegalAction(f"{action!r} is not a troll action")
        if self.outcome:
            raise IllegalAction(f"the game is over; '{action}' cannot be played")
        if action not in self.legal_actions():
            raise IllegalAction(f"'{action}' is not legal now (legal: "
                                f"{', '.join(map(str, self.legal_actions()))})")
        self._legal = None
        self._unseen_plan = None
        events: list[Record] = []
        self._act(action, events)
        self.actions_left -= 1
        if self.actions_left == 0:
            self._finish_turn(events)
        return self._events(events)

    def _events(self, records: list[Record]) -> Sequence[Event]:
        """The events of `records`, built now (the engine builds them when they are read)."""
        return [ev.build(r) for r in records]

    def action_warning(self, action: Any) -> str | None:
        """Words for a turn end that loses on the spot or leaves the troll on an awake brick
        (RULES.md "Warnings before a fatal action"; fatal.py)."""
        return fatal.action_warning(self, action)

    # -- the troll action phase (§7.1) ----------------------------------------------------------
    def _act(self, action: TrollAction, events: list[Record]) -> None:
        verb = action.verb
        if verb == "wait":
            events.append((ev.waited,))
            return
        if verb == "stomp":
            self._subdue(self.troll)
            self.stats["stomps"] += 1
            events.append((ev.stomped, self.stacks[self.troll][-1], self.troll))
            return
        if verb == "lay":
            card = self.carried.pop()
            self.stacks[action.slot].append(card)
            events.append((ev.laid, card, action.slot))
            return
        target = geo.NEIGHBOUR[self.troll][action.direction]
        if verb == "move":
            self.troll = target
            self.visited.add(target)
            events.append((ev.moved, action.direction, target))
        elif verb == "pick":
            card = self.stacks[target].pop()
            self.carried.append(card)
            if card == ACE_OF_CLUBS:
                self.stats["club_acquired"] = 1
            events.append((ev.picked_up, card, target))
        elif verb == "club":
            self._use(CLUBS, events)
            self._subdue(target)
            events.append((ev.clubbed, self.stacks[target][-1], target))
        elif verb == "throw":
            self._use(DIAMONDS, events)
            hit = self.throw_target(action.direction)
            if hit is None:
                events.append((ev.thrown_off, action.direction))
            else:
                self._subdue(hit)
                events.append((ev.thrown, self.stacks[hit][-1], hit))
        elif verb == "shovel":
            self._use(SPADES, events)
            card = self.stacks[target].pop()
            self.face_up.discard(card)
            self.carried.append(card)
            events.append((ev.shovelled, card, target))
        elif verb == "wake":
            self._use(SPADES, events)
            self._awaken_top(target, events, by_troll=True)

    def _subdue(self, slot: int) -> None:
        self.face_up.discard(self.stacks[slot][-1])

    def _use(self, suit: int, events: list[Record]) -> None:
        """Spend the carried card of `suit`; it is set aside unless it is a kept ace (§7.1)."""
        card = next(c for c in self.carried if c // 13 == suit)
        self.stats["items_used"] += 1
        kept = card == ACE_OF_CLUBS or (card == ACE_OF_DIAMONDS and self.params.reusable_ace_of_diamonds)
        if not kept:
            self.carried.remove(card)
            self.face_up.discard(card)
            self.set_aside.append(card)
            events.append((ev.used, card))

    # -- end of turn: flight, falling (draft), collapse, win, next awakening ----------------------
    def _finish_turn(self, events: list[Record]) -> None:
        self._flight_phase(events)
        if self.params.rules == "draft":
            self._unsupported_fall(events)
        if not self.outcome:
            self._judge_bridge(events, geo.collapse_reason(self.stacks))

    def _judge_bridge(self, events: list[Record], reason: str | None) -> None:
        """After the flight (§7.1 "Brick flight phase"): the bridge collapses (for `reason`, R14),
        or is won, or the turn limit ends the game, or the next turn begins."""
        if reason:
            self._end("loss", f"The bridge collapses: {reason}.", "collapse", events)
            return
        # I8: §7.1 "Winning" asks for nothing else; the variant also waits for the set-aside pile.
        owed = self.params.win_waits_for_set_aside and self.set_aside
        if not self.deck and not owed and self.face_up.isdisjoint(self._bridge_cards()):
            perfect = all(self.stacks)
            text = "A perfect win: every slot of the bridge still has a brick!" if perfect else \
                "The troll wins: the deck is spent and every brick is dormant."
            self._end("win", text, "perfect" if perfect else "win", events)
            return
        if self.turn >= self.params.turn_limit:
            self._end("loss", "The turn limit is reached.", "turn_limit", events)
            return
        if self.hold_next_turn:
            return
        self._start_turn(events)

    def _bridge_cards(self) -> list[int]:
        return [c for stack in self.stacks for c in stack]

    def _flight_phase(self, events: list[Record]) -> None:
        """§7.1: every awake brick not under the troll moves one step towards the closest bank
        not blocked by the troll; movers are fixed first and moved nearest-the-bank first."""
        movers = [s for s in range(geo.SLOTS) if s != self.troll and self._top_awake(s)]
        steps = {s: geo.flight_step(s, self.troll) for s in movers}
        movers.sort(key=lambda s: s % geo.COLUMNS if steps[s] < 0 else geo.COLUMNS - s % geo.COLUMNS)
        for slot in movers:
            card = self.stacks[slot].pop()
            column = slot % geo.COLUMNS + steps[slot]
            if 0 <= column < geo.COLUMNS:
                self.stacks[slot + steps[slot]].append(card)
                events.append((ev.fled_step, card, slot, slot + steps[slot]))
            else:
                bank = "left" if column < 0 else "right"
                self.face_up.discard(card)
                self.set_aside.append(card)
                self.stats["fled"] += 1
                events.append((ev.fled, card, slot, bank))

    def _unsupported_fall(self, events: list[Record]) -> None:
        """Draft rule (seed 001 §4.1): a dormant stack away from the ends needs two touching
        neighbours, else it falls; repeated until nothing more falls."""
        falling = True
        while falling:
            falling = False
            for slot in range(geo.SLOTS):
                stack = self.stacks[slot]
                if (slot % geo.COLUMNS in (0, geo.COLUMNS - 1) or not stack
                        or stack[-1] in self.face_up or geo.supporting_neighbours(self.stacks, slot) >= 2):
                    continue
                falling = True
                self.set_aside.extend(stack)
                self.face_up.difference_update(stack)
                self.stacks[slot] = []
                events.append((ev.fell, slot, len(stack)))
                if slot == self.troll:
                    self._end("loss", "The troll falls with its brick.", "fell", events)
                    return

    def _start_turn(self, events: list[Record]) -> None:
        self.turn += 1
        self.visited = {self.troll}
        self.actions_left = 2
        events.append((ev.turn, self.turn))
        self._awakening_phase(events)

    def _awakening_phase(self, events: list[Record]) -> None:
        """§7.1: the cards of the phase awaken bricks one at a time."""
        cards = self._cards_to_play(events)
        for i, card in enumerate(cards):
            self._play_card(card, events)
            if self.outcome:
                self.set_aside = cards[i + 1:] + self.set_aside
                return

    def _cards_to_play(self, events: list[Record]) -> list[int]:
        """§7.1: the cards set aside, in the order they were set aside (I3); with none, one card
        drawn from the deck; with no deck either, none, and no brick awakens."""
        if self.set_aside:
            cards, self.set_aside = self.set_aside, []
            return cards
        if self.deck:
            return [self.deck.pop()]
        events.append((ev.no_awakening,))
        return []

    def _play_card(self, card: int, events: list[Record]) -> None:
        row = 0 if is_red(card) == self.lower_red else 1
        self.played[row].append(card)
        self.seen.add(card)
        roll = self.chance.roll(6)
        target = geo.awakening_target(self.stacks, row, roll - 1)
        if target is None:
            events.append((ev.no_brick, card, roll, row))
            return
        events.append((ev.card_played, card, roll, row, target))
        self._awaken_top(target, events, by_troll=False)

    def _awaken_top(self, slot: int, events: list[Record], by_troll: bool) -> None:
        card = self.stacks[slot][-1]
        self.stats["awakenings"] += 1
        if card in self.face_up:
            self.stacks[slot].pop()
            self.face_up.discard(card)
            self.set_aside.append(card)
            self.stats["double_awakenings"] += 1
            events.append((ev.flew_away, card, slot))
            if slot == self.troll:
                self._end("loss", THROWN_OFF, "double_awakening", events)
            return
        self.face_up.add(card)
        self.seen.add(card)
        events.append((ev.awakened, card, slot, by_troll))

    def _end(self, outcome: str, text: str, reason: str, events: list[Record]) -> None:
        self.outcome = outcome
        self.end_reason = reason
        self._legal = None
        events.append((ev.ended, outcome, text, reason, self.score))

    # -- setup (§6.1, §7.1 "Building the Magic Bridge") ------------------------------------------
    def setup(self) -> Sequence[Event]:
        params, events = self.params, list[Record]()
        cards = list(DECK)
        for held, card in ((params.club_from_start, ACE_OF_CLUBS),
                           (params.diamond_from_start, ACE_OF_DIAMONDS)):
            if held:
                cards.remove(card)
                self.carried.append(card)
                self.face_up.add(card)
                self.seen.add(card)
        heights = params.slot_heights()
        rigged_top = self._rigged_deck_top(cards, heights) if "deck" in self.chance.rigged else []
        self.chance.shuffle(cards)
        self._deal(cards, heights)
        self.deck = cards + rigged_top[::-1]
        if params.troll_starts_with_card:
            card = self.deck.pop()
            self.carried.append(card)
            self.face_up.add(card)
            self.seen.add(card)
            events.append((ev.given, card))
        if params.lower_colour == "drawn" and not params.start_row_roll and not params.start_position:
            first = self.deck.pop()  # §6.1, §7.1: the first card sets the colours; a roll, the brick
            self.played[0].append(first)
            self.seen.add(first)
            self.lower_red = is_red(first)
            roll = self.chance.roll(6)
            self.troll = roll - 1
            events.append((ev.setup, first, roll, self.troll))
        else:
            self._setup_test7(events)
        self._start_turn(events)
        self.setup_events = self._events(events)
        return self.setup_events

    def _setup_test7(self, events: list[Record]) -> None:
        """The colours and the troll's brick under Test #7's setup ideas (seed 000 §8.1; RULES.md
        "Variants", I21): the lower row's colour is the first card's (§6.1) or fixed (black
        cards in the bottom flight stack, no colour card drawn); the troll's row is the lower
        (§7.1) or rolled (1-3 = bottom, 4-6 = top); its brick rolled (§6.1) or always the same."""
        params = self.params
        first: int | None = None
        if params.lower_colour == "drawn":
            first = self.deck.pop()
            self.played[0].append(first)
            self.seen.add(first)
            self.lower_red = is_red(first)
        else:
            self.lower_red = params.lower_colour == "red"
        row_roll = self.chance.roll(6) if params.start_row_roll else 0
        row = 1 if row_roll > 3 else 0
        roll = 0 if params.start_position else self.chance.roll(6)
        self.troll = row * geo.COLUMNS + (params.start_position or roll) - 1
        events.append((ev.setup_test7, first, self.lower_red, row_roll, roll, self.troll))

    def _deal(self, cards: list[int], heights: tuple[int, ...]) -> None:
        """Each stack takes the next cards from the top of `cards`, one by one (§7.1)."""
        for slot in range(geo.SLOTS):
            height = heights[slot % geo.COLUMNS]
            self.stacks[slot] = cards[:-height - 1:-1]
            del cards[-height:]

    def _rigged_deck_top(self, cards: list[int], heights: tuple[int, ...]) -> list[int]:
        texts = self.chance.rigged.pop("deck", [])
        top = [parse_card(t) for t in texts]
        for card in top:
            if card not in cards:
                raise BadParameter(f"rigged deck card {texts[top.index(card)]} is held or repeated")
            cards.remove(card)
        deck_size = 52 - 2 * sum(heights) - len(self.carried)
        if len(top) > deck_size:
            raise BadParameter(f"{len(top)} rigged deck cards, but the deck of awakening has {deck_size}")
        return top

    _unseen_plan: tuple[tuple[int, int, int, int], list[tuple[int, int, int, list[int] | None]],
                        int, list[int]] | None = None
    """Where the unseen cards lie (`_unseen`) and which they are (sorted), kept between
    determinizations of an unchanged position (a search determinizes its root once per
    iteration)."""

    def determinize(self, seat: int, rng: Chance) -> TrollState:
        """Resample the order of every card the player has never seen (face-down bricks never
        turned up, and the deck) and the future die rolls; remembered cards stay put."""
        # The within-turn copy shares the random stream, the deck, the seen cards and the flight
        # stacks with this state: each is replaced by its own here, so nothing is shared that a
        # search's moves would change (and nothing is copied twice).
        other = self.clone(within_turn=True)
        other.chance = rng.fork(rng.next_u64())
        other.seen = set(self.seen)
        other.played = (list(self.played[0]), list(self.played[1]))
        table = self._seen_table()
        other._shown = (other.seen, len(other.seen), table)  # the same cards seen
        # Sorted first, so that the sample depends on what the player knows, not the true order.
        runs, on_bridge, unseen = self._unseen()
        # A uniform shuffle: the cards sorted by independent uniform 32-bit keys, all made by one
        # SHAKE-128 call seeded from `rng` (ties, which would favour the sorted order, have odds
        # below 1e-6). Search agents determinize every iteration; Fisher-Yates with a draw from
        # the SplitMix stream per swap was a third of an ISMCTS iteration. (The keys as a list:
        # sorting reads them faster from a list than through the memoryview.)
        keys = memoryview(hashlib.shake_128(rng.next_u64().to_bytes(8, "little"))
                          .digest(4 * len(unseen))).cast("I").tolist()
        cards = [unseen[i] for i in sorted(range(len(unseen)), key=keys.__getitem__)]
        stacks = other.stacks
        for slot, lo, hi, depths in runs:
            if depths is None:  # the usual case: the stack's unseen bricks are its bottom ones
                stacks[slot][:hi - lo] = cards[lo:hi]
            else:
                stack = stacks[slot]
                for i, card in zip(depths, cards[lo:hi], strict=True):
                    stack[i] = card
        other.deck = cards[on_bridge:]
        # The legal actions stay: they depend only on what the player sees (awake tops, which
        # slots hold bricks, what is carried and where the troll has been), which is unchanged.
        return other

    def _unseen(self) -> tuple[list[tuple[int, int, int, list[int] | None]], int, list[int]]:
        """Where the face-down bricks never seen lie, as runs `(slot, lo, hi, depths)`: the
        slot's unseen bricks, bottom to top, take the shuffled cards lo..hi-1 (`depths` None
        when they are the stack's bottom hi-lo bricks, else their depths); how many there are;
        and every unseen card (those bricks and the deck), sorted."""
        mark = (self.turn, self.actions_left, len(self.seen), len(self.deck))
        if self._unseen_plan is None or self._unseen_plan[0] != mark:
            seen = self.seen
            runs: list[tuple[int, int, int, list[int] | None]] = []
            hidden: list[int] = []
            for slot, stack in enumerate(self.stacks):
                depths = [i for i, c in enumerate(stack) if c not in seen]
                if depths:
                    lo = len(hidden)
                    hidden.extend(stack[i] for i in depths)
                    bottom = depths[-1] == len(depths) - 1
                    runs.append((slot, lo, len(hidden), None if bottom else depths))
            self._unseen_plan = (mark, runs, len(hidden), sorted(hidden + self.deck))
        return self._unseen_plan[1], self._unseen_plan[2], self._unseen_plan[3]

    # -- persistence and views live in serialize.py and views.py (below this module) -------------
    def to_json(self) -> dict[str, Any]:
        return serialize.state_to_json(self)

    def observation(self, seat: int) -> dict[str, Any]:
        if seat != 0:
            raise IllegalAction(f"troll is a one-seat game; there is no seat {seat}")
        return serialize.observation(self)

    def info_key(self, seat: int) -> Hashable:
        """The facts of `observation(0)` as a short flat tuple (equal exactly when the
        observations are), far cheaper to build, hash and compare than the JSON view: the
        fixed fields; one bytes of the set-aside cards, the flight stacks and the cards carried
        (cards are 0-51; 254 ends each list) and the twelve stack heights; and one bytes of
        every brick, bottom to top, slot by slot, a face-down card never seen as 255 (the
        heights say where one stack ends)."""
        played = self.played
        # The twelve slots written out: twice as fast as chaining them (and an error, not a
        # wrong key, if the bridge ever had another size).
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11 = self.stacks
        bricks = bytes([*s0, *s1, *s2, *s3, *s4, *s5, *s6, *s7, *s8, *s9, *s10, *s11])
        lists = bytes([*self.set_aside, 254, *played[0], 254, *played[1], 254, *self.carried, 254,
                       len(s0), len(s1), len(s2), len(s3), len(s4), len(s5), len(s6), len(s7),
                       len(s8), len(s9), len(s10), len(s11)])
        # Face-up cards are exactly the awake tops and the awake cards carried (I5), so the set
        # of them stands for the observation's "awake" flags.
        return (self.turn, self.actions_left, self.lower_red, self.troll, self.outcome,
                self.end_reason, len(self.deck), frozenset(self.visited), frozenset(self.face_up),
                lists, bricks.translate(self._seen_table()))

    _shown: tuple[set[int], int, bytes] | None = None
    """`_seen_table`'s last table, with the set of seen cards and its size it was made from."""

    def _seen_table(self) -> bytes:
        """A `bytes.translate` table keeping the cards seen and turning every other into 255.
        Cards are only ever added to `seen`, so the table is remade when its size changes (or
        it is another set)."""
        seen, shown = self.seen, self._shown
        if shown is None or shown[0] is not seen or shown[1] != len(seen):
            table = bytearray(_UNSEEN)
            for card in seen:
                table[card] = card
            shown = self._shown = (seen, len(seen), bytes(table))
        return shown[2]

    def public_observation(self) -> dict[str, Any]:
        return views.public_observation(self)

    def end_text(self) -> str | None:
        return views.end_text(self)

    def story_figures(self) -> list[str]:
        """The end screen's figures in words (§7.1 "Your score": the cards left)."""
        turns = f"{self.turn} turn{'' if self.turn == 1 else 's'}"
        return [f"The game lasted {turns}; the score is {self.score}: cards left in the deck of awakening."]

    def can_take_back(self, before: State) -> bool:
        return isinstance(before, TrollState) and views.can_take_back(self, before)

    story_kinds = frozenset({"stomped", "clubbed", "shovelled", "flew_away", "fell", "fled",
                             "won", "lost"})
    """The end screen's key moments (RULES.md F4)."""

    def hidden_parts(self) -> list[dict[str, Any]]:
        return views.hidden_parts(self)
