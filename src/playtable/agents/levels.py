"""The bot ladders: for each game with opponents, named levels from a beginner's opponent to the
strongest bot a web table can afford, each a level name -> agent spec.

A level is an agent like any other: its name (`beginner`, ..., `strongest`) is accepted
wherever an agent is (`--agent strongest`, a web seat `{"kind": "bot", "agent": "strong"}`),
and a web seat chooser offers the ladder first, by each level's title. A level's spec names
the game's own agents with their options; the spec may change as the bots improve while the
level keeps its name, so a person's "I beat Strong" stays meaningful, and its rating is
measured again (`benchmarks/bot_ratings.py` rates every level; `benchmarks/bot_ladder.py`
shows each level against the one below it and its seconds a move in the server's workers).

How the levels were chosen (docs/web.md "Bot levels"): adjacent levels must be told apart by
their measured ratings (each differs from the one below by more than both intervals), and
every level must answer a move within 1 s at the 95th percentile in a server worker. The
solitaire games (the troll, Rotator) keep their ladders of variants instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from playtable.agents.spec import build_agent
from playtable.core.protocol import Agent, Game


@dataclass(frozen=True)
class Level:
    """One rung of a game's ladder."""

    agent: str
    """The name seats, the command line and the ratings use ("strong")."""
    title: str
    """What a person reads in the seat chooser ("Strong")."""
    spec: str
    """The agent spec it plays as (`ismcts:iterations=40` or a game's bot name)."""
    about: str
    """One line on how it plays, for the seat chooser."""


LADDERS: dict[str, tuple[Level, ...]] = {
    "stardice": (
        Level("beginner", "Beginner", "random-thrower",
              "Throws any die anywhere: a first game."),
        # `random` (a throw of the table's menu at random) was the Casual level: it took 0.33
        # points a seed from random-thrower over 3 paired seeds, no level apart from it. A
        # greedy look at three throws, each played once on a copy of the table, sits between
        # (docs/web.md "Measured: the bot ladders").
        Level("casual", "Casual", "greedy:samples=1,candidates=3",
              "Tries three throws on a copy of the table and keeps the best of them."),
        Level("skilled", "Skilled", "search",
              "Tries a dozen throws on a copy of the table and keeps the best."),
        # A lighter aiming bot (aims=12,scattered=4,samples=2,finalists=2,final_samples=6)
        # beat `search` in all 6 paired games but was not told apart from `aiming` (it took 5
        # of 6 from it; rated 1734 against 1812, both ± 255-266): dropped until measured apart.
        Level("strongest", "Strongest", "aiming",
              "Aims: finds the throw that closes a formation or knocks your ships, tries each "
              "on copies of the table, and throws the best."),
    ),
    "wizard": (
        Level("beginner", "Beginner", "random", "Plays any legal move: a first game."),
        # The heuristic erring on half its decisions (a legal move at random instead): `cautious`
        # was the Casual and was not apart from Strong (`heuristic` took 54.8% [45.0, 64.1] of
        # the points from it over 100 paired seeds at 4 players), and rates 0.3-0.6 screened on
        # 60 seeds each all sat apart from both neighbours (docs/web.md "The wizard ladder
        # apart").
        Level("casual", "Casual", "heuristic:mistakes=0.5",
              "Knows the Strong level's rules of thumb but plays any legal move half the time."),
        Level("strong", "Strong", "heuristic",
              "Rules of thumb for both sides: keys, the door, spells where they hurt most."),
        # No Strongest until a bot beats Strong: `ismcts:iterations=100,rollout_agent=heuristic`
        # (0.54 CPU s a move, p95 0.77, in a server worker at 5 players) lost all 8 games of 4
        # paired seeds at 4 players to `heuristic` (0% a seed, 95% up to 49.0%; docs/web.md
        # "The bot ladders, paired"), so offering it as the strongest would mislead a player.
    ),
}
"""Game id -> its levels, weakest first."""


def ladder(game_id: str) -> tuple[Level, ...]:
    """The levels of `game_id`, weakest first (none for a game without a ladder)."""
    return LADDERS.get(game_id, ())


def level_agents(game: Game[Any, Any], agents: Mapping[str, Callable[[], Agent]]
                 ) -> dict[str, Callable[[], Agent]]:
    """Each level of `game` as an agent factory: the level's spec built from `agents` (the
    game's generic and own agents). A level takes no options of its own: `strong:samples=9`
    is refused, as the level is its spec."""
    def factory(spec: str) -> Callable[[], Agent]:
        return lambda: build_agent(game, agents, spec)

    return {level.agent: factory(level.spec) for level in ladder(game.id)}
