"""The worked example notebook (docs/lab-notebook.ipynb) runs: its code cells are executed in
order in one namespace, as a kernel would run them (the notebook uses no IPython magics, so no
Jupyter kernel is needed to run it honestly)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "lab-notebook.ipynb"


def test_the_lab_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # anything the notebook writes lands here
    # the lab's modules of the same names as the API's calls are loaded first, as in a long session
    importlib.import_module("playtable.lab.tune")
    importlib.import_module("playtable.lab.playtest")
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert len(cells) >= 6
    namespace: dict[str, object] = {"__name__": "__main__"}
    for number, cell in enumerate(cells):
        source = "".join(cell["source"])
        assert not any(line.lstrip().startswith(("%", "!")) for line in source.splitlines())
        exec(compile(source, f"{NOTEBOOK.name} cell {number}", "exec"), namespace)
    assert set(namespace["diffs"]["variant"]) == {"final", "plus-one", "two-end-bricks"}  # type: ignore[index]
    assert list(namespace["ratings"]["agent"]) == ["heuristic", "random"]  # type: ignore[index]
    assert len(namespace["answers"]) == 6  # type: ignore[arg-type]
