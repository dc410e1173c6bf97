"""The fast Star Dice engine changes no outcome: random games of every
variant, and random play of the Gymnasium environment, recorded from the engine as it was
before it was made faster (commit 209f1d4, `differential_games.json`), are played again and
must come out the same, bit for bit.

Recorded per game (variant, seed): after every throw the resting position and heading of
every piece on the table (floats compared exactly: JSON keeps a float's shortest repr, which
reads back to the same double) and the faces; after every action a digest of the full state
JSON (pieces, formation engine, clock, chance counter, scores), of the events, of the next
legal-action menu, of seat 0's observation and of the throw's motion frames; and at the end
the whole final state JSON, the returns and the metrics. A copy (`clone`) is checked against
its original along the way. The environment part records every step's observation vector,
action mask, reward and end flag.

Regenerate only when outcomes are meant to change (a rules change), never to make a speed-up
pass: ``.venv/bin/python tests/games/stardice/test_stardice_differential.py --record``. A new
variant's games are added with ``--record-missing``, which leaves the recorded ones alone (the
issue-30 modes were added so, from the engine of their commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from collections import OrderedDict
from enum import IntEnum
from pathlib import Path
from typing import Any

import pytest

from playtable.agents.random_agent import RandomAgent
from playtable.core.chance import Chance
from playtable.core.params import params_from_dict
from playtable.core.protocol import Agent, params_as_dict
from playtable.games.stardice.actions import Throw
from playtable.games.stardice.bots import RandomThrower
from playtable.games.stardice.game import GAME
from playtable.games.stardice.params import VARIANTS, StarDiceParams

FIXTURE = Path(__file__).with_name("differential_games.json")

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    *[(name, 11 + i, {"war_target": 0} if VARIANTS[name].get("war_target", 50) else {})
      for i, name in enumerate(VARIANTS)],
    ("final", 2, {}),
    ("battle", 3, {}),
    ("battle", 4, {}),
    ("battle", 5, {"dice": ["d20"] * 12}),
]
"""Every named variant (one battle of each, so the fixture stays small), one full
war of the final rules, and crowded battles (12 d20 a side: 25 pieces on the glass)."""

ENV_RUNS = [(0, 120), (7, 120)]
"""Environment random play: (reset seed, steps)."""


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


ADDED_PARAMS = ("ignore_values", "borg_enemy", "war_format", "war_rounds", "many_per_turn")
"""Parameters added after the fixture was recorded (the seed's other modes). At their
defaults they change no outcome, so a state's JSON is compared without them there; a variant
that sets one keeps it (the variants recorded with `--record-missing`)."""


def _recorded_form(data: dict[str, Any]) -> dict[str, Any]:
    """A state's JSON as the fixture holds it: the parameters of ADDED_PARAMS left out where
    they have their default."""
    defaults = params_as_dict(StarDiceParams())
    params = {k: v for k, v in data["params"].items()
              if not (k in ADDED_PARAMS and v == defaults[k])}
    return {**data, "params": params}


def _events(events: Any) -> list[Any]:
    return [[e.kind, e.text, e.data] for e in events]


def play_game(variant: str, seed: int, overrides: dict[str, Any]) -> dict[str, Any]:
    """Random play of one game: seat 0 the uniform random agent (the legal-action menu), seat 1
    the random thrower (fresh throws)."""
    params = params_from_dict(GAME.params_type, {**VARIANTS[variant], **overrides})
    state = GAME.new_state(params, seed)
    rng = Chance(seed).fork(0xD1FF)
    agents: list[Agent] = [RandomAgent(), RandomThrower()]
    throws: list[Any] = []
    steps: list[str] = []
    n = 0
    resting: dict[str, Any] = {}
    faces: dict[str, int] = {}
    while not state.is_terminal:
        seat = state.current_player
        action = agents[seat % 2].choose(state, rng)
        events = state.apply(action)
        n += 1
        if isinstance(action, Throw):
            # the table after the throw, written as what changed since the last throw (each
            # piece that came to rest elsewhere, the pieces gone, the faces that changed)
            now = {pc.id: [pc.x, pc.y, pc.angle] for pc in state.table.values()}
            throws.append([str(action),
                           sorted([k, *v] for k, v in now.items() if resting.get(k) != v),
                           sorted(k for k in resting if k not in now),
                           sorted(kv for kv in state.values.items() if faces.get(kv[0]) != kv[1])])
            resting, faces = now, dict(state.values)
        legal = [] if state.is_terminal else [str(a) for a in state.legal_actions()]
        steps.append(_digest([str(action), _recorded_form(state.to_json()), _events(events), legal,
                              state.observation(0), state.motion()]))
        if n % 7 == 0:
            assert state.clone().to_json() == state.to_json()
    return {"variant": variant, "seed": seed, "overrides": overrides, "throws": throws,
            "steps": steps, "final": _recorded_form(state.to_json()), "returns": state.returns(),
            "metrics": state.metrics()}


def play_env(seed: int, steps: int) -> list[str]:
    """Random play of `playtable/StarDice-v0`'s environment (uniform over the action mask)."""
    import numpy as np

    from playtable.rl.single import PlaytableEnv

    env = PlaytableEnv("stardice")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    out = []
    episode = seed
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        out.append(hashlib.blake2b(
            obs["observation"].tobytes() + obs["action_mask"].tobytes()
            + json.dumps([reward, done, truncated, info["legal_actions"]]).encode(),
            digest_size=8).hexdigest())
        if done or truncated:
            episode += 1000
            obs, _ = env.reset(seed=episode)
    return out


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def _key(variant: str, seed: int, overrides: dict[str, Any]) -> str:
    return f"{variant}/{seed}/{json.dumps(overrides, sort_keys=True)}"


@pytest.mark.parametrize(("variant", "seed", "overrides"), GAMES,
                         ids=[_key(*g) for g in GAMES])
def test_random_games_come_out_exactly_as_recorded(
        variant: str, seed: int, overrides: dict[str, Any]) -> None:
    want = _load()["games"][_key(variant, seed, overrides)]
    got = json.loads(json.dumps(play_game(variant, seed, overrides)))
    for i, (g, w) in enumerate(zip(got["throws"], want["throws"], strict=False)):
        assert g == w, f"throw {i} ({w[0]}) comes to rest elsewhere"
    for i, (g, w) in enumerate(zip(got["steps"], want["steps"], strict=False)):
        assert g == w, f"action {i} leaves another state, events, menu, observation or motion"
    assert got == want


@pytest.mark.parametrize(("seed", "steps"), ENV_RUNS)
def test_environment_random_play_is_exactly_as_recorded(seed: int, steps: int) -> None:
    want = _load()["env"][str(seed)]
    got = play_env(seed, steps)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"environment step {i} differs"


def _reference_leaves(data: Any, out: list[float]) -> None:
    """rl.encoding's walk of an observation as it was first written (commit 209f1d4)."""
    if isinstance(data, bool):
        out.append(1.0 if data else 0.0)
    elif isinstance(data, int | float):
        out.append(float(data))
    elif isinstance(data, str):
        out.append((zlib.crc32(data.encode()) % 1000) / 1000.0)
    elif data is None:
        out.append(0.0)
    elif isinstance(data, dict):
        for key in sorted(data):
            _reference_leaves(data[key], out)
    elif isinstance(data, list | tuple):
        for item in data:
            _reference_leaves(item, out)


class _Small(IntEnum):
    ONE = 1


def test_the_encoding_stops_early_with_the_values_of_the_whole_walk() -> None:
    """The environment's vector is the first 256 values of the observation; the encoding now
    stops once it has them, and gives the same vector (observations of every variant, and odd
    values: subclasses, bools, nesting, empty containers)."""
    import numpy as np

    from playtable.rl.encoding import encoding_for

    odd = {"b": [True, False, None, _Small.ONE, 2.5, "x", (), {}, OrderedDict(z=1, a="q")],
           "a": [[[-0.0, 1e9, -1e9]], ("t", 3)], "c": {"k": [float("inf")] * 300}}
    observations: list[Any] = [odd, {}, {"only": 1}]
    for variant in VARIANTS:
        params = params_from_dict(GAME.params_type, VARIANTS[variant])
        state = GAME.new_state(params, 3)
        rng = Chance(3)
        for _ in range(6):
            if state.is_terminal:
                break
            state.apply(RandomAgent().choose(state, rng))
            observations.append(state.observation(0))
    for size in (0, 1, 7, 256, 5000):
        encode = encoding_for(GAME, GAME.params_type(), generic_size=size).encode
        for obs in observations:
            values: list[float] = []
            _reference_leaves(obs, values)
            want = np.zeros(size, dtype=np.float32)
            cut = values[:size]
            want[: len(cut)] = np.clip(np.asarray(cut, dtype=np.float32), -1e6, 1e6)
            got = encode(obs)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def record() -> None:
    games = {}
    for variant, seed, overrides in GAMES:
        games[_key(variant, seed, overrides)] = play_game(variant, seed, overrides)
        print(_key(variant, seed, overrides), len(games[_key(variant, seed, overrides)]["throws"]),
              "throws", file=sys.stderr)
    env = {str(seed): play_env(seed, steps) for seed, steps in ENV_RUNS}
    FIXTURE.write_text(json.dumps({"games": games, "env": env}, separators=(",", ":")) + "\n")


def record_missing() -> None:
    """Record only the games the fixture lacks (a variant added since), keeping every recorded
    game as it is."""
    data = _load()
    for variant, seed, overrides in GAMES:
        key = _key(variant, seed, overrides)
        if key not in data["games"]:
            data["games"][key] = play_game(variant, seed, overrides)
            print(key, len(data["games"][key]["throws"]), "throws", file=sys.stderr)
    FIXTURE.write_text(json.dumps(data, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        record()
    elif sys.argv[1:] == ["--record-missing"]:
        record_missing()
    else:
        sys.exit("usage: test_stardice_differential.py --record | --record-missing  (rewrites "
                 "the fixture, or adds the games it lacks)")
