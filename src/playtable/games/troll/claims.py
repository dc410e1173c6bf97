"""The troll's design claims (`playtable claims troll`): seed 000 §4.2 ("List intended
consequences") and §7 "Destructive variations", each beside a measured value and its 95 %
interval.

What the claims count is the troll's own (its bridge, cards and events), so it lives here; the
lab runs the games with its agent and supplies the statistics (`core/claims.py`: the lab's
`new_player` and `Estimates`). The counting reads the game as a player would: `new_state`,
`to_json()` (the full dealt position, to see where the ace of clubs lies), `observation(0)` (the
public view), events and `metrics()` of played games.

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

The designer's other claims of §4.2, watched in the final-rules games (`_Designer`):

7. "the row selected for awakening will always have a slight bias towards the row that contains
   more cards": of the cards played while the rows hold different numbers of bricks, the share
   that names the row with more (all cards, and drawn cards alone).
8. "With the hardest difficulty, we would have to subdue a minimum of 21 bricks without using
   bricks as items": the bricks subdued (stomped, clubbed, hit by a thrown diamond, shovelled) in
   each won game, the fewest, and the fewest stomps in a game won without using an item.
9. Hearts "are specifically in the game to dismay the player": the fate of each awakened brick,
   hearts against the other suits: escaped (fled, or flew away at a second awakening), or still
   awake when the game was lost.
10. "the game's design discourages stomping from being repeatedly possible": the share of turns
    in which a stomp is legal at some decision, and of those followed by another such turn;
    picking up, for comparison.
11. "The ends of the bridge are the most tactically dangerous": awakened bricks escaping by the
    position they awoke at (ends 1/6, second 2/5, middle 3/4), and the turns lost by where the
    troll stood when its actions began.
12. "three turns to cross": on the bridge of every turn played, the fewest turns (two steps a turn)
    from a brick at one end to a brick at the other.

Shares of turns or bricks carry a game-clustered 95 % interval (the lab's `Estimates.clustered`,
since the events of one game are not independent draws).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtable.core.claims import Claim, ClusterSums, DesignClaims, Estimates, Move, Player
from playtable.core.params import params_from_dict
from playtable.core.protocol import Event, Game, State
from playtable.games.troll.cards import HEARTS, card_text, suit

DIFFICULTIES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("final", {}),
    ("plus-one", {"extra_per_slot": 1}),
    ("tutorial", {"extra_per_slot": 2}),
)
SEED_MINIMUM = {"final": 27, "plus-one": 15, "tutorial": 3}


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


def _deal_claims(game: Game[Any, Any], games: int, seed: int, est: Estimates) -> list[Claim]:
    in_bridge = on_top = 0
    for s in range(seed, seed + games):
        bridge = game.new_state(None, s).to_json()["bridge"]
        for row in ("lower", "upper"):
            for stack in bridge[row]:
                if "AC" in stack:
                    in_bridge += 1
                    on_top += stack[-1] == "AC"
    lo, hi = est.wilson(in_bridge, games)
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
    lo, hi = est.wilson(on_top, in_bridge)
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


ROWS = ("lower", "upper")
COLUMNS = 6
PLACES = ("end", "second", "middle")
"""Where a position lies: 1 and 6 the ends, 2 and 5 second, 3 and 4 the middle (§4.2)."""
SUBDUED = ("stomped", "clubbed", "thrown", "shovelled")
ESCAPED = ("fled", "flew_away")


def _place(slot: int) -> str:
    column = slot % COLUMNS
    return PLACES[min(column, COLUMNS - 1 - column)]


def _slot_of(data: dict[str, Any]) -> int:
    return ROWS.index(data["row"]) * COLUMNS + int(data["position"]) - 1


def _heights(obs: dict[str, Any]) -> list[int]:
    return [int(s["height"]) for row in ROWS for s in obs["bridge"][row]]


def _neighbours(slot: int) -> list[int]:
    row, column = divmod(slot, COLUMNS)
    out = [slot + d for d in (-1, 1) if 0 <= column + d < COLUMNS]
    return out + [(1 - row) * COLUMNS + column]


def crossing_turns(heights: list[int]) -> int | None:
    """The fewest troll turns (two steps a turn, onto bricks only: §7.1 "Troll action phase")
    from a brick at one end of the bridge to a brick at the other, or None if no way exists."""
    start = [s for s in (0, COLUMNS) if heights[s]]
    dist = {s: 0 for s in start}
    queue = list(start)
    for slot in queue:
        for nxt in _neighbours(slot):
            if heights[nxt] and nxt not in dist:
                dist[nxt] = dist[slot] + 1
                queue.append(nxt)
    ends = [dist[s] for s in (COLUMNS - 1, 2 * COLUMNS - 1) if s in dist]
    return (min(ends) + 1) // 2 if ends else None


@dataclass
class _Watch:
    """One game's tallies for claims 7-12 while `_Designer.play` watches it."""

    rows: list[int] = field(default_factory=lambda: [0, 0])  # [to the bigger row, cards]
    drawn: list[int] = field(default_factory=lambda: [0, 0])  # the same, drawn cards alone
    # per group (heart, other, end, second, middle): [awakened, escaped, still awake when lost]
    fates: dict[str, list[int]] = field(
        default_factory=lambda: {g: [0, 0, 0] for g in ("heart", "other", *PLACES)})
    # [turns, stomp legal, stomp legal in the previous turn too, previous legal, pick-up legal]
    stomps: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    # per place of the troll at the start of its actions: [turns, the game lost in it]
    stands: dict[str, list[int]] = field(default_factory=lambda: {p: [0, 0] for p in PLACES})
    cross: list[int] = field(default_factory=lambda: [0, 0])  # [crossings in 3, turns]
    awake: dict[int, tuple[str, str]] = field(default_factory=dict)  # slot -> (suit, place)
    subdued: int = 0
    stomp_now: bool = False
    pick_now: bool = False
    previous: bool = False
    turn_place: str = ""

    def awoke(self, slot: int, heart: bool) -> None:
        self.awake[slot] = ("heart" if heart else "other", _place(slot))
        for group in self.awake[slot]:
            self.fates[group][0] += 1

    def turn_begins(self, obs: dict[str, Any], crossing_counts: dict[str, int]) -> None:
        """The troll's first decision of a turn: the last turn's stomps are counted, and where
        the troll stands and how fast the bridge can be crossed now."""
        if self.turn_place:
            self.stomps[0] += 1
            self.stomps[1] += self.stomp_now
            self.stomps[2] += self.stomp_now and self.previous
            self.stomps[3] += self.previous
            self.stomps[4] += self.pick_now
            self.previous = self.stomp_now
        self.stomp_now = self.pick_now = False
        self.turn_place = _place(_slot_of(obs["troll"]))
        self.stands[self.turn_place][0] += 1
        turns = crossing_turns(_heights(obs))
        if turns is not None:
            self.cross[0] += turns == 3
            self.cross[1] += 1
            key = str(turns) if turns <= 3 else "4+"
            crossing_counts[key] = crossing_counts.get(key, 0) + 1

    def heard(self, events: list[Event], heights: list[int], set_aside: set[str]) -> None:
        """One action's events, on the bridge of `heights` bricks a slot before it."""
        for e in events:
            d = e.data
            if e.kind in ("card_played", "no_brick"):
                count = [sum(heights[:COLUMNS]), sum(heights[COLUMNS:])]
                if count[0] != count[1]:
                    hit = int(d["row"] == (0 if count[0] > count[1] else 1))
                    self.rows[0] += hit
                    self.rows[1] += 1
                    if card_text(d["card"]) not in set_aside:
                        self.drawn[0] += hit
                        self.drawn[1] += 1
            elif e.kind == "awakened":
                self.awoke(int(d["slot"]), suit(int(d["card"])) == HEARTS)
            elif e.kind in SUBDUED and d.get("slot") is not None:
                self.subdued += 1
                self.awake.pop(int(d["slot"]), None)
                if e.kind == "shovelled":
                    heights[int(d["slot"])] -= 1
            elif e.kind == "picked_up":
                self.awake.pop(int(d["slot"]), None)
                heights[int(d["slot"])] -= 1
            elif e.kind == "laid":
                heights[int(d["slot"])] += 1
            elif e.kind == "fled_step":
                heights[int(d["from"])] -= 1
                heights[int(d["to"])] += 1
                if int(d["from"]) in self.awake:
                    self.awake[int(d["to"])] = self.awake.pop(int(d["from"]))
            elif e.kind in ESCAPED:
                slot = int(d["from"] if e.kind == "fled" else d["slot"])
                heights[slot] -= 1
                for group in self.awake.pop(slot, ()):
                    self.fates[group][1] += 1
            elif e.kind == "fell":
                heights[int(d["slot"])] -= int(d["count"])
            elif e.kind == "lost":
                for groups in self.awake.values():
                    for group in groups:
                        self.fates[group][2] += 1
                if self.turn_place:
                    self.stands[self.turn_place][1] += 1


def _sums(width: int) -> Callable[[], ClusterSums]:
    return lambda: ClusterSums(width)


@dataclass
class _Designer:
    """Claims 7-12's tallies, each game's added to running sums (`ClusterSums`) so that the
    intervals cluster by game while memory stays the same however many games are watched."""

    rows: ClusterSums = field(default_factory=_sums(2))  # (to the bigger row, cards) a game
    rows_drawn: ClusterSums = field(default_factory=_sums(2))
    won: int = 0
    subdued_fewest: int | None = None  # bricks subdued in a won game, the fewest
    subdued_below_21: int = 0
    won_no_item: int = 0
    stomps_fewest_no_item: int | None = None
    club_wins: int = 0
    # `_Watch.fates` a game: escaped (heart, other), still awake when lost (heart, other), and
    # escaped at an end against each other place: (a, n, b, m) for `clustered_diff`
    escaped: ClusterSums = field(default_factory=_sums(4))
    lost: ClusterSums = field(default_factory=_sums(4))
    escaped_of: dict[str, ClusterSums] = field(  # (escaped, awakened) a game, hearts and others
        default_factory=lambda: {group: ClusterSums(2) for group in ("heart", "other")})
    ends: dict[str, ClusterSums] = field(
        default_factory=lambda: {place: ClusterSums(4) for place in ("second", "middle")})
    # `_Watch.stomps` a game: (legal, turns), (again, previous legal), (pick-up legal, turns)
    stomp_legal: ClusterSums = field(default_factory=_sums(2))
    stomp_again: ClusterSums = field(default_factory=_sums(2))
    pick_legal: ClusterSums = field(default_factory=_sums(2))
    stands: dict[str, ClusterSums] = field(  # `_Watch.stands` a game: (lost in it, turns)
        default_factory=lambda: {place: ClusterSums(2) for place in PLACES})
    crossing: ClusterSums = field(default_factory=_sums(2))  # (crossings in 3, turns) a game
    crossing_counts: dict[str, int] = field(default_factory=dict)

    def add(self, watch: _Watch, won: bool, metrics: dict[str, Any]) -> None:
        """One watched game's tallies."""
        self.rows.add(watch.rows[0], watch.rows[1])
        self.rows_drawn.add(watch.drawn[0], watch.drawn[1])
        fates = watch.fates
        self.escaped.add(fates["heart"][1], fates["heart"][0], fates["other"][1], fates["other"][0])
        self.lost.add(fates["heart"][2], fates["heart"][0], fates["other"][2], fates["other"][0])
        for group, sums in self.escaped_of.items():
            sums.add(fates[group][1], fates[group][0])
        for place, sums in self.ends.items():
            sums.add(fates["end"][1], fates["end"][0], fates[place][1], fates[place][0])
        stomps = watch.stomps
        self.stomp_legal.add(stomps[1], stomps[0])
        self.stomp_again.add(stomps[2], stomps[3])
        self.pick_legal.add(stomps[4], stomps[0])
        for place, sums in self.stands.items():
            sums.add(watch.stands[place][1], watch.stands[place][0])
        self.crossing.add(watch.cross[0], watch.cross[1])
        if won:
            self.won += 1
            self.subdued_fewest = _fewest(self.subdued_fewest, watch.subdued)
            self.subdued_below_21 += watch.subdued < 21
            self.club_wins += bool(metrics.get("club_acquired"))
            if not metrics.get("items_used"):
                self.won_no_item += 1
                self.stomps_fewest_no_item = _fewest(self.stomps_fewest_no_item,
                                                     int(metrics.get("stomps", 0)))

    def play(self, state: State, choose: Move,
             heard: Callable[[list[Event], dict[str, Any]], None], limit: int = 10_000) -> None:
        """Play one game to its end with `choose`, watching every action's events; `heard`
        gets each action's events and the observation after it (claim 6)."""
        watch = _Watch()
        obs = state.observation(0)
        for slot, s in enumerate(x for row in ROWS for x in obs["bridge"][row]):
            if s["awake"]:  # an awakening before the first decision (the first turn's)
                watch.awoke(slot, s["cards"][-1].endswith("H"))
        steps = 0
        while not state.is_terminal and steps < limit:
            if obs["actions_left"] == 2:  # the troll's first decision of a turn
                watch.turn_begins(obs, self.crossing_counts)
            legal = [str(a) for a in state.legal_actions()]
            watch.stomp_now = watch.stomp_now or "stomp" in legal
            watch.pick_now = watch.pick_now or any(a.startswith("pick") for a in legal)
            heights = _heights(obs)
            set_aside = set(obs["set_aside"])
            events: list[Event] = list(state.apply(choose()))
            steps += 1
            watch.heard(events, heights, set_aside)
            obs = state.observation(0)
            heard(events, obs)
        self.add(watch, state.returns()[0] >= 1, state.metrics())


def _fewest(fewest: int | None, value: int) -> int:
    return value if fewest is None else min(fewest, value)


def _share(p: tuple[float, float, float]) -> tuple[str, str]:
    return _pct(p[0]), _ci(p[1], p[2])


def _points(d: tuple[float, float, float]) -> str:
    return f"{100 * d[0]:+.1f} points [{100 * d[1]:+.1f}, {100 * d[2]:+.1f}]"


def designer_claims(d: _Designer, agent: str, est: Estimates) -> list[Claim]:
    """Claims 7-12 from the games `d` watched (final rules, `agent` playing)."""
    games = d.rows.games
    out = []
    for label, pairs in (("all cards", d.rows), ("cards drawn from the deck", d.rows_drawn)):
        p = est.clustered(pairs)
        measured, interval = _share(p)
        verdict = "bias towards it" if p[1] > 0.5 else ("bias away" if p[2] < 0.5 else "no bias shown")
        out.append(Claim(f"the row with more bricks is the one awakened ({label}, {agent})",
                         "'a slight bias towards the row that contains more cards' (> 50%)",
                         measured, interval, int(pairs.totals[1]), verdict))
    if d.won:
        measured = (f"fewest {d.subdued_fewest} in {d.won} won games ({d.subdued_below_21} below 21;"
                    f" THE CLUB in {d.club_wins}); won without an item: {d.won_no_item}"
                    + (f", fewest stomps {d.stomps_fewest_no_item}" if d.won_no_item else ""))
        verdict = "consistent" if d.subdued_below_21 == 0 else "fewer seen"
    else:
        measured, verdict = "no game won", "not measured"
    out.append(Claim(f"bricks subdued in a won game, final rules ({agent})",
                     "'a minimum of 21 bricks' (without using bricks as items)", measured, "exact",
                     d.won, verdict))
    escaped = est.clustered_diff(d.escaped)
    lost = est.clustered_diff(d.lost)
    hearts = est.clustered(d.escaped_of["heart"])
    others = est.clustered(d.escaped_of["other"])
    out.append(Claim(f"awakened hearts escape, against other suits ({agent})",
                     "hearts 'dismay the player' (they cannot be picked up)",
                     f"{_pct(hearts[0])} against {_pct(others[0])}: {_points(escaped)}", "", games,
                     "hearts worse" if escaped[1] > 0 else ("hearts better" if escaped[2] < 0
                                                            else "no difference shown")))
    out.append(Claim(f"… still awake when the game is lost, hearts against other suits ({agent})",
                     "hearts 'risk loss from double awakening'",
                     _points(lost), "", games,
                     "hearts worse" if lost[1] > 0 else ("hearts better" if lost[2] < 0
                                                         else "no difference shown")))
    legal = est.clustered(d.stomp_legal)
    again = est.clustered(d.stomp_again)
    pick = est.clustered(d.pick_legal)
    out.append(Claim(f"turns in which a stomp is possible ({agent})",
                     "'discourages stomping from being repeatedly possible'",
                     f"{_pct(legal[0])}; after such a turn {_pct(again[0])} {_ci(again[1], again[2])};"
                     f" picking up {_pct(pick[0])} {_ci(pick[1], pick[2])}",
                     _ci(legal[1], legal[2]), int(d.stomp_legal.totals[1]),
                     "more often in a row" if again[1] > legal[2] else (
                         "less often in a row" if again[2] < legal[1] else "no run shown")))
    for place in ("second", "middle"):
        diff = est.clustered_diff(d.ends[place])
        out.append(Claim(f"awakened at an end against {place} positions: escaped ({agent})",
                         "'awakenings that happen on the end are very difficult to subdue'",
                         _points(diff), "", games,
                         "ends worse" if diff[1] > 0 else ("ends better" if diff[2] < 0
                                                           else "no difference shown")))
    for place in PLACES:
        p = est.clustered(d.stands[place])
        out.append(Claim(f"turns lost with the troll starting at {'an' if place == 'end' else 'a'} "
                         f"{place} position ({agent})",
                         "'the ends of the bridge are the most tactically dangerous'",
                         _pct(p[0]), _ci(p[1], p[2]),
                         int(d.stands[place].totals[1])))
    three = est.clustered(d.crossing)
    counts = ", ".join(f"{k} turns {v}" for k, v in sorted(d.crossing_counts.items()))
    out.append(Claim(f"bridges crossed in three turns, every turn's bridge ({agent})",
                     "'three turns to cross' (two steps a turn, six positions)",
                     f"{_pct(three[0])} ({counts}; never fewer)", _ci(three[1], three[2]),
                     int(d.crossing.totals[1]),
                     "consistent" if three[1] > 0.5 else "differs"))
    return out


@dataclass
class _Played:
    games: int = 0
    wins: int = 0
    club: int = 0
    turns: ClusterSums = field(default_factory=_sums(1))  # turns a game, as running sums
    awakenings_won_fewest: int | None = None
    near: int = 0
    awakenings: int = 0
    minimum: int = -1


def _play(game: Game[Any, Any], difficulty: dict[str, Any], games: int, seed: int,
          player: Player, on_game: Callable[[bool], None] | None = None,
          designer: _Designer | None = None) -> _Played:
    params = params_from_dict(game.params_type, difficulty)
    out = _Played()

    def heard(events: list[Event], obs: dict[str, Any]) -> None:
        troll = _slot(obs["troll"])
        for event in events:
            if event.kind == "card_played" and "slot" in event.data:
                slot = int(event.data["slot"])
                target = (slot // 6, slot % 6 + 1)
                out.awakenings += 1
                out.near += _within_one_step(target, troll)

    for s in range(seed, seed + games):
        state = game.new_state(params, s)
        obs = state.observation(0)
        played = len(obs["flight_stacks"]["lower"]) + len(obs["flight_stacks"]["upper"])
        out.minimum = obs["deck_count"] + len(obs["set_aside"]) + played - 1
        choose = player(state, s)
        if designer is not None:
            designer.play(state, choose, heard)
        steps = 0
        while not state.is_terminal and steps < 10_000:
            events = list(state.apply(choose()))
            steps += 1
            heard(events, state.observation(0))
        metrics = state.metrics()
        out.games += 1
        out.turns.add(metrics.get("turns", 0))
        if metrics.get("club_acquired"):
            out.club += 1
        if state.returns()[0] >= 1:
            out.wins += 1
            out.awakenings_won_fewest = _fewest(out.awakenings_won_fewest,
                                                int(metrics.get("awakenings", 0)))
        if on_game is not None:
            on_game(state.returns()[0] >= 1)
    return out


def _played_claims(played: dict[str, _Played], games: int, agent: str,
                   est: Estimates) -> list[Claim]:
    """The claims of the games played at every difficulty: THE CLUB, the minimum awakenings,
    game time, and how easy a game can be (`_easy_game_claims`)."""
    claims: list[Claim] = []
    final = played["final"]
    lo, hi = est.wilson(final.club, final.games)
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
        won = p.awakenings_won_fewest
        fewest = f"; fewest in a won game {won}" if won is not None else "; no game won"
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
        mean, low, high = est.mean_interval(p.turns)
        means[name] = mean
        wins_lo, wins_hi = est.wilson(p.wins, p.games)
        claims.append(
            Claim(
                f"game time, {name} (turns per game, {agent})",
                "balanced between difficulties",
                f"{mean:.1f} turns (win rate {_pct(p.wins / p.games)} {_ci(wins_lo, wins_hi)})",
                f"[{low:.1f}, {high:.1f}]",
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
    return claims + _easy_game_claims(final, est)


def _easy_game_claims(final: _Played, est: Estimates) -> list[Claim]:
    """§4.2 "A really easy game is unlikely", from the awakenings of the final-rules games."""
    claims: list[Claim] = []
    near, total = final.near, final.awakenings
    lo, hi = est.wilson(near, total)
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


class TrollClaims(DesignClaims):
    """Seed 000's claims about the troll game (`TrollGame.claims()`)."""

    title = "troll design claims (seed 000 §4.2)"
    runs = tuple(name for name, _ in DIFFICULTIES)

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    def measure(self, games: int, seed: int, agent: str, new_player: Callable[[], Player],
                estimates: Estimates,
                on_game: Callable[[str, bool], None] | None = None) -> list[Claim]:
        """Every claim above, measured on `games` seeds from `seed` with `agent` playing;
        `on_game(difficulty, won)` hears of every game played (a progress bar)."""
        claims = _deal_claims(self.game, games, seed, estimates)
        played = {}
        designer = _Designer()
        for name, values in DIFFICULTIES:
            def heard(won: bool, name: str = name) -> None:
                if on_game is not None:
                    on_game(name, won)

            played[name] = _play(self.game, values, games, seed, new_player(), heard,
                                 designer if name == "final" else None)
        return (claims + _played_claims(played, games, agent, estimates)
                + designer_claims(designer, agent, estimates))
