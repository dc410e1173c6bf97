"""`playtable stardice`: bot battles drawn as pictures, and live input from a real multitouch
table over TUIO."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from playtable.cli.common import param_option, variant_option


@click.group("stardice")
def stardice() -> None:
    """Star Dice: bot battles on the simulated table, and the TUIO input of a real table."""


@stardice.command("battle")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the table.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the final table as a picture (PNG).")
@click.option("--federation", default="search", show_default=True, help="Federation's bot.")
@click.option("--klingon", default="random-thrower", show_default=True, help="Klingon's bot.")
@click.option("--war", is_flag=True, help="Play a whole war (to war_target) instead of a battle.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              help="Save the replay (game, params, seed, action texts) as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--quiet", is_flag=True, help="Do not print the play-by-play.")
@variant_option
@param_option
def battle(seed: int, out: str | None, federation: str, klingon: str, war: bool,
           record_path: str | None, as_json: bool, quiet: bool, variant: str | None,
           params: tuple[str, ...]) -> None:
    """A bot-versus-bot battle on the simulated table; prints the score, draws the table."""
    from playtable.agents import make_agent
    from playtable.cli.common import game_and_params
    from playtable.core.chance import Chance
    from playtable.core.params import params_from_dict
    from playtable.core.records import record_of
    from playtable.games.stardice.render import render_table, table_summary

    game, the_params = game_and_params("stardice", variant, params)
    if not war and the_params.war_target != 0:
        the_params = params_from_dict(game.params_type, {"war_target": 0}, the_params)
    agents = [make_agent(game, federation), make_agent(game, klingon)]
    state = game.new_state(the_params, seed)
    rng = Chance(seed ^ 0x5D1CE)
    actions: list[Any] = []
    while not state.is_terminal:
        action = agents[state.current_player].choose(state, rng)
        events = state.apply(action)
        actions.append(action)
        if not quiet and not as_json:
            click.echo(f"> {action}")
            for e in events:
                click.echo(f"    {e.text}")
    summary = table_summary(state)
    summary["winner"] = state.metrics()["winner"]
    summary["throws"] = state.throws
    if record_path:
        rec = record_of("stardice", the_params, seed, actions)
        Path(record_path).write_text(json.dumps(rec.to_json(), indent=1) + "\n", encoding="utf-8")
    if out:
        render_table(state, out)
        summary["picture"] = out
    if as_json:
        click.echo(json.dumps(summary))
        return
    pts = summary["points"]
    click.echo(f"Battle score: Federation {pts[0]}, Klingon {pts[1]}"
               + (f"; war {state.war[0]}-{state.war[1]}" if war else "")
               + f"; winner: {summary['winner']}")
    for s in summary["shapes"]:
        owner = "nobody" if s["owner"] is None else ("Federation", "Klingon")[s["owner"]]
        bonus = f" +{s['bonus']}" if s["bonus"] else ""
        click.echo(f"  {s['kind']} of {len(s['objects'])}: {s['points']}{bonus} to {owner} "
                   f"(totals {s['totals'][0]}-{s['totals'][1]}) {s['note']}".rstrip())
    if out:
        click.echo(f"table drawn to {out}")
