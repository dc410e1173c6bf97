"""`playtable claims troll`: the design claims of seed 000 §4.2 ("List intended consequences")
and §7 "Destructive variations", each beside a measured value and its 95 % interval.

Only the protocol is used: `new_state`, `to_json()` (the full dealt position, to see where the
ace of clubs lies), `observation(0)` (the public view), events and `metrics()` of played games.

Claims measured (the seed's words in quotes):

1. "Pr(in bridge) = 24 / 52": the ace of clubs is dealt into the bridge (measured on the deals).
2. "Pr(on top of row) = 6 / 12": given it is in the bridge, it is the top brick of its slot.
3. "the probability of actually getting the club during play is probably only marginally better
   than 1.39%": the share of games in which THE CLUB is picked up, with the given bot.
4. Minimum awakenings "27", "15 minimum awakenings" (one more brick per slot), "3 minimum
   awakenings" (two more): the cards of the deck of awakening once the row colour is set, read
   from the first observation (deck count plus the cards already played, less the colour card);
   and the fewest awakenings in a game the bot won, when it won any.
5. "Game time is balanced between difficulties": mean turns per game at each difficulty.
6. "A really easy game is unlikely": the seed estimates that an awakening lands within one step
   of the troll (same row within one position, or the other row at the troll's position) with
   probability 1/2 * 3/6 + 1/2 * 1/6 = 1/3, and a perfectly easy game as (1/3)^27 ~ 1.3e-13
   ("1.3 / 10 trillion"). We measure the per-awakening share and raise it (and its interval) to
   the 27th power.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtable.agents import make_agent
from playtable.core.params import params_from_dict
from playtable.core.registry import get_game
from playtable.lab.runner import agent_rng
from playtable.lab.stats import Z95, mean_sd, wilson

DIFFICULTIES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("final", {}),
    ("plus-one", {"extra_per_slot": 1}),
    ("tutorial", {"extra_per_slot": 2}),
)
SEED_MINIMUM = {"final": 27, "plus-one": 15, "tutorial": 3}


@dataclass
class Claim:
    claim: str
    seed_says: str
    measured: str
    interval: str
    n: int
    verdict: str = ""


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _ci(low: float, high: float, pct: bool = True) -> str:
    if pct:
        return f"[{_pct(low)}, {_pct(high)}]"
    return f"[{low:.3g}, {high:.3g}]"


def _slot(data: dict[str, Any]) -> tuple[int, int]:
    return (0 if data["row"] == "lower" else 1, int(data["position"]))


def _within_one_step(target: tuple[int, int], troll: tuple[int, int]) -> bool:
    """The seed's model: same row within one position, or the other row at the same position."""
    if target[0] == troll[0]:
        return abs(target[1] - troll[1]) <= 1
    return target[1] == troll[1]


def _deal_claims(games: int, seed: int) -> list[Claim]:
    game = get_game("troll")
    in_bridge = on_top = 0
    for s in range(seed, seed + games):
        bridge = game.new_state(None, s).to_json()["bridge"]
        for row in ("lower", "upper"):
            for stack in bridge[row]:
                if "AC" in stack:
                    in_bridge += 1
                    on_top += stack[-1] == "AC"
    lo, hi = wilson(in_bridge, games)
    claims = [
        Claim(
            "ace of clubs dealt into the bridge",
            "24/52 = 46.15%",
            _pct(in_bridge / games),
            _ci(lo, hi),
            games,
            _verdict(24 / 52, lo, hi),
        ),
    ]
    lo, hi = wilson(on_top, in_bridge)
    claims.append(
        Claim(
            "… and on top of its slot (given in the bridge)",
            "6/12 = 50%",
            _pct(on_top / max(1, in_bridge)),
            _ci(lo, hi),
            in_bridge,
            _verdict(0.5, lo, hi),
        )
    )
    return claims


def _verdict(value: float, lo: float, hi: float) -> str:
    return "consistent" if lo <= value <= hi else ("lower" if hi < value else "higher")


@dataclass
class _Played:
    games: int = 0
    wins: int = 0
    club: int = 0
    turns: list[float] = field(default_factory=list)
    awakenings_won: list[int] = field(default_factory=list)
    near: int = 0
    awakenings: int = 0
    minimum: int = -1


def _play(difficulty: dict[str, Any], games: int, seed: int, agent_spec: str,
          on_game: Callable[[bool], None] | None = None) -> _Played:
    game = get_game("troll")
    params = params_from_dict(game.params_type, difficulty)
    agent = make_agent(game, agent_spec)
    out = _Played()
    for s in range(seed, seed + games):
        state = game.new_state(params, s)
        obs = state.observation(0)
        played = len(obs["flight_stacks"]["lower"]) + len(obs["flight_stacks"]["upper"])
        out.minimum = obs["deck_count"] + len(obs["set_aside"]) + played - 1
        rng = agent_rng(s, 0)
        steps = 0
        while not state.is_terminal and steps < 10_000:
            events = state.apply(agent.choose(state, rng))
            steps += 1
            troll = _slot(state.observation(0)["troll"])
            for event in events:
                if event.kind == "card_played" and "slot" in event.data:
                    slot = int(event.data["slot"])
                    target = (slot // 6, slot % 6 + 1)
                    out.awakenings += 1
                    out.near += _within_one_step(target, troll)
        metrics = state.metrics()
        out.games += 1
        out.turns.append(float(metrics.get("turns", 0)))
        if metrics.get("club_acquired"):
            out.club += 1
        if state.returns()[0] >= 1:
            out.wins += 1
            out.awakenings_won.append(int(metrics.get("awakenings", 0)))
        if on_game is not None:
            on_game(state.returns()[0] >= 1)
    return out


def troll_claims(games: int = 1000, seed: int = 0, agent: str = "heuristic",
                 on_game: Callable[[str, bool], None] | None = None) -> list[Claim]:
    """Every claim above, measured on `games` seeds from `seed` with `agent` playing;
    `on_game(difficulty, won)` hears of every game played (a progress bar)."""
    claims = _deal_claims(games, seed)
    played = {}
    for name, values in DIFFICULTIES:
        def heard(won: bool, name: str = name) -> None:
            if on_game is not None:
                on_game(name, won)

        played[name] = _play(values, games, seed, agent, heard)
    final = played["final"]
    lo, hi = wilson(final.club, final.games)
    claims.append(
        Claim(
            f"THE CLUB acquired during play ({agent})",
            "about 1.39%, 'marginally better'",
            _pct(final.club / final.games),
            _ci(lo, hi),
            final.games,
            _verdict(0.0139, lo, hi),
        )
    )
    for name, _ in DIFFICULTIES:
        p = played[name]
        won = p.awakenings_won or []
        fewest = f"; fewest in a won game {min(won)}" if won else "; no game won"
        claims.append(
            Claim(
                f"minimum awakenings, {name}",
                str(SEED_MINIMUM[name]),
                f"{p.minimum}{fewest}",
                "exact",
                p.games,
                "consistent" if p.minimum == SEED_MINIMUM[name] else "differs",
            )
        )
    means = {}
    for name, _ in DIFFICULTIES:
        p = played[name]
        mean, sd = mean_sd(p.turns or [])
        half = Z95 * sd / math.sqrt(max(1, p.games))
        means[name] = mean
        wins_lo, wins_hi = wilson(p.wins, p.games)
        claims.append(
            Claim(
                f"game time, {name} (turns per game, {agent})",
                "balanced between difficulties",
                f"{mean:.1f} turns (win rate {_pct(p.wins / p.games)} {_ci(wins_lo, wins_hi)})",
                f"[{mean - half:.1f}, {mean + half:.1f}]",
                p.games,
            )
        )
    ratio = max(means.values()) / max(1e-9, min(means.values()))
    claims.append(
        Claim(
            "game time: longest / shortest mean",
            "balanced (near 1)",
            f"{ratio:.2f}",
            "",
            games * 3,
            "balanced" if ratio < 1.5 else "not balanced",
        )
    )
    near, total = final.near, final.awakenings
    lo, hi = wilson(near, total)
    share = near / max(1, total)
    claims.append(
        Claim(
            "awakening within one step of the troll",
            "1/3 (1/2*3/6 + 1/2*1/6)",
            _pct(share),
            _ci(lo, hi),
            total,
            _verdict(1 / 3, lo, hi),
        )
    )
    claims.append(
        Claim(
            "perfectly easy game: that share ^ 27",
            "~1.3e-13 ('1.3 / 10 trillion')",
            f"{share**27:.3g}",
            _ci(lo**27, hi**27, pct=False),
            total,
            "unlikely" if hi**27 < 1e-6 else "not unlikely",
        )
    )
    return claims


def claims_rows(claims: list[Claim]) -> list[dict[str, Any]]:
    return [vars(c) for c in claims]
