"""`playtable play`: the terminal apps. Without a game, a menu of the games."""

from __future__ import annotations

import click

from playtable.cli.common import OUT_FILE, SEED, game_and_params, param_option, variant_option


@click.group(invoke_without_command=True)
@click.pass_context
def play(ctx: click.Context) -> None:
    """Play a game in the terminal. Without a GAME, opens a menu of the games."""
    if ctx.invoked_subcommand is None:
        from playtable.tui.menu import run_menu

        run_menu()


@play.command("troll")
@click.option("--seed", type=SEED, default=None, help="Seed of the deal (random if omitted).")
@variant_option
@param_option
@click.option("--position", "position", type=click.Path(dir_okay=False), default=None,
              help="Play on from a saved position (JSON from `playtable state`); it has its own parameters.")
@click.option("--record", "record_path", type=OUT_FILE, default=None,
              help="Where Ctrl+S saves the game's record (default: troll-SEED.record.json).")
def play_troll(seed: int | None, variant: str | None, params: tuple[str, ...], position: str | None,
               record_path: str | None) -> None:
    """Angry Troll versus Magic Bridge (solitaire)."""
    from playtable.tui.troll import run_troll

    game, the_params = game_and_params("troll", variant, params)
    if position is None:
        run_troll(the_params, seed, record_path=record_path)
        return
    if variant or params:
        raise click.UsageError("--position brings its own parameters; leave out --variant and --param")
    from playtable.core.position import read_position

    run_troll(None, seed, state=read_position(game, position))
