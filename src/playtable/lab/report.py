"""`playtable report`: one self-contained HTML page from result files.

The page needs nothing but itself: the plots are matplotlib PNGs embedded as base64 data URIs
and the styles are inline. Rows are grouped by file, variant and agents, in SQL
(`report_data.py`: only each group's counts, sums and histograms reach Python, so a report of
a million rows fits in a few hundred MB); the page shows

* a summary table per group (games, completion, win rate with its Wilson 95 % interval,
  duration, branching, and balance / first-player advantage for games of several seats);
* win rate per group with interval bars; score and length histograms; the survival curve of the
  turn on which games are lost;
* paired differences from the first group on the seeds they share (common random numbers);
* game quality after Browne, Ludii and TAG (lead changes, drama, decisiveness, duration and its
  spread), each with its 95 % interval (`quality.py`, `metrics.RunningSummary`);
* the game's own metrics and the events per game.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from playtable.core.errors import PlaytableError
from playtable.core.files import write_atomic
from playtable.core.registry import get_game
from playtable.lab.metrics import Histogram
from playtable.lab.report_data import Group, ReportData, from_files
from playtable.lab.report_people import people_section
from playtable.lab.storage import ResultsError

_CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 2em auto; max-width: 1100px;
       color: #1d2430; background: #fbfbfd; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #d9dde5; padding-bottom: 0.2em; }
p.meta { color: #5a6475; margin-top: 0; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #d9dde5; padding: 0.3em 0.6em; text-align: right; }
th { background: #eef1f6; }
td:first-child, th:first-child { text-align: left; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.plots figure { margin: 0; background: white; border: 1px solid #d9dde5; padding: 0.5em; }
figcaption { font-size: 0.85em; color: #5a6475; max-width: 500px; }
.note { font-size: 0.85em; color: #5a6475; }
"""


def _pct(x: float) -> str:
    return "–" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def _num(x: Any, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return html.escape(str(x))


def new_figure(width: float, height: float) -> Any:
    """A matplotlib figure that belongs to no backend: drawing it never switches the backend of
    the process (a notebook's plots still show), and it works headless."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def _figure_html(fig: Any, caption: str) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (
        f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _score_key(groups: Sequence[Group]) -> tuple[str, str]:
    """The per-game score to histogram: the game's `score` metric if it has one, else the
    return of seat 0."""
    if any(g.has_score for g in groups):
        return "m_score", str(getattr(_game_of(groups), "score_name", "") or "score")
    return "return_0", "result of seat 0 (1 win, 0 loss)"


def _game_of(groups: Sequence[Group]) -> Any:
    """The groups' game (through the registry), or None for a game this install does not know."""
    try:
        return get_game(str(groups[0].game)) if groups else None
    except PlaytableError:
        return None


def _better(groups: Sequence[Group], what: str) -> str:
    """One line saying which way a histogram is better, when the game says so."""
    if what == "duration":
        return "Neither way is better in itself: it shows how long the games last."
    lower = bool(getattr(_game_of(groups), "lower_score_is_better", False))
    if what == "m_score":
        return "Lower is better." if lower else "Higher is better."
    return "Higher is better for seat 0."


def _plots(groups: dict[str, Group], summaries: dict[str, dict[str, Any]]) -> list[str]:
    import matplotlib

    figures = []
    labels = list(groups)
    colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]

    # Win rate with Wilson intervals.
    fig = new_figure(5.3, 0.8 + 0.45 * len(labels))
    ax = fig.subplots()
    rates = [summaries[g]["win_rate"] for g in labels]
    lows = [summaries[g]["win_rate"] - summaries[g]["win_low"] for g in labels]
    highs = [summaries[g]["win_high"] - summaries[g]["win_rate"] for g in labels]
    ys = list(range(len(labels)))
    group_colours = [colours[i % len(colours)] for i in ys]  # the same colour as in the other plots
    ax.barh(ys, rates, color=group_colours, alpha=0.35)
    for y, rate, low, high, colour in zip(ys, rates, lows, highs, group_colours, strict=True):
        ax.errorbar([rate], [y], xerr=[[low], [high]], fmt="o", color=colour, capsize=4)
    ax.set_yticks(ys, [_short(g) for g in labels])
    ax.invert_yaxis()
    ax.set_xlim(0, max(0.05, min(1.0, max(s["win_high"] for s in summaries.values()) * 1.15)))
    ax.set_xlabel("win rate (seat 0), 95% Wilson interval")
    ax.grid(axis="x", alpha=0.3)
    figures.append(_figure_html(fig, "Win rate of seat 0 per group, with its 95% Wilson interval: "
                                     "higher is better for seat 0."))

    games = list(dict.fromkeys(str(groups[g].game) for g in labels))
    for game in games:
        game_labels = [g for g in labels if str(groups[g].game) == game]
        figures += _game_plots(game, {g: groups[g] for g in game_labels}, colours, len(games) > 1)
    return figures


def _histogram(group: Group, what: str) -> Histogram:
    """A group's values of one histogram: `duration`, `m_score` or `return_0`."""
    if what == "duration":
        return group.duration
    return group.score_plot if what == "m_score" else group.summary.return_0


def _game_plots(game: str, groups: dict[str, Group], colours: list[str], named: bool) -> list[str]:
    """Score and length histograms, and (for one-seat games) the survival curve, of one game."""
    figures = []
    labels = list(groups)
    prefix = f"{game}: " if named else ""
    key, key_name = _score_key(list(groups.values()))
    unit = "turns" if any(g.has_turns for g in groups.values()) else "actions"
    for what, name in ((key, key_name), ("duration", f"game length ({unit})")):
        fig = new_figure(5.3, 3.0)
        ax = fig.subplots()
        # Each distinct value once, weighted by its share of the group's games: the bars of a
        # histogram of every game's value, without a list of every game.
        counts = {g: _histogram(groups[g], what).counts for g in labels}
        flat = [v for c in counts.values() for v in c]
        if flat:
            lo, hi = min(flat), max(flat)
            integral = all(float(v).is_integer() for v in flat)
            bins: Any = [x - 0.5 for x in range(int(lo), int(hi) + 2)] if integral and hi - lo <= 80 else 30
            for i, g in enumerate(labels):
                if counts[g]:
                    total = sum(counts[g].values())
                    values = sorted(counts[g])
                    ax.hist(
                        values,
                        bins=bins,
                        histtype="step",
                        linewidth=1.6,
                        color=colours[i % len(colours)],
                        label=_short(g),
                        weights=[counts[g][v] / total for v in values],
                    )
        ax.set_title(f"{prefix}{name}", fontsize=9)
        ax.set_xlabel(name)
        ax.set_ylabel("share of games")
        ax.grid(alpha=0.3)
        if len(labels) > 1:
            ax.legend(fontsize=7)
        figures.append(_figure_html(fig, f"{prefix}{name[:1].upper()}{name[1:]}, spread over the games "
                                         f"of each group (share of games). "
                                         f"{_better(list(groups.values()), what)}"))
    if all(g.one_seat for g in groups.values()):
        fig = new_figure(5.3, 3.0)
        ax = fig.subplots()
        for i, g in enumerate(labels):
            turns, share = groups[g].survival()
            ax.step(turns, share, where="post", color=colours[i % len(colours)], label=_short(g))
        ax.set_title(f"{prefix}survival", fontsize=9)
        ax.set_xlabel("turn" if unit == "turns" else "action")
        ax.set_ylabel("share of games not yet lost")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        if len(labels) > 1:
            ax.legend(fontsize=7)
        figures.append(
            _figure_html(
                fig, f"{prefix}survival: the share of games not yet lost by each turn (wins never "
                "count as lost). Higher and longer is better."
            )
        )
    return figures


def _short(label: str, width: int = 42) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _summary_table(summaries: dict[str, dict[str, Any]], groups: dict[str, Group]) -> str:
    multi = any(s["players"] > 1 for s in summaries.values())
    headers = ["group", "game", "games", "win rate", "95% CI", "completion", "errors"]
    if multi:
        headers += ["draws", "balance", "first-player adv."]
    rows = []
    for g, s in summaries.items():
        cells = [
            html.escape(g),
            html.escape(str(groups[g].game)),
            str(s["games"]),
            _pct(s["win_rate"]),
            f"[{_pct(s['win_low'])}, {_pct(s['win_high'])}]",
            _pct(s["completion"]),
            str(s["errors"]),
        ]
        if multi:
            cells += [
                _pct(s.get("draw_rate", math.nan)),
                _num(s.get("balance", math.nan), 3),
                _num(s.get("first_player_advantage", math.nan), 3),
            ]
        rows.append(cells)
    return _table(headers, rows)


def _analysis_table(summaries: dict[str, dict[str, Any]]) -> str:
    headers = [
        "group",
        "actions mean",
        "actions sd",
        "turns mean",
        "turns sd",
        "branching mean",
        "branching max",
        "decisions per turn",
    ]
    rows = []
    for g, s in summaries.items():
        turns = s.get("turns") or {}
        rows.append(
            [
                html.escape(g),
                _num(s["length"]["mean"]),
                _num(s["length"]["sd"]),
                _num(turns.get("mean")),
                _num(turns.get("sd")),
                _num(s["branching_mean"]),
                _num(s["branching_max"], 0),
                _num(s.get("decisions_per_turn")),
            ]
        )
    return _table(headers, rows)


def _with_interval(m: dict[str, Any] | None, digits: int = 2) -> str:
    """`mean [low, high]`, or the mean alone when there is no interval (one game)."""
    if not m or not m.get("games"):
        return "–"
    text = _num(m["mean"], digits)
    low, high = m.get("low", math.nan), m.get("high", math.nan)
    if not (math.isnan(low) or math.isnan(high)):
        text += f" [{_num(low, digits)}, {_num(high, digits)}]"
    return text


QUALITY_NOTE = (
    "<p class='note'>Measured from the game's own value of each position for each seat "
    "(<code>Game.evaluate</code>: Star Dice's war and table points, the heroes' keys and hit points "
    "against the wizard, the troll's bridge), taken before every decision; a game without one shows "
    "–. The leaders are the seats with the top value; a solitaire game is read as the player "
    "against the game (the player leads while its value is above 0.5). <b>Lead changes</b>: times "
    "the leaders changed in a game (Browne; per decision as Ludii's LeadChange). <b>Winner "
    "behind</b>: the share of decisions at which the eventual winner trailed; <b>drama</b>: how far "
    "it trailed, on average over the decisions (Ludii's Drama); both only for games some side won. "
    "<b>Decided at</b>: the share of the game played before the eventual winner's value first rose "
    "above the highest any other side ever reached (Ludii's DecisivenessMoves; 1 = never): lower "
    "means decided earlier. Duration: actions (and the game's turns) per game, mean and standard "
    "deviation with 95% intervals, and the coefficient of variation (sd / mean). Each mean with its "
    "95% interval over games. The measures read the game's heuristic, so they are only as "
    "calibrated as it is.</p>"
)


def _quality_table(summaries: dict[str, dict[str, Any]]) -> str:
    turns = any("turns" in (s.get("quality") or {}) for s in summaries.values())
    headers = ["group", "games with a value", "lead changes a game", "lead changes per decision",
               "winner behind", "drama", "decided at", "actions mean", "actions sd", "actions cv"]
    if turns:
        headers += ["turns mean", "turns sd", "turns cv"]
    rows = []
    for g, s in summaries.items():
        q = s.get("quality") or {}
        rate = q.get("lead_change_rate")
        cells = [html.escape(g), str((q.get("lead_changes") or {}).get("games", 0)),
                 _with_interval(q.get("lead_changes")), _with_interval(rate, 3),
                 _with_interval(q.get("winner_behind"), 3), _with_interval(q.get("drama"), 3),
                 _with_interval(q.get("decided_at"), 3)]
        for key in ("length", "turns") if turns else ("length",):
            spread = q.get(key) or {}
            sd = {"games": spread.get("games", 0), "mean": spread.get("sd", math.nan),
                  "low": spread.get("sd_low", math.nan), "high": spread.get("sd_high", math.nan)}
            cells += [_with_interval(spread, 1), _with_interval(sd, 1), _num(spread.get("cv", math.nan), 2)]
        rows.append(cells)
    return QUALITY_NOTE + _table(headers, rows)


def _paired_table(data: ReportData) -> str:
    groups = data.groups
    labels = list(groups)
    base_label = labels[0]
    base_game = groups[base_label].game
    rows = []
    for g in labels[1:]:
        if groups[g].game != base_game:
            continue  # seeds of another game are not common random numbers
        d = data.paired(base_label, g)
        if not d.n:
            continue
        rows.append(
            [
                html.escape(g),
                str(d.n),
                f"{100 * d.diff:+.1f} pp",
                f"[{100 * d.low:+.1f}, {100 * d.high:+.1f}] pp",
                str(d.b_only),
                str(d.a_only),
                f"{d.p_value:.3g}",
            ]
        )
    if not rows:
        return "<p class='note'>No other group shares seeds with the first one.</p>"
    return (
        f"<p class='note'>Win rate minus that of <b>{html.escape(base_label)}</b> on the seeds both played "
        "(same deals and dice): 95% interval on the paired differences, and the exact sign test on the "
        "seeds where only one side won.</p>"
        + _table(
            [
                "group",
                "common seeds",
                "difference",
                "95% CI",
                "won only here",
                "won only in first",
                "sign test p",
            ],
            rows,
        )
    )


def _metrics_table(summaries: dict[str, dict[str, Any]], key: str) -> str:
    names: list[str] = []
    for s in summaries.values():
        names += [k for k in s[key] if k not in names]
    if not names:
        return "<p class='note'>None recorded.</p>"
    rows = [[html.escape(n.replace("_", " "))] + [_num(s[key].get(n), 3) for s in summaries.values()]
            for n in names]
    return _table(["mean per game"] + [_short(g, 30) for g in summaries], rows)


def render_report(data: ReportData, title: str, sources: Sequence[str], people: str = "") -> str:
    """The page; `people`: the "People and bots" section (`report_people.py`), empty without
    people's rows."""
    groups = data.groups
    summaries = {g: group.result() for g, group in groups.items()}
    figures = _plots(groups, summaries)
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p class='meta'>{data.rows} games in {len(groups)} group(s) from "
        f"{', '.join(html.escape(s) for s in sources)} · generated {generated} by playtable report</p>",
        "<h2>Summary</h2>",
        _summary_table(summaries, groups),
        "<h2>Plots</h2><div class='plots'>",
        *figures,
        "</div>",
        "<h2>Paired comparison (common random numbers)</h2>",
        _paired_table(data) if len(groups) > 1 else "<p class='note'>Only one group.</p>",
        people,
        "<h2>Game analysis (Ludii / TAG style)</h2>",
        "<p class='note'>Duration in actions and in the game's own turns; branching is the number of legal "
        "actions at each decision"
        + ("; balance is 1 minus the largest gap between two seats' win rates; first-player advantage "
           "is seat 0's win rate minus a fair share" if any(s["players"] > 1 for s in summaries.values())
           else "")
        + ".</p>",
        _analysis_table(summaries),
        "<h2>Game quality (Browne, Ludii, TAG)</h2>",
        _quality_table(summaries),
        "<h2>Game metrics</h2>",
        _metrics_table(summaries, "metrics"),
        "<h2>Events per game</h2>",
        _metrics_table(summaries, "events_per_game"),
        "</body></html>",
    ]
    return "\n".join(parts)


def write_report(files: Sequence[Path], out: Path, title: str | None = None) -> Path:
    data = from_files(files)
    try:
        if not data.rows:
            raise ResultsError("the result files hold no games")
        page = render_report(data, title or f"playtable report: {', '.join(data.games)}",
                             [f.name for f in files], people_section(files))
    finally:
        data.close()
    write_atomic(out, page)  # never through a symlink planted at a temporary name
    return out
