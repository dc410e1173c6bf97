"""Parameters of Angry Troll versus Magic Bridge: the final rules by default (seed 000 §7.1),
every destructive variation of §4.1, Test #7's setup ideas (§8.1), and the Day-5 draft rules as
`rules="draft"`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from playtable.core.errors import BadParameter

SLOTS = 6

# Remote bounds (`core.params`; a web client sets only declared values). Every value the
# seeds, variants, lab and tests use lies inside; `validate` refuses the combinations that
# leave no deck of awakening. A new deal takes well under 10 ms at any of them; the dearest
# bot move a client may ask for took 7.3 s (a rollout bot at its bounds, with every toy of
# §4.1) and the depth-2 search at most 2.0 s (benchmarks/remote_bounds.py).


@dataclass(frozen=True)
class TrollParams:
    rules: Literal["final", "draft"] = field(
        default="final",
        metadata={"doc": "final = seed 000 §7.1; draft = Day-5 / §4.1 rules (seed 001)"},
    )
    heights: tuple[int, ...] = field(
        default=(3, 2, 1, 1, 2, 3),
        metadata={"doc": "bricks per slot, positions 1-6, both rows (§6.1); more = easier (§4.1)",
                  "range": (0, 12), "min_items": SLOTS, "max_items": SLOTS},
    )
    extra_per_slot: int = field(
        default=0,
        metadata={
            "doc": "bricks added to every slot: 1 = 15 awakenings, 2 = tutorial (§4.1)",
            "space": (0, 2), "range": (0, 3),
        },
    )
    extra_end_bricks: int = field(
        default=0,
        # §4.1 sets no limit ("Adding more cards to the end slots makes the game slightly
        # easier"); up to 6 keeps a deck of awakening of at least 4 cards on the seed's bridge,
        # and 4 is where the heuristic bot wins about half (ladder-50, docs/lab.md).
        metadata={"doc": "bricks added to each end slot (positions 1 and 6) (§4.1)", "space": (0, 6),
                  "range": (0, 9)},
    )
    troll_starts_with_card: bool = field(
        default=False,
        metadata={
            "doc": "one card from the deck is given to the troll at the start (§4.1)",
            "choices": (False, True),
        },
    )
    reusable_ace_of_diamonds: bool = field(
        default=False,
        metadata={
            "doc": "the ace of diamonds is kept after use, like THE CLUB (§4.1)",
            "choices": (False, True),
        },
    )
    club_from_start: bool = field(
        default=False, metadata={"doc": "the troll starts holding THE CLUB (§4.1)", "choices": (False, True)}
    )
    diamond_from_start: bool = field(
        default=False,
        metadata={
            "doc": "the troll starts holding the ace of diamonds (§4.1 toys)",
            "choices": (False, True),
        },
    )
    # Test #7's setup ideas (seed 000 §8.1, the appendix's Test #7: a tester's "Perhaps start the
    # game with one roll of the die to determine the troll's row to be in, and then the second
    # roll of the die to decide the card to stand on. (The first roll would be 1-3 = bottom, 4-6
    # = top). Or even have the troll always start on the same brick? Then just tell the player to
    # put black cards in the bottom flight stack and red in the top."), off by default (§6.1,
    # §7.1: the first card sets the lower row's colour, the troll starts on a rolled lower brick).
    start_row_roll: bool = field(
        default=False,
        metadata={
            "doc": "a first die roll picks the troll's row, 1-3 = bottom (lower), 4-6 = top "
            "(upper), before the roll for its brick (Test #7; variant row-roll)",
            "choices": (False, True), "dial": False,
        },
    )
    start_position: int = field(
        default=0,
        metadata={
            "doc": "the troll always starts on this brick, 1-6 (of the lower row, or of the rolled "
            "row with start_row_roll); 0 = rolled (§6.1) (Test #7; variant same-start: 3)",
            "range": (0, 6),
        },
    )
    lower_colour: Literal["drawn", "black", "red"] = field(
        default="drawn",
        metadata={
            "doc": "the lower (bottom) flight stack's colour: drawn = set by the first card (§6.1, "
            "§7.1); black = black cards always go to the bottom stack and red to the top, and no "
            "colour card is drawn (Test #7; variant black-lower)",
        },
    )
    win_waits_for_set_aside: bool = field(
        default=False,
        metadata={
            "doc": "the win also waits for the set-aside pile to be played back (the old reading "
            "of §7.1 \"Winning\", RULES.md I8; variant owed-awakenings)",
            "choices": (False, True), "dial": False,
        },
    )
    turn_limit: int = field(
        default=1000, metadata={"doc": "safety stop, counted as a loss; never reached in practice",
                                "range": (1, 1000)}
    )

    def slot_heights(self) -> tuple[int, ...]:
        out = [h + self.extra_per_slot for h in self.heights]
        out[0] += self.extra_end_bricks
        out[-1] += self.extra_end_bricks
        return tuple(out)

    def validate(self) -> None:
        if len(self.heights) != SLOTS:
            raise BadParameter(f"'heights' needs {SLOTS} numbers, got {len(self.heights)}")
        heights = self.slot_heights()
        if min(heights) < 1:
            raise BadParameter("every slot needs at least one brick")
        held = int(self.club_from_start) + int(self.diamond_from_start)
        held += int(self.troll_starts_with_card)
        if 2 * sum(heights) + held + 1 > 52:
            raise BadParameter(
                f"a bridge of {2 * sum(heights)} bricks leaves no deck of awakening (52 cards)"
            )
        if not 0 <= self.start_position <= SLOTS:
            raise BadParameter(f"'start_position' must be 0 (rolled) or a position 1-{SLOTS}")
        if self.turn_limit < 1:
            raise BadParameter("'turn_limit' must be at least 1")


VARIANTS: dict[str, dict[str, object]] = {
    "draft": {"rules": "draft"},
    "easier-ends": {"extra_end_bricks": 1},
    "plus-one": {"extra_per_slot": 1},
    "tutorial": {"extra_per_slot": 2},
    "troll-card": {"troll_starts_with_card": True},
    "reusable-diamond": {"reusable_ace_of_diamonds": True},
    "club-start": {"club_from_start": True},
    "toys": {"club_from_start": True, "diamond_from_start": True, "reusable_ace_of_diamonds": True},
    "owed-awakenings": {"win_waits_for_set_aside": True},
    # Test #7's setup ideas (seed 000 §8.1; RULES.md "Variants", I21).
    "row-roll": {"start_row_roll": True},
    "same-start": {"start_position": 3},
    "black-lower": {"lower_colour": "black"},
    # A difficulty ladder tuned by the lab (`benchmarks/tune_shipped.py --only troll-ladder`): the
    # §4.1 dials at which the heuristic bot wins about 10, 30, 50 and 70 % of deals (re-measured
    # in docs/lab.md, with the expectimax bot's rates on the same rungs). 50 % lies between one
    # more brick in every slot (~55 %) and the ends' dial as it was first bounded (3: ~31 %); four
    # more bricks at each end lands on it.
    "ladder-10": {"extra_end_bricks": 1, "troll_starts_with_card": True, "reusable_ace_of_diamonds": True},
    "ladder-30": {"extra_end_bricks": 3, "reusable_ace_of_diamonds": True},
    "ladder-50": {"extra_end_bricks": 4},
    "ladder-70": {"extra_per_slot": 1, "troll_starts_with_card": True, "diamond_from_start": True},
    # The same ladder for the depth-2 search on the fitted win chance (`expectimax:leaf=learned`,
    # the strongest bot when it was tuned, before `leaf=rows`), which wins
    # about 19 % of the seed's own bridge: its 10 % lies below the seed's "most difficult legal
    # variation", so `expert-10` takes a brick from each second slot (fewer bricks, harder: the
    # other way of §4.1's dial) and gives the ace of diamonds back after every throw. The other
    # rungs add bricks, some a half step of the ends' dial at a time (a win rate moves 10-20
    # points a whole step); `expert-70` also gives the troll a card at the start. Surveyed and
    # re-measured on 2,000 fresh deals each in docs/lab.md ("The expert ladder").
    "expert-10": {"heights": (3, 1, 1, 1, 1, 3), "reusable_ace_of_diamonds": True},
    "expert-30": {"heights": (4, 2, 1, 1, 2, 3), "reusable_ace_of_diamonds": True},
    "expert-50": {"extra_end_bricks": 2},
    "expert-70": {"heights": (6, 3, 1, 1, 2, 5), "troll_starts_with_card": True},
}
