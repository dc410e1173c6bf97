"""The Wizard's Labyrinth (seed 003): the weekly updates' worries, measured.

The same agent plays every seat. Questions about a rule change (traps: 8 Nov's scaled save
against the beta rule's save per trap; the rage on or off) are answered on common seeds, so the
difference is the rule's and the share of seeds whose winner changes says how often the rule
decides a game. Sticking together is an association, not an experiment: games where the heroes
spent more hero turns on one tile are compared with games where they spent fewer.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from playtable.lab.metrics import Moments
from playtable.lab.playtest import Answer, Setting, mean_of, play_each, play_settings, rate
from playtable.lab.runner import RunOptions
from playtable.lab.stats import paired_counts

SOURCE_UPDATE = "weekly update of 26 Oct ('Process', 'Result')"
ROUNDS_SHOWN = 12


class WizardProbe:
    """Per game: whether the living heroes shared one tile at each hero turn, the wheel at each
    wizard turn, trap saves by the roll they needed, trap damage, and the round of the rage."""

    def __init__(self) -> None:
        self.together: list[bool] = []
        self.wheel_by_round: list[int] = []
        self.saves: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        self.trap_damage = 0
        self.rage_round = 0
        self.round = 0

    def step(self, state: Any, events: list[Any]) -> None:
        for e in events:
            if e.kind == "wizard_turn":  # the wheel once this turn's spin (if any) is done
                self.round = int(e.data.get("round", self.round + 1))
                self.wheel_by_round.append(int(state.observation(0)["wizard"]["wheel"]))
            elif e.kind == "hero_turn":
                heroes = [h for h in state.observation(0)["heroes"] if h.get("alive")]
                if len(heroes) > 1:
                    self.together.append(len({h["square"] for h in heroes}) == 1)
            elif e.kind == "trap_save":
                need = int(e.data["need"])
                self.saves[need][1] += 1
                self.saves[need][0] += not e.data["ok"]
            elif e.kind == "damage" and "trap" in e.text:
                self.trap_damage += int(e.data.get("amount", 0))
            elif e.kind == "rage" and not self.rage_round:
                self.rage_round = max(1, self.round)

    def result(self, state: Any) -> dict[str, Any]:
        return {"together": sum(self.together) / len(self.together) if self.together else 0.0,
                "wheel": self.wheel_by_round, "saves": {str(k): v for k, v in self.saves.items()},
                "trap_damage": self.trap_damage, "rage_round": self.rage_round}


PROBE = "playtable.lab.playtest_wizard:WizardProbe"


def _wizard_won(row: dict[str, Any]) -> float:
    return 1.0 if 0 in (row.get("winners") or []) else 0.0


FOUR = ("players=4",)
PAIRED = (Setting(None, FOUR), Setting(None, (*FOUR, "trap_rule=per_trap", "trap_save=10")),
          Setting(None, (*FOUR, "rage=false")))
"""The 4-player rules the paired questions play on every seed: final, beta traps, no rage."""


class _FourPlayers:
    """The paired runs' tallies, a seed's three rows at a time and none kept: running sums,
    the seeds' pairs of results as counts (`stats.paired_counts`), and for the median split of
    sticking together a count of games and hero wins per share seen (a share is hero turns
    together over hero turns, so the distinct shares are bounded by a game's length, not by
    the number of games: the median is exact)."""

    def __init__(self) -> None:
        self.games = self.rage_happened = 0
        self.together: dict[float, list[float]] = defaultdict(lambda: [0, 0.0])  # [games, hero wins]
        self.damage = {label: Moments() for label in TRAP_RULES}
        self.saves: dict[str, dict[str, list[int]]] = {label: defaultdict(lambda: [0, 0])
                                                        for label in TRAP_RULES}
        self.wheel: dict[int, Moments] = defaultdict(Moments)
        self.beta_final: Counter[tuple[float, float]] = Counter()
        self.calm_final: Counter[tuple[float, float]] = Counter()

    def add(self, rows: list[dict[str, Any]]) -> None:
        final, beta, calm = rows
        self.games += 1
        probe = final.get("probe")
        if probe:
            counts = self.together[float(probe["together"])]
            counts[0] += 1
            counts[1] += (1 - _wizard_won(final)) if final.get("winners") else 0
        for label, row in zip(TRAP_RULES, (final, beta), strict=True):
            if row.get("probe"):
                self.damage[label].add(float(row["probe"]["trap_damage"]))
            for need, (hit, n) in (row.get("probe") or {}).get("saves", {}).items():
                self.saves[label][need][0] += hit
                self.saves[label][need][1] += n
        for i, w in enumerate((final.get("probe") or {}).get("wheel", [])[:ROUNDS_SHOWN]):
            self.wheel[i + 1].add(float(w))
        self.rage_happened += bool((final.get("probe") or {}).get("rage_round"))
        self.beta_final[(_wizard_won(beta), _wizard_won(final))] += 1
        self.calm_final[(_wizard_won(calm), _wizard_won(final))] += 1


TRAP_RULES = ("8 Nov scaled save", "beta: 10+ per trap")


def answers(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    four = _FourPlayers()
    play_settings(four.add, "wizard", agent, games, seed, options, PAIRED, probe=PROBE)
    out = [_together(agent, four), *_traps(agent, four), _wheel(agent, four), *_rage(agent, four)]
    out += _per_count_and_version(agent, games, seed, options)
    return out


def _median(counts: dict[float, list[float]]) -> float:
    """The upper median of the shares seen, each as often as its count says."""
    middle = sum(int(c[0]) for c in counts.values()) // 2
    seen = 0
    for share in sorted(counts):
        seen += int(counts[share][0])
        if seen > middle:
            return share
    return 0.0


def _together(agent: str, four: _FourPlayers) -> Answer:
    median = _median(four.together)
    high = [c for share, c in four.together.items() if share > median]
    low = [c for share, c in four.together.items() if share <= median]
    n_high, n_low = int(sum(c[0] for c in high)), int(sum(c[0] for c in low))
    hero_wins_high, hero_wins_low = sum(c[1] for c in high), sum(c[1] for c in low)
    answer = rate("Are the heroes too strong when they stick together?", SOURCE_UPDATE,
                  "'the heroes were too powerful when they stuck together' (so Switcheroo and "
                  "Whirlwind were added)", agent, hero_wins_high, n_high,
                  f"heroes' wins when together more than the median ({100 * median:.0f}% of hero turns); "
                  f"{100 * hero_wins_low / max(1, n_low):.1f}% otherwise (association, 4 players)")
    answer.detail = [{"games": "together above median", "n": n_high, "hero_wins": hero_wins_high},
                     {"games": "together at or below", "n": n_low, "hero_wins": hero_wins_low}]
    return answer


def _traps(agent: str, four: _FourPlayers) -> list[Answer]:
    out = []
    for label in TRAP_RULES:
        a = mean_of(f"Are traps too strong? (trap damage per game, {label})", SOURCE_UPDATE,
                    "'the traps were too powerful ... 2 damage for each trap' (beta); 8 Nov: one "
                    "save per hero, 7+/10+/13+ by trap count, 2 damage", agent, four.damage[label],
                    "damage to heroes")
        saves = four.saves[label]
        a.detail = [{"save_needed": f"{k}+", "rolls": v[1], "hit_share": round(v[0] / v[1], 3) if v[1] else 0}
                    for k, v in sorted(saves.items(), key=lambda kv: int(kv[0]))]
        out.append(a)
    d = paired_counts(four.beta_final)
    out.append(Answer("Are traps too strong? (the wizard's win rate, 8 Nov rule minus beta rule)",
                      SOURCE_UPDATE, "the 8 Nov rule was meant to weaken traps", agent,
                      f"{100 * d.diff:+.1f} points (paired seeds; {d.a_only + d.b_only} of {d.n} "
                      f"games change winner)", d.diff, d.low, d.high, d.n, unit="points"))
    return out


def _wheel(agent: str, four: _FourPlayers) -> Answer:
    by_round = four.wheel
    shown = min(10, max(by_round, default=1))
    answer = mean_of("How fast does the Mana Wheel grow?", "weekly update, 26 Oct ('the wizard gain "
                     "to much mana to fast'; the +1 per turn removed)", "too fast with +1 a turn; "
                     "tiles alone after the change", agent, by_round.get(shown, Moments()),
                     f"on the wheel at wizard turn {shown}")
    answer.detail = [{"wizard_turn": k, "mean_wheel": round(v.total / v.n, 2), "games": v.n}
                     for k, v in sorted(by_round.items())]
    return answer


def _rage(agent: str, four: _FourPlayers) -> list[Answer]:
    d = paired_counts(four.calm_final)
    return [
        rate("How often does the rage happen?", "final rules, 'Rage of the wizard!'", "once 2 of "
             "the 3 keys are found", agent, four.rage_happened, four.games, "of games (4 players)"),
        Answer("How often does the rage decide the game?", "final rules, 'Rage of the wizard!'",
               "silent", agent, f"winner changes on {100 * (d.a_only + d.b_only) / max(1, d.n):.1f}% of "
               f"seeds without it; the wizard's win rate {100 * d.diff:+.1f} points with it",
               d.diff, d.low, d.high, d.n, unit="points"),
    ]


def _per_count_and_version(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    """The wizard's win rate for each rule version and player count; one answer per player count
    under the final rules, the whole grid as its table."""
    counts: dict[tuple[str, int], list[float]] = {}
    for version in ("final", "beta", "alpha"):
        for players in (3, 4, 5):
            tally = counts[(version, players)] = [0.0, 0]  # the wizard's wins, games

            def take(row: dict[str, Any], tally: list[float] = tally) -> None:
                tally[0] += _wizard_won(row)
                tally[1] += 1

            play_each(take, "wizard", agent, games, seed, options, variant=version,
                      params=[f"players={players}"])
    detail: list[dict[str, Any]] = [
        {"rules": v, "players": p, "games": int(n), "wizard_win_rate": round(w / n, 3) if n else None}
        for (v, p), (w, n) in counts.items()
    ]
    out = []
    for players in (3, 4, 5):
        wins, n = counts[("final", players)]
        out.append(rate(f"Is the game fair for the wizard at {players} players?", "weekly update, 26 Oct "
                        "('make the game feel fair for the wizard and the heroes no matter what')",
                        "the goal: fair (50%)", agent, wins, int(n), "the wizard's win rate, final rules"))
    out[-1].detail = detail
    return out
