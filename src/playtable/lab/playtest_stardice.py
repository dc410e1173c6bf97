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

from playtable.lab.metrics import Moments
from playtable.lab.playtest import Answer, mean_of, play_each, rate
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


class _Battles:
    """The battle questions' tallies, a game's probe at a time and none kept: running counts
    (who threw first and won, formations by size, per die type whether the higher best die won
    and whether a die scored for its owner, the Borg's shapes and bonus), so memory does not
    grow with the number of games."""

    def __init__(self) -> None:
        self.first_wins = self.first_n = 0
        self.sizes: Counter[int] = Counter()
        self.battles = 0
        self.closed = Moments()
        self.decides: dict[str, list[int]] = {t: [0, 0] for t in TYPES}
        self.useful: dict[str, list[int]] = {t: [0, 0] for t in TYPES}
        self.borg_in_shape = self.borg_beaten = self.borg_decided = self.borg_battles = 0

    def add(self, row: dict[str, Any]) -> None:
        probe = row.get("probe")
        if not probe or row.get("error"):
            return
        for first, points in probe["battles"]:
            if first is not None and points[0] != points[1]:
                self.first_n += 1
                self.first_wins += (points[0] > points[1]) == (first == 0)
        for size, count in probe["closed"].items():
            self.sizes[int(size)] += count
        self.battles += len(probe["battles"])
        self.closed.add(sum(probe["closed"].values()))
        score = probe.get("score") or {}
        self._die_types(score, probe.get("table") or [])
        self._borg(score)

    def _die_types(self, score: dict[str, Any], table: list[dict[str, Any]]) -> None:
        """Per die type: does the player with the higher best die of that type win the battle
        (the d20 'everything hinges on'), and does a die of that type end in a shape that scores
        for its owner (are the low-sided dice 'useless')."""
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
                    self.decides[kind][1] += 1
                    self.decides[kind][0] += (0 if a > b else 1) == winner
        for shape in score.get("shapes", []):
            for die in shape.get("dice", []):
                kind = _kind(die)
                if kind in TYPES:
                    self.useful[kind][1] += 1
                    self.useful[kind][0] += shape.get("owner") == _owner(die) and shape.get("points", 0) > 0

    def _borg(self, score: dict[str, Any]) -> None:
        points = score.get("points") or [0, 0]
        self.borg_battles += 1
        for shape in score.get("shapes", []):
            dice = shape.get("dice", [])
            if "borg" not in dice or dice == ["borg"]:  # the Borg alone is no contest
                continue
            self.borg_in_shape += 1
            owner = shape.get("owner")
            if owner in (0, 1):
                self.borg_beaten += 1
                bonus = int(shape.get("bonus") or 0)
                margin = points[owner] - points[1 - owner]
                self.borg_decided += bonus > 0 and 0 < margin <= bonus


def answers(agent: str, games: int, seed: int, options: RunOptions | None) -> list[Answer]:
    tally = _Battles()
    play_each(tally.add, "stardice", agent, games, seed, options, variant="battle", probe=PROBE)
    out = [_first_player(agent, tally), _formations(agent, tally)]
    out += _die_types(agent, tally)
    out += _borg(agent, tally)
    wars = Moments()

    def add_war(row: dict[str, Any]) -> None:
        if row.get("probe") and row.get("completed"):
            wars.add(float(len(row["probe"]["battles"])))

    play_each(add_war, "stardice", agent, max(2, games // 4), seed, options, probe=PROBE)
    out.append(mean_of(
        "How long does a war to 50 last?", "Final Rules, 'War'; eighth iteration ('first player to "
        "reach 50 points wins')", "not measured: the seed gives no length", agent, wars, "battles"))
    return out


def _first_player(agent: str, tally: _Battles) -> Answer:
    return rate("Does the first player have an advantage?", "Final Rules, 'Starting a battle' (odds "
                "or evens decides who goes first)", "silent: the call is meant to be fair", agent,
                tally.first_wins, tally.first_n,
                "of decided battles won by the player who threw first (50% = no advantage)")


def _formations(agent: str, tally: _Battles) -> Answer:
    sizes = tally.sizes
    battles = max(1, tally.battles)
    total = sum(sizes.values())
    answer = mean_of("How often do closed formations form, by size?", "Final Rules, 'Scoring' "
                     "(closed formations of 3, 4, 5+ objects)", "formations were the point; no rate given",
                     agent, tally.closed, "closed per battle")
    answer.detail = [{"objects": size, "per_battle": round(sizes[size] / battles, 3),
                      "share": round(sizes[size] / total, 3) if total else 0.0} for size in sorted(sizes)]
    return answer


def _die_types(agent: str, tally: _Battles) -> list[Answer]:
    decides, useful = tally.decides, tally.useful
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


def _borg(agent: str, tally: _Battles) -> list[Answer]:
    return [
        rate("Does the Borg die get beaten?", "seventh iteration ('the 64 is so high it can't be "
             "beaten'); Final Rules, 'Scoring'", "8/16/16/24/24/32 chosen so that it can be", agent,
             tally.borg_beaten, tally.borg_in_shape, "of shapes holding the Borg are won by a player"),
        rate("How often does the Borg's bonus decide a battle?", "Final Rules ('bonus points equal "
             "to the number of dots')", "silent", agent, tally.borg_decided, tally.borg_battles,
             "of battles where the winner's margin is no more than the Borg's bonus"),
    ]
