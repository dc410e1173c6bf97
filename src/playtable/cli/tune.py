"""`playtable tune`: search a game's parameter space for a design target (Optuna, resumable)."""

from __future__ import annotations

import itertools
import json
import sys
from typing import Any

import click

from playtable.cli.common import SEED, WORKERS, complete_agent, complete_game, complete_variant, log
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params

EXAMPLES = """Examples:

\b
  playtable tune wizard --objective win:wizard=0.5 --over players=3,4,5 \\
      --param-space mana_start=1:4 --param-space mana_max=4:10 --budget 30
  playtable tune troll --objective win=0.3 --agent heuristic --budget 40
  playtable tune troll --objective metric:turns=40 --space extra_per_slot --budget 5
"""


def parse_over(items: tuple[str, ...]) -> list[dict[str, Any]]:
    """`--over players=3,4,5 --over rules=final,beta` -> every combination, as overrides."""
    axes: list[list[tuple[str, str]]] = []
    for item in items:
        key, sep, values = item.partition("=")
        parts = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not key.strip() or not parts:
            raise BadParameter(f"--over '{item}' is not KEY=V1,V2,...")
        axes.append([(key.strip(), v) for v in parts])
    return [dict(combo) for combo in itertools.product(*axes)] if axes else [{}]


@click.command(epilog=EXAMPLES)
@click.argument("game", shell_complete=complete_game)
@click.option("--objective", "objective_text", required=True,
              help="win[:SEAT]=RATE, length=ACTIONS or metric:NAME=VALUE.")
@click.option("--param-space", "space_texts", multiple=True, metavar="NAME=LO:HI|NAME=A,B",
              help="Add or replace a search dimension (repeatable).")
@click.option("--space", "only", multiple=True, metavar="NAME",
              help="Search only these declared dimensions (repeatable; default: every declared one).")
@click.option("--over", "over_texts", multiple=True, metavar="KEY=V1,V2",
              help="Settings the target must hold for at once, e.g. players=3,4,5 (repeatable).")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE", help="Fixed parameter (repeatable).")
@click.option("--variant", default=None, metavar="NAME", shell_complete=complete_variant,
              help="Start from a named variant.")
@click.option("--agent", "agents", multiple=True, default=("heuristic",), show_default=True,
              shell_complete=complete_agent,
              help="Agent for every seat, or one per seat in seat order.")
@click.option("--budget", type=int, default=40, show_default=True, help="Trials in the study in all.")
@click.option("--games", type=int, default=400, show_default=True, help="Seeds per setting per trial.")
@click.option("--rounds", type=int, default=4, show_default=True, help="Pruning checkpoints per trial.")
@click.option("--finalists", type=int, default=3, show_default=True, help="Candidates re-measured.")
@click.option("--remeasure", type=int, default=1000, show_default=True,
              help="Fresh seeds per setting for each finalist.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="First seed of the common seeds.")
@click.option("--workers", "-w", type=WORKERS, default=1, show_default=True, envvar="PLAYTABLE_WORKERS",
              show_envvar=True, help="Worker processes.")
@click.option("--study", "study_name", default=None, help="Study name (default: GAME-OBJECTIVE).")
@click.option("--storage", default=None, envvar="PLAYTABLE_TUNE_STORAGE", show_envvar=True,
              help="SQLite file (or database URL) holding the study (default: tune-GAME.db). A file "
                   "that is not SQLite, or another program's database, is refused.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def tune(game: str, objective_text: str, space_texts: tuple[str, ...], only: tuple[str, ...],
         over_texts: tuple[str, ...], params: tuple[str, ...], variant: str | None,
         agents: tuple[str, ...], budget: int, games: int, rounds: int, finalists: int,
         remeasure: int, seed: int, workers: int, study_name: str | None, storage: str | None,
         as_json: bool) -> None:
    """Tune GAME's design dials towards a target, starting from its shipped variants, with
    common seeds, pruning, and a final re-measurement of the best candidates on fresh seeds.
    Settings the game refuses, repeats and pruned trials do not spend the budget. Ctrl-C keeps
    the study; the same command resumes it, and runs sharing a --storage share its budget."""
    from playtable.core.extras import require

    require("lab", "tune")
    from playtable.core.protocol import params_as_dict
    from playtable.lab.runner import RunOptions, resolve_game
    from playtable.lab.space import build_space
    from playtable.lab.tune import Objective, TuneInterrupted, TuneSpec, check_storage, run_tune

    if min(budget, games, rounds, finalists, remeasure) < 1:
        raise BadParameter("--budget, --games, --rounds, --finalists and --remeasure must be at least 1")
    the_game = resolve_game(game)
    base = resolve_params(the_game.params_type, the_game.variants, variant, params)
    objective = Objective.parse(objective_text)
    spec = TuneSpec(
        game=game, objective=objective, space=build_space(the_game.params_type, space_texts, only),
        agents=tuple(agents), base=params_as_dict(base), over=parse_over(over_texts), games=games,
        rounds=rounds, seed=seed, finalists=finalists, remeasure=remeasure,
    )
    name = study_name or f"{the_game.id}-{objective}"
    where = storage or f"tune-{the_game.id}.db"
    options = RunOptions(workers=workers)
    options.check()
    check_storage(where)  # a file that cannot hold a study is refused before anything is shown
    log.info("tuning %s for %s over %d setting(s); space: %s; study '%s' in %s", the_game.id, objective,
             len(spec.over), "; ".join(d.describe() for d in spec.space), name, where)

    try:
        result = run_tune(spec, budget, name, where, options, on_trial=progress)
    except TuneInterrupted as stop:
        running = f"; trial {stop.trial} was stopped and marked failed" if stop.trial is not None else ""
        click.echo(f"interrupted: {stop.played} of {stop.budget} trials played, stored in {where}"
                   f"{running}; run the same command to continue", err=True)
        sys.exit(130)
    for note in result.notes:
        log.info("%s", note)
    if as_json:
        out = {"study": name, "storage": where, "objective": str(objective), "over": spec.over,
               "variant": result.variant(), "missed_by": result.missed_by(),
               "importances": result.importances, "notes": result.notes,
               "finalists": [vars(f) for f in result.finalists]}
        click.echo(json.dumps(out, indent=1, default=str))
        return
    print_result(result, where)


def progress(row: dict[str, Any]) -> None:
    """One line a trial: played ones with their loss, skipped ones (refused, repeated) saying
    why they did not spend the budget."""
    params = json.dumps(row["params"])
    if row["invalid"]:
        log.info("[%s/%s] skipped %s: the game refuses it (%s)", row["done"], row["budget"], params,
                 row["invalid"])
        return
    if row["same_as"] is not None:
        log.debug("[%s/%s] skipped %s: tried as trial %s", row["done"], row["budget"], params, row["same_as"])
        return
    values = " ".join(f"{v:.3g}" for v in row["values"] or [])
    loss = "-" if row["loss"] is None else f"{row['loss']:.4f}"
    log.info("[%s/%s] trial %s %-8s loss %s [%s] after %s games %s", row["done"], row["budget"],
             row["trial"], row["state"].lower(), loss, values, row["games"], params)


def verdict(result: Any) -> list[str]:
    """Whether the best candidate meets the target, and which dials mattered."""
    spec = result.spec
    lines = []
    missed = result.missed_by()
    if result.best is not None:
        scale, unit = (100, " pp") if spec.objective.kind == "win" else (1, "")
        lines.append(f"target missed by {scale * missed:.3g}{unit}: the target lies outside the best "
                     "candidate's 95% interval on fresh seeds" if missed is not None else
                     "target met: it lies inside the best candidate's 95% interval on fresh seeds")
    if result.importances:
        shares = ", ".join(f"{k} {100 * v:.0f}%" for k, v in result.importances.items())
        lines.append(f"which dials mattered (Optuna's parameter importance over {result.played} trials): "
                     f"{shares}")
    elif result.importance_note:
        lines.append(f"which dials mattered: {result.importance_note}")
    return lines


def print_result(result: Any, where: str) -> None:
    from rich.console import Console
    from rich.table import Table

    spec = result.spec
    win = spec.objective.kind == "win"
    table = Table(title=f"finalists re-measured on {spec.remeasure} fresh seeds per setting "
                        f"(target {spec.objective})", title_justify="left")
    table.add_column("candidate")
    for setting in spec.over:
        table.add_column(" ".join(f"{k}={v}" for k, v in setting.items()) or "value")
    table.add_column("loss (search / fresh)")
    for f in result.finalists:
        cells = [(f"{100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]" if win
                  else f"{m:.2f} [{lo:.2f}, {hi:.2f}]") for m, lo, hi in f.measured]
        table.add_row(json.dumps(f.values), *cells, f"{f.search_loss:.4f} / {f.loss:.4f}")
    Console().print(table)
    for line in verdict(result):
        click.echo(line)
    shipped = result.shipped_as()
    click.echo(f"best as a named variant: {json.dumps(result.variant())}"
               + (f" (the shipped variant '{shipped}')" if shipped else ""))
    click.echo(f"study '{result.study_name}' is stored in {where}")
