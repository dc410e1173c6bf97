"""The SplitMix64 shuffle of `Chance.shuffle` in 64-bit machine integers, for mypyc.

Compiled (the install does it where a C compiler is: setup.py), `i64` is a machine integer whose
products wrap around, which is exactly SplitMix64's arithmetic modulo 2**64: a 52-card deal is
about 20 times faster than in Python (the deal was most of a troll game's setup). As
Python source `i64` is an ordinary integer that never wraps, so this module gives wrong numbers
uncompiled: `Chance.shuffle` calls it only when `compiled()` says so, and a test checks it
against the Python shuffle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from mypy_extensions import i64


def compiled() -> bool:
    """Whether this module runs compiled by mypyc rather than as Python source."""
    return not __file__.endswith(".py")


def _signed(base: int) -> i64:
    return base - (1 << 64) if base >= 1 << 63 else base


# chance.py's SplitMix64 constants as signed 64-bit numbers (the same bits). Final and computed,
# so that mypyc keeps them as machine integers: a literal this large would be a Python int,
# converted again at every use (that conversion was a third of a draw).
_GOLDEN: Final[i64] = _signed(0x9E3779B97F4A7C15)
_M1: Final[i64] = _signed(0xBF58476D1CE4E5B9)
_M2: Final[i64] = _signed(0x94D049BB133111EB)
_LOW63: Final[i64] = _signed((1 << 63) - 1)


def _mixed(b: i64, c: i64) -> i64:
    """Draw number `c` of the stream with mixed seed `b`, as a signed 64-bit number."""
    z: i64 = b + c * _GOLDEN
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _M1  # the masks make >> a logical shift
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _M2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _below(z: i64, m: i64) -> i64:
    """The unsigned number z (z + 2**64 if negative) modulo m."""
    if z >= 0:
        return z % m
    r = (z & _LOW63) % m + _LOW63 % m + 1  # z + 2**64 = (z & LOW63) + 2**63, here below 2m
    return r - m if r >= m else r


def mix(z: int) -> int:
    """chance.py's `_mix` of a number 0 .. 2**64-1."""
    out = _mixed(_signed(z) - _GOLDEN, 1)  # _mixed adds one golden step first
    return int(out) + (1 << 64) if out < 0 else int(out)


def below(base: int, counter: int, n: int) -> int:
    """`Chance.below(n)` for the draw number `counter` (already counted), n above 0."""
    return int(_below(_mixed(_signed(base), counter), n))


def shuffle(base: int, counter: int, items: list[Any]) -> int:
    """Fisher-Yates over `items` in place, swap i drawing draw number counter+1, +2, ... modulo
    i + 1, as `Chance.shuffle` does; returns the counter after the last draw. `base` is the
    stream's mixed seed (0 .. 2**64-1) and `counter` below 2**62."""
    b = _signed(base)
    c: i64 = counter
    i: i64 = len(items) - 1
    while i > 0:
        c += 1
        j = _below(_mixed(b, c), i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1
    return int(c)
