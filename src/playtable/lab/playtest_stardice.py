"""Star Dice (seed 002): the playtest questions of the iterations and the Final Rules, measured.

Battle questions are measured on single battles (variant `battle`: the Final Rules with
`war_target=0`), whose last table stays on show when the game ends, so the probe can read the
final score from the public observation (its shapes, owners, points and the Borg's bonus);
the war's length is measured on whole wars to 50. Dice are named by owner: `F.` Federation
(seat 0), `K.` Klingon (seat 1).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from playtable.lab.playtest import Answer, mean_of, play, rate
from playtable.lab.runner import RunOptions

TYPES = ("d4", "d6", "d8", "d10", "d12", "d20")


class BattleProbe:
    """Who threw first in each battle, the formations that closed (by number of objects), and the
    last table's score."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.closed: Counter[int] = Counter()
        self.battles: list[tuple[int | None, list[int]]] = []

    def step(self, state: Any, events: list[Any]) -> None:
        for e in events:
            if e.kind == "first_player":
                self.first = int(e.data["first"])
            elif e.kind == "formation_closed":
                self.closed[len(e.data["objects"])] += 1
            elif e.kind == "battle_scored":
                self.battles.append((self.first, list(e.data["points"])))

    def result(self, state: Any) -> dict[str, Any]:
        obs = state.observation(0)
        return {"battles": self.battles, "closed": dict(self.closed), "score": obs.get("score"),
                "table": obs.get("table")}


PROBE = "playtable.lab.playtest_stardice:BattleProbe"


class QuestionProbe(BattleProbe):
    """BattleProbe, plus per battle what `benchmarks/stardice_questions.py` asks of it: the Borg's
    roller, the formations broken, the dice knocked and knocked off, and each throw's seat and
    die type in order (which dice a player chooses early)."""

    def __init__(self) -> None:
        super().__init__()
        self.roller: int | None = None
        self.broken = self.knocked = self.knocked_off = 0
        self.throws: list[tuple[int, str]] = []
        self.per_battle: list[dict[str, Any]] = []

    def step(self, state: Any, events: list[Any]) -> None:
        if self.roller is None and not self.per_battle:  # the first battle's opening
            self.roller = getattr(state, "borg_roller", None)
        for e in events:
            if e.kind == "battle_started":
                self.roller = e.data.get("roller")
            elif e.kind == "formation_broken":
                self.broken += 1
            elif e.kind == "knocked":
                self.knocked += 1
            elif e.kind == "knocked_off":
                self.knocked_off += 1
            elif e.kind == "landed" and e.data.get("seat") is not None:
                piece = str(e.data["piece"])
                self.throws.append((int(e.data["seat"]), _kind(piece)))
            elif e.kind == "battle_scored":
                self.per_battle.append({
                    "first": self.first, "roller": self.roller, "points": list(e.data["points"]),
                    "broken": self.broken, "knocked": self.knocked,
                    "knocked_off": self.knocked_off, "throws": list(self.throws)})
                self.broken = self.knocked = self.knocked_off = 0
                self.throws = []
        super().step(state, events)

    def result(self, state: Any) -> dict[str, Any]:
        out = super().result(state)
        out["per_battle"] = self.per_battle
        out["metrics"] = dict(state.metrics())
        return out


QUESTION_PROBE = "playtable.lab.playtest_stardice:QuestionProbe"


def _owner(die: str) -> int:
    return 0 if die.startswith("F.") else 1


def _kind(die: str) -> str:
    return die.split(".", 1)[1].rstrip("abcdefgh") if "." in die else die


def answers(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    rows = play("stardice", agent, games, seed, options, variant="battle", probe=PROBE)
    probes = [r["probe"] for r in rows if r.get("probe") and not r.get("error")]
    out = [_first_player(agent, probes), _formations(agent, probes)]
    out += _die_types(agent, probes)
    out += _borg(agent, probes)
    wars = play("stardice", agent, max(2, games // 4), seed, options, probe=PROBE)
    battles = [float(len(r["probe"]["battles"])) for r in wars if r.get("probe") and r.get("completed")]
    out.append(mean_of(
        "How long does a war to 50 last?", "Final Rules, 'War'; eighth iteration ('first player to "
        "reach 50 points wins')", "not measured: the seed gives no length", agent, battles, "battles"))
    return out


def _first_player(agent: str, probes: list[dict[str, Any]]) -> Answer:
    wins = n = 0
    for p in probes:
        for first, points in p["battles"]:
            if first is None or points[0] == points[1]:
                continue
            n += 1
            wins += (points[0] > points[1]) == (first == 0)
    return rate("Does the first player have an advantage?", "Final Rules, 'Starting a battle' (odds "
                "or evens decides who goes first)", "silent: the call is meant to be fair", agent,
                wins, n, "of decided battles won by the player who threw first (50% = no advantage)")


def _formations(agent: str, probes: list[dict[str, Any]]) -> Answer:
    sizes: Counter[int] = Counter()
    for p in probes:
        for size, count in p["closed"].items():
            sizes[int(size)] += count
    battles = max(1, sum(len(p["battles"]) for p in probes))
    total = sum(sizes.values())
    answer = mean_of("How often do closed formations form, by size?", "Final Rules, 'Scoring' "
                     "(closed formations of 3, 4, 5+ objects)", "formations were the point; no rate given",
                     agent, [sum(p["closed"].values()) for p in probes], "closed per battle")
    answer.detail = [{"objects": size, "per_battle": round(sizes[size] / battles, 3),
                      "share": round(sizes[size] / total, 3) if total else 0.0} for size in sorted(sizes)]
    return answer


def _die_types(agent: str, probes: list[dict[str, Any]]) -> list[Answer]:
    """Per die type: does the player with the higher best die of that type win the battle (the
    d20 'everything hinges on'), and does a die of that type end in a shape that scores for its
    owner (are the low-sided dice 'useless')."""
    decides: dict[str, list[int]] = {t: [0, 0] for t in TYPES}
    useful: dict[str, list[int]] = {t: [0, 0] for t in TYPES}
    for p in probes:
        score, table = p.get("score") or {}, p.get("table") or []
        points = score.get("points") or [0, 0]
        best: dict[str, list[int]] = {}
        for piece in table:
            kind, owner = str(piece.get("kind")), piece.get("owner")
            if kind in TYPES and owner in (0, 1):
                best.setdefault(kind, [0, 0])[owner] = max(best.get(kind, [0, 0])[owner], int(piece["value"]))
        if points[0] != points[1]:
            winner = 0 if points[0] > points[1] else 1
            for kind, (a, b) in best.items():
                if a != b and a and b:
                    decides[kind][1] += 1
                    decides[kind][0] += (0 if a > b else 1) == winner
        for shape in score.get("shapes", []):
            for die in shape.get("dice", []):
                kind = _kind(die)
                if kind in TYPES:
                    useful[kind][1] += 1
                    useful[kind][0] += shape.get("owner") == _owner(die) and shape.get("points", 0) > 0
    out = []
    present = [t for t in TYPES if decides[t][1] or useful[t][1]]
    for kind in present:
        hits, n = decides[kind]
        out.append(rate(f"Is the {kind} what everything hinges on?", "third iteration, question 3 "
                        "(Stephen)", "'It seems like everything hinges on the d20.'", agent, hits, n,
                        f"of decided battles won by the player with the higher best {kind}"))
    for kind in present:
        hits, n = useful[kind]
        out.append(rate(f"Is the {kind} useless?", "third iteration, question 3 and "
                        "'What didn't work' (Stephen)", "'The small dice tend to be pretty useless.' / "
                        "'The low-sided dice seem useless.'", agent,
                        hits, n, f"of {kind}s on the table sit in a shape scoring for their owner"))
    return out


def _borg(agent: str, probes: list[dict[str, Any]]) -> list[Answer]:
    in_shape = beaten = decided = battles = 0
    for p in probes:
        score = p.get("score") or {}
        points = score.get("points") or [0, 0]
        battles += 1
        for shape in score.get("shapes", []):
            dice = shape.get("dice", [])
            if "borg" not in dice or dice == ["borg"]:  # the Borg alone is no contest
                continue
            in_shape += 1
            owner = shape.get("owner")
            if owner in (0, 1):
                beaten += 1
                bonus = int(shape.get("bonus") or 0)
                margin = points[owner] - points[1 - owner]
                decided += bonus > 0 and 0 < margin <= bonus
    return [
        rate("Does the Borg die get beaten?", "seventh iteration ('the 64 is so high it can't be "
             "beaten'); Final Rules, 'Scoring'", "8/16/16/24/24/32 chosen so that it can be", agent,
             beaten, in_shape, "of shapes holding the Borg are won by a player"),
        rate("How often does the Borg's bonus decide a battle?", "Final Rules ('bonus points equal "
             "to the number of dots')", "silent", agent, decided, battles,
             "of battles where the winner's margin is no more than the Borg's bonus"),
    ]
