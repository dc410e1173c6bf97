"""Invalid positions made by mutating valid ones, for every game.

Valid positions come from random play (`valid_positions`). Each mutation takes a position's
JSON and breaks one invariant the game's rules rely on (a piece twice or missing, a value out
of range, a number that is not finite, a phase that contradicts the rest), returning a label
and the broken copy, or None where it does not apply. Every game's loader must refuse every
such copy with BadPosition. `tests/games/test_invalid_positions.py` draws them with hypothesis;
`benchmarks/invalid_positions.py` runs a fixed batch of about 1,700 and prints a table.

`SCRAMBLES` are edits that may or may not break an invariant (a type swapped, a number nudged,
a key dropped): whatever a loader accepts of them must still play without a crash.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from playtable.core.chance import Chance
from playtable.core.position import position_to_json
from playtable.core.registry import get_game

Position = dict[str, Any]
Mutation = Callable[[Position, random.Random], Position | None]
Path = tuple[Any, ...]


# -- valid positions ---------------------------------------------------------------------------
VARIANTS: dict[str, list[str | None]] = {
    "troll": [None, "toys"],
    "rotator": [None],
    "stardice": [None, "torpedoes_iter9", "iteration4", "torpedoes_iter8", "objective1"],
    "wizard": [None],
}
STEPS = {"troll": 60, "rotator": 40, "stardice": 24, "wizard": 120}


@cache
def valid_positions(game_id: str, seeds: int = 4) -> tuple[str, ...]:
    """Positions (as JSON text, so callers get fresh copies) met along random games: a few
    seeds of each variant, every few steps, the last (often terminal) one included."""
    import json

    game = get_game(game_id)
    out: list[str] = []
    for variant in VARIANTS[game_id]:
        params = game.default_params() if variant is None else None
        if variant is not None:
            from playtable.core.params import resolve_params

            params = resolve_params(game.params_type, game.variants, variant)
        for seed in range(seeds):
            state = game.new_state(params, seed)
            rng = Chance(1000 + seed)
            for step in range(STEPS[game_id]):
                if step % 3 == 0 or state.is_terminal:
                    out.append(json.dumps(position_to_json(state)))
                if state.is_terminal:
                    break
                state.apply(rng.choice(state.sample_actions(rng, 64)))
    return tuple(out)


def fresh(text: str) -> Position:
    import json

    data: Position = json.loads(text)
    return data


# -- paths into a JSON value -----------------------------------------------------------------------
def leaves(data: Any, skip: tuple[str, ...] = ("params",), path: Path = ()) -> list[tuple[Path, Any]]:
    """Every (path, value) of a scalar inside `data`, outside the top-level keys in `skip`."""
    out: list[tuple[Path, Any]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if not path and k in skip:
                continue
            out.extend(leaves(v, skip, path + (k,)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(leaves(v, skip, path + (i,)))
    else:
        out.append((path, data))
    return out


def get(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def put(data: Any, path: Path, value: Any) -> None:
    get(data, path[:-1])[path[-1]] = value


def numbers(data: Position) -> list[tuple[Path, Any]]:
    return [(p, v) for p, v in leaves(data) if isinstance(v, int | float) and not isinstance(v, bool)
            and p[:1] != ("format",) and p[:1] != ("version",)]


# -- mutations every game must refuse ------------------------------------------------------------
def non_finite(data: Position, rng: random.Random) -> Position | None:
    """Any number of a position set to inf, -inf or NaN: no rule is written for those."""
    found = numbers(data)
    if not found:
        return None
    path, _ = rng.choice(found)
    put(data, path, rng.choice([math.inf, -math.inf, math.nan]))
    return data


def bad_counter(data: Position, rng: random.Random) -> Position | None:
    data["chance"]["counter"] = rng.choice([-1, 2**64, 1.5, "3", None])
    return data


def bad_param(data: Position, rng: random.Random) -> Position | None:
    data["params"][rng.choice(["no_such_rule", "Turn_limit "])] = 1
    return data


GENERIC: list[Mutation] = [non_finite, bad_counter, bad_param]


# -- scrambles: maybe valid, never a crash --------------------------------------------------------
def swap_type(data: Position, rng: random.Random) -> Position | None:
    path, value = rng.choice(leaves(data, skip=()))
    options = [None, True, "x", -1, 10**30, 0.5, [], {}]
    put(data, path, rng.choice([o for o in options if o != value or type(o) is not type(value)]))
    return data


def nudge(data: Position, rng: random.Random) -> Position | None:
    found = [(p, v) for p, v in numbers(data) if isinstance(v, int)]
    if not found:
        return None
    path, value = rng.choice(found)
    put(data, path, value + rng.choice([-2, -1, 1, 2, 7]))
    return data


def drop_key(data: Position, rng: random.Random) -> Position | None:
    dicts = [(p, v) for p, v in _containers(data) if isinstance(v, dict) and v and p != ()]
    top = [k for k in data if k not in ("format", "version", "game")]
    if rng.random() < 0.5 or not dicts:
        del data[rng.choice(top)]
        return data
    path, found = rng.choice(dicts)
    del found[rng.choice(list(found))]
    return data


def _some_list(data: Position, rng: random.Random) -> list[Any] | None:
    lists = [v for _, v in _containers(data) if isinstance(v, list) and v]
    return rng.choice(lists) if lists else None


def drop_item(data: Position, rng: random.Random) -> Position | None:
    target = _some_list(data, rng)
    if target is None:
        return None
    del target[rng.randrange(len(target))]
    return data


def copy_item(data: Position, rng: random.Random) -> Position | None:
    target = _some_list(data, rng)
    if target is None:
        return None
    target.insert(rng.randrange(len(target) + 1), copy.deepcopy(rng.choice(target)))
    return data


def _containers(data: Any, path: Path = ()) -> list[tuple[Path, Any]]:
    out: list[tuple[Path, Any]] = [(path, data)]
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, dict | list) and not (not path and k == "params"):
                out.extend(_containers(v, path + (k,)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            if isinstance(v, dict | list):
                out.extend(_containers(v, path + (i,)))
    return out


SCRAMBLES: list[Mutation] = [swap_type, nudge, drop_key, drop_item, copy_item]


def mutations(game_id: str) -> list[Mutation]:
    """The mutations `game_id`'s loader must refuse: the generic ones and the game's own."""
    from tests.games.position_mutations_games import GAME_MUTATIONS

    return GENERIC + GAME_MUTATIONS[game_id]


def mutate(game_id: str, text: str, mutation: Mutation, seed: int) -> Position | None:
    return mutation(fresh(text), random.Random(seed))
