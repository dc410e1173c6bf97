"""The finite menu of Star Dice's continuous throws: `legal_actions` (the discrete choices,
a throw from the middle of each side of the frame at the table's centre, and `POOL` sampled
throws from a stream seeded by the public position), `sample_actions` and `fresh_throws` (the
throws the bots and the search try). `StarDiceMenu` adds these to the read-only
`StarDiceTable` (table.py); the playable `StarDiceState` (match.py) builds on it.
"""

from __future__ import annotations

import hashlib
import json
import math
from operator import length_hint
from typing import Any, Literal

from playtable.core.chance import Chance
from playtable.games.stardice.actions import (
    BORG,
    Call,
    Hold,
    Throw,
    Touch,
    kind_of,
    parse_action_text,
)
from playtable.games.stardice.physics import PIECE_TYPES, G, speed_for_distance
from playtable.games.stardice.table import StarDiceTable

_UNIT = 1.0 / (1 << 53)
"""`Chance.random()`'s scale: a draw's top 53 bits times this."""
_DRAWS_PER_THROW = 9
"""The most draws one try of `_fresh_throws` takes (8 or 9 when there are dice on the table: the
first read-ahead covers k tries)..."""
_DRAWS_AHEAD = 18
"""...and how many more it reads when fewer than that are left."""

_MENUS: dict[tuple[Any, ...], tuple[list[Any], list[Any]]] = {}
"""(parameters, phase, hand names, torpedo allowed) -> (centre menu, its legal part):
`StarDiceMenu._menus`."""


class StarDiceMenu(StarDiceTable):
    """The throw menu of a Star Dice state (see the module docstring)."""

    POOL = 32
    """Sampled throws in the menu of `legal_actions`."""

    def legal_actions(self) -> list[Any]:
        """A finite menu of the continuous throws: the discrete choices; for each piece type in
        hand one throw from the middle of each side of the frame to the table's centre; and
        `POOL` throws sampled as in `fresh_throws` from a stream seeded by the public position
        (so the menu is the same in every determinization of a position, which tree search
        needs); then the fouls (`touch`, or `touch DIE` under foul_rule=discard), which `apply`
        accepts, so they are listed too. Any other throw within the limits is legal as well
        (`is_legal`): throws are continuous, and the menu is a finite sample of them (RULES.md,
        "Actions")."""
        if self.phase == "over":
            return []
        if self.phase == "call":
            return [Call("even"), Call("odd")]
        center, legal_center = self._menus()
        out = list(legal_center)
        # the actions themselves stand for their texts: two throws (or holds) are equal
        # exactly when their canonical texts are (`Throw.make` writes every field canonically)
        seen = set(out)
        for a in self._fresh_throws(Chance(self._public_seed()), self.POOL, center):
            n = len(seen)
            seen.add(a)
            if len(seen) > n:  # not seen before
                out.append(a)
        return out + self.fouls()

    def _menus(self) -> tuple[list[Any], list[Any]]:
        """`_center_menu()` and its legal part. Both depend only on the parameters, the phase,
        the names in the hand of the player to move and whether a torpedo may be fired, and
        are asked for at every menu: they are kept for those inputs (`_MENUS`). Throws are
        immutable; the lists are only read."""
        seat = self.to_move
        key = (self.params, self.phase, tuple(self.hand_names(seat)),
               self._torpedo_allowed(seat))
        menu = _MENUS.get(key)
        if menu is None:
            if len(_MENUS) >= 4096:
                _MENUS.clear()
            center = self._center_menu()
            menu = _MENUS[key] = (center, [a for a in center if self.is_legal(a) is None])
        return menu

    def fouls(self) -> list[Touch]:
        """The fouls that may be declared now: `touch` (Final Rules: the battle is forfeited),
        or under foul_rule=discard `touch DIE` for each die in hand (`touch` with none left)."""
        if self.phase not in ("throw", "torpedo", "more"):
            return []
        if self.params.foul_rule == "forfeit":
            return [Touch()]
        hand = self.hand_names(self.to_move)
        return [Touch(name) for name in dict.fromkeys(hand)] if hand else [Touch()]

    def _public_seed(self) -> int:
        public = [self.phase, self.battle, self.to_move, self.hands, self.torpedoes_left,
                  self.throws, [[p.id, p.x, p.y] for p in sorted(self.table.values(),
                                                                key=lambda p: p.id)]]
        digest = hashlib.blake2b(json.dumps(public).encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def _center_menu(self) -> list[Any]:
        out: list[Any] = []
        pieces: list[tuple[Literal["roll", "slide", "torpedo"], str]] = []
        if self.phase == "borg":
            pieces.append(("roll", BORG))
        elif self.phase == "torpedo":
            out.append(Hold())
            pieces.append(("torpedo", "torpedo"))
        else:
            if self.phase == "more":  # It. 9 idea: end the turn, or throw another die
                out.append(Hold())
            seen = set()
            for name in self.hand_names(self.to_move):
                kind = kind_of(f"X.{name}")
                if kind in seen:
                    continue
                seen.add(kind)
                pieces.append(("roll", name))
                if kind == "d6" and self.params.slide_d6:
                    pieces.append(("slide", name))
            if self._torpedo_allowed(self.to_move):
                pieces.append(("torpedo", "torpedo"))
        geo = self.physics().geometry
        cx, cy = geo.width / 2, geo.depth / 2
        f = geo.frame / 2
        starts = [(cx, -f), (geo.width + f, cy), (cx, geo.depth + f), (-f, cy)]
        for mode, name in pieces:
            kind = "stone" if mode == "torpedo" else (BORG if name == BORG else kind_of(f"X.{name}"))
            for sx, sy in starts:
                dist = math.hypot(cx - sx, cy - sy)
                speed = min(self.params.max_speed, speed_for_distance(kind, dist))
                heading = math.degrees(math.atan2(cy - sy, cx - sx))
                out.append(Throw.make(mode, name, sx, sy, heading, speed, 0.0))
        return out

    def parse_action(self, text: str) -> Any:
        return parse_action_text(text)

    def sample_actions(self, rng: Chance, k: int) -> list[Any]:
        """Up to k actions of the `legal_actions` menu (all of it when it is small enough; in
        the torpedo phase `hold` is always offered), chosen with `rng`. Fouls are left out
        while anything else is legal: a bot never forfeits a battle on purpose."""
        legal = [a for a in self.legal_actions() if not isinstance(a, Touch)] or self.legal_actions()
        if len(legal) <= k:
            return legal
        keep = [a for a in legal if isinstance(a, Hold)]
        rest = [a for a in legal if not isinstance(a, Hold)]
        rng.shuffle(rest)
        return (keep + rest)[:k]

    def fresh_throws(self, rng: Chance, k: int) -> list[Any]:
        """k throws drawn from `rng`: aimed at random points of the touch surface (half of them
        near dice already there) from random points of the frame, each die type and mode in
        hand equally likely, at the speed that stops a lone die there."""
        if self.phase in ("over", "call"):
            return self.legal_actions()[:k]
        return self._fresh_throws(rng, k, self._menus()[0])

    def _fresh_throws(self, rng: Chance, k: int, center: list[Any]) -> list[Any]:
        """`fresh_throws` given `_center_menu()`."""
        menu = [a for a in center if isinstance(a, Throw)]
        choices = sorted({(a.mode, a.piece) for a in menu})
        geo = self.physics().geometry
        out: list[Any] = [Hold()] if self.phase in ("torpedo", "more") else []
        targets = sorted(self.table.values(), key=lambda pc: pc.id)
        # Per choice: its piece type, its `speed_for_distance` factor (2 mu G, multiplied in
        # the same order) and whether that piece may be thrown that way now (the rest of a
        # throw's legality is where it starts, its speed and spin, checked for each throw).
        kinds = ["stone" if mode == "torpedo" else (BORG if name == BORG else kind_of(f"X.{name}"))
                 for mode, name in choices]
        factors = [2.0 * PIECE_TYPES[kind].mu * G for kind in kinds]
        allowed = [self._throw_piece_legal(mode, name) is None for mode, name in choices]
        # The draws are read from `rng.upcoming` (`rng.below(m)` is draw() % m, `rng.random()`
        # is (draw() >> 11) * _UNIT) and counted back into `rng.counter` at the end: the same
        # numbers in the same order, without three calls for each. rng.uniform(lo, hi) is
        # lo + (hi - lo) * rng.random(): written out below with the same operands in that order.
        drawn = rng.upcoming(_DRAWS_PER_THROW * k)
        stream = iter(drawn)  # a list's iterator goes on into what is appended to the list
        draw = stream.__next__
        cos, sin, hypot, atan2, degrees, sqrt = (math.cos, math.sin, math.hypot, math.atan2,
                                                 math.degrees, math.sqrt)
        width, depth_, frame = geo.width, geo.depth, geo.frame
        x_hi, y_hi = width - 0.05, depth_ - 0.05
        reach = self.params.connect_range
        max_speed = self.params.max_speed
        make, place_legal = Throw.make, self._throw_place_legal
        n_choices, n_targets = len(choices), len(targets)
        # Bounded: a hand-edited position or parameter may leave no legal throw at all, and
        # with the seed's rules nearly every draw is legal, so 20 tries per throw are plenty.
        attempts = 20 * k
        while len(out) < k and choices and attempts > 0:
            attempts -= 1
            if length_hint(stream) < _DRAWS_PER_THROW:
                drawn.extend(rng.upcoming(_DRAWS_AHEAD, after=len(drawn)))
            c = draw() % n_choices
            mode, name = choices[c]
            if targets and (draw() >> 11) * _UNIT < 0.5:
                t = targets[draw() % n_targets]
                r = reach * (0.3 + (0.95 - 0.3) * ((draw() >> 11) * _UNIT))  # uniform(0.3, 0.95)
                a = 0 + (2 * math.pi - 0) * ((draw() >> 11) * _UNIT)  # uniform(0, 2 * math.pi)
                tx = min(max(t.x + r * cos(a), 0.03), width - 0.03)
                ty = min(max(t.y + r * sin(a), 0.03), depth_ - 0.03)
                if mode == "torpedo":
                    tx, ty = t.x, t.y
            else:
                tx = 0.05 + (x_hi - 0.05) * ((draw() >> 11) * _UNIT)  # uniform(0.05, width - 0.05)
                ty = 0.05 + (y_hi - 0.05) * ((draw() >> 11) * _UNIT)  # uniform(0.05, depth - 0.05)
            side = draw() % 4
            along = 0.0 + (1.0 - 0.0) * ((draw() >> 11) * _UNIT)  # uniform(0.0, 1.0)
            depth = frame * (0.2 + (0.8 - 0.2) * ((draw() >> 11) * _UNIT))  # uniform(0.2, 0.8)
            if side == 0:
                sx, sy = along * width, -depth
            elif side == 1:
                sx, sy = width + depth, along * depth_
            elif side == 2:
                sx, sy = along * width, depth_ + depth
            else:
                sx, sy = -depth, along * depth_
            dist = hypot(tx - sx, ty - sy)
            boost = 1.6 if mode == "torpedo" else 1.0
            # speed_for_distance(kind, dist), written out
            speed = min(max_speed, max(0.01, sqrt(max(0.0, factors[c] * dist)) * boost))
            heading = degrees(atan2(ty - sy, tx - sx))
            spin = -8 + (8 - -8) * ((draw() >> 11) * _UNIT) if mode == "roll" else 0.0  # uniform(-8, 8)
            action = make(mode, name, sx, sy, heading, speed, spin)
            if allowed[c] and place_legal(action) is None:
                out.append(action)
        rng.counter += len(drawn) - length_hint(stream)  # the draws taken
        return out[:k]

