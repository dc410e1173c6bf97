"""What a fresh machine installs: every pip call of the Makefile reads PyPI alone, a wheel is
tagged by what its build made (`py3-none-any` when the engine went in as Python source, even
after a compiled build in the same tree), and the sdist carries the tests with the classifiers.

The builds are real (`pip wheel`, `python -m build --sdist`) in a copy of the project, without
build isolation: the tools are this venv's, from requirements/build.txt."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT_FILES = ["setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"]
PROJECT_DIRS = ["src", "tests", "docs", "benchmarks", "requirements"]
LEFTOVERS = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd", "*.egg-info")


def _copy_project(to: Path) -> Path:
    for name in PROJECT_FILES:
        shutil.copy2(ROOT / name, to / name)
    for name in PROJECT_DIRS:
        shutil.copytree(ROOT / name, to / name, ignore=LEFTOVERS)
    return to


def _offline_env(**extra: str) -> dict[str, str]:
    """No index at all: these builds use this venv's tools and download nothing."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    return {**env, "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", **extra}


def _wheel(project: Path, out: str, **env: str) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", out, "."],
        cwd=project, env=_offline_env(**env), capture_output=True, text=True, timeout=280,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (project / out).glob("playtable-*.whl")
    return wheel


def _can_compile() -> bool:
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return False
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which("cc") is not None and headers.exists()


@pytest.mark.long
@pytest.mark.timeout(600)  # two real builds, the first compiling with mypyc: minutes on a loaded machine
def test_a_wheel_built_without_a_compiler_is_pure_python_after_a_compiled_build(tmp_path: Path) -> None:
    if not _can_compile():
        pytest.skip("no C compiler, Python headers or mypyc here: nothing is compiled to leave behind")
    project = _copy_project(tmp_path)
    compiled = _wheel(project, "compiled")
    assert not compiled.name.endswith("-py3-none-any.whl")
    assert any(name.endswith(".so") for name in zipfile.ZipFile(compiled).namelist())
    # The same tree again with no compiler (CC=false fails every compilation): build/ holds the
    # compiled modules of the first build, and none may go into this wheel.
    source = _wheel(project, "source", CC="false")
    assert source.name.endswith("-py3-none-any.whl"), source.name
    names = zipfile.ZipFile(source).namelist()
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
    assert "playtable/games/troll/kernel.py" in names
    with zipfile.ZipFile(source) as wheel:
        info = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        assert "Root-Is-Purelib: true" in wheel.read(info).decode()


def test_the_sdist_carries_the_tests_and_the_classifiers(tmp_path: Path) -> None:
    pytest.importorskip("build", reason="the `build` front end (a dependency of pip-tools) is not installed")
    project = tmp_path / "project"
    project.mkdir()
    _copy_project(project)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp_path / "dist")],
        cwd=project, env=_offline_env(), capture_output=True, text=True, timeout=200,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = (tmp_path / "dist").glob("playtable-*.tar.gz")
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        pkg_info = archive.extractfile(f"{sdist.name.removesuffix('.tar.gz')}/PKG-INFO")
        assert pkg_info is not None
        metadata = pkg_info.read().decode()
    tests = {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("*")
             if path.is_file() and "__pycache__" not in path.parts}
    assert tests - members == set()
    assert not [name for name in members if name.endswith((".pyc", ".so"))]
    for needed in ("pyproject.toml", "setup.py", "requirements/all.txt", "docs/lab-notebook.ipynb"):
        assert needed in members
    for classifier in ("Operating System :: Microsoft :: Windows", "Operating System :: MacOS",
                       "Programming Language :: Python :: 3.11",
                       "Topic :: Games/Entertainment :: Board Games"):
        assert f"Classifier: {classifier}" in metadata


def test_every_pip_call_of_the_makefile_reads_pypi_alone() -> None:
    """A folder of wheels or an index in pip's configuration or PIP_* variables (as on this
    project's own machines) must not stand in for PyPI: each pip and pip-compile call runs with
    no configuration file and with every PIP_* variable unset."""
    if shutil.which("make") is None:
        pytest.skip("no make here")
    env = {**os.environ, "PIP_FIND_LINKS": "/somewhere/wheels", "PIP_EXTRA_INDEX_URL": "file:///somewhere"}
    done = subprocess.run(
        ["make", "-n", "-B", "VENV=/nonexistent/venv", "setup", "setup-train", "lock", "fast"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    calls = [line for line in done.stdout.splitlines() if " -m pip " in line or " -m piptools " in line]
    assert len(calls) >= 6, done.stdout
    for call in calls:
        assert "PIP_CONFIG_FILE=/dev/null" in call, call
        assert "-u PIP_FIND_LINKS" in call and "-u PIP_EXTRA_INDEX_URL" in call, call
