"""A table's mid-game proposals to leave its game for a new one (docs/web.md, rematch): who asked
for which variant, whose agreement the last one waits for, and the open proposal as the pages show
it (kept in memory only: a restart drops it, and its asker asks again)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Proposals:
    def __init__(self) -> None:
        self.asked: dict[int, str | None] = {}
        """Seat -> the variant it asked for (None: the same game)."""
        self.waiting: list[int] = []
        """The seats whose people have not yet agreed to the last proposal."""
        self.proposer: int | None = None
        """The seat that made the last proposal."""

    def ask(self, seat: int, variant: str | None, others: list[int]) -> list[int]:
        """Seat `seat` asks for `variant`; `others` are the seats of the other people who sat
        down. The seats that have not asked for the same (empty: everyone agrees)."""
        self.asked[seat] = variant
        self.waiting = [i for i in others if i not in self.asked or self.asked[i] != variant]
        self.proposer = seat
        return self.waiting

    def told(self, label: Callable[[int], str], titles: Mapping[str, str]) -> dict[str, Any] | None:
        """The open proposal as a page shows it, `label` naming a seat and `titles` the game's
        variant titles; None when nobody is left to agree."""
        seat = self.proposer
        if seat is None or not self.waiting:
            return None
        variant = self.asked.get(seat)
        return {"seat": seat, "name": label(seat), "variant": variant,
                "variant_title": titles.get(variant, variant) if variant else None,
                "waiting_for": list(self.waiting)}

    def drop(self) -> None:
        """Someone kept playing: every proposal is gone."""
        self.asked.clear()
        self.waiting = []
        self.proposer = None
