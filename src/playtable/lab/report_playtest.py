"""A report page per game with the seed's playtest questions answered (`playtable playtest GAME
--out PAGE`, `playtable report ... --playtest GAME`): self-contained HTML like `report.py`'s page
(its styles and figure embedding), with the answers table, one plot of every proportion with
its interval per agent, and each answer's breakdown table."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from playtable.core.files import write_atomic
from playtable.lab.playtest import Answer
from playtable.lab.report import _CSS, _figure_html, _table, new_figure

NAMES = {"troll": "Angry Troll versus Magic Bridge", "stardice": "Star Dice",
         "wizard": "The Wizard's Labyrinth", "rotator": "Rotator"}


def _plot(answers: Sequence[Answer]) -> str:
    """Every proportion answered with an interval, one marker per agent."""
    rates = [a for a in answers if not math.isnan(a.low) and a.is_share()]
    if not rates:
        return ""
    questions = list(dict.fromkeys(a.question for a in rates))
    agents = list(dict.fromkeys(a.agent for a in rates))
    fig = new_figure(8, 0.42 * len(questions) + 1.2)
    ax = fig.subplots()
    for k, agent in enumerate(agents):
        mine = [a for a in rates if a.agent == agent]
        ys = [questions.index(a.question) + (k - (len(agents) - 1) / 2) * 0.25 for a in mine]
        ax.errorbar([100 * a.value for a in mine], ys, fmt="o", capsize=3, label=agent,
                    xerr=[[100 * (a.value - a.low) for a in mine], [100 * (a.high - a.value) for a in mine]])
    ax.set_yticks(range(len(questions)), [q if len(q) < 60 else q[:59] + "…" for q in questions], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("measured share (%), 95% interval")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _figure_html(fig, "Each proportion measured, with its 95% interval, per agent")


def render_playtest(game: str, answers: Sequence[Answer], games: int, seed: int) -> str:
    title = f"{NAMES.get(game, game)}: the seed's playtest questions, answered"
    agents = ", ".join(dict.fromkeys(a.agent for a in answers))
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = [[html.escape(a.question), html.escape(a.agent), html.escape(a.seed_says),
             html.escape(a.measured), a.interval_text(), str(a.n), "yes" if a.disagree else "",
             html.escape(a.source)] for a in answers]
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p class='meta'>agents {html.escape(agents)} · {games} games per setting from seed {seed} · "
        f"generated {generated} by playtable playtest</p>",
        "<p class='note'>A measured answer is only as good as the players behind it: each question is "
        "answered for each agent, and 'agents disagree' marks intervals that do not overlap.</p>",
        "<h2>Answers</h2>",
        _table(["question", "agent", "the seed says", "measured", "95% interval", "n", "agents disagree",
                "where the seed asks"], rows),
        "<h2>Plot</h2><div class='plots'>", _plot(answers), "</div>",
        "<h2>Breakdowns</h2>",
    ]
    for a in answers:
        if a.detail:
            headers = list(a.detail[0])
            parts.append(f"<h3>{html.escape(a.question)} ({html.escape(a.agent)})</h3>")
            cells = [[html.escape(str(d.get(h, ""))) for h in headers] for d in a.detail]
            parts.append(_table(headers, cells))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_playtest(game: str, answers: Sequence[Answer], out: Path, games: int, seed: int) -> Path:
    write_atomic(out, render_playtest(game, answers, games, seed))
    return out
