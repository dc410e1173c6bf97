"""The bots' random streams are independent of the game's stream and of each other's, over
many seeds (the larger measurement, with the wizard's win rate per derivation, is
benchmarks/agent_streams.py; docs/lab.md "The bots' random streams")."""

from __future__ import annotations

from scipy.stats import norm
from tests.lab.stream_checks import SEATS, independence

from playtable.core.chance import _GOLDEN, _MASK, Chance, derived_seed
from playtable.lab.runner import AGENT_STREAMS, agent_rng

SEEDS, DRAWS = 3000, 3
ALPHA = 0.01
"""The family-wise level: each test is held to ALPHA / tests (Bonferroni). The streams are
deterministic, so the outcome never changes from run to run; ALPHA is only how improbable a
result must be before it counts as dependence."""


def _passes(derive: object) -> bool:
    worst = independence(derive, SEEDS, DRAWS)  # type: ignore[arg-type]
    level = ALPHA / worst["tests"]
    return bool(worst["p"] > level and worst["z"] < norm.isf(level / 2))


def test_the_agents_streams_pass_the_independence_tests_over_many_seeds() -> None:
    assert _passes(agent_rng)


def test_the_tests_catch_a_derivation_that_reuses_another_seeds_game_stream() -> None:
    assert not _passes(lambda seed, seat: Chance(seed + 1 + seat))


def test_no_seed_holds_another_seeds_stream_for_another_seat() -> None:
    # A salted fork, seed ^ salt * golden, gives seeds a and a ^ (salt_s ^ salt_t) * golden the
    # same streams for seats s and t: the structure a derivation by hashing must not have.
    for a in (0, 1, 249, 123_456_789):
        for s in range(SEATS):
            for t in range(SEATS):
                if s == t:
                    continue
                b = a ^ (((AGENT_STREAMS + s) * _GOLDEN) & _MASK) ^ (((AGENT_STREAMS + t) * _GOLDEN) & _MASK)
                assert agent_rng(a, s).next_u64() != agent_rng(b, t).next_u64()


def test_derived_seeds_differ_for_every_seed_purpose_and_seat() -> None:
    seen = {derived_seed(seed, purpose, seat)
            for seed in (*range(300), -1, 2**64 - 1, 2**64, 2**80) for purpose in (0, 1, AGENT_STREAMS)
            for seat in range(8)}
    assert len(seen) == 304 * 3 * 8
    assert derived_seed(5, 1, 2) != derived_seed(5, 2, 1)
