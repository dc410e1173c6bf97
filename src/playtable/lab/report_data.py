"""What `playtable report` shows, grouped in SQL: per group of rows, the counts, sums and
histograms its tables and plots are drawn from, never the rows themselves.

A report used to turn every row into a Python dict (200,000 rows: 1.4 GB); now DuckDB groups
the files (`from_files`) and only the aggregates reach Python, so a report's memory depends on
the number of groups and of distinct values (lengths, turns, scores), not on the number of rows
(`benchmarks/lab_report_scale.py`). The aggregates are the ones the row-by-row code computed
(`metrics.RunningSummary`, the histograms of the plots, the survival curve's losses by turn, the
paired values on common seeds), filled from SQL instead of rows; `from_rows` computes the same
from rows in Python, and `tests/lab/test_report_sql.py` holds the two equal.

Rows that carry `extra_metrics` (a metric that first appeared after the file's columns were
fixed: JSON text, rare) are read back in batches and added in Python, the same way, so nothing
they hold is lost and memory stays bounded.

Groups are rows of one file (when there are several), variant and agents, in the order of their
first row; within a group, "first" (its game, its seat names, the order of its metrics) means
first in file order, as the rows came before.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from playtable.lab.columns import as_result_row
from playtable.lab.metrics import Histogram, Moments, RunningSummary
from playtable.lab.quality import COLUMNS as QUALITY_COLUMNS
from playtable.lab.stats import Paired, paired_counts
from playtable.lab.storage import ResultsError, expand

NEVER = 1 << 62
"""An ordinal after every row's."""
FILE_SPAN = 1 << 40
"""A row's ordinal is its file's index times this plus its row number in the file."""
BATCH_ROWS = 8192
"""Rows with extra metrics are read back this many at a time."""


@dataclass
class Group:
    """The aggregates of one group of rows."""

    label: str
    game: Any = None
    """The game of the group's first row."""
    summary: RunningSummary = field(default_factory=RunningSummary)
    duration: Histogram = field(default_factory=Histogram)
    """Each game's length in the game's turns when it reports them, else in actions."""
    score_plot: Histogram = field(default_factory=Histogram)
    """The `score` metric's numbers (booleans left out), as the score histogram plots them."""
    losses: Counter[int] = field(default_factory=Counter)
    """Lost games by the turn they were lost on (the survival curve)."""
    has_score: bool = False
    has_turns: bool = False
    one_seat: bool = True
    """Every row is of a one-seat game."""
    first: int = NEVER
    game_at: int = NEVER
    names_at: int = NEVER
    metric_at: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Metric -> (ordinal, position in its row) where it was first counted: the order of the
    metrics table."""

    def survival(self) -> tuple[list[int], list[float]]:
        """`metrics.survival` of the group's rows: the share not yet lost after each turn."""
        n = self.summary.n
        if n == 0:
            return [0], [1.0]
        last = max(self.losses, default=0)
        turns = list(range(last + 1))
        alive = n
        share = []
        for t in turns:
            alive -= self.losses.get(t, 0)
            share.append(alive / n)
        return turns, share

    def result(self) -> dict[str, Any]:
        """The summary (`RunningSummary.result`), its metrics in the order they first appeared."""
        sums = self.summary.metric_sums
        order = sorted(sums, key=lambda k: self.metric_at.get(k, (NEVER, 0)))
        self.summary.metric_sums = {k: sums[k] for k in order}
        return self.summary.result()

    def merge(self, other: Group) -> None:
        """Add the aggregates of other rows of the same group."""
        names, names_at = self.summary.seat_names, self.names_at
        self.summary.merge(other.summary)
        if other.names_at < names_at:
            names, names_at = other.summary.seat_names, other.names_at
        self.summary.seat_names, self.names_at = names, names_at
        if other.game_at < self.game_at:
            self.game, self.game_at = other.game, other.game_at
        self.first = min(self.first, other.first)
        for hist, more in ((self.duration, other.duration), (self.score_plot, other.score_plot)):
            hist.counts.update(more.counts)
        self.losses.update(other.losses)
        self.has_score |= other.has_score
        self.has_turns |= other.has_turns
        self.one_seat &= other.one_seat
        for key, at in other.metric_at.items():
            self.metric_at[key] = min(at, self.metric_at.get(key, at))


class ReportData:
    """The groups of a report, in order, and the paired values of two groups on common seeds."""

    def __init__(self, groups: dict[str, Group], rows: int, games: list[str]) -> None:
        self.groups = groups
        self.rows = rows
        self.games = games
        """The games of the rows (`str` of each), sorted."""

    def pair_counts(self, base: str, other: str) -> Counter[tuple[float, float]]:
        """On the seeds both groups played (the last row of a seed counts): how many seeds gave
        each pair of results (1 a win, 0.5 a draw, else 0) of `base` and of `other`."""
        raise NotImplementedError

    def paired(self, base: str, other: str) -> Paired:
        """`other`'s win rate minus `base`'s on their common seeds (`stats.paired`)."""
        return paired_counts(self.pair_counts(base, other))


def group_label(variant: Any, agents: Any, filename: Any, several: bool) -> str:
    names = ", ".join(dict.fromkeys(agents or []))
    label = f"{variant} · {names}"
    if several:
        label = f"{Path(str(filename)).stem} · {label}"
    return label


def win_value(row: dict[str, Any]) -> float:
    return 1.0 if row.get("win") else 0.5 if row.get("draw") else 0.0


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def add_row(group: Group, row: dict[str, Any], ordinal: int) -> None:
    """Count one row (a dict as `storage.read_rows` gives it) into its group."""
    summary = group.summary
    summary.add([row])
    if row.get("seat_names") and ordinal < group.names_at:
        summary.seat_names, group.names_at = list(row["seat_names"]), ordinal
    if ordinal < group.game_at:
        group.game, group.game_at = row.get("game"), ordinal
    group.first = min(group.first, ordinal)
    metrics = row.get("metrics") or {}
    for position, (key, value) in enumerate(metrics.items()):
        if isinstance(value, bool) or (_number(value) and not math.isnan(value)):
            group.metric_at[key] = min((ordinal, position), group.metric_at.get(key, (NEVER, 0)))
    group.has_score |= "score" in metrics
    group.has_turns |= "turns" in metrics
    group.one_seat &= int(row.get("players") or 1) == 1
    turns = metrics.get("turns")
    if _number(turns):
        if not math.isnan(turns):
            group.duration.add(float(turns))
    else:
        group.duration.add(float(row.get("length") or 0))
    score = metrics.get("score")
    if _number(score) and not math.isnan(score):
        group.score_plot.add(float(score))
    if not (row.get("win") or row.get("draw") or not row.get("completed")):
        when = metrics.get("turns", row.get("length"))
        if _number(when) and not math.isnan(when):
            group.losses[int(when)] += 1


class RowsData(ReportData):
    """The report's aggregates computed from rows in Python (the reference the SQL path is held
    to, and small inputs)."""

    def __init__(self, rows: Sequence[dict[str, Any]]) -> None:
        several = len({r.get("filename") for r in rows}) > 1
        groups: dict[str, Group] = {}
        self._values: dict[str, dict[int, float]] = {}
        for ordinal, row in enumerate(rows):
            label = group_label(row.get("variant"), row.get("agents"), row.get("filename"), several)
            group = groups.get(label)
            if group is None:
                group = groups[label] = Group(label)
                self._values[label] = {}
            add_row(group, row, ordinal)
            self._values[label][int(row["seed"])] = win_value(row)
        super().__init__(groups, len(rows), sorted({str(r.get("game")) for r in rows}))

    def pair_counts(self, base: str, other: str) -> Counter[tuple[float, float]]:
        a, b = self._values[base], self._values[other]
        return Counter((a[s], b[s]) for s in set(a) & set(b))


def from_rows(rows: Sequence[dict[str, Any]]) -> ReportData:
    return RowsData(rows)


# -- SQL ---------------------------------------------------------------------------------------------
NUMERIC = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
           "UBIGINT", "FLOAT", "DOUBLE", "REAL")


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class SqlData(ReportData):
    """The report's aggregates grouped by DuckDB over the files (see the module docstring)."""

    def __init__(self, files: Sequence[str]) -> None:
        import duckdb

        self._con = duckdb.connect()
        try:
            self._build(files)
        except duckdb.Error as err:  # a damaged file is found only when its pages are read
            self._con.close()
            raise ResultsError(f"cannot read the result files: {str(err).splitlines()[0]}") from None

    def close(self) -> None:
        self._con.close()

    # The columns of the files, each NULL where no file has it (files of older versions).
    def _col(self, name: str, table: str = "") -> str:
        return table + _q(name) if name in self._types else "NULL"

    def _build(self, files: Sequence[str]) -> None:
        con = self._con
        listing = "[" + ", ".join(_text(f) for f in files) + "]"
        con.execute(
            f"CREATE TEMP VIEW numbered AS SELECT *, (list_position({listing}, filename) - 1) * {FILE_SPAN} "
            f"+ file_row_number AS _ord FROM read_parquet({listing}, union_by_name=true, filename=true, "
            "file_row_number=true)"
        )
        self._types = {name: str(kind) for name, kind, *_ in con.execute("DESCRIBE numbered").fetchall()}
        c = self._col
        con.execute(
            f"CREATE TEMP TABLE keyrows AS SELECT {c('variant')} AS variant, {c('agents')} AS agents, "
            "filename, min(_ord) AS first, count(*) AS n, 0 AS gid FROM numbered GROUP BY ALL"
        )
        listed = "SELECT variant, agents, filename, first, n FROM keyrows ORDER BY first"
        keys = con.execute(listed).fetchall()
        several = len({k[2] for k in keys}) > 1
        labels: dict[str, int] = {}
        for variant, agents, filename, first, _ in keys:
            gid = labels.setdefault(group_label(variant, agents, filename, several), len(labels))
            con.execute("UPDATE keyrows SET gid = ? WHERE first = ?", [gid, first])
        self._labels = list(labels)
        con.execute(
            "CREATE TEMP VIEW g AS SELECT n.*, r.gid FROM numbered n "
            f"JOIN keyrows r ON {self._col('variant', 'n.')} IS NOT DISTINCT FROM r.variant "
            f"AND {self._col('agents', 'n.')} IS NOT DISTINCT FROM r.agents AND n.filename = r.filename"
        )
        groups = {label: Group(label) for label in self._labels}
        total = sum(k[4] for k in keys)
        found = con.execute(f"SELECT DISTINCT {c('game')} FROM numbered").fetchall()
        games = sorted({str(g) for (g,) in found})
        plain = "extra_metrics IS NULL" if "extra_metrics" in self._types else "TRUE"
        self._fill(groups, plain)
        if "extra_metrics" in self._types:
            self._add_extra_rows(groups, several)
        super().__init__(groups, total, games)

    def _metric_columns(self) -> list[tuple[int, str, str]]:
        """(position among the m_ columns, column, kind): kind 'number', 'bool' or 'other'."""
        out = []
        for position, name in enumerate(n for n in self._types if n.startswith("m_")):
            kind = self._types[name]
            out.append((position, name, "bool" if kind == "BOOLEAN" else "number" if kind in NUMERIC
                        else "other"))
        return out

    def _fill(self, groups: dict[str, Group], plain: str) -> None:
        con, c = self._con, self._col
        metrics = self._metric_columns()
        kinds = {name[2:]: kind for _, name, kind in metrics}

        def counted(name: str, kind: str) -> str:
            """The metric as `_metric_numbers` counts it (booleans as 0/1, NaN left out)."""
            if kind == "bool":
                return f"{_q(name)}::INTEGER::DOUBLE"
            return f"CASE WHEN NOT isnan({_q(name)}::DOUBLE) THEN {_q(name)}::DOUBLE END"

        players = f"coalesce(nullif({c('players')}, 0), 1)"
        parts = [
            "gid", "count(*)", f"greatest(1, max({players}))",
            f"count(*) FILTER (WHERE {c('completed')})",
            f"count(*) FILTER (WHERE {c('error')} IS NOT NULL AND {c('error')} <> '')",
            f"count(*) FILTER (WHERE {c('win')})", f"count(*) FILTER (WHERE {c('draw')})",
            f"sum({c('branching_mean')}::DOUBLE) FILTER (WHERE NOT isnan({c('branching_mean')}::DOUBLE))",
            f"count({c('branching_mean')}) FILTER (WHERE NOT isnan({c('branching_mean')}::DOUBLE))",
            f"max({c('branching_max')}::DOUBLE) FILTER (WHERE NOT isnan({c('branching_max')}::DOUBLE))",
            f"arg_min({c('seat_names')}, _ord) FILTER (WHERE len({c('seat_names')}) > 0)",
            f"min(_ord) FILTER (WHERE len({c('seat_names')}) > 0)",
            f"arg_min({c('game')}, _ord)", "min(_ord)", f"bool_and({players} = 1)",
        ]
        turns = kinds.get("turns")
        if turns in ("number", "bool"):
            # `if turns:` then length / turns (a NaN is truthy: it makes the sum NaN, as before)
            ratio = (f"{c('length')}::DOUBLE / m_turns::DOUBLE" if turns == "number"
                     else f"CASE WHEN m_turns THEN {c('length')}::DOUBLE END")
            nonzero = "m_turns::DOUBLE <> 0" if turns == "number" else "m_turns"
            parts += [f"sum({ratio}) FILTER (WHERE {nonzero})", f"count({ratio}) FILTER (WHERE {nonzero})"]
        else:
            parts += ["NULL", "0"]
        counted_metrics = [(p, name, kind) for p, name, kind in metrics if kind != "other"]
        for _, name, kind in counted_metrics:
            value = counted(name, kind)
            parts += [f"sum({value})", f"count({value})", f"min(_ord) FILTER (WHERE {value} IS NOT NULL)"]
        for key in ("score", "turns"):
            parts.append(f"count(m_{key}) > 0" if key in kinds else "FALSE")
        found = con.execute(f"SELECT {', '.join(parts)} FROM g WHERE {plain} GROUP BY gid").fetchall()
        by_gid: dict[int, tuple[Any, ...]] = {int(record[0]): record for record in found}
        for gid, label in enumerate(self._labels):
            record = by_gid.get(gid)
            if record is None:
                continue
            group, s = groups[label], groups[label].summary
            (_, s.n, s.players, s.completed, s.errors, s.wins, s.draws, branching_sum, s.branching_n, top,
             names, names_at, group.game, group.first, one_seat, per_turn_sum, per_turn_n) = record[:17]
            s.branching_sum = float(branching_sum or 0.0)
            s.branching_max = float(top) if top is not None else -math.inf
            if names_at is not None:
                s.seat_names, group.names_at = list(names), int(names_at)
            group.game_at = group.first
            group.one_seat = bool(one_seat)
            s.per_turn_sum, s.per_turn_n = float(per_turn_sum or 0.0), int(per_turn_n or 0)
            at = 17
            for position, name, _ in counted_metrics:
                total, count, first = record[at : at + 3]
                at += 3
                if count:
                    s.metric_sums[name[2:]] = [float(total), float(count)]
                    group.metric_at[name[2:]] = (int(first), position)
            group.has_score, group.has_turns = bool(record[at]), bool(record[at + 1])
        self._histograms(groups, plain, kinds, counted)
        self._seats_and_events(groups, plain)
        self._quality(groups, plain)

    def _quality(self, groups: dict[str, Group], plain: str) -> None:
        """The game-quality numbers' count, mean and squared deviations per group
        (`RunningSummary.quality`); none in files of schema 1, which lack the columns."""
        c = self._col
        values = {key: f"{c(key)}::DOUBLE" for key in QUALITY_COLUMNS if key in self._types}
        if "lead_changes" in values and "length" in self._types:
            values["lead_change_rate"] = (f"CASE WHEN {c('length')} <> 0 THEN "
                                          f"{c('lead_changes')}::DOUBLE / {c('length')}::DOUBLE END")
        if not values:
            return
        parts = ["gid"]
        for expr in values.values():
            parts += [f"count({expr})", f"sum({expr})", f"coalesce(var_samp({expr}), 0)"]
        found = self._con.execute(f"SELECT {', '.join(parts)} FROM g WHERE {plain} GROUP BY gid").fetchall()
        for record in found:
            quality = groups[self._labels[int(record[0])]].summary.quality
            for k, key in enumerate(values):
                n, total, var = record[1 + 3 * k : 4 + 3 * k]
                if n:
                    quality[key] = Moments(int(n), float(total), float(var) * (int(n) - 1))

    def _histograms(self, groups: dict[str, Group], plain: str, kinds: dict[str, str], counted: Any) -> None:
        c = self._col
        queries = {
            "length": f"{c('length')}::DOUBLE",
            "return_0": f"CASE WHEN NOT isnan({c('return_0')}::DOUBLE) THEN {c('return_0')}::DOUBLE END",
        }
        for key in ("score", "turns"):
            if kinds.get(key) in ("number", "bool"):
                queries[key] = counted(f"m_{key}", kinds[key])
        if kinds.get("score") == "number":
            queries["score_plot"] = counted("m_score", "number")
        if kinds.get("turns") == "number":
            queries["duration"] = (f"CASE WHEN m_turns IS NULL THEN coalesce({c('length')}, 0)::DOUBLE "
                                   "WHEN NOT isnan(m_turns::DOUBLE) THEN m_turns::DOUBLE END")
            when = f"CASE WHEN m_turns IS NULL THEN {c('length')}::DOUBLE ELSE m_turns::DOUBLE END"
        else:
            queries["duration"] = f"coalesce({c('length')}, 0)::DOUBLE"
            when = (f"{c('length')}::DOUBLE" if "turns" not in kinds
                    else f"CASE WHEN m_turns IS NULL THEN {c('length')}::DOUBLE END")
        lost = (f"NOT coalesce({c('win')}, FALSE) AND NOT coalesce({c('draw')}, FALSE) "
                f"AND coalesce({c('completed')}, FALSE)")
        queries["losses"] = f"CASE WHEN {lost} AND NOT isnan({when}) THEN trunc({when}) END"
        # One scan: each row gives one value per histogram (UNION ALL of one query per histogram
        # scanned the files that many times at once, and held 2.5 times the memory).
        kinds_list = "[" + ", ".join(_text(kind) for kind in queries) + "]"
        values_list = "[" + ", ".join(f"({expr})::DOUBLE" for expr in queries.values()) + "]"
        histograms = (
            f"SELECT gid, kind, v, count(*) FROM (SELECT gid, unnest({kinds_list}) AS kind, "
            f"unnest({values_list}) AS v FROM g WHERE {plain}) WHERE v IS NOT NULL GROUP BY ALL"
        )
        for gid, kind, value, count in self._con.execute(histograms).fetchall():
            group = groups[self._labels[gid]]
            s = group.summary
            target = {"length": s.length.counts, "return_0": s.return_0.counts, "score": s.score.counts,
                      "turns": s.turns.counts, "score_plot": group.score_plot.counts,
                      "duration": group.duration.counts}.get(kind)
            if target is not None:
                target[float(value)] += int(count)
            else:
                group.losses[int(value)] += int(count)

    def _seats_and_events(self, groups: dict[str, Group], plain: str) -> None:
        c, con = self._col, self._con
        winner = f"CASE WHEN {c('winner')} >= 0 THEN [{c('winner')}] ELSE [] END"
        winners = f"coalesce({c('winners')}, {winner})" if "winners" in self._types else winner
        for gid, seat, count in con.execute(
            f"SELECT gid, w, count(*) FROM (SELECT gid, unnest({winners}) AS w FROM g WHERE {plain}) "
            "WHERE w >= 0 GROUP BY ALL"
        ).fetchall():
            groups[self._labels[gid]].summary.seat_wins[int(seat)] += int(count)
        for gid, seats, count in con.execute(  # each set of winning seats: the sides' results
            f"SELECT gid, list_sort(list_filter({winners}, lambda w: w >= 0)) AS s, count(*) FROM g "
            f"WHERE {plain} AND len(list_filter({winners}, lambda w: w >= 0)) > 0 GROUP BY ALL"
        ).fetchall():
            groups[self._labels[gid]].summary.side_wins[tuple(int(w) for w in seats)] += int(count)
        if self._types.get("events", "").startswith("MAP"):
            for gid, kind, count in con.execute(
                "SELECT gid, k, sum(v) FROM (SELECT gid, unnest(map_keys(events)) AS k, "
                f"unnest(map_values(events)) AS v FROM g WHERE {plain}) GROUP BY ALL"
            ).fetchall():
                groups[self._labels[gid]].summary.events[str(kind)] += int(count)

    def _add_extra_rows(self, groups: dict[str, Group], several: bool) -> None:
        """The rows with extra metrics, a batch at a time, counted as `from_rows` counts them."""
        extra = {label: Group(label) for label in self._labels}
        reader = _arrow_reader(self._con.sql(
            "SELECT * EXCLUDE (file_row_number) FROM g WHERE extra_metrics IS NOT NULL ORDER BY _ord"
        ), BATCH_ROWS)
        for batch in reader:
            for row in batch.to_pylist():
                ordinal, gid = int(row.pop("_ord")), int(row.pop("gid"))
                add_row(extra[self._labels[gid]], as_result_row(row), ordinal)
        for label, more in extra.items():
            if more.summary.n:
                groups[label].merge(more)

    def pair_counts(self, base: str, other: str) -> Counter[tuple[float, float]]:
        value = f"CASE WHEN {self._col('win')} THEN 1.0 WHEN {self._col('draw')} THEN 0.5 ELSE 0.0 END"
        last = f"SELECT seed::BIGINT AS seed, arg_max({value}, _ord) AS v FROM g WHERE gid = ? GROUP BY 1"
        found = self._con.execute(
            f"SELECT a.v, b.v, count(*) FROM ({last}) a JOIN ({last}) b USING (seed) GROUP BY ALL",
            [self._labels.index(base), self._labels.index(other)],
        ).fetchall()
        return Counter({(float(a), float(b)): int(n) for a, b, n in found})


def _arrow_reader(relation: Any, rows: int) -> Any:
    """A relation's rows as Arrow record batches of about `rows` rows."""
    fetch = getattr(relation, "to_arrow_reader", None) or relation.fetch_arrow_reader
    return fetch(rows)


def from_files(paths: Iterable[str | Path]) -> SqlData:
    """The report's aggregates of the result files (files or glob patterns), grouped by DuckDB.
    Close it when done (`close`)."""
    return SqlData(expand(paths))

