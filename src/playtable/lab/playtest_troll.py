"""Angry Troll versus Magic Bridge (seed 000 §4.2): the design's claims, game time across the
difficulties, and the troll's tools, measured.

The claims (`games/troll/claims.py`, measured by `lab/claims.py`: `playtable claims troll`) are
folded in as they are.
The tools (a club, a thrown diamond, a shovel, laying a card into the bridge) are counted from
each game's events; a club is any club-shaped brick, THE CLUB among them, and a diamond any
diamond (the events `clubbed` and `thrown` do not say which card struck). Whether a use
"saves" a game would need the same deal replayed without it, which the rules cannot do (the
tool is in the troll's hand); what is measured is the association: the win rate of games in
which a tool was used against those in which it was not, and the share of won games that used
it.
"""

from __future__ import annotations

from typing import Any

from playtable.lab.claims import measure_claims
from playtable.lab.playtest import Answer, claim_games_heard, play_each, rate
from playtable.lab.runner import RunOptions
from playtable.lab.stats import wilson

TOOLS = (("a club (THE CLUB or any club brick)", "clubbed"), ("a thrown diamond", "thrown"),
         ("a shovel (a spade)", "shovelled"), ("laying a card into the bridge", "laid"))


def answers(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    out = []
    for claim in measure_claims("troll", games, seed, agent, claim_games_heard(options)):
        question = claim.claim.replace(f" ({agent})", "").replace(f", {agent})", ")")
        answer = Answer(question, "§4.2 'List intended consequences'", claim.seed_says, agent,
                        f"{claim.measured} {claim.interval}".strip() + (f" ({claim.verdict})" if claim.verdict
                                                                        else ""), n=claim.n)
        out.append(answer)
    tallies = {kind: _ToolTally() for _, kind in TOOLS}

    def take(row: dict[str, Any]) -> None:
        events = row.get("events") or {}
        for kind, tally in tallies.items():
            tally.add(bool(events.get(kind)), bool(row.get("win")))

    play_each(take, "troll", agent, games, seed, options, variant="plus-one")
    for name, kind in TOOLS:
        used, won_used, unused, won_unused = tallies[kind].counts
        wins = won_used + won_unused
        lo, hi = wilson(won_unused, unused)
        a = rate(f"How often does {name} save a game?", "§4.2 and §6 (the tools)", "silent", agent,
                 won_used, wins, f"of won games used it (plus-one deals); games using it won "
                 f"{100 * won_used / max(1, used):.1f}% of {used}, the others "
                 f"{100 * won_unused / max(1, unused):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
        a.detail = [{"games": "used", "n": used, "won": won_used},
                    {"games": "not used", "n": unused, "won": won_unused}]
        out.append(a)
    return out


class _ToolTally:
    """Games that used a tool and games that did not, and how many of each were won: counts
    only, the rows streamed past them."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0, 0]  # used, won using it, not used, won without it

    def add(self, used: bool, won: bool) -> None:
        at = 0 if used else 2
        self.counts[at] += 1
        self.counts[at + 1] += won
