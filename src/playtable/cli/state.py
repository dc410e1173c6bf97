"""`playtable state ...`: make, inspect and advance positions as JSON files."""

from __future__ import annotations

import os
from contextlib import nullcontext
from pathlib import Path

import click

from playtable.cli.common import (
    GAME,
    OUT_FILE,
    SEED,
    echo_json,
    game_and_params,
    param_option,
    parse_rig,
    variant_option,
)
from playtable.core.errors import BadParameter
from playtable.core.files import check_new_output, exclusive, exists, is_regular
from playtable.core.position import (
    position_from_json,
    position_to_json,
    read_position,
    write_position,
)
from playtable.core.protocol import Event, State
from playtable.core.registry import get_game

FILE = click.Path(dir_okay=False, path_type=Path)


@click.group()
def state() -> None:
    """Make, read and advance positions (the full state as JSON; see docs/positions.md)."""


def _legal(position: State) -> list[str]:
    return [] if position.is_terminal else [str(a) for a in position.legal_actions()]


@state.command()
@click.argument("game", type=GAME)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the chance stream.")
@variant_option
@param_option
@click.option("--rig", multiple=True, metavar="QUEUE=V1,V2", help="Rig chance: e.g. d6=3,5,1.")
@click.option("--out", type=OUT_FILE, default=None, help="Write the position here instead of stdout.")
@click.option("--force", is_flag=True, help="Replace --out if it exists.")
def new(game: str, seed: int, variant: str | None, params: tuple[str, ...], rig: tuple[str, ...],
        out: Path | None, force: bool) -> None:
    """A new position of GAME."""
    if out:
        check_new_output(out, force)
    the_game, the_params = game_and_params(game, variant, params)
    position = the_game.new_state(the_params, seed, parse_rig(rig) or None)
    # what is written must read back: a rigged queue the game never draws from is refused now
    position_from_json(the_game, position_to_json(position))
    if out:
        write_position(position, out)
    else:
        echo_json(position_to_json(position))


@state.command()
@click.argument("game", type=GAME)
@click.argument("file", type=FILE)
def legal(game: str, file: Path) -> None:
    """The legal actions in the position FILE, in their canonical text form."""
    position = read_position(get_game(game), file)
    echo_json({"current_player": position.current_player, "legal": _legal(position)})


LOCK_WAIT = 10.0
"""Seconds `state apply` waits for another command applying actions to the same file (a few
milliseconds' work) before it gives up and says so."""


def _version(path: Path) -> tuple[int, int, int] | None:
    """What changes when a file is rewritten (inode, size, modification time), or None."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


@state.command()
@click.argument("game", type=GAME)
@click.argument("file", type=FILE)
@click.argument("actions", nargs=-1, required=True)
@click.option("--out", type=OUT_FILE, default=None, help="Write the result here instead of into FILE.")
@click.option("--force", is_flag=True, help="Replace --out if it exists.")
def apply(game: str, file: Path, actions: tuple[str, ...], out: Path | None, force: bool) -> None:
    """Apply ACTIONS in order to the position FILE and save it (all or nothing).

    Prints the new position, the events and the new legal actions. Action texts are read
    without regard to letter case or spacing (`MOVE  LEFT` is `move left`); what is printed
    and saved is always the canonical text. Two `apply` on the same FILE at once take turns
    (the second waits for the first, then applies to its result), and a FILE changed by
    another program meanwhile is refused, so no move is ever lost."""
    in_place = out is None or Path(out) == Path(file) or (
        exists(out) and is_regular(file) and os.path.samefile(out, file))
    if not in_place:
        assert out is not None
        check_new_output(out, force)
    target = file if in_place else out
    assert target is not None
    with exclusive(file, "applying actions to it", wait=LOCK_WAIT) if in_place else nullcontext():
        position = read_position(get_game(game), file)
        read = _version(file)
        events: list[Event] = []
        for text in actions:
            events.extend(position.apply(position.parse_action(text)))
        if in_place and _version(file) != read:
            raise BadParameter(f"{file} was changed by another program while the actions were "
                               "applied; nothing written: run the command again")
        write_position(position, target)
    echo_json(
        {
            "position": position_to_json(position),
            "events": [e.to_json() for e in events],
            "current_player": position.current_player,
            "legal": _legal(position),
        }
    )


@state.command()
@click.argument("game", type=GAME)
@click.argument("file", type=FILE)
@click.option("--seat", type=int, required=True, help="The seat whose view to show (0-based).")
def view(game: str, file: Path, seat: int) -> None:
    """What seat SEAT may see of the position FILE (its observation)."""
    position = read_position(get_game(game), file)
    if not 0 <= seat < position.num_players:
        raise BadParameter(f"no seat {seat}: this position has seats 0..{position.num_players - 1}")
    echo_json(position.observation(seat))
