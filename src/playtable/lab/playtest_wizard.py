"""The Wizard's Labyrinth (seed 003): the weekly updates' worries, measured.

The same agent plays every seat. Questions about a rule change (traps: 8 Nov's scaled save
against the beta rule's save per trap; the rage on or off) are answered on common seeds, so the
difference is the rule's and the share of seeds whose winner changes says how often the rule
decides a game. Sticking together is an association, not an experiment: games where the heroes
spent more hero turns on one tile are compared with games where they spent fewer.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from playtable.lab.playtest import Answer, mean_of, play, rate
from playtable.lab.runner import RunOptions
from playtable.lab.stats import paired

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


def answers(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    final = play("wizard", agent, games, seed, options, params=["players=4"], probe=PROBE)
    out = [_together(agent, final), *_traps(agent, games, seed, options, final), _wheel(agent, final)]
    out += _rage(agent, games, seed, options, final)
    out += _per_count_and_version(agent, games, seed, options)
    return out


def _together(agent: str, rows: list[dict[str, Any]]) -> Answer:
    shares = sorted(float(r["probe"]["together"]) for r in rows if r.get("probe"))
    median = shares[len(shares) // 2] if shares else 0.0
    high = [r for r in rows if r.get("probe") and r["probe"]["together"] > median]
    low = [r for r in rows if r.get("probe") and r["probe"]["together"] <= median]
    hero_wins_high = sum(1 - _wizard_won(r) for r in high if r.get("winners"))
    hero_wins_low = sum(1 - _wizard_won(r) for r in low if r.get("winners"))
    answer = rate("Are the heroes too strong when they stick together?", SOURCE_UPDATE,
                  "'the heroes were too powerful when they stuck together' (so Switcheroo and "
                  "Whirlwind were added)", agent, hero_wins_high, len(high),
                  f"heroes' wins when together more than the median ({100 * median:.0f}% of hero turns); "
                  f"{100 * hero_wins_low / max(1, len(low)):.1f}% otherwise (association, 4 players)")
    answer.detail = [{"games": "together above median", "n": len(high), "hero_wins": hero_wins_high},
                     {"games": "together at or below", "n": len(low), "hero_wins": hero_wins_low}]
    return answer


def _traps(agent: str, games: int, seed: int, options: RunOptions | None,
           final: list[dict[str, Any]]) -> list[Answer]:
    beta = play("wizard", agent, games, seed, options, params=["players=4", "trap_rule=per_trap",
                                                                "trap_save=10"], probe=PROBE)
    out = []
    for label, rows in (("8 Nov scaled save", final), ("beta: 10+ per trap", beta)):
        damage = [float(r["probe"]["trap_damage"]) for r in rows if r.get("probe")]
        a = mean_of(f"Are traps too strong? (trap damage per game, {label})", SOURCE_UPDATE,
                    "'the traps were too powerful ... 2 damage for each trap' (beta); 8 Nov: one "
                    "save per hero, 7+/10+/13+ by trap count, 2 damage", agent, damage, "damage to heroes")
        saves: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in rows:
            for need, (hit, n) in (r.get("probe") or {}).get("saves", {}).items():
                saves[need][0] += hit
                saves[need][1] += n
        a.detail = [{"save_needed": f"{k}+", "rolls": v[1], "hit_share": round(v[0] / v[1], 3) if v[1] else 0}
                    for k, v in sorted(saves.items(), key=lambda kv: int(kv[0]))]
        out.append(a)
    d = paired([_wizard_won(r) for r in beta], [_wizard_won(r) for r in final])
    out.append(Answer("Are traps too strong? (the wizard's win rate, 8 Nov rule minus beta rule)",
                      SOURCE_UPDATE, "the 8 Nov rule was meant to weaken traps", agent,
                      f"{100 * d.diff:+.1f} points (paired seeds; {d.a_only + d.b_only} of {d.n} "
                      f"games change winner)", d.diff, d.low, d.high, d.n, unit="points"))
    return out


def _wheel(agent: str, rows: list[dict[str, Any]]) -> Answer:
    by_round: dict[int, list[float]] = defaultdict(list)
    for r in rows:
        for i, w in enumerate((r.get("probe") or {}).get("wheel", [])[:ROUNDS_SHOWN]):
            by_round[i + 1].append(float(w))
    late = by_round.get(min(10, max(by_round, default=1)), [])
    answer = mean_of("How fast does the Mana Wheel grow?", "weekly update, 26 Oct ('the wizard gain "
                     "to much mana to fast'; the +1 per turn removed)", "too fast with +1 a turn; "
                     "tiles alone after the change", agent, late,
                     f"on the wheel at wizard turn {min(10, max(by_round, default=1))}")
    answer.detail = [{"wizard_turn": k, "mean_wheel": round(sum(v) / len(v), 2), "games": len(v)}
                     for k, v in sorted(by_round.items())]
    return answer


def _rage(agent: str, games: int, seed: int, options: RunOptions | None,
          final: list[dict[str, Any]]) -> list[Answer]:
    happened = sum(1 for r in final if (r.get("probe") or {}).get("rage_round"))
    calm = play("wizard", agent, games, seed, options, params=["players=4", "rage=false"])
    d = paired([_wizard_won(r) for r in calm], [_wizard_won(r) for r in final])
    return [
        rate("How often does the rage happen?", "final rules, 'Rage of the wizard!'", "once 2 of "
             "the 3 keys are found", agent, happened, len(final), "of games (4 players)"),
        Answer("How often does the rage decide the game?", "final rules, 'Rage of the wizard!'",
               "silent", agent, f"winner changes on {100 * (d.a_only + d.b_only) / max(1, d.n):.1f}% of "
               f"seeds without it; the wizard's win rate {100 * d.diff:+.1f} points with it",
               d.diff, d.low, d.high, d.n, unit="points"),
    ]


def _per_count_and_version(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    """The wizard's win rate for each rule version and player count; one answer per player count
    under the final rules, the whole grid as its table."""
    counts: dict[tuple[str, int], tuple[float, int]] = {}
    for version in ("final", "beta", "alpha"):
        for players in (3, 4, 5):
            rows = play("wizard", agent, games, seed, options, variant=version, params=[f"players={players}"])
            counts[(version, players)] = (sum(_wizard_won(r) for r in rows), len(rows))
    detail: list[dict[str, Any]] = [
        {"rules": v, "players": p, "games": n, "wizard_win_rate": round(w / n, 3) if n else None}
        for (v, p), (w, n) in counts.items()
    ]
    out = []
    for players in (3, 4, 5):
        wins, n = counts[("final", players)]
        out.append(rate(f"Is the game fair for the wizard at {players} players?", "weekly update, 26 Oct "
                        "('make the game feel fair for the wizard and the heroes no matter what')",
                        "the goal: fair (50%)", agent, wins, n, "the wizard's win rate, final rules"))
    out[-1].detail = detail
    return out
