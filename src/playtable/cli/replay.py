"""`playtable replay FILE`: step through a record in the terminal.

FILE is a record (JSON, `"format": "playtable-record"`: the terminal apps write one with
`--record`, `stardice battle --record` too), or a result file of `sim --keep-records` with
`--seed` (and `--variant` when it holds several) choosing the game. In a terminal the replay
is interactive (→ next, ← back, Home/End, q); `--print`, or output that is not a terminal,
prints every step instead.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from playtable.cli.common import SEED, echo_json
from playtable.core.errors import BadParameter, BadPosition
from playtable.core.records import Record, replay_steps


def load_record(path: str, seed: int | None, variant: str | None) -> Record:
    """The record in `path`: a record's JSON, or one game of a Parquet result file."""
    from playtable.core.files import open_input

    with open_input(path, "record") as handle:  # a FIFO or a device is refused, never waited on
        magic = handle.read(4)
    if magic == b"PAR1":
        return _record_from_results(path, seed, variant)
    from playtable.core.jsonio import read_json

    if seed is not None or variant is not None:
        raise BadParameter("--seed and --variant choose a game of a result file, not of a record")
    return Record.from_json(read_json(path, "record"))


def _record_from_results(path: str, seed: int | None, variant: str | None) -> Record:
    from playtable.core.extras import require

    require("lab", "replay of a result file")
    from playtable.lab.storage import query

    columns, _ = query("SELECT * FROM games LIMIT 0", [path])
    if "actions" not in columns:
        raise BadParameter(f"{path} keeps no actions: run `playtable sim ... --keep-records --out FILE`")
    if seed is None:
        raise BadParameter(f"{path} holds many games: choose one with --seed")
    sql = "SELECT game, params, seed, actions, variant FROM games WHERE seed = ?"
    _, rows = query_params(sql, path, seed)
    if variant is not None:
        rows = [r for r in rows if r[4] == variant]
    if not rows:
        raise BadParameter(
            f"{path} has no game with seed {seed}" + (f" in variant {variant}" if variant else "")
        )
    if len({r[4] for r in rows}) > 1:
        raise BadParameter(
            f"seed {seed} was played in several variants ({', '.join(sorted({r[4] for r in rows}))}): "
            "choose one with --variant"
        )
    game, params, the_seed, actions, _ = rows[0]
    return Record(str(game), json.loads(str(params)), int(str(the_seed)), [str(a) for a in actions or []])


def query_params(sql: str, path: str, *args: object) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A parameterised query over one result file (the seed is never pasted into SQL)."""
    import duckdb

    from playtable.lab.storage import ResultsError, connect

    con = connect([path])
    try:
        result = con.execute(sql, list(args))
        return [d[0] for d in result.description], result.fetchall()
    except duckdb.Error as err:
        raise ResultsError(f"query failed: {str(err).splitlines()[0]}") from None
    finally:
        con.close()


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seed", type=SEED, default=None, help="The game of a result file to replay.")
@click.option("--variant", default=None, help="Its variant, when the file holds several.")
@click.option("--seat", type=int, default=None, help="Show what this seat saw (default: a spectator's view).")
@click.option("--print", "as_text", is_flag=True, help="Print every step instead of stepping through them.")
@click.option("--json", "as_json", is_flag=True,
              help="Print every step as JSON: index, action, seat, events and the view.")
def replay(file: str, seed: int | None, variant: str | None, seat: int | None, as_text: bool,
           as_json: bool) -> None:
    """Step through the record FILE (a record's JSON, or a game of a `sim --keep-records` file)."""
    from playtable.core.params import params_from_dict
    from playtable.core.registry import get_game

    record = load_record(file, seed, variant)
    game = get_game(record.game)
    steps = replay_steps(record)
    # who moved, as the game titles the seat ("the troll", "Hero 2"): what the pages' logs say
    params = params_from_dict(game.params_type, record.params)
    names = [game.seat_title(name) for name in game.seat_names(params)]
    if seat is not None and not 0 <= seat < steps[0].state.num_players:
        raise BadPosition(f"--seat {seat}: {record.game} has seats 0..{steps[0].state.num_players - 1}")
    if as_json:
        from playtable.tui.replay import view_of

        echo_json([{"index": step.index, "action": step.action, "seat": step.seat,
                    "events": [e.to_json() for e in step.events], "terminal": step.state.is_terminal,
                    "view": view_of(step.state, seat)} for step in steps])
        return
    if as_text or not sys.stdout.isatty():
        from playtable.tui.replay import step_text

        for step in steps:
            click.echo(step_text(record, step, len(steps) - 1, names, seat))
        return
    from playtable.tui.replay import ReplayApp

    ReplayApp(record, steps, names, seat).run()
