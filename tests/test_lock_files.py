"""The lock files `make setup` and CI install from cover pyproject.toml: every dependency of the
base is pinned in requirements/play.txt and requirements/all.txt, every one of an extra or of the
`test` dependency group in all.txt, the `train` group in train.txt, each with hashes. A
dependency added to pyproject.toml without `make lock` fails here, not on a fresh machine.

Every lock resolves from PyPI alone (`make lock` sets pip's configuration aside): no pin carries
a local version (`2.13.0+cpu`), which PyPI never holds, and all.txt holds no torch, whose PyPI
build for Linux is several GB of CUDA (it is in train.txt, outside `make setup`)."""

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
    for extra in ("lab", "rl", "ray"):
        for requirement in project["optional-dependencies"][extra]:
            assert _name(requirement) in everything, f"{requirement} ({extra}): run `make lock`"
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    for requirement in groups["test"]:
        assert _name(requirement) in everything, f"{requirement} (group test): run `make lock`"
    train = _pins(ROOT / "requirements" / "train.txt")
    for requirement in groups["train"]:
        assert _name(requirement) in train, f"{requirement} (group train): run `make lock`"
    for lock in ("play.txt", "all.txt", "train.txt"):
        text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
        assert text.count("==") <= text.count("--hash=sha256:")


def test_every_lock_resolves_from_pypi_alone() -> None:
    for lock in ("play.txt", "all.txt", "build.txt", "train.txt"):
        for name, version in _pins(ROOT / "requirements" / lock).items():
            assert "+" not in version, f"{name}=={version} in {lock}: a local build PyPI does not hold"
    everything = _pins(ROOT / "requirements" / "all.txt")
    heavy = sorted(n for n in everything if n in ("torch", "triton") or n.startswith(("nvidia-", "cuda-")))
    assert heavy == [], f"{heavy} in all.txt: the training test's torch belongs in train.txt"


def test_the_training_lock_installs_over_everything_else() -> None:
    """`make setup-train` installs train.txt into `make setup`'s venv: the packages both pin are
    at one version (train.txt is compiled with all.txt as its constraints)."""
    everything = _pins(ROOT / "requirements" / "all.txt")
    for name, version in _pins(ROOT / "requirements" / "train.txt").items():
        assert everything.get(name, version) == version, f"{name}: train.txt and all.txt differ: make lock"


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
