"""`playtable play`: the terminal apps. Without a game, a menu of the games."""

from __future__ import annotations

import click

from playtable.cli.common import game_and_params, param_option, variant_option


@click.group(invoke_without_command=True)
@click.pass_context
def play(ctx: click.Context) -> None:
    """Play a game in the terminal. Without a GAME, opens a menu of the games."""
    if ctx.invoked_subcommand is None:
        from playtable.tui.menu import run_menu

        run_menu()


@play.command("troll")
@click.option("--seed", type=int, default=None, help="Seed of the deal (random if omitted).")
@variant_option
@param_option
def play_troll(seed: int | None, variant: str | None, params: tuple[str, ...]) -> None:
    """Angry Troll versus Magic Bridge (solitaire)."""
    from playtable.tui.troll import run_troll

    _, the_params = game_and_params("troll", variant, params)
    run_troll(the_params, seed)
