"""Property tests over random games of every player count and rules version: conservation,
legality, exact persistence and replay, independent clones, observations that never leak."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st_
from tests.games.wizard.helpers import card_totals, params, walk

from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.records import record_of, replay
from playtable.games.wizard.game import GAME
from playtable.games.wizard.state import WizardState

GAMES = st_.tuples(st_.sampled_from([3, 4, 5]), st_.sampled_from([None, "beta", "alpha"]),
                   st_.integers(0, 10_000))


def _invariants(s: WizardState) -> None:
    wiz, loot = card_totals(s)
    assert wiz == len(s.content.wizard_instances(s.params.rules))
    assert loot == len(s.content.loot_instances())
    assert s.tokens_placed - s.tokens_gone == s.token_count()
    tiles = Counter(c.tile for c in s.cells.values() if c.tile) + Counter(s.unused_tiles)
    assert tiles == Counter(s.content.regular_tiles() + s.content.key_tiles())
    keys = sum(h.keys for h in s.heroes) + sum(c.keys for c in s.cells.values())
    keys += sum(c.key for c in s.cells.values())
    keys += sum(s.content.tile(t).key for t in s.unused_tiles)
    assert keys == 3
    for h in s.heroes:
        assert 0 <= h.hp <= 10 and (h.hp == 0) == (not h.alive)
        resolving = any(step["do"] == "end_hero_turn" for step in s.steps)
        if h.alive and s.start is not None and not s.is_terminal and not resolving:
            assert h.pos != s.tower and not s.cells[h.pos].removed
    for c in s.cells.values():
        assert len(c.tokens) <= max(s.params.cap, 2) + 2  # spells may move one token in


def _hero_view_is_clean(obs: dict[str, Any]) -> None:
    for cell in obs["cells"]:
        for t in cell["tokens"]:
            assert t["up"] or "kind" not in t
        if not cell["flipped"]:
            assert "tile" not in cell and "key" not in cell
    assert "hand" not in obs["wizard"] and "opening" not in obs["wizard"]
    assert "tokens" not in obs["decision"]


@settings(max_examples=12, deadline=None)
@given(GAMES)
def test_random_games_keep_invariants_and_end(game: tuple[int, str | None, int]) -> None:
    players, variant, seed = game
    s = GAME.new_state(params(players, variant), seed)
    for cur in walk(s, seed + 1):
        _invariants(cur)
    assert s.is_terminal and s.winner in ("wizard", "heroes", "draw")
    assert sum(s.returns()) > 0


@settings(max_examples=10, deadline=None)
@given(GAMES)
# A hero's copy in the middle of a placement whose last free square is the tower: resampled to
# a trap (which never goes there), it had no legal action (`observe.PLACE_TRIES`).
@example((5, None, 676))
def test_observations_never_leak(game: tuple[int, str | None, int]) -> None:
    """No hero observation contains a hidden identity; a determinized copy looks the same to
    the seat it was made for (so everything it resamples was truly hidden from that seat)."""
    players, variant, seed = game
    s = GAME.new_state(params(players, variant), seed)
    rng = Chance(seed + 5)
    for i, cur in enumerate(walk(s, seed + 2)):
        for seat in range(1, players):
            _hero_view_is_clean(cur.observation(seat))
        if i % 7 == 0:
            for seat in range(players):
                det = cur.determinize(seat, rng)
                assert det.observation(seat) == cur.observation(seat)
                _invariants(det)
                if not det.is_terminal:
                    det.apply(det.legal_actions()[0])  # a determinized copy plays on


@settings(max_examples=8, deadline=None)
@given(GAMES)
def test_legal_actions_apply_and_illegal_ones_change_nothing(
    game: tuple[int, str | None, int],
) -> None:
    players, variant, seed = game
    s = GAME.new_state(params(players, variant), seed)
    junk = ["", "fly N", "move", "move Q", "place m9 z9", "play nothing", "keep", "end now",
            "remove a1 b2", "tower c3", "start XX", "retreat a1", "send a1", "discard goblin"]
    for i, cur in enumerate(walk(s, seed + 3, limit=800)):
        if cur.is_terminal:
            with __import__("pytest").raises(IllegalAction):
                cur.apply_text("end")
            break
        before = cur.to_json()
        legal = [str(a) for a in cur.legal_actions()]
        for text in junk:
            if text in legal:
                continue
            try:
                cur.apply_text(text)
            except IllegalAction:
                pass
            else:  # pragma: no cover - would be a bug
                raise AssertionError(f"'{text}' was accepted")
            assert cur.to_json() == before
        if i % 5 == 0:
            for a in cur.legal_actions():
                copy = cur.clone()
                copy.apply(copy.parse_action(str(a)))
                assert cur.to_json() == before  # clones are independent


@settings(max_examples=8, deadline=None)
@given(GAMES)
def test_json_round_trip_and_replay_are_exact(game: tuple[int, str | None, int]) -> None:
    players, variant, seed = game
    p = params(players, variant)
    s = GAME.new_state(p, seed)
    rng = Chance(seed + 9)
    actions: list[Any] = []
    events = []
    while not s.is_terminal and len(actions) < 3000:
        if len(actions) % 40 == 0:
            data = json.loads(json.dumps(s.to_json()))
            back = GAME.state_from_json(data)
            assert back.to_json() == s.to_json()
            assert [str(a) for a in back.legal_actions()] == [str(a) for a in s.legal_actions()]
        a = rng.choice(s.legal_actions())
        events.extend(s.apply(a))
        actions.append(a)
    record = record_of("wizard", p, seed, actions)
    again, replayed = replay(record)
    assert again.to_json() == s.to_json()
    assert [e.to_json() for e in replayed] == [e.to_json() for e in events]


def test_bad_positions_are_rejected_with_a_reason() -> None:
    import pytest

    from playtable.core.errors import BadPosition

    good = GAME.new_state(params(3), 1).to_json()
    for broken, word in [
        ({**good, "cells": good["cells"][:-1]}, "cells"),
        ({**good, "tower": "z99"}, "square"),
        ({**good, "hand": ["nonsense.1"]}, "nonsense"),
        ({**good, "wheel": "two"}, "wheel"),
        ({k: v for k, v in good.items() if k != "heroes"}, "heroes"),
        ("not an object", "object"),
    ]:
        with pytest.raises(BadPosition, match=word):
            GAME.state_from_json(broken)  # type: ignore[arg-type]


PUBLIC_EVENT_DATA = {
    "key_hidden": set(), "token_placed": {"square", "batch"}, "wizard_draw": {"count"},
    "commit": {"hero"}, "opening_draw": set(), "opening_kept": set(),
}


def test_events_and_hero_views_over_many_games_name_no_hidden_identity() -> None:
    """Events are public: a placement names the square, never the token; hiding a key names no
    square; a commit names no move. No hero view shows another hero's committed move."""
    for seed in range(24):
        players = 3 + seed % 3
        s = GAME.new_state(params(players, [None, "beta", "alpha"][seed % 3]), seed)
        rng = Chance(seed)
        while not s.is_terminal:
            for seat in range(1, players):
                obs = s.observation(seat)
                _hero_view_is_clean(obs)
                assert obs.get("my_move") == s.commits.get(seat)
            for e in s.apply(rng.choice(s.legal_actions())):
                if e.kind in PUBLIC_EVENT_DATA:
                    assert set(e.data) == PUBLIC_EVENT_DATA[e.kind]
                if e.kind == "commit":
                    hero = e.data["hero"]
                    assert e.text == f"Hero {hero} has chosen a move (hidden until all have chosen)."


def test_determinize_resamples_what_a_hero_cannot_know() -> None:
    s = GAME.new_state(params(4), 6)
    rng = Chance(3)
    while s.round < 4 and not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    keys = {sq for sq, c in s.cells.items() if c.key}
    varied_keys = varied_hand = False
    for i in range(20):
        det = s.determinize(1, Chance(100 + i))
        varied_keys |= {sq for sq, c in det.cells.items() if c.key} != keys
        varied_hand |= sorted(det.hand) != sorted(s.hand)
        assert det.observation(1) == s.observation(1)
    assert varied_keys and varied_hand
    wiz = s.determinize(0, Chance(5))
    assert wiz.hand == s.hand and {sq for sq, c in wiz.cells.items() if c.key} == keys
