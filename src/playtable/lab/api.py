"""The lab for notebooks: one call per question, each answer a pandas DataFrame.

    import playtable.lab.api as lab
    runs = lab.sim("troll", agents="heuristic", games=500)           # one row per game
    lab.compare("troll", ["final", "plus-one"], agents="heuristic")   # paired differences
    lab.tune("troll", "win=0.3", space=["extra_end_bricks=0:3"])      # finalists re-measured
    lab.tournament("troll", ["random", "heuristic"], games=200)      # ratings with intervals
    lab.playtest("wizard", games=100)                                 # the seed's questions

Everything runs on the lab's runner (same seeds, same rows as `playtable sim`), so a number
from a notebook and from the command line agree. `docs/lab-notebook.ipynb` is a worked example.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from playtable.core.errors import BadParameter
from playtable.core.params import params_from_dict, resolve_params
from playtable.core.protocol import params_as_dict
from playtable.lab.runner import Arm, RunOptions, resolve_game, run_tasks


def _frame(records: Sequence[Mapping[str, Any]]) -> Any:
    from playtable.core.extras import require

    require("lab", "the notebook API (its answers are pandas DataFrames)")
    import pandas as pd

    return pd.DataFrame(list(records))


def _agents(agents: str | Sequence[str]) -> list[str]:
    return [agents] if isinstance(agents, str) else list(agents)


def _params(game: str, variant: str | None, params: Mapping[str, Any] | None) -> Any:
    the_game = resolve_game(game)
    base = resolve_params(the_game.params_type, the_game.variants, variant)
    return params_from_dict(the_game.params_type, dict(params or {}), base)


def flat_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A result row with its game metrics (`m_NAME`) and event counts (`e_KIND`) as columns."""
    out = {k: v for k, v in row.items() if k not in ("metrics", "events", "probe")}
    out.update({f"m_{k}": v for k, v in (row.get("metrics") or {}).items()})
    out.update({f"e_{k}": v for k, v in (row.get("events") or {}).items()})
    return out


def sim(game: str, agents: str | Sequence[str] = "random", games: int = 100, variant: str | None = None,
        params: Mapping[str, Any] | None = None, seed: int = 0, workers: int = 1) -> Any:
    """One row per game on seeds seed..seed+games-1 (the columns of `playtable sim --out`)."""
    if games < 1:
        raise BadParameter("games must be at least 1")
    arm = Arm.build(game, _params(game, variant, params), _agents(agents), label=variant or "default")
    rows = run_tasks([(arm, s) for s in range(seed, seed + games)], RunOptions(workers=workers))
    return _frame([flat_row(r) for r in rows])


def compare(game: str, variants: Sequence[str | tuple[str, Mapping[str, Any]]],
            agents: str | Sequence[str] = "random", games: int = 1000, seed: int = 0, on: str = "win",
            workers: int = 1) -> Any:
    """Each variant against the first on common seeds: one row per variant with its mean, the
    paired difference from the baseline and its 95 % interval, and the exact sign test's p.
    A variant is a named variant's name or `(label, {param: value})`."""
    from playtable.lab.compare import run_compare

    the_game = resolve_game(game)
    arms = []
    for v in variants:
        label, values = (v, {}) if isinstance(v, str) else v
        name = label if label in the_game.variants else None
        arms.append(Arm.build(game, _params(game, name, values), _agents(agents), label=label))
    result = run_compare(arms, seed=seed, games=games, options=RunOptions(workers=workers), on=on,
                         keep_rows=False)
    records = []
    for arm in result.arms:
        d = result.paired(arm.label)
        records.append({"variant": arm.label, "games": d.n, "mean": d.mean_b, "diff": d.diff,
                        "low": d.low, "high": d.high, "better": d.b_only, "worse": d.a_only,
                        "p_value": d.p_value})
    return _frame(records)


def tune(game: str, objective: str, space: Sequence[str] = (), only: Sequence[str] = (),
         over: Mapping[str, Sequence[Any]] | None = None, agents: str | Sequence[str] = "heuristic",
         budget: int = 30, games: int = 400, rounds: int = 4, finalists: int = 3, remeasure: int = 1000,
         seed: int = 0, variant: str | None = None, params: Mapping[str, Any] | None = None,
         study: str = "tune", storage: str | None = None, workers: int = 1) -> Any:
    """Tune towards `objective` (`win=0.3`, `win:wizard=0.5`, `length=300`, `metric:turns=40`);
    `space` adds `NAME=LO:HI` / `NAME=A,B` dimensions to the declared ones (or to `only` those).
    One row per finalist, re-measured on fresh seeds; `.attrs["trials"]` holds every trial and
    `.attrs["variant"]` the best as a named-variant dict. `storage` (a SQLite file) makes the
    study resumable."""
    from playtable.lab.space import build_space
    from playtable.lab.tune import Objective, TuneSpec, run_tune

    the_game = resolve_game(game)
    settings = [{}] if not over else [dict(zip(over, combo, strict=True)) for combo in _product(over)]
    spec = TuneSpec(game, Objective.parse(objective), build_space(the_game.params_type, space, only),
                    agents=tuple(_agents(agents)), base=params_as_dict(_params(game, variant, params)),
                    over=settings, games=games, rounds=rounds, seed=seed, finalists=finalists,
                    remeasure=remeasure)
    result = run_tune(spec, budget, study, storage, RunOptions(workers=workers))
    records = []
    for f in result.finalists:
        record: dict[str, Any] = {**f.values, "search_loss": f.search_loss, "loss": f.loss, "games": f.games}
        for setting, (mean, low, high) in zip(settings, f.measured, strict=True):
            name = ",".join(f"{k}={v}" for k, v in setting.items()) or "value"
            record.update({name: mean, f"{name} low": low, f"{name} high": high})
        records.append(record)
    frame = _frame(records)
    frame.attrs["trials"] = _frame(result.trials)
    frame.attrs["variant"] = result.variant()
    return frame


def _product(over: Mapping[str, Sequence[Any]]) -> list[tuple[Any, ...]]:
    import itertools

    return list(itertools.product(*over.values()))


def tournament(game: str, agents: Sequence[str], games: int = 100, variant: str | None = None,
               params: Mapping[str, Any] | None = None, seed: int = 0, bootstrap: int = 200,
               workers: int = 1) -> Any:
    """Bradley-Terry ratings (Elo scale) with 95 % bootstrap intervals, best first;
    `.attrs["pairwise"]` is the points matrix (row agent against column agent); for a solitaire
    game `.attrs["same_deals"]` is the paired-difference ranking (`Tournament.same_deals`)."""
    from playtable.lab.tournament import play_tournament

    result = play_tournament(game, list(agents), _params(game, variant, params), games, seed,
                             RunOptions(workers=workers), bootstrap)
    frame = _frame([vars(r) for r in result.ratings])
    lines = [dict(zip(result.agents, line, strict=True)) for line in result.pairwise()]
    frame.attrs["pairwise"] = _frame(lines)
    frame.attrs["pairwise"].index = result.agents
    if result.solitaire:
        frame.attrs["same_deals"] = result.same_deals()
    return frame


def playtest(game: str, agents: Sequence[str] | None = None, games: int | None = None, seed: int = 0,
             workers: int = 1) -> Any:
    """The seed's playtest questions: one row per question and agent, with the seed's answer,
    the measured one and its interval; `detail` holds a breakdown table where there is one."""
    from playtable.lab.playtest import playtest as run

    answers = run(game, agents, games, seed, RunOptions(workers=workers))
    return _frame([vars(a) for a in answers])
