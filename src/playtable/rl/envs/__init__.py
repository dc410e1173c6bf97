"""PettingZoo environments, one module per game in PettingZoo's own layout
(`from pettingzoo.classic import chess_v6; chess_v6.env()`):

    from playtable.rl.envs import wizard_v0
    env = wizard_v0.env(players=4)            # AEC, with the standard wrappers
    raw = wizard_v0.raw_env(variant="beta")    # AEC, unwrapped
    par = wizard_v0.parallel_env()             # Parallel API (the heroes move at once)

`troll_v0`, `rotator_v0`, `stardice_v0` and `wizard_v0`; every module has `env` and `raw_env`,
and those whose turns allow it `parallel_env` (see `playtable.rl.multi.PARALLEL_GAMES`). Their
keyword arguments are the game's parameters (`players=4`), plus `variant`, `params` (a dict)
and `render_mode`.
"""
