"""Every parameter and bot option a remote client may set is declared and bounded (
item 1), for every game and agent: a new field without bounds fails here. The values at the
extremes of every bound build a working state (its time is printed, never asserted; the
dearest combinations and bot moves are measured by `benchmarks/remote_bounds.py`); a path on
the host is never taken from a client; Star Dice hands stay small enough to name every die."""

from __future__ import annotations

import dataclasses
import json
import time
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest
from tests.cli.cli_runner import run

from playtable.agents import available_agents, check_remote_agent_spec, make_agent
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, BadPosition
from playtable.core.params import check_remote_values, params_from_dict, undeclared_fields
from playtable.core.protocol import Game
from playtable.core.registry import game_ids, get_game
from playtable.games.rotator.board import BOARD_TEXT_MAX, SAMPLE_NAMES, SAMPLES_DIR, load_board
from playtable.games.stardice.params import MAX_DICE

GAMES = [get_game(g) for g in game_ids()]


def _json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def option_types(game: Game[Any, Any]) -> list[tuple[str, type]]:
    """(agent name, dataclass) for every agent of `game` that takes options."""
    return [(name, factory) for name, factory in available_agents(game).items()
            if isinstance(factory, type) and dataclasses.is_dataclass(factory)]


def remote_fields(kind: type) -> list[dataclasses.Field[Any]]:
    return [f for f in dataclasses.fields(kind)
            if f.init and not f.name.startswith("_") and f.metadata.get("remote") is not False]


def extremes(kind: type, f: dataclasses.Field[Any]) -> list[Any]:
    """The values at the ends of the field's declared bounds (every choice of a closed set)."""
    hint = typing.get_type_hints(kind)[f.name]
    meta = f.metadata
    if hint is bool:
        return [False, True]
    if get_origin(hint) is Literal:
        return list(get_args(hint))
    if hint in (int, float):
        return list(meta["range"])
    if hint is str:
        names = list(meta.get("one_of", ())) + list(meta.get("shipped", ()))
        return names
    assert get_origin(hint) is tuple
    most, least = meta["max_items"], max(1, meta.get("min_items", 0))
    if "one_of" in meta:
        ends = [[name] * most for name in meta["one_of"]] + [[meta["one_of"][0]] * least]
    else:
        lo, hi = meta["range"]
        ends = [[lo] * most, [hi] * most, [hi] * least, [lo] * least]
    return ends


# -- every field declared ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_parameter_and_agent_option_is_bounded_or_the_operators(game: Game[Any, Any]) -> None:
    assert undeclared_fields(game.params_type) == [], game.id
    for name, kind in option_types(game):
        assert undeclared_fields(kind) == [], f"{game.id}: agent {name}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_defaults_variants_and_the_tuners_space_lie_inside_the_bounds(game: Game[Any, Any]) -> None:
    defaults = game.default_params()
    for f in remote_fields(game.params_type):
        check_remote_values(game.params_type, {f.name: _json(getattr(defaults, f.name))})
        if "space" in f.metadata:
            lo, hi = f.metadata["space"]
            check_remote_values(game.params_type, {f.name: lo})
            check_remote_values(game.params_type, {f.name: hi})
        for choice in f.metadata.get("choices", ()):
            check_remote_values(game.params_type, {f.name: _json(choice)})
    for variant, values in game.variants.items():
        try:
            check_remote_values(game.params_type, {k: _json(v) for k, v in values.items()})
        except BadParameter as err:  # pragma: no cover - the message says which
            raise AssertionError(f"{game.id} variant {variant}: {err}") from None
    for name, kind in option_types(game):
        for f in remote_fields(kind):
            check_remote_agent_spec(game, f"{name}:{f.name}={f.default}")


# -- the extremes work ------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_extremes_of_every_bound_build_a_state_that_plays(game: Game[Any, Any]) -> None:
    """Each declared end, the other values at their defaults: the parameters are either refused
    by the game's own checks between values (a clear BadParameter) or make a state that takes a
    legal action and is read back from its JSON."""
    built = refused = 0
    slowest = (0.0, "")
    for f in remote_fields(game.params_type):
        for value in extremes(game.params_type, f):
            check_remote_values(game.params_type, {f.name: value})
            try:
                params = params_from_dict(game.params_type, {f.name: value})
            except BadParameter:
                refused += 1
                continue
            start = time.perf_counter()
            state = game.new_state(params, 0)
            seconds = time.perf_counter() - start
            slowest = max(slowest, (seconds, f"{f.name}={str(value)[:30]}"))
            if not state.is_terminal:
                rng = Chance(1)
                state.apply(rng.choice(state.sample_actions(rng, 4)))
            back = game.state_from_json(json.loads(json.dumps(state.to_json())))
            assert back.to_json() == state.to_json()
            built += 1
    print(f"\n{game.id}: {built} extremes built a state, {refused} refused by the game's own "
          f"checks; slowest new state {slowest[0]:.3f} s ({slowest[1]})")
    assert built > refused


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_agent_option_at_its_extremes_is_accepted_and_builds(game: Game[Any, Any]) -> None:
    for name, kind in option_types(game):
        for f in remote_fields(kind):
            for value in extremes(kind, f):
                spec = f"{name}:{f.name}={str(value).lower()}"
                check_remote_agent_spec(game, spec)
                make_agent(game, spec)


# -- what a client may not ask for -------------------------------------------------------------------

@pytest.mark.parametrize(("game_id", "spec", "words"), [
    ("troll", "ismcts:iterations=1000000000", ["'iterations'", "from 1 to 2000"]),
    ("wizard", "ismcts:iterations=1000000000", ["'iterations'", "from 1 to 2000"]),
    ("troll", "ismcts:iterations=-1", ["'iterations'"]),
    ("troll", "ismcts:iterations=1e99", ["'iterations'", "whole number"]),
    ("troll", "ismcts:seconds=3600", ["'seconds'", "from 0.0 to 10.0"]),
    ("troll", "ismcts:rollout_agent=expectimax", ["'rollout_agent'", "operator's setting"]),
    ("troll", "ismcts:rollout_depth=100", ["'rollout_depth'", "operator's setting"]),
    ("troll", "ismcts:depth=3", ["unknown option 'depth'"]),
    ("troll", "expectimax:depth=3", ["'depth'", "from 1 to 2"]),
    ("troll", "expectimax:leaf=nope", ["'leaf'", "rows"]),
    ("troll", "hindsight:nodes=100000", ["'nodes'"]),
    ("troll", "rollout:samples=1000000000", ["'samples'"]),
    ("stardice", "greedy:samples=1000000000", ["'samples'", "from 1 to 16"]),
    ("troll", "random:x=1", ["takes no options"]),
    ("wizard", "heuristic:depth=1", ["unknown option 'depth'"]),
    ("wizard", "heuristic:mistakes=2", ["'mistakes'", "from 0.0 to 1.0"]),
    ("wizard", "heuristic:mistakes=nan", ["'mistakes'", "finite"]),
    ("troll", "genius", ["unknown agent 'genius'"]),
    ("troll", "ismcts:" + "c=1," * 100, ["at most 200 characters"]),
    ("troll", "ismcts:c", ["key=value"]),
])
def test_absurd_or_unknown_bots_are_refused(game_id: str, spec: str, words: list[str]) -> None:
    with pytest.raises(BadParameter) as err:
        check_remote_agent_spec(get_game(game_id), spec)
    for word in words:
        assert word in str(err.value), (word, str(err.value))


@pytest.mark.parametrize("path", ["/etc/shadow", "/etc/passwd", "/proc/self/fd/0", "../../etc/hostname",
                                  "~/.ssh/id_rsa", str(SAMPLES_DIR / "easy.txt"), "easy.txt"])
def test_a_path_is_never_a_remote_board(path: str) -> None:
    with pytest.raises(BadParameter, match="'board'.*never a file"):
        check_remote_values(get_game("rotator").params_type, {"board": path})


@pytest.mark.parametrize("folder", ["/etc", "/tmp", "", "content"])
def test_the_wizard_content_directory_is_the_operators(folder: str) -> None:
    with pytest.raises(BadParameter, match="'content' is the operator's setting"):
        check_remote_values(get_game("wizard").params_type, {"content": folder})


def test_a_board_sent_as_text_is_played_as_that_board() -> None:
    """Seed 004 "Getting Started" (the placement rules hold for a board sent as text too): the
    sample's text, sent inline, makes the sample's board; too long a text is refused."""
    game = get_game("rotator")
    text = (SAMPLES_DIR / "medium.txt").read_text(encoding="utf-8")
    check_remote_values(game.params_type, {"board": text})
    state = game.new_state(params_from_dict(game.params_type, {"board": text}), 5)
    assert state.board == load_board("medium")
    back = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert back.to_json() == state.to_json()
    for too_long in (text * 40, text + " " * BOARD_TEXT_MAX):
        with pytest.raises(BadParameter, match="'board'.*characters"):
            check_remote_values(game.params_type, {"board": too_long})
        with pytest.raises(BadParameter, match="characters"):
            load_board(too_long)
    with pytest.raises(BadPosition, match="row"):
        load_board("..@..\n....\n")  # text, read as a board: 2 short rows
    with pytest.raises(BadParameter, match="not legal"):  # a readable board that breaks the rules
        broken = load_board("medium").to_text().replace("@", "#", 1)  # nine nodes
        game.new_state(params_from_dict(game.params_type, {"board": broken}), 1)


def test_a_sample_name_stays_a_sample_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in SAMPLE_NAMES:
        (tmp_path / name).write_text("not a board\n", encoding="utf-8")
        assert load_board(name) == load_board(str(SAMPLES_DIR / f"{name}.txt"))


# -- Star Dice hands ---------------------------------------------------------------

def test_too_many_star_dice_are_refused_before_any_die_needs_a_name(tmp_path: Path) -> None:
    """28 d20s were accepted and the 27th was named 'd20{' (past 'z'), so `apply` crashed. The
    Final Rules give 7 dice a player (seed 002, "Final Rules"); at most 12 are taken."""
    out = tmp_path / "p.json"
    for count in (MAX_DICE + 1, 28):
        result = run("state", "new", "stardice", "--param", "dice=" + ",".join(["d20"] * count),
                     "--out", str(out))
        assert result.one_error_line() and "at most 12 dice" in result.err, result.err
        assert not out.exists()
    game = get_game("stardice")
    with pytest.raises(BadParameter, match="'dice'.*from 1 to 12 items"):
        check_remote_values(game.params_type, {"dice": ["d20"] * 28})
    with pytest.raises(BadParameter, match="'dice'.*d4, d6"):
        check_remote_values(game.params_type, {"dice": "d20,d3"})


def test_the_largest_star_dice_hand_names_and_plays_every_die(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    dice = "dice=" + ",".join(["d20"] * MAX_DICE)
    assert run("state", "new", "stardice", "--param", dice, "--seed", "3", "--out", str(out)).code == 0
    game = get_game("stardice")
    state = game.state_from_json(json.loads(out.read_text(encoding="utf-8")))
    rng = Chance(4)
    thrown = set()
    for _ in range(2 * MAX_DICE):
        if state.is_terminal:
            break
        action = rng.choice(state.sample_actions(rng, 4))
        thrown.add(getattr(action, "piece", ""))
        state.apply(action)
        state = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert "d20l" in json.dumps(state.to_json()) and not any(p.endswith("m") for p in thrown)
