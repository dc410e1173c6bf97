"""`playtable playtest-online`: playtests with people on the web server (docs/lab.md).

    playtable playtest-online create troll --variant default --variant easier-ends --games 20
    playtable playtest-online create wizard --variant final --variant beta --games 8 \
        --seat heuristic --seat person --seat person --seat person
    playtable playtest-online status ID
    playtable playtest-online export ID --out people.parquet

The designer is the server's operator: these commands work on the server's own database (`--db`,
the same default as `playtable serve`), so no web route creates a playtest. `export` replays
every finished game's record through the lab's runner (`lab.people`): the rows are `sim` rows
(agent `person` on each tester's seat) plus, seat by seat as `agents` is, `testers` and the
answers (`q_<id>`).
"""

from __future__ import annotations

import errno
import os
import random
import shlex
import sqlite3
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from playtable.cli.common import OUT_FILE, SEED, complete_agent, complete_game, log
from playtable.cli.serve import db_option
from playtable.core.errors import BadParameter

DB_OPTION = click.option(
    "--db", callback=db_option, default=None, envvar="PLAYTABLE_DB",
    help="The server's database: its SQLite file or postgresql:// URL [default: that of `playtable serve`].")


def _db_path(db: str | Path | None, must_exist: bool = True) -> str | Path:
    """The server's database: `--db`, or `playtable serve`'s default. An SQLite URI or an
    in-memory database is refused: a playtest there would be stored nowhere the server reads,
    so its share link would lead to nothing. A postgresql:// URL is its server's to check."""
    from playtable.cli.serve import default_db
    from playtable.core.files import shown

    path = db or default_db()
    if not isinstance(path, Path):
        return path
    text = str(path)
    if text == ":memory:" or text.startswith("file:"):
        raise BadParameter(f"--db {shown(text)}: an SQLite URI or in-memory database would store the "
                           "playtest nowhere the server reads; give the server's database file")
    if must_exist and not path.is_file():
        raise BadParameter(f"no server database at {shown(text)} (give the server's --db)")
    return path


def _disk_error(path: Path, err: Exception) -> Exception:
    """A database that cannot be opened or written, as one line: a read-only disk or file is
    the user's choice of --db (BadParameter, status 2), a full disk or an I/O error is the
    machine's (OSError, status 1)."""
    from playtable.core.files import shown

    folder = path.parent if str(path.parent) else Path(".")
    statvfs = getattr(os, "statvfs", None)
    try:
        disk = statvfs(folder) if statvfs is not None else None
    except OSError:
        disk = None
    text = str(err).lower()
    read_only = "readonly" in text or (disk is not None and disk.f_flag & getattr(os, "ST_RDONLY", 1))
    if read_only:
        return BadParameter(f"--db {shown(path)} is on a read-only disk or is a read-only file; the "
                            f"server's database must be writable ({err})")
    full = "full" in text or (disk is not None and disk.f_bavail * disk.f_frsize < 1 << 16)
    if full:
        return OSError(errno.ENOSPC, f"no space left on the disk of the server's database ({err})", str(path))
    if isinstance(err, OSError) or "i/o" in text:
        return OSError(errno.EIO, f"the server's database cannot be used ({err})", str(path))
    return BadParameter(f"--db {shown(path)}: not a usable server database ({err})")


@contextmanager
def _on_disk(path: str | Path) -> Iterator[None]:
    """Errors of the database's disk inside the block become one line (`_disk_error`); a
    PostgreSQL server's own errors are already one line (StoreError)."""
    from playtable.web.server.store.database import StoreError

    if not isinstance(path, Path):
        yield
        return
    try:
        yield
    except (sqlite3.Error, StoreError, OSError) as err:
        if isinstance(err, OSError) and err.filename not in (None, str(path)):
            raise  # another file's error (the export's --out) is the command line's to report
        raise _disk_error(path, err) from None


def _store(db: str | Path | None, must_exist: bool = True) -> Any:
    from playtable.web.server.playtests.playtests import PlaytestStore

    path = _db_path(db, must_exist)
    with _on_disk(path):
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        return PlaytestStore(path), path


def bots_command(playtest_id: str, spec: Any, agent: str) -> str:
    """The `compare` command that plays bots on the playtest's deals and variants, `agent` on the
    people's seats and the playtest's bots on the others, labelled as the people's rows are."""
    from playtable.agents import PERSON

    words = ["playtable", "compare", spec.game]
    words += [arg for v in spec.variants for arg in ("--variant", f"{v}:")]
    words += [arg for k, seat in enumerate(spec.seats)
              for arg in ("--agent", f"{k}={agent if seat == PERSON else seat}")]
    words += ["-n", str(spec.deals), "--seed", str(spec.first_seed), "--out", f"bots-{playtest_id}.parquet"]
    return shlex.join(words)


def _complete_seat(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    from click.shell_completion import CompletionItem

    from playtable.agents import PERSON

    person = [CompletionItem(PERSON)] if PERSON.startswith(incomplete) else []
    return person + complete_agent(ctx, param, incomplete)


def too_few_deals(deals: int, variants: int) -> str:
    """'' when each tester (or a table's testers together) can play every variant; else what
    they miss and the --games that would do: a tester never replays a deal, so playing every
    variant takes as many deals as variants."""
    if deals >= variants:
        return ""
    return (f"{deals * variants} games under {variants} variants are {deals} deal(s), and a tester never "
            f"replays a deal: each tester plays at most {deals} of the {variants} variants; "
            f"--games {variants * variants} lets each play every variant")


SMALLEST_DIFFERENCE = 0.05
"""The smallest difference between variants worth finding (5 pp), when the one seen is smaller."""


def sample_lines(variants: Sequence[str], people_seats: Sequence[int],
                 results: Sequence[tuple[str, int, list[float]]]) -> list[str]:
    """What the finished games say so far: the people's seats' result per variant, and each
    variant against the first on their common deals, separated or too few to separate with the
    deals and `--games` that would (`stats.seeds_to_separate`: 5 % level, 80 % power)."""
    from playtable.lab.runner import winners_of
    from playtable.lab.stats import paired_counts, rate_reach, reach_text, seeds_to_separate, wilson

    if not results:
        return ["no finished game yet: nothing to compare"]
    by_variant: dict[str, dict[int, float]] = {v: {} for v in variants}
    for variant, seed, returns in results:
        draw = len(returns) > 1 and len(set(returns)) == 1
        won = 1.0 if set(winners_of(returns)) & set(people_seats) else 0.5 if draw else 0.0
        by_variant.setdefault(variant, {})[seed] = won
    rates = []
    for variant, games in by_variant.items():
        low, high = wilson(sum(games.values()), len(games))
        rates.append(f"{variant} {sum(games.values()):g}/{len(games)}"
                     + (f" [{100 * low:.0f}%, {100 * high:.0f}%]" if games else ""))
    lines = ["the people's seats won: " + ", ".join(rates)]
    first, *others = variants
    if not others:
        games = by_variant[first]
        reach = rate_reach(sum(games.values()), len(games), SMALLEST_DIFFERENCE)
        return lines + [f"{first}: {reach_text(reach)}"]
    for other in others:
        common = sorted(set(by_variant[first]) & set(by_variant[other]))
        pairs = Counter((by_variant[first][seed], by_variant[other][seed]) for seed in common)
        paired = paired_counts(pairs)
        found = seeds_to_separate(paired, SMALLEST_DIFFERENCE)
        if not common:
            lines.append(f"{other} against {first}: no deal finished under both yet")
        elif found is None:
            lines.append(f"{other} against {first}: {100 * paired.diff:+.1f} pp "
                         f"[{100 * paired.low:+.1f}, {100 * paired.high:+.1f}] on {len(common)} "
                         "common deals: separated")
        else:
            target, deals = found
            lines.append(f"{other} against {first}: too small to separate ({len(common)} common "
                         f"deal{'' if len(common) == 1 else 's'}); a {100 * target:.1f} pp difference "
                         f"needs about {deals:,} deals, --games {deals * len(variants):,} "
                         "(5 % level, 80 % power)")
    return lines


@click.group("playtest-online")
def playtest_online() -> None:
    """Playtests with people on the web server: create one (a link to share), follow it, and
    export its games as lab rows for query, report and compare."""


@playtest_online.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--variant", "variants", multiple=True, required=True,
              help="A named variant to compare (repeat, 1-4; 'default' is the default rules).")
@click.option("--games", type=int, default=20, show_default=True,
              help="Games in all (a multiple of the variants: each deal is played under each).")
@click.option("--seed", type=SEED, default=None, help="The first deal's seed [default: random].")
@click.option("--seat", "seats", multiple=True, shell_complete=_complete_seat,
              help="Each seat's player in seat order (repeat): 'person' for a tester, or a bot's agent "
                   "[default: a tester at every seat].")
@click.option("--question", "questions", multiple=True, metavar="ID:scale:PROMPT[:LOW:HIGH]|ID:text:PROMPT",
              help="A question after each game (repeat) [default: fun, hard, long (1-5), confused (text)].")
@click.option("--title", default="", help="What testers read at the top of the page.")
@click.option("--url", default="http://127.0.0.1:8000", show_default=True, envvar="PLAYTABLE_PUBLIC_URL",
              help="The server's address as people open it (the link is printed with it).")
@DB_OPTION
def create(game: str, variants: tuple[str, ...], games: int, seed: int | None, seats: tuple[str, ...],
           questions: tuple[str, ...], title: str, url: str, db: str | Path | None) -> None:
    """Make a playtest of GAME and print the link to share with testers."""
    from playtable.web.server.playtests.playtest_spec import DEFAULT_QUESTIONS, check_spec, parse_question

    asked = [parse_question(q) for q in questions] or list(DEFAULT_QUESTIONS)
    first = seed if seed is not None else random.SystemRandom().randrange(2**31)
    spec = check_spec(game, list(variants), games, first, list(seats), asked, title)
    store, path = _store(db, must_exist=False)
    with _on_disk(path):
        try:
            playtest_id = store.create(spec)
        finally:
            store.close()
    click.echo(f"{url.rstrip('/')}/p/{playtest_id}")
    short = too_few_deals(spec.deals, len(spec.variants))
    if short:
        log.warning("%s", short)
    log.info("playtest %s in %s: %d games, %d deals (seeds %d-%d) under %s", playtest_id, path,
             spec.games, spec.deals, spec.first_seed, spec.first_seed + spec.deals - 1,
             ", ".join(spec.variants))
    log.info("bots on the same deals: %s", bots_command(playtest_id, spec, "random"))


@playtest_online.command()
@click.argument("playtest_id", required=False)
@click.option("--agent", default="random", show_default=True, shell_complete=complete_agent,
              help="The bot on the people's seats in the printed `compare` command.")
@DB_OPTION
def status(playtest_id: str | None, agent: str, db: str | Path | None) -> None:
    """How far a playtest is (every playtest without PLAYTEST_ID), and the `compare` command
    that plays bots on its deals and variants (--agent on the people's seats)."""
    store, path = _store(db)
    with _on_disk(path):
        _status(store, playtest_id, agent)


def _status(store: Any, playtest_id: str | None, agent: str) -> None:
    try:
        ids = [playtest_id] if playtest_id else [pid for pid, _ in store.ids()]
        for pid in ids:
            spec = store.spec(pid)
            if spec is None:
                raise BadParameter(f"there is no playtest '{pid[:20]}'")
            total, taken, answered = store.counts(pid)
            click.echo(f"{pid}  {spec.game}  {', '.join(spec.variants)}  games {taken}/{total} taken, "
                       f"{answered} answered")
            for line in sample_lines(spec.variants, list(spec.people_seats), store.results(pid)):
                click.echo(f"  {line}")
            click.echo(f"  bots on the same deals: {bots_command(pid, spec, agent)}")
    finally:
        store.close()


@playtest_online.command()
@click.argument("playtest_id")
@click.option("--out", type=OUT_FILE, required=True, help="The Parquet file to write.")
@click.option("--force", is_flag=True, help="Replace --out if it exists.")
@click.option("--anonymous", is_flag=True, help="Testers as tester-1, tester-2, ... instead of their names.")
@DB_OPTION
def export(playtest_id: str, out: str, force: bool, anonymous: bool, db: str | Path | None) -> None:
    """Write every finished game of a playtest as a lab row (the sim columns, agent `person`
    on each tester's seat, plus, seat by seat, `testers` and the answers as q_<id>)."""
    from playtable.core.extras import require
    from playtable.core.files import check_new_output

    require("lab", "playtest-online export")
    check_new_output(out, force)
    from playtable.lab.people import people_table, person_row, seat_activity, write_people
    from playtable.web.server.people.fair_play import suspect
    from playtable.web.server.store.store import SqlStore

    store, path = _store(db)
    with _on_disk(path):
        tables = SqlStore(path)
        try:
            spec = store.spec(playtest_id)
            if spec is None:
                raise BadParameter(f"there is no playtest '{playtest_id[:20]}'")
            rows: list[dict[str, Any]] = []
            testers: list[list[str | None]] = []
            answers: list[list[dict[str, Any] | None]] = []
            suspects: list[str | None] = []
            activity: list[dict[str, Any]] = []
            names: dict[str, str] = {}
            unfinished = 0
            for slot in store.slots(playtest_id):
                table = tables.load(slot.table_id) if slot.table_id else None
                if table is None:
                    continue
                row = person_row(table.game, table.params, table.seed, [t for _, t in table.actions],
                                 list(spec.seats), slot.variant)
                if not row["completed"]:
                    unfinished += 1
                    continue
                seated = {t.seat: t for t in store.testers(playtest_id, slot=slot.slot)}
                seat_testers: list[str | None] = [None] * len(spec.seats)
                seat_answers: list[dict[str, Any] | None] = [None] * len(spec.seats)
                for k, tester in seated.items():
                    shown = table.seats[k].player_name or tester.player_id
                    names.setdefault(tester.player_id, f"tester-{len(names) + 1}" if anonymous else shown)
                    seat_testers[k], seat_answers[k] = names[tester.player_id], tester.answers or {}
                rows.append(row)
                testers.append(seat_testers)
                answers.append(seat_answers)
                suspects.append(suspect(table, list(spec.people_seats)))
                actions, assists = tables.activity(table.id)
                activity.append(seat_activity(actions, assists, list(spec.people_seats), len(spec.seats)))
        finally:
            tables.close()
            store.close()
    if not rows:
        raise BadParameter(f"playtest {playtest_id} has no finished game yet")
    questions = [(q.id, q.kind) for q in spec.questions]
    write_people(people_table(rows, testers, answers, questions, suspects, activity), out,
                 f"playtable playtest-online export {playtest_id}")
    marked = sum(1 for s in suspects if s)
    click.echo(f"{len(rows)} game{'' if len(rows) == 1 else 's'} written to {out}"
               + (f" ({unfinished} not finished, left out)" if unfinished else "")
               + (f"; {marked} marked suspect (column 'suspect': too few moves or seconds)"
                  if marked else ""))
