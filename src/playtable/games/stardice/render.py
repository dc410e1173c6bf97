"""Drawing a Star Dice table as a picture (matplotlib, no display needed): the touch surface and
its frame, dice as stars (white Federation, red Klingon, green Borg) with their rolled values,
formations filled in their own colours with their point values, strings in white, and the
connection range ring around each die (seed iterations 2 and 5 software design); a legend under
the table says what each mark means, and value labels are placed where they overlap nothing."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playtable.core.files import open_atomic
from playtable.games.stardice.actions import BORG, SEAT_NAMES, owner_of
from playtable.games.stardice.formation import Layout
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.physics import PIECE_TYPES, TableGeometry
from playtable.games.stardice.scoring import TableScore

_SEAT_COLOURS = ("#f4f4f4", "#e0342c")
_BORG_COLOUR = "#35d04a"
_UNKNOWN_COLOUR = "#9e9e9e"
_SHAPE_COLOURS = ("#f7c948", "#4fc3f7", "#ba68c8", "#ff8a65", "#81c784", "#f06292", "#9575cd")


@dataclass(frozen=True)
class ScenePiece:
    id: str
    kind: str
    x: float
    y: float
    angle: float
    owner: int | None
    label: str
    known: bool = True


def render_table(state: StarDiceState, path: str | Path, title: str | None = None) -> Path:
    """Write the table of `state` to `path` (PNG or any format matplotlib knows)."""
    params = state.params
    score = state.current_score() if state.last_score is None or not state.is_terminal \
        else state.last_score
    pieces = []
    for piece in sorted(state.table.values(), key=lambda p: p.id):
        value = state.values.get(piece.id)
        label = piece.kind if value is None else f"{value}"
        if piece.id == BORG and value is not None:
            label = f"{value}/{state.borg_pips()}"
        pieces.append(ScenePiece(piece.id, piece.kind, piece.x, piece.y, piece.angle,
                                 owner_of(piece.id), label))
    if params.mode == "objective1":  # the solitaire rounds game (solitaire.py)
        title = title or (f"Star Dice, objective 1, round {state.battle}: {score.points[0]} "
                          f"points against {10 * state.battle}")
    elif params.mode == "objective2":
        title = title or f"Star Dice, objective 2: white {score.points[0]}, red {score.points[1]}"
    elif params.mode == "solo":
        title = title or f"Star Dice, solo: {score.points[0]} points"
    pts_text = f"Federation {score.points[0]}  -  Klingon {score.points[-1]}"
    war = f"   (war {state.war[0]}-{state.war[1]})" if params.war_target else ""
    return render_scene(pieces, state.layout(), score, params.connect_range,
                        params.physics_params().geometry, path,
                        title or f"Star Dice, battle {state.battle}: {pts_text}{war}")


def render_scene(pieces: list[ScenePiece], layout: Layout, score: TableScore,
                 connect_range: float, geo: TableGeometry, path: str | Path, title: str,
                 y_down: bool = False) -> Path:
    """Draw pieces, connections, formations and their scores. `y_down`: draw with the origin at
    the top left, as TUIO trackers see the table."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Polygon, Rectangle

    fig, ax = plt.subplots(figsize=(10, 8.2), dpi=110)
    fig.patch.set_facecolor("#05060f")
    ax.set_facecolor("#05060f")
    f = geo.frame
    ax.add_patch(Rectangle((-f, -f), geo.width + 2 * f, geo.depth + 2 * f, facecolor="#1b1e2b",
                           edgecolor="#555a70", lw=1.5))
    ax.add_patch(Rectangle((0, 0), geo.width, geo.depth, facecolor="#0b1030",
                           edgecolor="#7986cb", lw=1.0))
    # faint background stars, fixed pattern
    for i in range(90):
        x = (i * 0.6180339887) % 1.0 * geo.width
        y = (i * 0.4142135623 + 0.37 * (i % 7)) % 1.0 * geo.depth
        ax.plot(x, y, ".", color="#3a3f66", ms=1.5, zorder=1)
    pos = layout.positions
    shapes = {s.objects: s for s in score.shapes}
    for i, cycle in enumerate(layout.formations):
        colour = _SHAPE_COLOURS[i % len(_SHAPE_COLOURS)]
        pts = [pos[o] for o in cycle]
        ax.add_patch(Polygon(pts, closed=True, facecolor=colour, alpha=0.18, edgecolor=colour,
                             lw=2.5, zorder=3))
        cx, cy = _centroid(pts)
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        if math.hypot(max(xs) - min(xs), max(ys) - min(ys)) < 0.2:
            # a small formation: its label beside it, with a leader line
            lx = max(xs) + 0.06 if cx < geo.width - 0.15 else min(xs) - 0.06
            ax.plot([cx, lx], [cy, cy], "-", color=colour, lw=0.8, alpha=0.8, zorder=6)
            cx = lx
        s = shapes.get(cycle)
        if s is not None:
            who = "nobody" if s.owner is None or s.owner < 0 else SEAT_NAMES[s.owner]
            bonus = f" +{s.bonus}" if s.bonus else ""
            ax.text(cx, cy, f"{s.points}{bonus}\n{who}", color=colour, ha="center",
                    va="center", fontsize=12, fontweight="bold", zorder=7,
                    bbox={"boxstyle": "round,pad=0.2", "facecolor": "#05060f", "alpha": 0.4,
                          "edgecolor": "none"})
    for path_ in layout.strings:
        xs = [pos[o][0] for o in path_]
        ys = [pos[o][1] for o in path_]
        ax.plot(xs, ys, "-", color="white", lw=1.6, alpha=0.9, zorder=3)
    # range rings and the dice; each value label where it overlaps no other label or die
    boxes: list[tuple[float, float, float, float]] = []
    for piece in pieces:
        on_surface = geo.on_surface(piece.x, piece.y)
        if piece.kind == "stone":
            ax.add_patch(Circle((piece.x, piece.y), PIECE_TYPES["stone"].radius,
                                facecolor="#9fd8ff", edgecolor="white", alpha=0.7, zorder=4))
            continue
        if not piece.known:
            colour = _UNKNOWN_COLOUR
        else:
            colour = _BORG_COLOUR if piece.owner is None else _SEAT_COLOURS[piece.owner]
        if on_surface:
            ax.add_patch(Circle((piece.x, piece.y), connect_range, fill=False,
                                edgecolor=colour, alpha=0.12, lw=0.8, ls="--", zorder=2))
        kind = piece.kind if piece.kind in PIECE_TYPES else "d6"
        r = PIECE_TYPES[kind].radius * 1.25
        heading = piece.angle + (math.pi if y_down else 0.0)  # upright stars either way
        ax.add_patch(Polygon(_star(piece.x, piece.y, r, heading), closed=True,
                             facecolor=colour, edgecolor="#202020", lw=0.6, zorder=5,
                             alpha=1.0 if on_surface else 0.45))
        x, y, ha, va = _label_place(piece, r, boxes, pieces, -1.0 if y_down else 1.0)
        ax.text(x, y, piece.label, color=colour, ha=ha, va=va, fontsize=8, zorder=6)
    ax.set_xlim(-f - 0.02, geo.width + f + 0.02)
    ax.set_ylim(-f - 0.02, geo.depth + f + 0.02)
    if y_down:
        ax.invert_yaxis()
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, color="white", fontsize=14)
    _legend(ax, connect_range)
    out = Path(path)
    # a viewer never sees a half-written picture, and a symlink planted at a temporary name
    # is never followed: a new random file beside `out`, renamed over it (core.files)
    try:
        with open_atomic(out, out.suffix or ".png") as handle:
            fig.savefig(handle, format=out.suffix.lstrip(".").lower() or "png",
                        facecolor=fig.get_facecolor(), bbox_inches="tight")
    finally:
        plt.close(fig)
    return out


_CHAR_W, _LINE_H = 0.0075, 0.014  # a size-8 label's character and line, in table widths


def _label_place(piece: ScenePiece, r: float, boxes: list[tuple[float, float, float, float]],
                 pieces: list[ScenePiece], up: float) -> tuple[float, float, str, str]:
    """Where a die's value label goes: the first corner beside the star (below right, above
    right, below left, above left) whose box meets no label already placed and no other die;
    the first one if all do. `up` is +1 when y grows upwards on the picture. The box is kept
    in `boxes`."""
    w, h = _CHAR_W * len(piece.label), _LINE_H
    first: tuple[float, float, str, str, tuple[float, float, float, float]] | None = None
    for sx, sy in ((1, -1), (1, 1), (-1, -1), (-1, 1)):
        x, y = piece.x + sx * r * 0.9, piece.y + sy * up * r * 0.9
        x0 = x if sx > 0 else x - w
        y0 = y - h if sy * up < 0 else y
        box = (x0, y0, x0 + w, y0 + h)
        ha = "left" if sx > 0 else "right"
        va = "top" if sy < 0 else "bottom"
        if first is None:
            first = (x, y, ha, va, box)
        hits_label = any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                         for b in boxes)
        hits_die = any(o is not piece and box[0] - 0.022 < o.x < box[2] + 0.022
                       and box[1] - 0.022 < o.y < box[3] + 0.022 for o in pieces)
        if not hits_label and not hits_die:
            boxes.append(box)
            return x, y, ha, va
    assert first is not None
    boxes.append(first[4])
    return first[:4]


def _legend(ax: Any, connect_range: float) -> None:
    """What the colours and marks mean, under the table."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    star: dict[str, Any] = {"marker": "*", "linestyle": "none", "markersize": 13,
                            "markeredgecolor": "#202020"}
    handles = [
        Line2D([], [], color=_SEAT_COLOURS[0], label=f"{SEAT_NAMES[0]} die: its rolled value", **star),
        Line2D([], [], color=_SEAT_COLOURS[1], label=f"{SEAT_NAMES[1]} die: its rolled value", **star),
        Line2D([], [], color=_BORG_COLOUR, label="Borg die: number/pips (beat the number; "
               "the pips are the bonus)", **star),
        Patch(facecolor=_SHAPE_COLOURS[0], alpha=0.5, edgecolor=_SHAPE_COLOURS[0],
              label="formation: points (+ Borg bonus), owner"),
        Line2D([], [], color="white", lw=1.6, label="string: 1 point to the higher total"),
        Line2D([], [], color="#9e9e9e", lw=0.8, ls="--",
               label=f"dashed ring: connection range ({connect_range:g} table widths)"),
    ]
    legend = ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2,
                       frameon=False, fontsize=9, labelcolor="white", handlelength=1.6)
    legend.set_zorder(8)


def _star(x: float, y: float, r: float, angle: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = angle + math.pi / 2 + i * math.pi / 5
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return pts


def _centroid(pts: list[tuple[float, float]]) -> tuple[float, float]:
    """Shoelace centroid of a polygon (the vertices' mean if it is degenerate)."""
    area = 0.0
    cx = cy = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        c = x0 * y1 - x1 * y0
        area += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    if abs(area) < 1e-12:
        return sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n
    return cx / (3 * area), cy / (3 * area)


def table_summary(state: StarDiceState) -> dict[str, Any]:
    """The score of the table in JSON form (what the picture shows)."""
    score = state.last_score if state.is_terminal and state.last_score else state.current_score()
    return {"battle": state.battle, "points": list(score.points), "war": list(state.war),
            "shapes": [s.to_json() for s in score.shapes if s.kind != "single"]}
