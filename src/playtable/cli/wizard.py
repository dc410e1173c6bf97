"""`playtable play wizard`: The Wizard's Labyrinth in the terminal, hot-seat and bots."""

from __future__ import annotations

import click

from playtable.cli.common import OUT_FILE, SEED, game_and_params, param_option, variant_option
from playtable.core.errors import BadParameter

SEAT_KINDS = ("human", "bot", "heuristic", "random")


def parse_seats(specs: tuple[str, ...], players: int) -> dict[int, str]:
    """`("wizard=bot", "hero2=random")` -> {0: "heuristic", 2: "random"}; other seats human."""
    seats: dict[int, str] = {}
    for spec in specs:
        name, sep, kind = spec.partition("=")
        name, kind = name.strip().lower(), kind.strip().lower()
        if not sep or kind not in SEAT_KINDS:
            raise BadParameter(f"--seat '{spec}' must be SEAT=human|bot|heuristic|random")
        if name == "wizard":
            seat = 0
        elif name.startswith("hero") and name[4:].isdigit():
            seat = int(name[4:])
            if not 1 <= seat < players:
                raise BadParameter(f"--seat '{spec}': with {players} players the heroes are "
                                   f"hero1..hero{players - 1}")
        else:
            raise BadParameter(f"--seat '{spec}': the seats are wizard and hero1..hero{players - 1}")
        seats[seat] = "heuristic" if kind == "bot" else kind
    return seats


@click.command("wizard")
@click.option("--players", type=click.Choice(["3", "4", "5"]), default="3", show_default=True,
              help="1 wizard + 2, 3 or 4 heroes.")
@click.option("--seat", "seats", multiple=True, metavar="SEAT=KIND",
              help="wizard=human|bot, hero1=human|bot (repeatable; unnamed seats are human).")
@click.option("--seed", type=SEED, default=None, help="Seed of the game (random if omitted).")
@variant_option
@param_option
@click.option("--record", "record_path", type=OUT_FILE, default=None,
              help="Where Ctrl+S saves the game's record (default: wizard-SEED.record.json).")
def play_wizard(players: str, seats: tuple[str, ...], seed: int | None, variant: str | None,
                params: tuple[str, ...], record_path: str | None) -> None:
    """The Wizard's Labyrinth: one wizard against 2-4 heroes (hot-seat and bots)."""
    from playtable.tui.wizard import run_wizard

    _, the_params = game_and_params("wizard", variant, (*params, f"players={players}"))
    run_wizard(the_params, seed, parse_seats(seats, int(players)), record_path)
