"""Seeded, serialisable, riggable randomness owned by a state.

Every random draw a game makes goes through a `Chance`. Its whole state is one 64-bit integer
plus the rigged queues, so a position saved to JSON resumes with exactly the same future.
The generator is SplitMix64: tiny state, fast in pure Python, good statistical quality for games.

A position may be *rigged*: `rigged["d6"] = [3, 5]` makes the next two d6 rolls 3 then 5, and
a game may define other queues (a deck order, a face). Rigged values are consumed first and are
validated by the caller's range, so a test or a designer can force a scenario.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

from playtable.core import splitmix
from playtable.core.errors import BadPosition

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_COMPILED_SHUFFLE = splitmix.compiled()  # the install compiled core/splitmix.py: use it


_NUMPY: list[Any] = []
"""numpy, or None without it: imported when `Chance.upcoming` first runs (a player's install
carries no numpy, and most games never need it)."""


def _numpy() -> Any:
    if not _NUMPY:
        found: Any = None
        try:
            import numpy

            found = numpy
        except ImportError:  # pragma: no cover - the RL extra is not installed
            pass
        _NUMPY.append(found)
    return _NUMPY[0]


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derived_seed(seed: int, *parts: int) -> int:
    """The seed of a stream derived from `seed` for one purpose (e.g. (purpose, seat)): the
    seed's 64-bit limbs and then each part are absorbed one at a time, each by a full SplitMix64
    finaliser round, so distinct (seed, parts) share a stream only by 64-bit chance.
    (`fork`'s `seed ^ salt * golden` is one XOR: seeds a and a ^ (s1 ^ s2) * golden swap the
    streams of salts s1 and s2, and an XOR leaves structure a single mix must hide.)"""
    h = _GOLDEN
    limbs = [seed & _MASK]
    rest = seed >> 64
    while rest not in (0, -1):  # a seed beyond 64 bits (and its sign) is absorbed whole
        limbs.append(rest & _MASK)
        rest >>= 64
    if rest == -1 and seed < 0:
        limbs.append(_MASK)
    for part in (*limbs, *parts):
        h = _mix(((h ^ (part & _MASK)) + _GOLDEN) & _MASK)
    return h


class Chance:
    """A seeded random stream with optional rigged queues, JSON round-trippable."""

    __slots__ = ("seed", "counter", "rigged", "_base")

    def __init__(self, seed: int, counter: int = 0, rigged: dict[str, list[Any]] | None = None):
        self.seed = int(seed)
        self.counter = int(counter)
        self.rigged: dict[str, list[Any]] = {k: list(v) for k, v in (rigged or {}).items()}
        # The seed is mixed before the counter is added, so that neighbouring seeds give
        # unrelated streams rather than the same stream shifted by a few draws.
        if _COMPILED_SHUFFLE and 0 <= self.seed <= _MASK:  # the same numbers, compiled
            self._base = splitmix.mix(splitmix.mix(self.seed))
        else:
            self._base = _mix(_mix(self.seed & _MASK) ^ (self.seed >> 64))

    # -- raw stream -------------------------------------------------------------------------
    def next_u64(self) -> int:
        self.counter += 1
        return _mix((self._base + self.counter * _GOLDEN) & _MASK)

    def upcoming(self, n: int, after: int = 0) -> list[int]:
        """The raw draws that `next_u64` would give after `after` more draws, n of them, without
        taking any: a loop that draws hundreds of numbers (Star Dice's menus) reads
        them from this list (`below(m)` is a draw % m, `random()` is (draw >> 11) * 2**-53)
        and then adds the number it used to `counter`.

        With numpy installed (the RL extra) the n draws are computed as one array: numpy's
        uint64 arithmetic wraps modulo 2**64 as SplitMix64 does, the same numbers several
        times faster than Python's big integers (tested equal)."""
        base, first = self._base, self.counter + after + 1
        np = _numpy()
        if np is not None and n >= 16 and first + n < 1 << 63:
            u = np.uint64
            z = np.arange(first, first + n, dtype=np.uint64) * u(_GOLDEN) + u(base)
            z = (z ^ (z >> u(30))) * u(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> u(27))) * u(0x94D049BB133111EB)
            drawn: list[int] = (z ^ (z >> u(31))).tolist()
            return drawn
        out = []
        for c in range(first, first + n):
            z = (base + c * _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            out.append(z ^ (z >> 31))
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n). Modulo bias is below 2**-50 for any n a game uses."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        # next_u64() % n with _mix written out: engines draw here on every die roll and every
        # swap of a shuffle, and the two calls were most of the cost (`benchmarks/troll_speed.py`).
        self.counter += 1
        if _COMPILED_SHUFFLE and self.counter < 1 << 62:
            return splitmix.below(self._base, self.counter, n)
        z = (self._base + self.counter * _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def random(self) -> float:
        """A uniform float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def uniform(self, lo: float, hi: float) -> float:
        return lo + (hi - lo) * self.random()

    # -- game-level draws, riggable ------------------------------------------------------------
    def take_rigged(self, queue: str) -> Any | None:
        """Pop the next rigged value of `queue`, or None when nothing is rigged there."""
        values = self.rigged.get(queue)
        if not values:
            return None
        value = values.pop(0)
        if not values:
            del self.rigged[queue]
        return value

    def roll(self, sides: int, queue: str | None = None) -> int:
        """A die roll 1..sides; the queue `d<sides>` (or the one named) may rig it."""
        if not self.rigged:  # the usual case, without building the queue's name
            if _COMPILED_SHUFFLE and sides > 0 and self.counter < 1 << 62:  # below(), compiled
                self.counter += 1
                return splitmix.below(self._base, self.counter, sides) + 1
            return self.below(sides) + 1
        name = queue or f"d{sides}"
        rigged = self.take_rigged(name)
        if rigged is not None:
            if not isinstance(rigged, int) or not 1 <= rigged <= sides:
                raise BadPosition(f"rigged roll {rigged!r} in '{name}' is not a whole number 1..{sides}")
            return rigged
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place, each swap drawing `below(i + 1)` (written out: a deal's 51
        draws were most of a troll game's setup; compiled, splitmix.py draws the same numbers)."""
        if _COMPILED_SHUFFLE and type(items) is list and self.counter < 1 << 62:
            self.counter = splitmix.shuffle(self._base, self.counter, items)
            return
        base, counter = self._base, self.counter
        for i in range(len(items) - 1, 0, -1):
            counter += 1
            z = (base + counter * _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.counter = counter

    def fork(self, salt: int) -> Chance:
        """An independent stream derived from this one (for resampling unseen futures)."""
        return Chance(_mix((self.seed ^ (salt * _GOLDEN) ^ self.counter) & _MASK))

    # -- persistence ---------------------------------------------------------------------------
    def clone(self) -> Chance:
        # Field by field: the mixed seed is copied, not mixed again (a troll table clones its
        # state, and with it this stream, at every action and every warning it weighs).
        other = Chance.__new__(Chance)
        other.seed, other.counter, other._base = self.seed, self.counter, self._base
        other.rigged = {k: list(v) for k, v in self.rigged.items()} if self.rigged else {}
        return other

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seed": self.seed, "counter": self.counter}
        if self.rigged:
            out["rigged"] = {k: list(v) for k, v in self.rigged.items()}
        return out

    @classmethod
    def from_json(cls, data: Any) -> Chance:
        if not isinstance(data, dict) or not isinstance(data.get("seed"), int):
            raise BadPosition("'chance' must be an object with an integer 'seed'")
        counter = data.get("counter", 0)
        rigged = data.get("rigged", {})
        seed = data["seed"]
        if isinstance(seed, bool) or not -(2**64) < seed < 2**64:
            raise BadPosition("'chance.seed' must be a whole number of at most 64 bits")
        if isinstance(counter, bool) or not isinstance(counter, int) or not 0 <= counter < 2**64:
            raise BadPosition("'chance.counter' must be a whole number 0 .. 2**64-1")
        if not isinstance(rigged, dict) or not all(isinstance(v, list) for v in rigged.values()):
            raise BadPosition("'chance.rigged' must map queue names to lists")
        for queue, values in rigged.items():
            for value in values:
                if isinstance(value, bool) or not isinstance(value, int | str):
                    raise BadPosition(f"'chance.rigged.{queue}' holds {value!r:.40}: rigged values "
                                      "are whole numbers or names")
        return cls(data["seed"], counter, rigged)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chance) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Chance(seed={self.seed}, counter={self.counter}, rigged={self.rigged})"
