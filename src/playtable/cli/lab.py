"""`playtable query | report | claims`: the rest of the playtest lab on the command
line (`sim` and `compare` have their own modules; their shared pieces are `lab_options`,
`lab_progress` and `lab_runs`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from playtable.cli.common import (
    OUT_FILE,
    SEED,
    check_files,
    complete_agent,
    complete_game,
    complete_variant,
    quiet_wanted,
)
from playtable.core.errors import BadParameter

if TYPE_CHECKING:
    from playtable.core.claims import Claim

# -- query -------------------------------------------------------------------------------------------
QUERY_EXAMPLES = """Examples (the view `games` holds every row of FILES, plus `filename`):

\b
  playtable query "SELECT variant, count(*) n, avg(win::int) win_rate FROM games GROUP BY variant" r.parquet
  playtable query "SELECT m_end_reason, count(*) FROM games WHERE NOT win GROUP BY 1" r.parquet
  playtable query "SELECT seed, length, events['fled'] FROM games ORDER BY length DESC LIMIT 5" r.parquet
  playtable query "SELECT agents[1] agent, avg(length) FROM games GROUP BY 1" a.parquet b.parquet
"""


@click.command(epilog=QUERY_EXAMPLES)
@click.argument("sql")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--format", "fmt", type=click.Choice(["table", "records", "csv", "json"]), default="table",
    show_default=True,
    help="table: bordered on a terminal (one record at a time when the terminal is narrower than "
         "the table), aligned plain text when piped; records: one 'column | value' line each; "
         "csv and json: for programs.")
def query(sql: str, files: tuple[str, ...], fmt: str) -> None:
    """Run SQL (DuckDB) over result FILES written by `sim` or `compare` (files or glob
    patterns such as 'runs/*.parquet'; quote them so the shell leaves them to playtable)."""
    from playtable.core.extras import require

    check_files(files, "result file")
    require("lab", "query")
    from playtable.lab.storage import query as run_query

    columns, rows = run_query(sql, files)
    if fmt == "json":
        click.echo(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], default=str, indent=1))
    elif fmt == "csv":
        import csv

        out = csv.writer(sys.stdout)
        out.writerow(columns)
        out.writerows(rows)
    elif fmt == "records":
        from playtable.cli.tables import records

        click.echo(records(columns, rows), nl=False)
    else:
        from playtable.cli.tables import print_table

        print_table(columns, rows)


# -- report ------------------------------------------------------------------------------------------
@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--out", type=OUT_FILE, default="report.html", show_default=True,
              help="The HTML page to write: one self-contained file (plots embedded), to open in "
                   "a browser or send as it is. An existing file is kept unless --force.")
@click.option("--force", is_flag=True, help="Replace --out (and the --playtest pages) if they exist.")
@click.option("--title", default=None, help="Page title (default: the games and files).")
@click.option("--playtest", "playtest_games", multiple=True, metavar="GAME",
              help="Also write a page of GAME's seed playtest questions answered, OUT-playtest-GAME.html "
                   "(repeatable; see `playtable playtest`).")
@click.option("--playtest-n", type=int, default=None, help="Games per setting for those pages.")
def report(files: tuple[str, ...], out: str, force: bool, title: str | None,
           playtest_games: tuple[str, ...], playtest_n: int | None) -> None:
    """One self-contained HTML page (plots embedded) summarising result FILES (files or glob
    patterns), and with --playtest a page per game of the seed's playtest questions."""
    from playtable.core.extras import require
    from playtable.core.files import check_new_output

    check_files(files, "result file")
    require("lab", "report")
    check_new_output(out, force)
    from playtable.lab.playtest import MODULES

    unknown = [g for g in playtest_games if g not in MODULES]
    if unknown:
        raise BadParameter(f"no playtest questions for '{unknown[0]}' (known: {', '.join(MODULES)})")
    pages = {g: Path(out).with_name(f"{Path(out).stem}-playtest-{g}.html") for g in playtest_games}
    for page in pages.values():
        check_new_output(page, force)
    from playtable.lab.report import write_report

    path = write_report([Path(f) for f in files], Path(out), title)
    click.echo(f"report written to {path}")
    if pages:
        from playtable.lab.playtest import DEFAULT_GAMES, playtest
        from playtable.lab.report_playtest import write_playtest

        for game, page in pages.items():
            answers = playtest(game, None, playtest_n)
            write_playtest(game, answers, page, playtest_n or DEFAULT_GAMES[game], 0)
            click.echo(f"playtest page written to {page}")


# -- claims ------------------------------------------------------------------------------------------
@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "-n", "--games", type=int, default=1000, show_default=True, help="Deals (and games per difficulty)."
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="First seed.")
@click.option("--agent", default="heuristic", show_default=True, shell_complete=complete_agent,
              help="The bot whose games are measured.")
@click.option("--json", "as_json", is_flag=True, help="Print the claims as JSON.")
@click.option("--luck", is_flag=True,
              help="Instead: split the deals into won by random play / by --agent / only in "
              "hindsight (the clairvoyant solver) / by no one, per --variant.")
@click.option("--variant", "variants", multiple=True, shell_complete=complete_variant,
              help="With --luck: a named variant (repeatable; default: the default rules).")
@click.option("--budget", type=click.IntRange(1), default=5000, show_default=True,
              help="With --luck: turns the clairvoyant solver may expand per deal.")
def claims(game: str, games: int, seed: int, agent: str, as_json: bool, luck: bool,
           variants: tuple[str, ...], budget: int) -> None:
    """Measure a design's own claims against simulation (troll: seed 000 §4.2)."""
    from playtable.lab.claims import claims_rows, design_claims

    stated = design_claims(game)
    if games < 1:
        raise BadParameter("-n must be at least 1")
    from playtable.agents import make_agent
    from playtable.core.registry import get_game

    make_agent(get_game(game), agent)
    if luck and game != "troll":  # the luck classes need the troll's clairvoyant solver
        raise BadParameter(f"--luck is measured for the troll game only, not '{game}'")
    if luck:
        _luck(games, seed, agent, list(variants), budget, as_json)
        return
    measured = _claims_with_progress(game, games, seed, agent, quiet=as_json or quiet_wanted())
    if as_json:
        click.echo(json.dumps(claims_rows(measured), indent=1, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{stated.title}, seeds {seed}..{seed + games - 1}", title_justify="left"
    )
    for col in ("claim", "the seed says", "measured", "95% CI", "n", "verdict"):
        table.add_column(col)
    for c in measured:
        table.add_row(c.claim, c.seed_says, c.measured, c.interval, str(c.n), c.verdict)
    Console().print(table)


def _claims_with_progress(game: str, games: int, seed: int, agent: str, quiet: bool) -> list[Claim]:
    """measure_claims with a progress bar on stderr like sim's: games played of all runs (the
    troll's difficulties), and the running win rate of the run being played (never pooled
    across them)."""
    from playtable.cli.lab_progress import Live
    from playtable.lab.claims import design_claims, measure_claims

    runs = design_claims(game).runs
    with Live(games * len(runs), f"claims: {runs[0]}", quiet) as live:
        current = [runs[0]]

        def on_game(difficulty: str, won: bool) -> None:
            if difficulty != current[0]:  # a new difficulty: its own win rate from zero
                current[0] = difficulty
                live.wins = live.done = 0
                live.arms.clear()
                live.progress.update(live.task, description=f"claims: {difficulty}")
            live.add([{"win": won}])

        return measure_claims(game, games, seed, agent, on_game)


def _luck(games: int, seed: int, agent: str, variants: list[str], budget: int, as_json: bool) -> None:
    from playtable.core.params import resolve_params
    from playtable.core.registry import get_game
    from playtable.games.troll import solve_deal
    from playtable.lab.luck import CLASSES, luck_report

    game = get_game("troll")
    for name in variants:
        resolve_params(game.params_type, game.variants, name)  # an unknown name fails now

    def clairvoyant(params: dict[str, object], deal: int) -> str:
        return solve_deal(deal, params, budget).result

    rows = luck_report("troll", list(variants) or [None], games, seed, agent, clairvoyant)
    if as_json:
        click.echo(json.dumps([{"variant": r.variant, "deals": r.deals, **r.counts} for r in rows], indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"troll: luck against skill, deals {seed}..{seed + games - 1}, best agent "
                  f"'{agent}', solver budget {budget} turns", title_justify="left")
    table.add_column("variant")
    for name in CLASSES:
        table.add_column(name)
    for r in rows:
        cells = []
        for name in CLASSES:
            share, low, high = r.share(name)
            cells.append(f"{r.counts[name]} ({100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}])")
        table.add_row(r.variant, *cells)
    Console().print(table)
