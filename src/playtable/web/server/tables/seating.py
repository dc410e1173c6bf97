"""Who sits where at a rematch that changes the variant (the table menu's "play this variant":
Star Dice's iterations from one page, Objective 1's solitaire among them).

A plain rematch keeps every seat. A variant may have another number of seats (Star Dice's
solitaire has one, every other variant two), so the seats are planned here, as a pure function
the hub applies:

- the same number of seats: every seat stays where it is (kind, agent, token);
- fewer: the player who asked takes the first seat, then the other seats follow in their order
  until the new table is full (a person left out follows the table as a watcher);
- more: every seat stays, and each added seat is a bot, the one a late person's turn gets
  (`stand_in_agent`), since nobody has a token for it yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from playtable.agents import available_agents
from playtable.core.protocol import Game


def stand_in_agent(game: Game) -> str:
    """The bot that stands in for a person: the game's `heuristic`, else `random`."""
    return "heuristic" if "heuristic" in available_agents(game) else "random"


@dataclass(frozen=True)
class SeatPlan:
    new_from_old: list[int | None]
    """For each seat of the new table, the old seat it carries over (None: an added bot)."""

    def old_to_new(self, old_count: int) -> list[int | None]:
        """For each seat of the old table, its seat at the new one (None: not seated there)."""
        out: list[int | None] = [None] * old_count
        for new, old in enumerate(self.new_from_old):
            if old is not None:
                out[old] = new
        return out


def plan_seats(old_count: int, new_count: int, asker: int) -> SeatPlan:
    """The seats of a new table of `new_count` seats made from one of `old_count` at the
    request of seat `asker` (see the module's rules)."""
    if new_count >= old_count:
        return SeatPlan([*range(old_count), *([None] * (new_count - old_count))])
    order = [asker, *(s for s in range(old_count) if s != asker)]
    return SeatPlan(list(order[:new_count]))
