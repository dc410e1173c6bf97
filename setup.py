"""Builds playtable, compiling the troll engine's kernel, the SplitMix64 shuffle and the troll bots'
static scores with mypyc where it can (the engine as installed at OpenSpiel's Klondike speed or
better; the searches' leaf about twice as fast).

Everything else about the package is in pyproject.toml. mypyc turns `COMPILED` into extension
modules that Python imports instead of their sources: the same games, about twice as fast
(troll RULES.md, "The engine"). Where there is no C compiler, no Python headers or no mypyc, or
the compilation fails for any reason, the same files install as Python source and the install
goes on: it never fails because of the compiler. The build says in one line which it did (pip
shows it with `-v`; `make setup` and `make play` print the same line after installing).
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
COMPILED = ["src/playtable/core/splitmix.py", "src/playtable/games/troll/kernel.py",
            "src/playtable/games/troll/evaluation.py", "src/playtable/games/troll/learned.py",
            "src/playtable/games/troll/cards.py"]
# Only the commands that build code compile (not egg_info, dist_info, sdist): pip runs setup.py
# once for each of its steps, and each compilation type-checks the engine first.
BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


def say(line: str) -> None:
    print(f"playtable: {line}", file=sys.stderr, flush=True)


def brief(error: BaseException) -> str:
    """An error in one short line (the compiler's own output is above it)."""
    words = " ".join(str(error).split()) or type(error).__name__
    return words if len(words) <= 120 else words[:117] + "..."


def why_not_compiled() -> str | None:
    """Why this machine cannot compile the engine, or None when it may try."""
    if platform.python_implementation() != "CPython":
        return f"mypyc compiles for CPython, this is {platform.python_implementation()}"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h; Debian's package python3-dev)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "").split()
    if os.name == "posix" and (not compiler or shutil.which(compiler[0]) is None):
        return "no C compiler (Debian's package gcc)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not installed"
    return None


def remove_compiled() -> None:
    """Removes the compiled modules of an earlier build: an editable install's lie beside their
    sources, where Python prefers them to the source, and a build directory's would go into the
    next wheel. Installing as Python source must leave none behind to run old code."""
    for top in [ROOT / "src", *ROOT.glob("build/lib*")]:
        for source in COMPILED:
            module = Path(source).relative_to("src")
            for built in (top / module.parent).glob(module.stem + ".*"):
                if built.suffix in (".so", ".pyd"):
                    built.unlink()
        for shared in top.glob("*__mypyc.*"):
            shared.unlink()


def compiled_extensions() -> list[Any]:
    if not BUILDING & set(sys.argv[1:]):
        return []
    # Every build compiles afresh or installs the source: a compiled module left in build/ by an
    # earlier build is "up to date" for setuptools, which would then skip this machine's compiler
    # (or its absence: CC=false) and ship the old module.
    remove_compiled()
    reason = why_not_compiled()
    if reason is None:
        from mypyc.build import mypycify

        try:
            return mypycify(COMPILED, opt_level="3")
        except SystemExit:  # mypyc's way to stop on a type error, printed above
            reason = "mypyc's type check failed (its messages are above)"
        except Exception as error:
            reason = f"mypyc could not compile it ({brief(error)})"
    remove_compiled()
    say(f"the troll engine installs as Python source: {reason}")
    return []


class BuildOrFallBack(build_ext):
    """Builds the compiled modules all together or not at all: a shim module without its shared
    library would fail to import, while the Python source beside it always works."""

    extensions: list[Any]

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:
            for ext in self.extensions:
                built = Path(self.build_lib) / self.get_ext_filename(self.get_ext_fullname(ext.name))
                built.unlink(missing_ok=True)
            remove_compiled()
            self.extensions = []
            self.distribution.ext_modules = []  # what WheelAsBuilt tags the wheel by
            say(f"the troll engine installs as Python source: compiling failed ({brief(error)})")
            return
        say(f"compiled the troll engine with mypyc: {', '.join(COMPILED)}")


class WheelAsBuilt(bdist_wheel):
    """Tags the wheel by what the build made: `py3-none-any` when the engine went in as Python
    source, this Python and platform's tag when compiled modules are in it. setuptools decides
    before building, when the compilation has not yet had its chance to fail."""

    def run(self) -> None:
        if not self.skip_build:
            self.run_command("build")
        self.root_is_pure = not self.distribution.has_ext_modules()
        super().run()


setup(
    ext_modules=compiled_extensions(),
    cmdclass={"build_ext": BuildOrFallBack, "bdist_wheel": WheelAsBuilt},
)
