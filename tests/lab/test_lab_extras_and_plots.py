"""A player's install and the lab's plots.

Without the `lab` extra, every playtest command that needs it says so in one line with exit
status 2 and writes nothing (`playtest wizard` needs SciPy's exact test, `--out` pages need
Arrow and matplotlib), before any game is played; an extra's module imported where no check
caught it is turned into the same line by the entry point, not a traceback. The lab's plots are
drawn on backend-free figures, so a report, a playtest page or a ratings plot never switches a
notebook's matplotlib backend (the notebook's last plot showed nothing in Jupyter), and the
worked notebook shows its plot with `plt.show()` instead of forcing Agg."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "light_install.py"
NOTEBOOK = ROOT / "docs" / "lab-notebook.ipynb"
TOY = "tests.lab.lab_toygame:GAME"


def _light(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RUNNER), *args], cwd=tmp_path,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [
    ["playtest", "wizard", "-n", "2"],
    ["playtest", "troll", "-n", "2", "--out", "t.html"],
    ["playtest", "stardice", "-n", "1", "--out", "s.html"],
])
def test_playtest_commands_that_need_the_lab_say_so_in_one_line(tmp_path: Path, args: list[str]) -> None:
    done = _light(tmp_path, *args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "'lab' extra" in lines[0] and "pip install 'playtable[lab]'" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_playtests_that_need_no_extra_still_run(tmp_path: Path) -> None:
    done = _light(tmp_path, "playtest", "rotator", "-n", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


def test_an_extra_imported_without_a_check_is_one_line(tmp_path: Path) -> None:
    code = (
        f"import runpy, sys; runpy.run_path({str(RUNNER)!r})\n"
        "import click\n"
        "from playtable.cli import cli, main\n"
        "@cli.command('needs-scipy')\n"
        "def needs_scipy():\n"
        "    import scipy.stats  # no require() before it\n"
        "main(['needs-scipy'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "playtable needs-scipy needs the 'lab' extra" in lines[0], lines


def test_an_import_error_that_is_no_missing_extra_is_not_hidden() -> None:
    from playtable.core.extras import missing_extra

    assert missing_extra(ModuleNotFoundError("No module named 'nothing_here'", name="nothing_here")) is None
    # scipy is installed here: a failure to import it is a real error, not a missing extra
    assert missing_extra(ModuleNotFoundError("No module named 'scipy'", name="scipy")) is None


def test_lab_plots_leave_the_backend_alone(tmp_path: Path) -> None:
    import matplotlib
    import matplotlib.pyplot as plt
    from tests.lab.lab_toygame import ToyParams

    from playtable.lab.playtest import Answer
    from playtable.lab.report import write_report
    from playtable.lab.report_playtest import write_playtest
    from playtable.lab.runner import Arm, run_tasks
    from playtable.lab.storage import ResultWriter
    from playtable.lab.tournament import play_tournament, plot_ratings

    before = matplotlib.get_backend()
    plt.switch_backend("svg")  # a backend of the user's (Jupyter's inline one, say)
    try:
        with ResultWriter(tmp_path / "r.parquet") as writer:
            writer.write(run_tasks([(Arm.build(TOY, ToyParams(), ["random"]), s) for s in range(6)]))
        write_report([tmp_path / "r.parquet"], tmp_path / "r.html")
        answers = [Answer("q?", "s", "says", "random", "50.0%", 0.5, 0.2, 0.8, 10, unit="%")]
        write_playtest("troll", answers, tmp_path / "p.html", 10, 0)
        ratings = play_tournament(TOY, ["random", "greedy:samples=2"], ToyParams(players=2), games=4,
                                  bootstrap=5)
        plot_ratings(ratings, str(tmp_path / "ratings.png"))
        assert matplotlib.get_backend().lower() == "svg"
        assert plt.get_fignums() == []  # no figure left open in pyplot either
        assert (tmp_path / "ratings.png").read_bytes().startswith(b"\x89PNG")
        assert "data:image/png;base64," in (tmp_path / "p.html").read_text(encoding="utf-8")
    finally:
        plt.switch_backend(before)


def test_the_notebook_does_not_force_a_backend() -> None:
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
    assert not any("matplotlib.use(" in source or "switch_backend" in source for source in code)
    plotting = [source for source in code if "plt.subplots" in source]
    assert plotting and all("plt.show()" in source for source in plotting)
