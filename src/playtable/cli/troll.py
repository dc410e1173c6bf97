"""`playtable solve troll`: the clairvoyant solver of Angry Troll versus Magic Bridge."""

from __future__ import annotations

import json
from typing import Any

import click

from playtable.cli.common import SEED, complete_variant
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params


@click.command("troll")
@click.option("--seed", type=SEED, required=True, help="The deal to solve.")
@click.option("--variant", default=None, metavar="NAME", shell_complete=complete_variant,
              help="Start from a named variant's parameters.")
@click.option(
    "--param", "params", multiple=True, metavar="KEY=VALUE", help="Set a game parameter (repeatable)."
)
@click.option("--budget", type=int, default=20_000, show_default=True, help="Most turns to expand.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def solve_troll(seed: int, variant: str | None, params: tuple[str, ...], budget: int, as_json: bool) -> None:
    """Can deal SEED be won at all, with the deck order and every die roll known? Prints a
    winning line if there is one (the clairvoyant upper bound of any player)."""
    from playtable.core.protocol import params_as_dict
    from playtable.core.registry import get_game
    from playtable.games.troll import solve_deal

    game = get_game("troll")
    the_params = resolve_params(game.params_type, game.variants, variant, params)
    if budget < 1:
        raise BadParameter("--budget must be at least 1")
    verdict = solve_deal(seed, params_as_dict(the_params), budget)
    if as_json:
        click.echo(json.dumps(vars(verdict), indent=1))
        return
    words = {
        "win": "can be won",
        "no win": "cannot be won, whatever the player does",
        "unknown": f"undecided within {budget} turns searched",
    }
    click.echo(
        f"troll deal {seed}: {words[verdict.result]} ({verdict.nodes} turns searched, "
        f"{verdict.seconds:.1f} s)"
    )
    if verdict.actions:
        click.echo("winning line, one turn a line:")
        for turn, actions in turns_of(game.new_state(the_params, seed), verdict.actions):
            click.echo(f"  turn {turn:>2}: " + ", ".join(actions))


def turns_of(state: Any, actions: list[str]) -> list[tuple[int, list[str]]]:
    """The line split into the troll's turns (two actions each, `wait` one), by replaying it."""
    out: list[tuple[int, list[str]]] = []
    for text in actions:
        turn = int(state.observation(0)["turn"])
        if not out or out[-1][0] != turn:
            out.append((turn, []))
        out[-1][1].append(text)
        state.apply(state.parse_action(text))
    return out

