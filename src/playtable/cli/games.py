"""`playtable games`: what can be played, with parameters and named variants."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

import click

from playtable.agents import available_agents
from playtable.cli.common import complete_game
from playtable.core.params import field_docs
from playtable.core.protocol import params_as_dict
from playtable.core.registry import game_ids, get_game


def _kind(hint: Any) -> str:
    """A parameter's type as people write it: int, float, bool, str, tuple[int, ...], one of ..."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return "one of " + ", ".join(map(str, args))
    if origin is tuple:
        return f"tuple[{_kind(args[0])}, ...]" if args else "tuple"
    return str(getattr(hint, "__name__", hint))


def game_json(game_id: str) -> dict[str, Any]:
    """One game for programs: its parameters (name, default, type, doc), variants and agents."""
    game = get_game(game_id)
    hints = typing.get_type_hints(game.params_type)
    defaults = game.params_type()
    values = params_as_dict(defaults)
    docs = field_docs(game.params_type)
    return {
        "id": game.id,
        "name": game.name,
        "parameters": [_param_json(f, values.get(f.name), hints[f.name], docs[f.name])
                       for f in dataclasses.fields(game.params_type)],
        "variants": {name: dict(settings) for name, settings in game.variants.items()},
        "agents": list(available_agents(game)),
    }


def _param_json(f: dataclasses.Field[Any], default: Any, hint: Any, doc: str) -> dict[str, Any]:
    out = {"name": f.name, "default": default, "type": _kind(hint), "doc": doc}
    if typing.get_origin(hint) is typing.Literal:
        out["type"], out["choices"] = "str", list(typing.get_args(hint))
    return out


@click.command()
@click.argument("game", required=False, shell_complete=complete_game)
@click.option("--json", "as_json", is_flag=True,
              help="Print JSON: the games' ids and names, or GAME's parameters, variants and agents.")
def games(game: str | None, as_json: bool) -> None:
    """List the games, or show one GAME's parameters, variants and bots."""
    if game is None:
        if as_json:
            click.echo(json.dumps([{"id": g, "name": get_game(g).name} for g in game_ids()], indent=1))
            return
        for gid in game_ids():
            click.echo(f"{gid:10} {get_game(gid).name}")
        return
    if as_json:
        click.echo(json.dumps(game_json(game), indent=1, ensure_ascii=False, default=str))
        return
    the_game = get_game(game)
    click.echo(f"{the_game.id}: {the_game.name}\n\nparameters (defaults are the seed's rules):")
    hints = typing.get_type_hints(the_game.params_type)
    defaults = the_game.params_type()
    docs = field_docs(the_game.params_type)
    for f in dataclasses.fields(the_game.params_type):
        value = getattr(defaults, f.name)
        shown = ",".join(map(str, value)) if isinstance(value, tuple) else value
        doc = docs[f.name]
        click.echo(f"  {f.name}={shown}  ({_kind(hints[f.name])}) {doc}")
    if the_game.variants:
        click.echo("\nvariants (--variant NAME):")
        for name, values in the_game.variants.items():
            settings = " ".join(f"{k}={v}" for k, v in values.items())
            click.echo(f"  {name:14} {settings}")
    click.echo(f"\nagents: {', '.join(available_agents(the_game))}")
