"""Scoring cases for the final rules and each earlier scoring system (seed 002)."""

from __future__ import annotations

from playtable.games.stardice.formation import FormationParams, detect, static_layout
from playtable.games.stardice.scoring import (
    DieInfo,
    ScoringRules,
    formation_points,
    objective1_target,
    score_table,
    zeroed,
)

TRI = {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.4, 0.45)}
LINE = {"p": (0.6, 0.65), "q": (0.8, 0.65)}
LONE = {"z": (0.95, 0.05)}
LAYOUT = static_layout({**TRI, **LINE, **LONE})


def dice(**values: tuple[int | None, int]) -> dict[str, DieInfo]:
    return {k: DieInfo(o, v, 0) for k, (o, v) in values.items()}


def test_final_points_table() -> None:
    """Iteration 5 / final: string 1, 3 -> 3, 4 -> 6 ... 13 -> 73, single 0; past 13 the
    steps keep growing (interpretation)."""
    expected = {3: 3, 4: 6, 5: 10, 6: 15, 7: 21, 8: 28, 9: 35, 10: 43, 11: 52, 12: 62, 13: 73}
    assert {n: formation_points(n) for n in expected} == expected
    assert formation_points(14) == 85 and formation_points(15) == 98


def test_final_ownership_by_highest_sum() -> None:
    """Final rules, step 4: the player with the highest total of rolled values owns it."""
    d = dice(a=(0, 6), b=(1, 5), c=(1, 3), p=(0, 2), q=(1, 2), z=(0, 20))
    s = score_table(LAYOUT, {}, d)
    tri = s.shapes[0]
    assert tri.kind == "formation" and tri.totals == (6, 8) and tri.owner == 1 and tri.points == 3
    string = s.shapes[1]
    assert string.kind == "string" and string.owner is None  # tie 2-2: nobody
    assert s.shapes[2].kind == "single" and s.shapes[2].points == 0
    assert s.points == (0, 3)


def test_final_ties_score_nothing() -> None:
    d = dice(a=(0, 6), b=(1, 5), c=(0, 0), p=(0, 2), q=(0, 2), z=(0, 20))
    d["c"] = DieInfo(1, 1)
    s = score_table(LAYOUT, {}, d)
    assert s.shapes[0].owner is None and s.shapes[0].note.startswith("tie")
    assert s.points == (1, 0)  # the string p-q is player 0's alone


def test_final_borg_must_be_beaten_and_pays_its_pips() -> None:
    """Final rules: with the Borg die in a formation the winner's total must be greater than
    the Borg's rolled number, and then the winner gains the pips face-up as a bonus."""
    base = {"a": DieInfo(0, 12), "b": DieInfo(1, 5), "p": DieInfo(0, 1), "q": DieInfo(1, 3),
            "z": DieInfo(0, 4)}
    s = score_table(LAYOUT, {}, {**base, "c": DieInfo(None, 16, 4)})
    assert s.shapes[0].owner is None and "Borg" in s.shapes[0].note
    s = score_table(LAYOUT, {}, {**base, "a": DieInfo(0, 12), "c": DieInfo(None, 8, 3)})
    assert s.shapes[0].owner == 0 and s.shapes[0].bonus == 3
    assert s.points == (6, 1)
    # equal to the Borg is not enough ("greater than")
    s = score_table(LAYOUT, {}, {**base, "a": DieInfo(0, 8), "c": DieInfo(None, 8, 3)})
    assert s.shapes[0].owner is None


def test_iteration7_borg1_gives_no_bonus() -> None:
    """Iteration 7 "Borg 1": the doubling Borg die must be beaten but pays no bonus."""
    d = {"a": DieInfo(0, 12), "b": DieInfo(1, 5), "c": DieInfo(None, 4, 2), "p": DieInfo(0, 1),
         "q": DieInfo(1, 3), "z": DieInfo(0, 4)}
    s = score_table(LAYOUT, {}, d, ScoringRules(borg_bonus=False))
    assert s.shapes[0].owner == 0 and s.shapes[0].bonus == 0 and s.points == (3, 1)


def test_borg_in_a_string_must_be_beaten_but_pays_no_bonus() -> None:
    """Iteration 7: "This bonus only applies to closed shapes"."""
    d = {"a": DieInfo(0, 1), "b": DieInfo(1, 1), "c": DieInfo(1, 1), "p": DieInfo(None, 8, 3),
         "q": DieInfo(1, 9), "z": DieInfo(0, 4)}
    s = score_table(LAYOUT, {}, d)
    assert s.shapes[1].owner == 1 and s.shapes[1].bonus == 0


def test_final_merged_dice_count_for_ownership_not_size() -> None:
    """Final rules, other rules: two dice detected as one count for ownership, and the
    formation is not re-scored for the extra die."""
    members = {"c": ("c", "c2")}
    d = dice(a=(0, 6), b=(0, 5), c=(1, 3), c2=(1, 10), p=(0, 2), q=(1, 3), z=(0, 20))
    s = score_table(LAYOUT, members, d)
    tri = s.shapes[0]
    assert tri.dice == ("a", "b", "c", "c2") and tri.totals == (11, 13) and tri.points == 3
    assert tri.owner == 1


def test_forfeit_scores_the_other_as_if_the_forfeiter_rolled_zeroes() -> None:
    d = dice(a=(0, 6), b=(1, 5), c=(1, 3), p=(0, 2), q=(1, 2), z=(0, 20))
    s = score_table(LAYOUT, {}, zeroed(d, 1))
    assert s.points == (4, 0)


def test_iteration1_multipliers() -> None:
    """Iteration 1: singles and dice outside closed shapes score their face; a closed shape of
    3 doubles, 4 triples (multiplier n-1)."""
    d = dice(a=(0, 4), b=(0, 6), c=(0, 8), p=(0, 2), q=(0, 3), z=(0, 20))
    s = score_table(LAYOUT, {}, d, ScoringRules(system="multiplier"), players=1)
    assert s.points == (2 * 18 + 5 + 20,)
    square = static_layout({"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.5, 0.5), "d": (0.3, 0.5)})
    d4 = dice(a=(0, 1), b=(0, 1), c=(0, 1), d=(0, 1))
    assert score_table(square, {}, d4, ScoringRules(system="multiplier"), 1).points == (12,)


def test_iteration2_singles_worth_one_and_objectives() -> None:
    """Iteration 2: singles are worth 1, connected dice their face; objective 1's blank d6 is
    always 0 (it still makes shapes); objective 2 scores the red dice the same way, mixed."""
    rules = ScoringRules(system="multiplier", single_value="one")
    d = dice(a=(0, 4), b=(0, 6), c=(0, 0), p=(0, 2), q=(1, 3), z=(1, 20))
    s = score_table(LAYOUT, {}, d, rules)
    assert s.points == (2 * 10 + 2, 3 + 1)
    assert objective1_target(1) == 10 and objective1_target(3) == 30


def test_iteration2_dice_seen_as_one_lying_alone_score_one() -> None:
    """Iteration 2 ("Changes to rules of play"): dice detected as one are a single die whose
    value is their sum, and a single die is worth 1 (RULES.md interpretation 36): a d20 and a
    d12 touching at (0.20, 0.20) and (0.22, 0.20) with a d6 far away score 2, not 3; a mixed
    pair's point goes to the higher sum, a tie to nobody."""
    rules = ScoringRules(system="multiplier", single_value="one")
    seen = detect([("a", 0.20, 0.20), ("b", 0.22, 0.20), ("c", 0.80, 0.60)],
                  FormationParams().merge_distance)
    layout = static_layout({o.id: (o.x, o.y) for o in seen})
    merged = {o.id: o.members for o in seen}
    assert sorted(len(ms) for ms in merged.values()) == [1, 2] and len(layout.singles) == 2
    same = dice(a=(0, 20), b=(0, 12), c=(0, 6))
    assert score_table(layout, merged, same, rules, players=1).points == (2,)
    mixed = dice(a=(0, 20), b=(1, 12), c=(1, 6))
    assert score_table(layout, merged, mixed, rules).points == (1, 1)
    tied = dice(a=(0, 7), b=(1, 7), c=(1, 6))
    assert score_table(layout, merged, tied, rules).points == (0, 1)


def test_iteration3_scoring1_maximum_times_multiplier() -> None:
    """Iteration 3, Scoring 1: single 1, string its maximum, closed n-shape (n-1) x maximum;
    only the player holding the maximum scores; a tie scores nothing."""
    rules = ScoringRules(system="max")
    d = dice(a=(0, 4), b=(1, 6), c=(0, 5), p=(0, 9), q=(1, 9), z=(1, 20))
    s = score_table(LAYOUT, {}, d, rules)
    assert (s.shapes[0].owner, s.shapes[0].points) == (1, 12)
    assert s.shapes[1].owner is None  # 9 against 9
    assert s.points == (0, 12 + 1)


def test_iteration3_neutral_die_must_not_be_the_maximum() -> None:
    """Iteration 3/4: the neutral die may be in shapes, but if it is the maximum nobody
    scores."""
    rules = ScoringRules(system="max")
    d = dice(a=(0, 4), b=(1, 6), c=(None, 12), p=(0, 9), q=(1, 2), z=(1, 20))
    s = score_table(LAYOUT, {}, d, rules)
    assert s.shapes[0].owner is None and "neutral" in s.shapes[0].note
    assert s.points == (9, 1)


def test_iteration3_scoring2_best_shape_only() -> None:
    """Iteration 3, Scoring 2: a player's score is the maximum of their shapes."""
    d = dice(a=(0, 4), b=(1, 6), c=(0, 5), p=(1, 3), q=(1, 9), z=(1, 20))
    s = score_table(LAYOUT, {}, d, ScoringRules(system="max_best"))
    assert s.points == (0, 12)


def test_iteration4_merged_dice_worth_their_maximum() -> None:
    """Iteration 4: dice detected as one are worth the maximum of both; the owner of that
    maximum takes the shape if it is the shape's maximum."""
    d = dice(a=(0, 4), b=(1, 6), c=(0, 2), c2=(1, 11), p=(0, 1), q=(1, 2), z=(1, 20))
    s = score_table(LAYOUT, {"c": ("c", "c2")}, d, ScoringRules(system="max"))
    assert s.shapes[0].owner == 1 and s.shapes[0].points == 2 * 11
