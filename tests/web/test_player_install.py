"""A player's install (`make play`: requirements/play.txt, no lab or RL extras) must be enough
for the web server: serving, bots and hints import nothing from the lab or RL stacks."""

from __future__ import annotations

import subprocess
import sys

LAB_AND_RL = ("numpy", "pyarrow", "duckdb", "matplotlib", "scipy", "gymnasium", "pettingzoo", "ray", "torch")

PROGRAM = f"""
import os
import sys
from playtable.cli import main
from playtable.web.server.app import create_app
from playtable.web.server.bots import bots
from playtable.agents import available_agents, make_agent
from playtable.core.registry import game_ids, get_game
bots._warm_up(os.getpid())
for game_id in game_ids():
    game = get_game(game_id)
    for name in available_agents(game):
        make_agent(game, name)
loaded = sorted({{m.split(".")[0] for m in sys.modules}} & set({LAB_AND_RL!r}))
print(",".join(loaded))
"""


def test_server_bots_and_hints_import_no_lab_or_rl_package() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
