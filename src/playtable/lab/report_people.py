"""The report's "People and bots" section: rows of people (`agents` holding `person`,
from `playtable playtest-online export`) beside bot rows of the same variants, in the same
files or others.

Per variant, one line for the people and one per set of bot agents: games, the win rate **of the
seats the people held** (the heroes, when people play the wizard game's heroes against a bot
wizard; seat 0 in a one-seat game) with its Wilson 95 % interval, mean length, the draws, and each
side's result (wizard, heroes) apart; and for each bot line against the people:

* on the deals both played (common random numbers: the same seed is the same deal), the mean
  paired difference in wins with its 95 % interval, the deals only one side won, and the exact
  sign (McNemar) test on them (`stats.paired_counts`, as the report's paired table);
* over all their games, Fisher's exact test on won/not won (SciPy), which needs no common deal.

"Differ" says where the paired test (or, with no common deal, Fisher's) is below 0.05. Then the
questionnaire per variant: each scale's mean with a 95 % normal interval and its count, the same
by the tester's role (their seat's name: heroes, wizard) and by whether that seat won, lost or
drew, and the free-text answers, each with its tester (their name, or `tester-N` in an
`--anonymous` export), seat, role and result. Everything is grouped in DuckDB; only counts and
sums reach Python.

A bot line's rate is taken at the same seats, so "bots − people" compares the same role played
by bots and by people (the people's 0 % when every hero died, not the bot wizard's 100 %).
The questionnaire has one answer a tester: a game of several testers gives several.
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playtable.agents import PERSON
from playtable.lab.metrics import side_name
from playtable.lab.people import QUESTION_PREFIX, TESTER_COLUMN
from playtable.lab.stats import Z95, paired_counts, wilson
from playtable.lab.storage import connect

TEXTS_SHOWN = 30
"""Free-text answers listed per variant and question (the newest rows are in the file)."""
PEOPLE = f"list_contains(agents, '{PERSON}')"
WIN = "(CASE WHEN list_has_any(won_by, people_seats) THEN 1.0 WHEN draw THEN 0.5 ELSE 0.0 END)::DOUBLE"
"""A game's result for the seats people held in the variant (a draw half), people or bots playing."""
WINS = "(CASE WHEN list_has_any(won_by, people_seats) THEN 1 ELSE 0 END)"


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f}%"


def _p(x: float) -> str:
    return "–" if math.isnan(x) else f"{x:.3g}"


def fisher_p(won_a: int, n_a: int, won_b: int, n_b: int) -> float:
    """Fisher's exact two-sided test on two groups' won / not won (NaN without games)."""
    if not n_a or not n_b:
        return math.nan
    from scipy.stats import fisher_exact

    return float(fisher_exact([[won_a, n_a - won_a], [won_b, n_b - won_b]]).pvalue)


def _people_seats(con: Any) -> dict[str, list[int]]:
    """Variant -> the seats people held in its people's games (0-based), in a temporary table
    `seated` (variant, people_seats) and a view `played` of the games with their winners."""
    seats: dict[str, set[int]] = {}
    query = f"SELECT DISTINCT variant, agents FROM games WHERE {PEOPLE}"
    for variant, agents in con.execute(query).fetchall():
        seats.setdefault(str(variant), set()).update(i for i, a in enumerate(agents) if a == PERSON)
    found = {v: sorted(s) for v, s in seats.items()}
    con.execute("CREATE OR REPLACE TEMP TABLE seated (variant VARCHAR, people_seats INTEGER[])")
    if found:
        con.executemany("INSERT INTO seated VALUES (?, ?)", [[v, s] for v, s in found.items()])
    won_by = ("winners" if _has(con, "winners")  # files written before the column: seat 0's win
              else "CASE WHEN win THEN [0] ELSE []::INTEGER[] END")
    con.execute(f"CREATE OR REPLACE TEMP VIEW played AS SELECT games.*, {won_by} AS won_by, people_seats "
                "FROM games JOIN seated USING (variant)")
    return found


def _sides(con: Any, variant: str, who: str, n: int) -> str:
    """Each side's result on the line's games: 'wizard 100.0% [..] · heroes 0.0% [..]'."""
    names = "seat_names" if _has(con, "seat_names") else "[]::VARCHAR[]"
    found = con.execute(
        f"SELECT won_by, any_value({names}), count(*) FROM played WHERE variant = ? AND "
        f"(CASE WHEN {PEOPLE} THEN 'people' ELSE array_to_string(agents, ', ') END) = ? "
        "AND len(won_by) > 0 GROUP BY won_by ORDER BY won_by", [variant, who]).fetchall()
    parts = []
    for seats, seat_names, count in found:
        names_of = [seat_names[s] if seat_names and s < len(seat_names) else f"seat {s}" for s in seats]
        low, high = wilson(count, n)
        parts.append(f"{html.escape(side_name(names_of))} {_pct(count / n)} [{_pct(low)}, {_pct(high)}]")
    return " · ".join(parts) or "–"


def people_vs_bots(con: Any) -> list[dict[str, Any]]:
    """One dict per (variant, side): side is "people" or the bots' agents joined by commas; the
    rates are those of the seats the people held in the variant (`_people_seats`)."""
    _people_seats(con)
    found = con.execute(
        f"WITH r AS (SELECT variant, CASE WHEN {PEOPLE} THEN 'people' ELSE array_to_string(agents, ', ') "
        f"END side, {WIN} w, {WINS} win, draw, length FROM played) "
        "SELECT variant, side, count(*) n, sum(w) won, sum(win) wins, "
        "sum(CASE WHEN draw THEN 1 ELSE 0 END) draws, avg(length) FROM r GROUP BY variant, side "
        "ORDER BY variant, side <> 'people', side").fetchall()
    testers_of = dict(con.execute(
        f"SELECT variant, count(DISTINCT t) FROM (SELECT variant, {_each(con, TESTER_COLUMN)} t "
        f"FROM games WHERE {PEOPLE}) GROUP BY variant").fetchall()) if _has(con, TESTER_COLUMN) else {}
    people = {v: (n, wins) for v, side, n, _, wins, *_ in found if side == "people"}
    out = []
    for variant, side, n, won, wins, draws, length in found:
        testers = testers_of.get(variant, 0)
        line: dict[str, Any] = {"variant": variant, "side": side, "n": n, "rate": won / n,
                                "interval": wilson(won, n), "length": length, "testers": testers,
                                "draws": draws, "sides": _sides(con, variant, side, n)}
        if side != "people":
            counts = Counter({(a, b): c for a, b, c in con.execute(
                f"WITH p AS (SELECT seed, avg({WIN}) w FROM played WHERE {PEOPLE} AND variant = ? "
                "GROUP BY seed), "
                f"b AS (SELECT seed, avg({WIN}) w FROM played WHERE NOT {PEOPLE} AND variant = ? "
                "AND array_to_string(agents, ', ') = ? GROUP BY seed) "
                "SELECT p.w, b.w, count(*) FROM p JOIN b USING (seed) GROUP BY ALL",
                [variant, variant, side]).fetchall()})
            line["paired"] = paired_counts(counts)
            people_n, people_wins = people[variant]
            line["fisher"] = fisher_p(people_wins, people_n, wins, n)
        out.append(line)
    return out


def _has(con: Any, column: str) -> bool:
    return column in {row[0] for row in con.execute("DESCRIBE games").fetchall()}


def _each(con: Any, column: str) -> str:
    """SQL giving one value a seat of a per-seat list column (`unnest`), or the value itself in
    files written when a game had one tester and its answers were single values."""
    kind = dict((row[0], row[1]) for row in con.execute("DESCRIBE games").fetchall())[column]
    return f'unnest("{column}")' if str(kind).endswith("[]") else f'"{column}"'


def _comparison_table(lines: Sequence[dict[str, Any]]) -> str:
    head = ["variant", "who", "games", "testers", "win rate", "95% CI", "mean length", "common deals",
            "bots − people", "95% CI", "won only by people", "won only by bots", "sign test p",
            "Fisher p (all games)", "differ (p < 0.05)", "draws", "each side won [95% CI]"]
    rows = []
    for line in lines:
        low, high = line["interval"]
        cells = [html.escape(str(line["variant"])), html.escape(line["side"]), str(line["n"]),
                 str(line["testers"]) if line["side"] == "people" else "",
                 _pct(line["rate"]), f"[{_pct(low)}, {_pct(high)}]", f"{line['length']:.1f}"]
        if "paired" in line:
            d = line["paired"]
            paired_cells = ([str(d.n), f"{100 * d.diff:+.1f} pp",
                             "–" if math.isinf(d.high) else f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}] pp",
                             str(d.a_only), str(d.b_only), _p(d.p_value)]
                            if d.n else ["0", "–", "–", "–", "–", "–"])
            test = d.p_value if d.n else line["fisher"]
            cells += paired_cells + [_p(line["fisher"]),
                                     "–" if math.isnan(test) else "yes" if test < 0.05 else "no"]
        else:
            cells += [""] * 8
        cells += [f"{line['draws']} ({_pct(line['draws'] / line['n'])})", line["sides"]]
        rows.append(cells)
    return ("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows) + "</table>")


def _answers(con: Any, columns: Sequence[str]) -> None:
    """A temporary view `answers`: one line a tester's answers, with the game's variant, the
    tester's seat, its role (the seat's name without its number: `hero2` is a hero), whether
    that seat won, lost or drew, and the tester's name (from `played`, `_people_seats`)."""
    names = "seat_names" if _has(con, "seat_names") else "[]::VARCHAR[]"
    tester = _each(con, TESTER_COLUMN) if _has(con, TESTER_COLUMN) else "NULL::VARCHAR"
    answers = "".join(f', {_each(con, c)} AS "{c}"' for c in columns)
    kept = "".join(f', "{c}"' for c in columns)
    con.execute(
        "CREATE OR REPLACE TEMP VIEW answers AS SELECT variant, seat, "
        "coalesce(nullif(regexp_replace(names[seat + 1], '[0-9 ]+$', ''), ''), 'seat ' || seat) AS role, "
        "CASE WHEN list_contains(won_by, seat::INTEGER) THEN 'won' WHEN draw THEN 'draw' ELSE 'lost' END "
        f"AS result, tester{kept} FROM (SELECT variant, agents, won_by, "
        f"draw, {names} AS names, unnest(range(len(agents))) AS seat, {tester} AS tester{answers} "
        f"FROM played WHERE {PEOPLE}) WHERE agents[seat + 1] = '{PERSON}'")


def _mean_cell(n: int, mean: float | None, sd: float | None) -> str:
    if not n or mean is None:
        return "–"
    half = Z95 * sd / math.sqrt(n) if n > 1 and sd is not None else math.inf
    shown = "" if math.isinf(half) else f" [{mean - half:.2f}, {mean + half:.2f}]"
    return f"{mean:.2f}{shown} (n={n})"


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return ("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows) + "</table>")


def _scales(con: Any, scales: Sequence[str]) -> str:
    """Each scale's mean per variant, then per variant, role and result (won, lost, drawn)."""
    select = ", ".join(f'count("{c}"), avg("{c}"), stddev_samp("{c}")' for c in scales)
    games = dict(con.execute(f"SELECT variant, count(*) FROM games WHERE {PEOPLE} GROUP BY variant")
                 .fetchall())
    labels = [html.escape(c[len(QUESTION_PREFIX):]) + " (1-5)" for c in scales]

    def cells(values: Sequence[Any]) -> list[str]:
        return [_mean_cell(*values[3 * k: 3 * k + 3]) for k in range(len(scales))]

    overall = [[html.escape(str(variant)), str(games[variant])] + cells(values)
               for variant, *values in con.execute(f"SELECT variant, {select} FROM answers "
                                                   "GROUP BY variant ORDER BY variant").fetchall()]
    split = [[html.escape(str(variant)), html.escape(str(role)), result, str(n)] + cells(values)
             for variant, role, result, n, *values in con.execute(
                 f"SELECT variant, role, result, count(*), {select} FROM answers "
                 "GROUP BY variant, role, result ORDER BY variant, role, result").fetchall()]
    return ("<p class='note'>Mean answer with its 95% normal interval and the number of answers, one "
            "a tester (a skipped question is not counted).</p>"
            + _html_table(["variant", "games", *labels], overall)
            + "<p class='note'>The same by the tester's role (their seat's name) and whether that seat "
              "won, lost or drew the game.</p>"
            + _html_table(["variant", "role", "result", "testers' games", *labels], split))


def _texts(con: Any, column: str) -> str:
    """A text question's answers per variant, each with its tester, seat, role and result."""
    found = con.execute(f'SELECT variant, "{column}", tester, seat, role, result FROM answers '
                        f'WHERE "{column}" IS NOT NULL ORDER BY variant').fetchall()
    by_variant: dict[str, list[str]] = {}
    for variant, text, tester, seat, role, result in found:
        who = html.escape(f"{tester or 'a tester'}, seat {seat} ({role}, {result})")
        by_variant.setdefault(str(variant), []).append(f"“{html.escape(text)}” ({who})")
    items = "".join(
        f"<li><b>{html.escape(v)}</b> ({len(answers)}): " + " · ".join(answers[:TEXTS_SHOWN])
        + (" …" if len(answers) > TEXTS_SHOWN else "") + "</li>"
        for v, answers in by_variant.items())
    return (f"<p><b>{html.escape(column[len(QUESTION_PREFIX):])}</b></p>"
            + (f"<ul>{items}</ul>" if items else "<p class='note'>No answer.</p>"))


def _questionnaire(con: Any) -> str:
    columns = [(name, kind) for name, kind, *_ in con.execute("DESCRIBE games").fetchall()
               if name.startswith(QUESTION_PREFIX)]
    if not columns:
        return "<p class='note'>No questionnaire answers in these files.</p>"
    _answers(con, [name for name, _ in columns])
    scales = [name for name, kind in columns if not str(kind).startswith("VARCHAR")]
    texts = [name for name, kind in columns if str(kind).startswith("VARCHAR")]
    parts = [_scales(con, scales)] if scales else []
    parts += [_texts(con, column) for column in texts]
    return "\n".join(parts)


def _whose(seats: dict[str, list[int]], con: Any) -> str:
    """Whose result the rates are: the seats people held, by name, per variant."""
    names = dict(con.execute(f"SELECT variant, any_value(seat_names) FROM games WHERE {PEOPLE} "
                             "GROUP BY variant").fetchall()) if _has(con, "seat_names") else {}
    said = []
    for variant, held in sorted(seats.items()):
        seat_names = names.get(variant) or []
        named = [seat_names[s] if s < len(seat_names) else f"seat {s}" for s in held]
        said.append(f"{html.escape(variant)}: {html.escape(side_name(named))}"
                    + (f" ({html.escape(', '.join(named))})" if len(named) > 1 else ""))
    return ("<p class='note'>Win rates are those of the seats the people held, for people and bots "
            f"alike: {'; '.join(said)}.</p>") if said else ""


def people_section(files: Sequence[str | Path]) -> str:
    """The section's HTML, or "" when no row of the files is a person's."""
    con = connect(files)
    try:
        if not _has(con, "agents"):
            return ""
        if not con.execute(f"SELECT count(*) FROM games WHERE {PEOPLE}").fetchone()[0]:
            return ""
        lines = people_vs_bots(con)
        return "\n".join([
            "<h2>People and bots</h2>",
            _whose(_people_seats(con), con),
            "<p class='note'>Games people played (agent <code>person</code> at one seat or more) beside "
            "bots' games of the same variant. A win is one of the people's seats among the winners, for "
            "the bots at the same seats too; the draws, and each side's result, are shown apart. "
            "On the deals both played, the paired difference in wins with its 95% interval and the "
            "exact sign test on the deals only one side won; over all games, Fisher's exact test (a draw "
            "counts as not won there, as half a win in the win rate).</p>",
            _comparison_table(lines),
            "<h3>Questionnaire</h3>",
            _questionnaire(con),
        ])
    finally:
        con.close()
