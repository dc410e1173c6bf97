"""The seeded chance stream: reproducible, serialisable, riggable, and seeds that don't overlap."""

from __future__ import annotations

import pytest

from playtable.core import chance, splitmix
from playtable.core.chance import Chance
from playtable.core.errors import BadPosition


def test_same_seed_same_stream_and_json_resumes_exactly() -> None:
    a, b = Chance(42), Chance(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    resumed = Chance.from_json(a.to_json())
    assert [a.roll(6) for _ in range(20)] == [resumed.roll(6) for _ in range(20)]


def test_a_clone_goes_on_as_its_original_and_apart_from_it() -> None:
    for seed in (3, -5, 1 << 70):  # the compiled mixing's range, and either side of it
        a = Chance(seed, rigged={"d6": [2, 5]})
        a.next_u64()
        b = a.clone()
        assert b.to_json() == a.to_json()
        assert [b.roll(6) for _ in range(6)] == [a.roll(6) for _ in range(6)]
        c = a.clone()
        c.rigged.setdefault("d6", []).append(4)  # its rigged queue is its own
        assert "d6" not in a.rigged and [c.next_u64() for _ in range(3)] == [a.next_u64() for _ in range(3)]


def test_neighbouring_seeds_are_not_the_same_stream_shifted() -> None:
    streams = [[Chance(seed).next_u64() for _ in range(8)] for seed in range(50)]
    firsts = {s[0] for s in streams}
    assert len(firsts) == 50
    for i in range(49):
        assert not set(streams[i]) & set(streams[i + 1])


def test_rigged_values_come_first_and_are_checked() -> None:
    chance = Chance(1, rigged={"d6": [6, 1]})
    assert [chance.roll(6), chance.roll(6)] == [6, 1]
    assert "d6" not in chance.rigged
    with pytest.raises(BadPosition, match="rigged roll 9"):
        Chance(1, rigged={"d6": [9]}).roll(6)


def test_rolls_are_roughly_uniform() -> None:
    chance = Chance(7)
    counts = [0] * 6
    for _ in range(6000):
        counts[chance.roll(6) - 1] += 1
    assert all(900 < c < 1100 for c in counts)


def test_malformed_chance_json_is_rejected() -> None:
    for bad in ({}, {"seed": "x"}, {"seed": 1, "counter": -1}, {"seed": 1, "rigged": {"d6": 3}}):
        with pytest.raises(BadPosition):
            Chance.from_json(bad)


def test_written_out_draws_are_the_plain_stream() -> None:
    """below(), roll() and shuffle() write SplitMix out for speed: the same numbers
    as next_u64() % n and a Fisher-Yates drawing below(i + 1) per swap, so every deal and roll
    of every game is unchanged."""
    for seed in (0, 7, 2**63 + 5, -3):
        fast, plain = Chance(seed), Chance(seed)
        assert [fast.below(n) for n in range(1, 60)] == [plain.next_u64() % n for n in range(1, 60)]
        assert [fast.roll(6) for _ in range(30)] == [plain.next_u64() % 6 + 1 for _ in range(30)]
        cards, expected = list(range(52)), list(range(52))
        fast.shuffle(cards)
        for i in range(51, 0, -1):
            j = plain.next_u64() % (i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert cards == expected and fast.counter == plain.counter


@pytest.mark.parametrize("numpy", [True, False], ids=["numpy", "python"])
def test_upcoming_draws_are_the_plain_stream(numpy: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """`upcoming` (Star Dice's menus read their draws from it) gives what next_u64
    would, numpy's wrapping uint64 arithmetic (n >= 16) and the Python loop alike, and takes
    none of them."""
    if not numpy:
        monkeypatch.setattr(chance, "_NUMPY", [None])
    elif chance._numpy() is None:
        pytest.skip("numpy is not installed")
    for seed in (0, 7, 2**63 + 5, 2**64 - 1, -3):
        for counter in (0, 12, 2**62):
            for n, after in ((5, 0), (40, 0), (40, 3), (300, 17)):
                stream = Chance(seed, counter)
                drawn = stream.upcoming(n, after=after)
                assert stream.counter == counter
                plain = Chance(seed, counter + after)
                assert drawn == [plain.next_u64() for _ in range(n)]
                assert all(type(z) is int for z in drawn)


def test_the_compiled_splitmix_is_the_python_one() -> None:
    """The install compiles core/splitmix.py where a C compiler is (setup.py); Chance then draws
    through it."""
    if not splitmix.compiled():
        pytest.skip("not compiled (no C compiler at install, or make slow)")
    for z in (0, 1, 12345, 2**62 + 7, 2**63, 2**64 - 1):
        assert splitmix.mix(z) == chance._mix(z)
        assert [splitmix.below(z, c, n) for c in (1, 9) for n in (1, 6, 52)] == \
            [chance._mix((z + c * chance._GOLDEN) & chance._MASK) % n for c in (1, 9) for n in (1, 6, 52)]
