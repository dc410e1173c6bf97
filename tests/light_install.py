"""Run the `playtable` command as on a player's install: the lab and RL extras' modules cannot
be imported (a meta-path finder refuses them). Used by tests/test_light_install.py."""

from __future__ import annotations

import sys
from typing import Any

EXTRAS = {
    "pyarrow",
    "duckdb",
    "matplotlib",
    "scipy",
    "pandas",
    "optuna",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "torch",
    "sb3_contrib",
    "stable_baselines3",
    "ray",
}


class NotInstalled:
    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.split(".")[0] in EXTRAS:
            raise ModuleNotFoundError(f"No module named '{name}'", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())

if __name__ == "__main__":
    from playtable.cli import main

    main(sys.argv[1:])
