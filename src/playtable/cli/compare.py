"""`playtable compare`: variants on the same seeds (common random numbers), paired differences,
`--until-ci` and SPRT."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from typing import Any

import click

from playtable.cli.common import (
    COUNT,
    POSITIVE,
    FiniteFloat,
    check_seed_span,
    complete_agent,
    complete_game,
    complete_variant,
    log,
)
from playtable.cli.lab_options import agents_for, out_option, with_run_options
from playtable.cli.lab_progress import format_number, format_p, jsonable, pct
from playtable.cli.lab_runs import end_line, recorded_run
from playtable.core.errors import BadParameter
from playtable.core.params import params_from_dict, split_assignments


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
    assignments = list_aware_assignments(rest)
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
    agents = agents_for(game, params, agent_specs, agents_for(game, params, base_agents))
    return label, params, agents


def list_aware_assignments(text: str) -> list[str]:
    """`a=1,dice=d20,d12,d6,b=2` -> ["a=1", "dice=d20,d12,d6", "b=2"]: a piece without '='
    continues the list value before it (Star Dice's `dice`, the troll's `heights`)."""
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" not in piece and out:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    required=True,
    metavar="NAME:KEY=VALUE,...[,agent=SPEC]",
    shell_complete=complete_variant,
    help="A variant to compare (repeat; the first is the baseline).",
)
@click.option(
    "--param", "params", multiple=True, metavar="KEY=VALUE", help="A parameter shared by every variant."
)
@click.option(
    "--agent", "agents", multiple=True, metavar="[SEAT=]SPEC", shell_complete=complete_agent,
    help="Default agents of every variant."
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
    type=POSITIVE,
    default=None,
    metavar="W",
    help="Stop once every difference is known to +/- W (e.g. 0.01).",
)
@click.option(
    "--round",
    "round_size",
    type=COUNT,
    default=200,
    show_default=True,
    help="Seeds per round with --until-ci or --sprt.",
)
@click.option("--sprt", is_flag=True, help="SPRT: is the last variant better than the first?")
@click.option(
    "--p1",
    type=FiniteFloat(),
    default=0.6,
    show_default=True,
    help="SPRT H1: share of discordant seeds the last variant wins.",
)
@click.option("--alpha", type=FiniteFloat(), default=0.05, show_default=True, help="SPRT false-positive rate")
@click.option("--beta", type=FiniteFloat(), default=0.05, show_default=True, help="SPRT false-negative rate.")
@click.option(
    "--on", default="win", show_default=True, help="What is compared: win, return_0, length or m_METRIC."
)
@with_run_options
@out_option("Write every game of every variant to this Parquet file.")
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
    force: bool,
) -> None:
    """Play variants on the same seeds (common random numbers) and report paired differences
    from the first variant with 95% intervals; optionally stop early (--until-ci, --sprt)."""
    from playtable.core.extras import require

    require("lab", "compare")  # the sign test's p-values (SciPy)
    from playtable.lab.compare import run_compare
    from playtable.lab.runner import Arm, RunOptions, resolve_game
    from playtable.lab.stats import Sprt

    the_game = resolve_game(game)
    check_seed_span(seed, games)
    arms = []
    for spec in variants:
        label, the_params, specs = parse_variant_spec(the_game, spec, params, agents)
        arms.append(Arm.build(game, the_params, specs, label=label, max_steps=max_steps))
    try:
        test = Sprt(0.5, p1, alpha, beta) if sprt else None
    except ValueError as err:
        raise BadParameter(f"--sprt: {err}") from None
    total = games * len(arms)
    options = RunOptions(workers, backend, address)
    seeds = range(seed, seed + games)
    with recorded_run(
        options, out, total, f"{the_game.id} {len(arms)} variants", quiet, arms, seeds, force
    ) as frame:
        result = run_compare(
            arms,
            seed,
            games,
            options,
            until_ci=until_ci,
            round_size=round_size,
            sprt=test,
            on=on,
            previous=frame.previous,
            keep_rows=False,  # a million seeds never held as rows: numbers per seed and summaries
        )
    per_arm = {a.label: result.summary(a.label) for a in arms}
    diffs = {a.label: result.paired(a.label) for a in arms[1:]}
    if as_json:
        click.echo(
            json.dumps(
                jsonable(
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
    finished = sum(result.played(arm.label) for arm in arms)
    last = end_line(out, finished, frame.rows_in_file, result.interrupted)
    if result.interrupted:  # one line, whatever --quiet says: the run did not finish
        click.echo(last, err=True)
        sys.exit(130)
    if last:
        log.info("%s", last)


def _side_cells(sides: list[dict[str, Any]], names: list[str]) -> list[str]:
    """One cell per side named: 'rate [95% CI]' ('-' for a side this arm never saw win)."""
    by_name = {side["side"]: side for side in sides}
    return [f"{pct(by_name[n]['rate'])} [{pct(by_name[n]['low'])}, {pct(by_name[n]['high'])}]"
            if n in by_name else "-" for n in names]


def _print_comparison(
    result: Any, per_arm: dict[str, Any], diffs: dict[str, Any], test: Any, on: str
) -> None:
    from rich.console import Console
    from rich.table import Table

    from playtable.lab.stats import separation

    console = Console()
    table = Table(title=f"variants ({result.stopped})", title_justify="left")
    side_names = list(dict.fromkeys(side["side"] for arm in result.arms
                                    for side in per_arm[arm.label].get("sides", [])))
    sided = bool(side_names)  # games with sides: each side's result and the draws, not seat 0's
    rate_columns = (tuple(n if n == "draws" else f"{n} won" for n in side_names) if sided
                    else ("win rate", "95% CI"))
    mean_column = f"mean {on} (a draw ½)" if on == "win" else f"mean {on}"
    for col in ("variant", "agents", "games", *rate_columns, mean_column, "mean length"):
        table.add_column(col)
    for arm in result.arms:
        s = per_arm[arm.label]
        rates = (_side_cells(s["sides"], side_names) if sided else
                 [pct(s["win_rate"]), f"[{pct(s['win_low'])}, {pct(s['win_high'])}]"])
        table.add_row(
            arm.label,
            ", ".join(arm.agents),
            str(s["games"]),
            *rates,
            format_number(result.mean(arm.label)),
            format_number(s["length"]["mean"], 1),
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
            format_p(d.p_value),
        )
    console.print(diff_table)
    for label, d in diffs.items():
        verdict = separation(d)
        if verdict:  # an interval over zero is not "no difference": say how many seeds would tell
            console.print(f"'{label}' against '{base}': {verdict}")
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
