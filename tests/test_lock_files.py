"""The lock files `make setup` and CI install from cover pyproject.toml: every
dependency of the base is pinned in requirements/play.txt and requirements/all.txt, every one
of an extra in all.txt, each with hashes, and torch exactly at the CPU build. A dependency added
to pyproject.toml without `make lock` fails here, not on a fresh machine."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)", line)
        if match:
            pins[match.group(1).lower().replace("_", "-")] = match.group(2)
    return pins


def test_every_dependency_is_pinned_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    play = _pins(ROOT / "requirements" / "play.txt")
    everything = _pins(ROOT / "requirements" / "all.txt")
    for requirement in project["dependencies"]:
        assert _name(requirement) in play, f"{requirement}: run `make lock`"
        assert _name(requirement) in everything, f"{requirement}: run `make lock`"
    for extra in ("dev", "lab", "rl", "ray"):
        for requirement in project["optional-dependencies"][extra]:
            assert _name(requirement) in everything, f"{requirement} ({extra}): run `make lock`"
    assert everything["torch"].startswith("2.13.0")
    for lock in ("play.txt", "all.txt"):
        text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
        assert text.count("==") <= text.count("--hash=sha256:")


def test_the_build_requirements_are_pinned_with_hashes_as_in_the_other_locks() -> None:
    """`make setup` and `make play` build the package (setup.py: mypyc compiles the troll engine)
    without build isolation, from requirements/build.txt: every [build-system] requirement pinned
    there with hashes, at the version all.txt and play.txt pin too (one venv holds them all)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requires = pyproject["build-system"]["requires"]
    build = _pins(ROOT / "requirements" / "build.txt")
    for requirement in requires:
        assert _name(requirement) in build, f"{requirement} (build-system): run `make lock`"
    for lock in ("play.txt", "all.txt"):
        for name, version in _pins(ROOT / "requirements" / lock).items():
            assert build.get(name, version) == version, f"{name}: build.txt and {lock} differ: make lock"
    text = (ROOT / "requirements" / "build.txt").read_text(encoding="utf-8")
    assert text.count("==") <= text.count("--hash=sha256:")
