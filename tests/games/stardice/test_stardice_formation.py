"""Hand-built geometry for every rule of the formation engine (seed 002, software design lines
of iterations 1-7), and the property that no layout gives three connections or a crossing."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.games.stardice.formation import (
    FormationEngine,
    FormationParams,
    Sighting,
    angle_between,
    detect,
    segments_cross,
    static_layout,
)

P = FormationParams()


def frame(engine: FormationEngine, pts: dict[str, tuple[float, float]], t: float,
          still: bool = True) -> None:
    engine.update([Sighting(k, x, y, 0.0 if still else None, 0.0 if still else None)
                   for k, (x, y) in pts.items()], t)


def test_iteration1_close_enough_is_a_quarter_of_the_screen() -> None:
    """Iteration 1: dice "close enough" (about a quarter of the screen) connect."""
    assert P.connect_range == 0.25
    lay = static_layout({"a": (0.1, 0.1), "b": (0.34, 0.1)})
    assert lay.edges == (("a", "b"),)
    lay = static_layout({"a": (0.1, 0.1), "b": (0.36, 0.1)})
    assert lay.edges == ()
    assert lay.singles == ("a", "b")


def test_iteration1_at_most_two_connections() -> None:
    """Iteration 1/2: "except for dice that already have two connections" (the bug fixed in
    iteration 2): a hub with four close neighbours keeps only the two nearest."""
    pts = {"hub": (0.5, 0.4), "n": (0.5, 0.5), "e": (0.61, 0.4), "s": (0.5, 0.28),
           "w": (0.37, 0.4)}
    lay = static_layout(pts, FormationParams(min_angle_deg=0))
    assert lay.degree("hub") == 2
    # nearest first: n (0.10), e (0.11); s (0.12) and w (0.13) lose
    assert ("hub", "n") in lay.edges and ("e", "hub") in lay.edges
    assert all(lay.degree(k) <= 2 for k in pts)


def test_tie_breaking_is_by_distance_then_ids_and_order_free() -> None:
    """Documented tie-breaking: equal distances are decided by the id pair in text order, and
    the order in which dice are listed never matters."""
    pts = {"c": (0.5, 0.5), "a": (0.4, 0.5), "b": (0.6, 0.5), "d": (0.5, 0.6)}
    one = static_layout(pts, FormationParams(min_angle_deg=0))
    two = static_layout(dict(reversed(list(pts.items()))), FormationParams(min_angle_deg=0))
    assert one.edges == two.edges
    # all three neighbours of c are 0.1 away: (a,c) and (b,c) come first by id
    assert ("a", "c") in one.edges and ("b", "c") in one.edges and ("c", "d") not in one.edges


def test_iteration4_connections_never_cross() -> None:
    """Iteration 4: "check for crossing connections". The chain e-a-b-f lies first; c and d
    land above and below a-b: a and b are full, and c-d would cross a-b, so c-d stays apart."""
    chain = {"e": (0.2, 0.5), "a": (0.4, 0.5), "b": (0.6, 0.5), "f": (0.8, 0.5)}
    both = {**chain, "c": (0.5, 0.38), "d": (0.5, 0.62)}
    for crossing, expect in ((True, False), (False, True)):
        eng = FormationEngine(FormationParams(settle_time=0.0, check_crossing=crossing))
        frame(eng, chain, 0.0)
        assert eng.layout().strings == (("e", "a", "b", "f"),)
        frame(eng, both, 1.0)
        assert (("c", "d") in eng.layout().edges) is expect


def test_segment_crossing_primitives() -> None:
    assert segments_cross((0, 0), (1, 1), (0, 1), (1, 0))
    assert not segments_cross((0, 0), (1, 0), (1, 0), (2, 1))  # shared end: touching only
    assert segments_cross((0, 0), (2, 0), (0, 0), (1, 0))  # overlapping along a stretch
    assert not segments_cross((0, 0), (1, 0), (0, 1), (1, 1))
    assert segments_cross((0, 0), (2, 0), (1, 0), (1, 1))  # T junction: an end on the segment
    assert math.isclose(angle_between((0, 0), (1, 0), (0, 1)), 90.0)


def test_iteration7_very_small_angles_are_rejected() -> None:
    """Iteration 7: "Re-add angle check, but only for very small angles" (15 degrees)."""
    a, b = (0.3, 0.3), (0.45, 0.3)
    c_small = (0.3 + 0.2 * math.cos(math.radians(10)), 0.3 + 0.2 * math.sin(math.radians(10)))
    lay = static_layout({"a": a, "b": b, "c": c_small})
    assert ("a", "b") in lay.edges and ("a", "c") not in lay.edges
    # b-c is short and at a wide angle at b: allowed
    assert ("b", "c") in lay.edges
    c_wide = (0.3 + 0.2 * math.cos(math.radians(20)), 0.3 + 0.2 * math.sin(math.radians(20)))
    lay = static_layout({"a": a, "b": b, "c": c_wide})
    assert ("a", "c") in lay.edges or ("b", "c") in lay.edges
    # iteration 6 (no angle check): the thin triangle closes
    lay = static_layout({"a": a, "b": b, "c": c_small}, FormationParams(min_angle_deg=0))
    assert len(lay.formations) == 1


def test_iteration2_hysteresis_at_the_threshold() -> None:
    """Iteration 2: "connections can flicker on/off between dice that are almost too far apart":
    an edge forms within 0.25, survives until 0.27, and a pair at 0.26 does not form anew."""
    eng = FormationEngine(FormationParams(settle_time=0.0))
    frame(eng, {"a": (0.2, 0.2), "b": (0.45, 0.2)}, 0.0)
    assert eng.layout().edges == (("a", "b"),)
    frame(eng, {"a": (0.2, 0.2), "b": (0.46, 0.2)}, 1.0)  # moved: disconnected, re-forms? no
    assert eng.layout().edges == ()
    # without the move-disconnect rule, the same edge is kept within the break range
    eng = FormationEngine(FormationParams(settle_time=0.0, disconnect_on_move=False))
    frame(eng, {"a": (0.2, 0.2), "b": (0.45, 0.2)}, 0.0)
    for i, x in enumerate((0.455, 0.46, 0.468, 0.46, 0.45)):
        frame(eng, {"a": (0.2, 0.2), "b": (x, 0.2)}, 1.0 + i)
        assert eng.layout().edges == (("a", "b"),)
    frame(eng, {"a": (0.2, 0.2), "b": (0.475, 0.2)}, 9.0)
    assert eng.layout().edges == ()
    frame(eng, {"a": (0.2, 0.2), "b": (0.46, 0.2)}, 10.0)
    assert eng.layout().edges == ()  # not back until within 0.25 again
    frame(eng, {"a": (0.2, 0.2), "b": (0.449, 0.2)}, 11.0)
    assert eng.layout().edges == (("a", "b"),)


def test_iteration3_jitter_is_ignored() -> None:
    """Iteration 3/4: small movements are discarded; a jittering die keeps its connections and
    its reported position stays its resting point."""
    eng = FormationEngine(FormationParams(settle_time=0.0))
    frame(eng, {"a": (0.2, 0.2), "b": (0.4, 0.2)}, 0.0)
    for i, dx in enumerate((0.002, -0.003, 0.0039, -0.001)):
        frame(eng, {"a": (0.2 + dx, 0.2), "b": (0.4, 0.2 - dx)}, 0.1 * (i + 1))
        lay = eng.layout()
        assert lay.edges == (("a", "b"),)
        assert lay.positions["a"] == (0.2, 0.2)


def test_iteration5_moving_die_connects_only_when_stopped() -> None:
    """Iteration 5: "Connections ... should not be formed until the die has stopped moving"."""
    eng = FormationEngine(P)
    frame(eng, {"a": (0.2, 0.2)}, 0.0)
    frame(eng, {"a": (0.2, 0.2)}, 0.5)
    # b slides in, fast (the tracker sends a speed)
    for i, x in enumerate((0.7, 0.6, 0.5, 0.4)):
        eng.update([Sighting("a", 0.2, 0.2, 0.0, 0.0), Sighting("b", x, 0.2, -1.0, 0.0)],
                   0.6 + 0.05 * i)
        assert eng.layout().edges == ()
        assert "b" not in eng.layout().settled
    # it stops; connection only after settle_time
    eng.update([Sighting("a", 0.2, 0.2, 0.0, 0.0), Sighting("b", 0.38, 0.2, 0.0, 0.0)], 0.8)
    assert eng.layout().edges == ()
    eng.update([Sighting("a", 0.2, 0.2, 0.0, 0.0), Sighting("b", 0.38, 0.2, 0.0, 0.0)], 1.0)
    assert eng.layout().edges == ()
    eng.update([Sighting("a", 0.2, 0.2, 0.0, 0.0), Sighting("b", 0.381, 0.2, 0.0, 0.0)], 1.1)
    assert eng.layout().edges == (("a", "b"),)
    # iteration 1-4 behaviour: moving dice connect at once
    eng = FormationEngine(FormationParams(connect_while_moving=True))
    eng.update([Sighting("a", 0.2, 0.2), Sighting("b", 0.4, 0.2, -1.0, 0.0)], 0.0)
    assert eng.layout().edges == (("a", "b"),)


def test_slow_drift_without_speed_is_caught_from_the_resting_point() -> None:
    """Jitter is measured from the resting point, so a slow drift (each step under the jitter
    threshold) still counts as a move once it adds up."""
    eng = FormationEngine(FormationParams(settle_time=0.0))
    frame(eng, {"a": (0.2, 0.2), "b": (0.4, 0.2)}, 0.0)
    x = 0.4
    for i in range(4):
        x += 0.003
        frame(eng, {"a": (0.2, 0.2), "b": (x, 0.2)}, 0.1 * (i + 1), still=False)
    # after 0.006 the die counted as moved (and disconnected) once, then re-settled
    lay = eng.layout()
    assert lay.positions["b"] != (0.4, 0.2)


def test_iteration7_a_die_that_moves_is_disconnected_from_its_shape() -> None:
    """Iteration 7: "Any dice that move are automatically disconnected from their shapes"."""
    eng = FormationEngine(P)
    tri = {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.4, 0.45)}
    frame(eng, tri, 0.0)
    frame(eng, tri, 1.0)
    assert len(eng.layout().formations) == 1
    # c is nudged 2 cm and moving: all its connections drop, a-b stays
    eng.update([Sighting("a", 0.3, 0.3, 0, 0), Sighting("b", 0.5, 0.3, 0, 0),
                Sighting("c", 0.4, 0.47, 0.0, 0.5)], 1.1)
    lay = eng.layout()
    assert lay.edges == (("a", "b"),) and lay.formations == ()
    assert lay.strings == (("a", "b"),) and lay.singles == ("c",)
    # it stops and re-joins after settle_time
    frame(eng, {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.4, 0.47)}, 1.2)
    frame(eng, {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.4, 0.47)}, 1.6)
    assert len(eng.layout().formations) == 1


def test_a_die_lifted_away_drops_its_connections() -> None:
    eng = FormationEngine(FormationParams(settle_time=0.0))
    frame(eng, {"a": (0.3, 0.3), "b": (0.5, 0.3)}, 0.0)
    frame(eng, {"a": (0.3, 0.3)}, 0.1)
    assert eng.layout().edges == () and eng.layout().singles == ("a",)


def test_shapes_formations_strings_singles() -> None:
    """Closed shapes of three or more dice are formations, open chains strings, others single."""
    pts = {"a": (0.1, 0.1), "b": (0.25, 0.1), "c": (0.175, 0.22),  # triangle
           "p": (0.6, 0.6), "q": (0.75, 0.6), "r": (0.9, 0.6),  # line: string
           "z": (0.95, 0.05)}
    lay = static_layout(pts)
    assert lay.formations == (("a", "b", "c"),)
    assert lay.strings == (("p", "q", "r"),)
    assert lay.singles == ("z",)


def test_square_formation_of_four() -> None:
    pts = {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.5, 0.5), "d": (0.3, 0.5)}
    lay = static_layout(pts)
    assert lay.formations == (("a", "b", "c", "d"),)  # diagonals (0.28) are out of range anyway


def test_final_rules_dice_detected_as_one_are_merged() -> None:
    """Final rules: "two dice so close together that they are detected as a single die": detect
    groups them into one object carrying both dice."""
    objs = detect([("F.d6a", 0.5, 0.5), ("K.d20a", 0.53, 0.5), ("F.d8", 0.7, 0.5)],
                  P.merge_distance)
    assert [o.members for o in objs] == [("F.d6a", "K.d20a"), ("F.d8",)]
    merged = objs[0]
    assert merged.id == "F.d6a+K.d20a" and math.isclose(merged.x, 0.515)


def test_engine_json_round_trip() -> None:
    eng = FormationEngine(P)
    frame(eng, {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.4, 0.45)}, 0.0)
    frame(eng, {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.4, 0.45)}, 0.5)
    back = FormationEngine.from_json(P, eng.to_json())
    assert back.to_json() == eng.to_json()
    frame(eng, {"a": (0.3, 0.3), "b": (0.5, 0.3)}, 0.6)
    frame(back, {"a": (0.3, 0.3), "b": (0.5, 0.3)}, 0.6)
    assert back.layout() == eng.layout()


coords = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@settings(deadline=None, max_examples=150)
@given(st.lists(st.tuples(coords, st.floats(min_value=0.0, max_value=0.75)), min_size=2,
                max_size=15), st.sampled_from([0.0, 15.0]), st.booleans())
def test_property_degree_two_and_no_crossing(pts: list[tuple[float, float]], angle: float,
                                             crossing_only: bool) -> None:
    """Random layouts never give a die three connections, two crossing connections or an angle
    under the minimum, and the shapes partition the dice."""
    params = FormationParams(min_angle_deg=angle)
    points = {f"d{i:02d}": p for i, p in enumerate(pts)}
    lay = static_layout(points, params)
    for k in points:
        assert lay.degree(k) <= 2
    for i, (a, b) in enumerate(lay.edges):
        for c, d in lay.edges[i + 1:]:
            assert not segments_cross(points[a], points[b], points[c], points[d])
            shared = {a, b} & {c, d}
            if shared and angle > 0:
                p = shared.pop()
                u = b if a == p else a
                v = d if c == p else c
                assert angle_between(points[p], points[u], points[v]) >= angle - 1e-9
    seen = [v for f in lay.formations for v in f] + [v for s in lay.strings for v in s] \
        + list(lay.singles)
    assert sorted(seen) == sorted(points)
    assert all(len(f) >= 3 for f in lay.formations)


@settings(deadline=None, max_examples=40)
@given(st.lists(st.lists(st.tuples(coords, st.floats(min_value=0.0, max_value=0.75)),
                         min_size=6, max_size=6), min_size=2, max_size=6))
def test_property_moving_frames_keep_the_invariants(frames: list[list[tuple[float, float]]]) \
        -> None:
    """Over a sequence of frames (dice jumping around, history-dependent edges) the invariants
    hold at every frame."""
    eng = FormationEngine(FormationParams(settle_time=0.0))
    for t, pts in enumerate(frames):
        points = {f"d{i}": p for i, p in enumerate(pts)}
        lay = eng.update([Sighting(k, x, y, 0.0, 0.0) for k, (x, y) in points.items()],
                         float(t))
        pos = lay.positions
        for k in points:
            assert lay.degree(k) <= 2
        for i, (a, b) in enumerate(lay.edges):
            assert math.dist(pos[a], pos[b]) <= P.break_range + 1e-12
            for c, d in lay.edges[i + 1:]:
                assert not segments_cross(pos[a], pos[b], pos[c], pos[d])


def test_every_formation_threshold_given_as_a_game_parameter_reaches_the_engine() -> None:
    """The game's flat `--param` fields (connect_range, ...) are the engine's FormationParams:
    the same defaults, and a changed value arrives unchanged."""
    import dataclasses

    from playtable.core.params import params_from_dict
    from playtable.games.stardice.formation import FormationParams
    from playtable.games.stardice.params import StarDiceParams

    assert StarDiceParams().formation_params() == FormationParams()
    flat = [f.name for f in dataclasses.fields(FormationParams) if hasattr(StarDiceParams(), f.name)]
    assert len(flat) == 10
    for name in flat:
        default = getattr(FormationParams(), name)
        changed = (not default) if isinstance(default, bool) else default * 2 + 0.01
        params = params_from_dict(StarDiceParams, {name: str(changed).lower()})
        assert getattr(params.formation_params(), name) == changed, name
