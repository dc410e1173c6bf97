"""`playtable tournament`: every agent against every other on paired seeds, rated with intervals."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from playtable.cli.common import OUT_FILE, SEED, WORKERS, complete_agent, complete_game, complete_variant, log
from playtable.cli.lab_progress import format_p, jsonable
from playtable.core.params import resolve_params


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--agent", "agents", multiple=True, required=True, metavar="SPEC",
              shell_complete=complete_agent,
              help="An agent in the tournament (repeat for each, at least two).")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE", help="Set a game parameter.")
@click.option("--variant", default=None, metavar="NAME", shell_complete=complete_variant,
              help="Start from a named variant.")
@click.option("-n", "--games", type=int, default=100, show_default=True,
              help="Seeds per pair of agents (each seed played in both seatings).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="First seed.")
@click.option("--workers", "-w", type=WORKERS, default=1, show_default=True, envvar="PLAYTABLE_WORKERS",
              show_envvar=True, help="Worker processes.")
@click.option("--bootstrap", type=int, default=200, show_default=True, help="Bootstrap resamples.")
@click.option("--plot", type=OUT_FILE, default=None, help="Write the ratings plot (PNG).")
@click.option("--force", is_flag=True, help="Replace --plot if it exists.")
@click.option("--json", "as_json", is_flag=True, help="Print the ratings as JSON.")
def tournament(game: str, agents: tuple[str, ...], params: tuple[str, ...], variant: str | None,
               games: int, seed: int, workers: int, bootstrap: int, plot: str | None,
               force: bool, as_json: bool) -> None:
    """Rank AGENTS at GAME: each pair plays the same seeds with seats swapped (for solitaire
    games, the same deals); Bradley-Terry ratings with 95% bootstrap intervals over seeds."""
    from playtable.core.extras import require
    from playtable.core.files import check_new_output

    if plot:  # refused before a game is played, never after
        check_new_output(plot, force)
    require("lab", "tournament")
    from playtable.lab.runner import RunOptions, resolve_game
    from playtable.lab.tournament import play_tournament, plot_ratings

    the_game = resolve_game(game)
    the_params = resolve_params(the_game.params_type, the_game.variants, variant, params)
    options = RunOptions(workers=workers)
    try:
        result = play_tournament(game, list(agents), the_params, games, seed, options, bootstrap)
    except KeyboardInterrupt:  # before the first game, or while the ratings were fitted
        click.echo("interrupted", err=True)
        sys.exit(130)
    if result.interrupted and not result.seeds_played:
        click.echo("interrupted before any seed finished: nothing to rate", err=True)
        sys.exit(130)
    if plot:
        plot_ratings(result, plot)
    _show(result, as_json)
    if plot:
        log.info("plot written to %s", plot)
    if result.interrupted:  # one line, whatever --quiet says: the tournament did not finish
        click.echo(f"interrupted: the {result.seeds_played} seeds that finished (of {games}) are "
                   "rated above", err=True)
        sys.exit(130)


def _show(result: Any, as_json: bool) -> None:
    if as_json:
        out = {"game": result.game, "ratings": [vars(r) for r in result.ratings],
               "pairwise": result.pairwise(), "agents": result.agents,
               "seeds": result.seeds_played, "interrupted": result.interrupted}
        if result.solitaire:
            out["same_deals"] = result.same_deals()
        click.echo(json.dumps(jsonable(out), indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    how = "same deals" if result.solitaire else "seats swapped"
    table = Table(title=f"{result.game}: {result.seeds_played} seeds per pair, {how}",
                  title_justify="left")
    for col in ("rank", "agent", "rating", "95% interval", "score", "games"):
        table.add_column(col)
    for rank, r in enumerate(result.ratings, 1):
        table.add_row(str(rank), r.agent, f"{r.rating:+.0f}", f"[{r.low:+.0f}, {r.high:+.0f}]",
                      f"{100 * r.score:.1f}%", str(r.games))
    Console().print(table)
    matrix = Table(title="points of the row agent against the column agent", title_justify="left")
    matrix.add_column("")
    for name in result.agents:
        matrix.add_column(name)
    for name, line in zip(result.agents, result.pairwise(), strict=True):
        matrix.add_row(name, *["-" if v != v else f"{100 * v:.1f}%" for v in line])
    Console().print(matrix)
    if result.solitaire:
        _print_same_deals(result)
    log.info("%s", MEASURES_SOLO if result.solitaire else MEASURES)


MEASURES = """Which figure answers which question:
  rating and interval  how strong each agent is on one scale (Bradley-Terry over every game,
                       95% bootstrap over seeds); two agents whose intervals overlap may still
                       differ: their own games (the matrix) say more about that pair
  points matrix        how one agent fares against another, seat swap included"""
MEASURES_SOLO = MEASURES + """
  wins +/-             how much more often the agent wins the same deals (paired, 95% interval):
                       the answer to "does it win more?"
  score better by      how much further it gets on the same deals, won or lost
  sign test p          whether the deals it did better on (the win first, then the score)
                       outnumber those it did worse on by more than chance: a small p with a
                       wins interval touching 0 means it is better mostly on lost deals"""


def _print_same_deals(result: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    direction = "lower is better" if result.lower_score_is_better else "higher is better"
    table = Table(title=f"on the same deals, each agent against the one ranked below it (score: "
                        f"{direction})", title_justify="left")
    for col in ("agent", "win rate", "95% CI", "mean score", "against", "wins +/- (pp)", "95% CI",
                "score better by", "95% CI", "deals better / worse", "sign test p"):
        table.add_column(col)
    for entry in result.same_deals():
        cells = [entry["agent"], f"{100 * entry['win_rate']:.1f}%",
                 f"[{100 * entry['win_low']:.1f}, {100 * entry['win_high']:.1f}]",
                 f"{entry['mean_score']:.2f}"]
        if "above" in entry:
            w, sc = entry["win_difference"], entry["score_difference"]
            cells += [entry["above"], f"{100 * w['diff']:+.1f}",
                      f"[{100 * w['low']:+.1f}, {100 * w['high']:+.1f}]", f"{sc['diff']:+.2f}",
                      f"[{sc['low']:+.2f}, {sc['high']:+.2f}]",
                      f"{entry['deals_better']} / {entry['deals_worse']}", format_p(entry["sign_test_p"])]
        else:
            cells += ["", "", "", "", "", "", ""]
        table.add_row(*cells)
    Console().print(table)

