"""The battle picture: value labels never overlap each other, and the picture carries a
legend of what its colours and marks mean (the Borg die's 'number/pips', the dashed range ring)."""

from __future__ import annotations

from pathlib import Path

import pytest

from playtable.games.stardice.render import ScenePiece, _label_place


def test_labels_of_dice_lying_together_do_not_overlap() -> None:
    pieces = [ScenePiece(f"F.d6{c}", "d6", 0.40 + 0.02 * i, 0.30, 0.0, 0, str(10 + i))
              for i, c in enumerate("abc")]
    boxes: list[tuple[float, float, float, float]] = []
    for piece in pieces:
        _label_place(piece, 0.02, boxes, pieces, 1.0)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_battle_picture_has_a_legend(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from playtable.core.registry import get_game
    from playtable.games.stardice import render

    texts: list[str] = []
    real = plt.Axes.legend

    def spy(self: plt.Axes, *args: object, **kwargs: object) -> object:
        legend = real(self, *args, **kwargs)  # type: ignore[arg-type]
        texts.extend(t.get_text() for t in legend.get_texts())
        return legend

    plt.Axes.legend = spy  # type: ignore[method-assign]
    try:
        game = get_game("stardice")
        state = game.new_state(game.default_params(), 3)
        render.render_table(state, tmp_path / "table.png")  # type: ignore[arg-type]
    finally:
        plt.Axes.legend = real  # type: ignore[method-assign]
    assert (tmp_path / "table.png").stat().st_size > 0
    joined = " ".join(texts)
    assert "Borg die: number/pips" in joined and "connection range" in joined and "Klingon" in joined
