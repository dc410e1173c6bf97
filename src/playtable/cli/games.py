"""`playtable games`: what can be played, with parameters and named variants."""

from __future__ import annotations

import dataclasses
import typing

import click

from playtable.agents import available_agents
from playtable.core.registry import game_ids, get_game


@click.command()
@click.argument("game", required=False)
def games(game: str | None) -> None:
    """List the games, or show one GAME's parameters, variants and bots."""
    if game is None:
        for gid in game_ids():
            click.echo(f"{gid:10} {get_game(gid).name}")
        return
    the_game = get_game(game)
    click.echo(f"{the_game.id}: {the_game.name}\n\nparameters (defaults are the seed's rules):")
    hints = typing.get_type_hints(the_game.params_type)
    defaults = the_game.params_type()
    for f in dataclasses.fields(the_game.params_type):
        value = getattr(defaults, f.name)
        shown = ",".join(map(str, value)) if isinstance(value, tuple) else value
        doc = f.metadata.get("doc", "")
        kind = getattr(hints[f.name], "__name__", str(hints[f.name]))
        click.echo(f"  {f.name}={shown}  ({kind}) {doc}")
    if the_game.variants:
        click.echo("\nvariants (--variant NAME):")
        for name, values in the_game.variants.items():
            settings = " ".join(f"{k}={v}" for k, v in values.items())
            click.echo(f"  {name:14} {settings}")
    click.echo(f"\nagents: {', '.join(available_agents(the_game))}")
