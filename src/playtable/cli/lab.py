"""`playtable sim | compare | query | report`: the playtest lab on the command line.

GAME is a registered game id, or `module:attribute` naming a Game instance (a game under
development). Agents are specs such as `random`, `greedy:samples=16`, `ismcts:iterations=500`
or a game's own bot (`heuristic`); `--agent ismcts` gives every seat that agent,
`--agent 1=random` sets one seat.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from playtable.core.errors import BadParameter
from playtable.core.params import params_from_dict, resolve_params, split_assignments

_SEAT_SPEC = re.compile(r"^(\d+)=(.+)$")


# -- shared pieces -----------------------------------------------------------------------------------
def _agents_for(game: Any, params: Any, specs: Sequence[str], base: Sequence[str] = ()) -> list[str]:
    """One agent spec per seat from `--agent SPEC` / `--agent SEAT=SPEC` options."""
    seats = game.num_players(params)
    chosen = list(base) if len(base) == seats else ([base[0]] * seats if base else ["random"] * seats)
    for spec in specs:
        match = _SEAT_SPEC.match(spec.strip())
        if match:
            seat = int(match.group(1))
            if not 0 <= seat < seats:
                raise BadParameter(f"--agent {spec}: {game.id} has seats 0..{seats - 1}")
            chosen[seat] = match.group(2)
        else:
            chosen = [spec.strip()] * seats
    return chosen


def _fmt(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.{digits}f}"
    return str(value)


def _pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}%"


class _TermAsInterrupt:
    """While running, SIGTERM (kill, a timeout) stops the run like Ctrl-C, so the finished
    games are still written and the result file is completed."""

    def __enter__(self) -> _TermAsInterrupt:
        import signal

        def handler(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt

        try:
            self._previous: Any = signal.signal(signal.SIGTERM, handler)
        except ValueError:  # not the main thread
            self._previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


class _Live:
    """A rich progress bar with the running win rate (and its interval) and the time left."""

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.quiet = quiet
        self.wins = 0
        self.done = 0
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=quiet,
        )
        self.task = self.progress.add_task(label, total=total, rate="")

    def __enter__(self) -> _Live:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def add(self, rows: list[dict[str, Any]]) -> None:
        from playtable.lab.stats import wilson

        self.done += len(rows)
        self.wins += sum(1 for r in rows if r.get("win"))
        low, high = wilson(self.wins, self.done)
        rate = f"win {_pct(self.wins / self.done)} [{_pct(low)}, {_pct(high)}]"
        self.progress.update(self.task, advance=len(rows), rate=rate)

    def retotal(self, total: int) -> None:
        self.progress.update(self.task, total=total)


def _print_summary(summary: dict[str, Any], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("measure")
    table.add_column("value")
    n = summary["games"]
    table.add_row("games", f"{n} ({_pct(summary['completion'])} completed, {summary['errors']} errors)")
    label = "win rate (seat 0)" if summary["players"] > 1 else "win rate"
    table.add_row(
        label,
        f"{_pct(summary['win_rate'])}  95% CI [{_pct(summary['win_low'])}, {_pct(summary['win_high'])}]"
        f"  ({summary['wins']} of {n})",
    )
    if summary["players"] > 1:
        for seat, (rate, (lo, hi)) in enumerate(
            zip(summary["seat_win_rates"], summary["seat_win_intervals"], strict=True)
        ):
            name = summary["seat_names"][seat]
            table.add_row(f"seat {seat} ({name}) wins", f"{_pct(rate)}  [{_pct(lo)}, {_pct(hi)}]")
        table.add_row("draws", _pct(summary["draw_rate"]))
        table.add_row("balance", _fmt(summary["balance"]))
        table.add_row("first-player advantage", _fmt(summary["first_player_advantage"]))
    for key, title_ in (
        ("length", "actions per game"),
        ("turns", "turns per game"),
        ("score", "score (game metric)"),
        ("return_0", "return (seat 0)"),
    ):
        d = summary.get(key)
        if d:
            table.add_row(
                title_,
                f"mean {_fmt(d['mean'], 2)} sd {_fmt(d['sd'], 2)}  min {_fmt(d['min'], 0)} "
                f"q1 {_fmt(d['q1'], 1)} median {_fmt(d['median'], 1)} q3 {_fmt(d['q3'], 1)} "
                f"max {_fmt(d['max'], 0)}",
            )
    table.add_row(
        "branching",
        f"mean {_fmt(summary['branching_mean'], 2)} legal actions, max {_fmt(summary['branching_max'], 0)}",
    )
    if "decisions_per_turn" in summary:
        table.add_row("decisions per turn", _fmt(summary["decisions_per_turn"], 2))
    for key, value in summary["metrics"].items():
        table.add_row(f"metric {key} (mean)", _fmt(value))
    for kind, value in summary["events_per_game"].items():
        table.add_row(f"event {kind} (per game)", _fmt(value, 2))
    Console().print(table)


def _jsonable(data: Any) -> Any:
    if isinstance(data, float) and math.isnan(data):
        return None
    if isinstance(data, dict):
        return {k: _jsonable(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_jsonable(v) for v in data]
    return data


def _recover_stale(out: str | None) -> None:
    """A run that was killed outright (not interrupted) left its games in a journal beside
    OUT: save them as NAME.recovered.parquet before a new run starts."""
    from playtable.lab.storage import journal_path, recover

    if out and journal_path(out).exists():
        target = Path(out).with_name(Path(out).stem + ".recovered.parquet")
        count = recover(out, target)
        click.echo(f"a killed run had left {count} finished games: saved to {target}", err=True)


def _out_option(help_text: str) -> Any:
    return click.option("--out", type=click.Path(dir_okay=False), default=None, help=help_text)


_run_options = [
    click.option(
        "--seed", type=int, default=0, show_default=True, help="First seed; games use seed, seed+1, ..."
    ),
    click.option(
        "--workers", "-w", type=int, default=1, show_default=True, help="Worker processes (or Ray CPUs)."
    ),
    click.option(
        "--backend",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="local worker processes, or Ray (needs `pip install 'playtable[ray]'`).",
    ),
    click.option("--address", default=None, help="Ray cluster address (default: start a local Ray)."),
    click.option(
        "--max-steps",
        type=int,
        default=100_000,
        show_default=True,
        help="Stop a game after this many actions.",
    ),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
    click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
]


def _with_run_options(func: Any) -> Any:
    for option in reversed(_run_options):
        func = option(func)
    return func


# -- sim ---------------------------------------------------------------------------------------------
@click.command()
@click.argument("game")
@click.option(
    "--param", "params", multiple=True, metavar="KEY=VALUE", help="Set a game parameter (repeatable)."
)
@click.option("--variant", default=None, metavar="NAME", help="Start from a named variant's parameters.")
@click.option(
    "--agent", "agents", multiple=True, metavar="[SEAT=]SPEC", help="Agent for every seat, or SEAT=SPEC."
)
@click.option("-n", "--games", type=int, default=100, show_default=True, help="Number of games.")
@_with_run_options
@_out_option("Write one row per game to this Parquet file.")
def sim(
    game: str,
    params: tuple[str, ...],
    variant: str | None,
    agents: tuple[str, ...],
    games: int,
    seed: int,
    workers: int,
    backend: str,
    address: str | None,
    max_steps: int,
    quiet: bool,
    as_json: bool,
    out: str | None,
) -> None:
    """Simulate N games of GAME and summarise them (win rate with a Wilson 95% interval, length
    and score distributions, game metrics). Ctrl-C keeps every finished game."""
    from playtable.lab.metrics import summarize
    from playtable.lab.runner import Arm, Interrupted, RunOptions, resolve_game, run_tasks
    from playtable.lab.storage import ResultWriter

    if games < 1:
        raise BadParameter("-n must be at least 1")
    the_game = resolve_game(game)
    the_params = resolve_params(the_game.params_type, the_game.variants, variant, params)
    specs = _agents_for(the_game, the_params, agents)
    arm = Arm.build(game, the_params, specs, label=variant or "default", max_steps=max_steps)
    tasks = [(arm, s) for s in range(seed, seed + games)]
    _recover_stale(out)
    writer = ResultWriter(out) if out else None
    interrupted = False
    started = time.perf_counter()
    with _TermAsInterrupt(), _Live(games, f"{the_game.id} {' '.join(arm.agents)}", quiet) as live:

        def on_rows(rows: list[dict[str, Any]]) -> None:
            if writer is not None:
                writer.write(rows)
            live.add(rows)

        try:
            rows = run_tasks(tasks, RunOptions(workers, backend, address, on_rows=on_rows))
        except Interrupted as stop:
            rows, interrupted = stop.rows, True
        finally:
            if writer is not None:
                writer.close()
    elapsed = time.perf_counter() - started
    summary = summarize(rows)
    if as_json:
        click.echo(json.dumps(_jsonable(summary), indent=1))
    else:
        _print_summary(
            summary, f"{the_game.id}: {', '.join(arm.agents)} ({arm.label}), seeds {seed}..{seed + games - 1}"
        )
    rate = len(rows) / elapsed if elapsed > 0 else math.nan
    plural = "s" if workers > 1 else ""
    click.echo(
        f"{len(rows)} games in {elapsed:.1f} s ({rate:.1f} games/s, {workers} worker{plural})", err=True
    )
    if out:
        click.echo(f"{len(rows)} rows written to {out}", err=True)
    if interrupted:
        click.echo(f"interrupted: {len(rows)} finished games kept", err=True)
        sys.exit(130)


# -- compare -----------------------------------------------------------------------------------------
def parse_variant_spec(
    game: Any, spec: str, base_params: Sequence[str], base_agents: Sequence[str]
) -> tuple[str, Any, list[str]]:
    """`NAME:key=value,...[,agent=SPEC]` -> (label, params, agents). A NAME that is one of the
    game's named variants starts from that preset. `agent=` (or `agentN=` for seat N) takes the
    rest of the text, so it comes last and may carry its own options."""
    label, _, rest = spec.partition(":")
    label = label.strip()
    if not label:
        raise BadParameter(f"--variant '{spec}' needs a name before ':'")
    agent_items: list[str] = []
    match = re.search(r"(?:^|,)(agent\d*=.*)$", rest)
    if match:
        agent_items = [match.group(1)]
        rest = rest[: match.start()]
    assignments = [p for p in rest.split(",") if p.strip()]
    values = split_assignments(base_params)
    values.update(split_assignments(assignments))
    params = game.params_type()
    if label in game.variants:
        params = params_from_dict(game.params_type, game.variants[label], params)
    params = params_from_dict(game.params_type, values, params)
    agent_specs = []
    for item in agent_items:
        key, _, value = item.partition("=")
        agent_specs.append(value if key == "agent" else f"{key[5:]}={value}")
    agents = _agents_for(game, params, agent_specs, _agents_for(game, params, base_agents))
    return label, params, agents


@click.command()
@click.argument("game")
@click.option(
    "--variant",
    "variants",
    multiple=True,
    required=True,
    metavar="NAME:KEY=VALUE,...[,agent=SPEC]",
    help="A variant to compare (repeat; the first is the baseline).",
)
@click.option(
    "--param", "params", multiple=True, metavar="KEY=VALUE", help="A parameter shared by every variant."
)
@click.option(
    "--agent", "agents", multiple=True, metavar="[SEAT=]SPEC", help="Default agents of every variant."
)
@click.option(
    "-n",
    "--games",
    type=int,
    default=1000,
    show_default=True,
    help="Seeds per variant (the most, with --until-ci/--sprt).",
)
@click.option(
    "--until-ci",
    type=float,
    default=None,
    metavar="W",
    help="Stop once every difference is known to +/- W (e.g. 0.01).",
)
@click.option(
    "--round",
    "round_size",
    type=int,
    default=200,
    show_default=True,
    help="Seeds per round with --until-ci or --sprt.",
)
@click.option("--sprt", is_flag=True, help="SPRT: is the last variant better than the first?")
@click.option(
    "--p1",
    type=float,
    default=0.6,
    show_default=True,
    help="SPRT H1: share of discordant seeds the last variant wins.",
)
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT false-positive rate.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT false-negative rate.")
@click.option(
    "--on", default="win", show_default=True, help="What is compared: win, return_0, length or m_METRIC."
)
@_with_run_options
@_out_option("Write every game of every variant to this Parquet file.")
def compare(
    game: str,
    variants: tuple[str, ...],
    params: tuple[str, ...],
    agents: tuple[str, ...],
    games: int,
    until_ci: float | None,
    round_size: int,
    sprt: bool,
    p1: float,
    alpha: float,
    beta: float,
    on: str,
    seed: int,
    workers: int,
    backend: str,
    address: str | None,
    max_steps: int,
    quiet: bool,
    as_json: bool,
    out: str | None,
) -> None:
    """Play variants on the same seeds (common random numbers) and report paired differences
    from the first variant with 95% intervals; optionally stop early (--until-ci, --sprt)."""
    from playtable.lab.compare import run_compare
    from playtable.lab.metrics import summarize
    from playtable.lab.runner import Arm, RunOptions, resolve_game
    from playtable.lab.stats import Sprt
    from playtable.lab.storage import ResultWriter

    the_game = resolve_game(game)
    arms = []
    for spec in variants:
        label, the_params, specs = parse_variant_spec(the_game, spec, params, agents)
        arms.append(Arm.build(game, the_params, specs, label=label, max_steps=max_steps))
    try:
        test = Sprt(0.5, p1, alpha, beta) if sprt else None
    except ValueError as err:
        raise BadParameter(f"--sprt: {err}") from None
    total = games * len(arms)
    _recover_stale(out)
    writer = ResultWriter(out) if out else None
    with _TermAsInterrupt(), _Live(total, f"{the_game.id} {len(arms)} variants", quiet) as live:

        def on_rows(rows: list[dict[str, Any]]) -> None:
            if writer is not None:
                writer.write(rows)
            live.add(rows)

        try:
            result = run_compare(
                arms,
                seed,
                games,
                RunOptions(workers, backend, address, on_rows=on_rows),
                until_ci=until_ci,
                round_size=round_size,
                sprt=test,
                on=on,
            )
        finally:
            if writer is not None:
                writer.close()
    per_arm = {a.label: summarize(list(result.rows[a.label].values())) for a in arms}
    diffs = {a.label: result.paired(a.label) for a in arms[1:]}
    if as_json:
        click.echo(
            json.dumps(
                _jsonable(
                    {
                        "on": on,
                        "stopped": result.stopped,
                        "variants": {
                            a.label: {"params": a.params, "agents": list(a.agents), **per_arm[a.label]}
                            for a in arms
                        },
                        "differences": {k: {**vars(v), "half_width": v.half_width} for k, v in diffs.items()},
                        "sprt": None
                        if test is None
                        else {
                            "decision": test.decision,
                            "llr": test.llr,
                            "discordant": test.n,
                            "last_better": test.wins,
                            "bounds": [test.lower, test.upper],
                        },
                    }
                ),
                indent=1,
            )
        )
    else:
        _print_comparison(result, per_arm, diffs, test, on)
    if out:
        click.echo(f"{len(result.all_rows())} rows written to {out}", err=True)
    if result.interrupted:
        click.echo("interrupted: finished games kept", err=True)
        sys.exit(130)


def _print_comparison(
    result: Any, per_arm: dict[str, Any], diffs: dict[str, Any], test: Any, on: str
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"variants ({result.stopped})", title_justify="left")
    for col in ("variant", "agents", "games", "win rate", "95% CI", f"mean {on}", "mean length"):
        table.add_column(col)
    for arm in result.arms:
        s = per_arm[arm.label]
        values = [_fmt_value(r, on) for r in result.rows[arm.label].values()]
        table.add_row(
            arm.label,
            ", ".join(arm.agents),
            str(s["games"]),
            _pct(s["win_rate"]),
            f"[{_pct(s['win_low'])}, {_pct(s['win_high'])}]",
            _fmt(sum(values) / len(values) if values else math.nan),
            _fmt(s["length"]["mean"], 1),
        )
    console.print(table)
    base = result.baseline.label
    diff_table = Table(title=f"paired differences from '{base}' on common seeds ({on})", title_justify="left")
    for col in (
        "variant",
        "seeds",
        "difference",
        "95% CI",
        "better here",
        f"better in {base}",
        "sign test p",
    ):
        diff_table.add_column(col)
    for label, d in diffs.items():
        diff_table.add_row(
            label,
            str(d.n),
            f"{d.diff:+.4f}",
            f"[{d.low:+.4f}, {d.high:+.4f}]",
            str(d.b_only),
            str(d.a_only),
            f"{d.p_value:.3g}",
        )
    console.print(diff_table)
    if test is not None:
        last = result.arms[-1].label
        verdict = {
            "H1": f"'{last}' is better than '{base}'",
            "H0": f"'{last}' is not better than '{base}'",
            None: "undecided",
        }[test.decision]
        console.print(
            f"SPRT (H0: '{last}' wins 50% of discordant seeds, H1: {100 * test.p1:.0f}%; "
            f"alpha={test.alpha}, beta={test.beta}): {verdict} after {test.n} discordant seeds, "
            f"LLR {test.llr:.3f} in [{test.lower:.3f}, {test.upper:.3f}]"
        )


def _fmt_value(row: dict[str, Any], on: str) -> float:
    from playtable.lab.compare import value_of

    return value_of(row, on)


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
    "--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True
)
def query(sql: str, files: tuple[str, ...], fmt: str) -> None:
    """Run SQL (DuckDB) over result FILES written by `sim` or `compare`."""
    from playtable.lab.storage import query as run_query

    columns, rows = run_query(sql, files)
    if fmt == "json":
        click.echo(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], default=str, indent=1))
    elif fmt == "csv":
        import csv

        out = csv.writer(sys.stdout)
        out.writerow(columns)
        out.writerows(rows)
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table()
        for col in columns:
            table.add_column(col)
        for r in rows:
            table.add_row(*[_fmt(v, 4) if isinstance(v, float) else str(v) for v in r])
        Console().print(table)


# -- report ------------------------------------------------------------------------------------------
@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(dir_okay=False), default="report.html", show_default=True)
@click.option("--title", default=None, help="Page title (default: the games and files).")
def report(files: tuple[str, ...], out: str, title: str | None) -> None:
    """One self-contained HTML page (plots embedded) summarising result FILES."""
    from playtable.lab.report import write_report

    path = write_report([Path(f) for f in files], Path(out), title)
    click.echo(f"report written to {path}")


# -- claims ------------------------------------------------------------------------------------------
@click.command()
@click.argument("game")
@click.option(
    "-n", "--games", type=int, default=1000, show_default=True, help="Deals (and games per difficulty)."
)
@click.option("--seed", type=int, default=0, show_default=True, help="First seed.")
@click.option("--agent", default="heuristic", show_default=True, help="The bot whose games are measured.")
@click.option("--json", "as_json", is_flag=True, help="Print the claims as JSON.")
def claims(game: str, games: int, seed: int, agent: str, as_json: bool) -> None:
    """Measure a design's own claims against simulation (troll: seed 000 §4.2)."""
    if game != "troll":
        raise BadParameter(f"claims are measured for the troll game only, not '{game}'")
    if games < 1:
        raise BadParameter("-n must be at least 1")
    from playtable.agents import make_agent
    from playtable.core.registry import get_game
    from playtable.lab.claims import claims_rows, troll_claims

    make_agent(get_game("troll"), agent)
    measured = troll_claims(games, seed, agent)
    if as_json:
        click.echo(json.dumps(claims_rows(measured), indent=1, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"troll design claims (seed 000 §4.2), seeds {seed}..{seed + games - 1}", title_justify="left"
    )
    for col in ("claim", "the seed says", "measured", "95% CI", "n", "verdict"):
        table.add_column(col)
    for c in measured:
        table.add_row(c.claim, c.seed_says, c.measured, c.interval, str(c.n), c.verdict)
    Console().print(table)


# -- the clairvoyant troll solver ------------------------------------------------------------------
@click.command("troll")
@click.option("--seed", type=int, required=True, help="The deal to solve.")
@click.option("--variant", default=None, metavar="NAME", help="Start from a named variant's parameters.")
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
    from playtable.lab.clairvoyant import solve_deal

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
        click.echo("winning line: " + "; ".join(verdict.actions))
