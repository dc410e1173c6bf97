"""One test per Rotator rule; each names the seed section it checks (seed 004)."""

from __future__ import annotations

import pytest

from playtable.core.errors import IllegalAction
from playtable.games.rotator.board import (
    Board,
    board_problems,
    cell_index,
    cell_name,
    parse_cell,
    territory_cells,
)
from playtable.games.rotator.rules import Drill, RotatorParams, RotatorState, Start

from .helpers import age_of, at, diamond, is_solid, state_on, terrain

# A terrain for the "Hypothetical Sequence": an air shaft in column D (col 3) from the top row
# down to row 4, one air pocket east of its foot, one air cell west of it; all else is rock.
SEQUENCE = """
###.######
###.######
##..######
###.######
####.#####
"""


def test_setting_up_map_is_ten_columns_by_twenty_rows() -> None:
    """Setting Up: both grids form one 10-column by 20-row board; cells are named A1..J20."""
    board = Board.from_nodes([])
    assert (board.rows, board.cols) == (20, 10)
    assert cell_name(0) == "A1" and cell_name(199) == "J20"
    assert parse_cell("c7") == cell_index(6, 2)
    with pytest.raises(ValueError):
        parse_cell("K1")
    with pytest.raises(ValueError):
        parse_cell("A21")


def test_getting_started_territory_is_a_diamond_of_thirteen() -> None:
    """Getting Started: a node's territory spans 5 across, 5 down and 3 along each diagonal."""
    cells = set(territory_cells(cell_index(5, 5)))
    assert len(cells) == 13
    across = {i for i in cells if i // 10 == 5}
    down = {i for i in cells if i % 10 == 5}
    diagonal = {i for i in cells if i // 10 - 5 == i % 10 - 5}
    anti = {i for i in cells if i // 10 - 5 == -(i % 10 - 5)}
    assert (len(across), len(down), len(diagonal), len(anti)) == (5, 5, 3, 3)


def _legal_nodes() -> list[int]:
    top = [(1, 1), (1, 6), (4, 3), (7, 1), (7, 7)]
    bottom = [(19 - r, c) for r, c in top]
    return [cell_index(r, c) for r, c in top + bottom]


def test_getting_started_legal_board_passes_the_validator() -> None:
    """Getting Started: ten nodes, five per half, off the edges, not overlapping: legal."""
    board = Board.from_nodes(_legal_nodes())
    assert board_problems(board) == []


def test_getting_started_five_nodes_on_each_half() -> None:
    """Getting Started: "choose the location of ten Control Nodes ... five on each half"."""
    nodes = _legal_nodes()[:-1]
    problems = board_problems(Board.from_nodes(nodes))
    assert any(p.startswith("node count") for p in problems)


def test_getting_started_nodes_not_on_edge_spaces() -> None:
    """Getting Started: "Nodes CANNOT ... be placed on edge spaces" (a one-row buffer); the
    row between the two grids is an edge of each grid."""
    for bad in [(0, 4), (4, 0), (4, 9), (9, 4), (10, 4)]:
        nodes = _legal_nodes()
        half = 0 if bad[0] < 10 else 1
        nodes[half * 5 + 2] = cell_index(*bad)
        problems = board_problems(Board.from_nodes(nodes))
        assert any(p.startswith("edge") for p in problems), bad


def test_getting_started_nodes_do_not_overlap() -> None:
    """Getting Started: "Nodes CANNOT overlap each other": their diamonds share no space."""
    nodes = _legal_nodes()
    nodes[2] = cell_index(2, 3)  # 3 steps from the node at (1,1): diamonds overlap
    problems = board_problems(Board.from_nodes(nodes))
    assert any(p.startswith("overlap") for p in problems)


def test_getting_started_territory_is_land_and_the_rest_air() -> None:
    """Getting Started: shaded territory is solid land, unshaded squares are open air."""
    board = Board.from_nodes(_legal_nodes())
    for i in range(200):
        in_territory = any(i in territory_cells(n) for n in board.nodes)
        assert board.is_land(i) == in_territory
    wrong = Board(board.nodes, board.land | 1 << cell_index(0, 9))
    assert any(p.startswith("shading") for p in board_problems(wrong))


def test_territory_variant_reads_the_buffer_around_the_whole_diamond() -> None:
    """Getting Started, the other reading (RULES.md I1): under placement=territory a diamond
    must keep one empty row from its grid's edge, so columns A and J are always air."""
    board = Board.from_nodes(_legal_nodes())
    assert any(p.startswith("edge") for p in board_problems(board, "territory"))
    ok = [cell_index(r, c) for r, c in [(3, 3), (3, 6), (6, 3), (6, 6), (4, 4)]]
    ok += [n + 100 for n in ok]
    assert board_problems(Board.from_nodes(ok), "territory") == []


def test_making_a_move_first_move_from_any_top_row_square() -> None:
    """Making a Move: "you may pick any square on the top row"; the square is marked."""
    state = state_on(terrain(SEQUENCE))
    assert [str(a) for a in state.legal_actions()] == [f"start {c}1" for c in "ABCDEFGHIJ"]
    with pytest.raises(IllegalAction):
        state.apply(Start(at(1, 3)))
    state.apply(Start(at(0, 0)))  # a rock square: it is marked, hence open (RULES.md I6)
    assert age_of(state, 0, 0) == 0 and not is_solid(state, 0, 0)


def test_step1_fall_through_open_air_until_ground_marking_each_space() -> None:
    """Step 1 (Fall): you fall through open air until you hit the ground, marking each space."""
    state = state_on(terrain(SEQUENCE))
    state.apply(Start(at(0, 3)))
    assert state.core.pos == at(3, 3)
    assert [age_of(state, r, 3) for r in range(4)] == [0, 0, 0, 0]
    assert age_of(state, 4, 3) is None and is_solid(state, 4, 3)


def test_hypothetical_sequence_frame_by_frame() -> None:
    """Hypothetical Sequence: the seed's worked example, frame by frame."""
    state = state_on(terrain(SEQUENCE))
    # Frame: the player starts just above the air shaft and falls through it (Step 1).
    events = state.apply(Start(at(0, 3)))
    assert state.core.pos == at(3, 3) and state.down == "south"
    assert [e.kind for e in events] == ["start", "fall"]
    # Frame: Step 2 is skipped (nothing older). Step 3: drill the one solid space beneath;
    # the next space down is also solid, so there is no fall.
    events = state.apply(Drill(1))
    assert [e.kind for e in events][:2] == ["drill", "rotate"]
    # Frame: rotate; "down" is now the board's east. The space below (east of) the player is
    # open, so she falls into it. Step 2: the previous turn's marks get one line each.
    assert state.down == "east" and state.core.turn == 2
    assert state.core.pos == at(4, 4)
    assert age_of(state, 4, 4) == 0
    assert [age_of(state, r, 3) for r in range(5)] == [1, 1, 1, 1, 1]
    # Frame: skip drilling, rotate. Down is the board's north; nothing to fall into.
    events = state.apply(Drill(0))
    assert not any(e.kind == "fall" for e in events)
    assert state.down == "north" and state.core.pos == at(4, 4)
    # Frame: Step 2 again: the first marks get a second line, the last turn's mark one line.
    assert [age_of(state, r, 3) for r in range(5)] == [2, 2, 2, 2, 2]
    assert age_of(state, 4, 4) == 1
    # Frame: Step 3 with a Drill Boost: one standard space plus one boost space.
    state.apply(Drill(2))
    assert state.core.boosts == 9
    assert age_of(state, 3, 4) == 1 and age_of(state, 2, 4) == 1  # after the next collapse
    # Frame: rotate; down is the board's west. She falls through her old path (no new mark
    # on it: it keeps ageing) and lands beyond it on the solid space.
    assert state.down == "west"
    assert state.core.pos == at(2, 2)
    assert age_of(state, 2, 2) == 0
    # Frame: Step 2: the first turn's marks -- including spaces that began as air -- had two
    # lines and now collapse into ordinary solid rock; the others age.
    for r in range(5):
        assert is_solid(state, r, 3) and age_of(state, r, 3) is None
    assert age_of(state, 4, 4) == 2
    assert state.phase == "drill"


def test_hypothetical_sequence_landing_in_a_collapsing_space_loses() -> None:
    """Hypothetical Sequence ("What happens if a space becomes Solid when I'm still on it?"):
    falling back into an old path and landing within it; collapse comes before drilling."""
    trap = SEQUENCE.replace("##..######", "###.######", 1)  # no air west of the old path
    state = state_on(terrain(trap))
    for action in (Start(at(0, 3)), Drill(1), Drill(0), Drill(2)):
        state.apply(action)
    assert state.is_terminal and state.returns() == [0.0]
    assert state.core.pos == at(2, 3)
    assert state.reason == "collapse"


def test_step2_collapse_after_three_turns_even_air() -> None:
    """Step 2 (Collapse): a space touched on turn t has one line on t+1, two on t+2 and
    collapses into solid rock on turn t+3, even one that was open air."""
    state = state_on(terrain(SEQUENCE))
    state.apply(Start(at(0, 3)))
    assert age_of(state, 1, 3) == 0 and not is_solid(state, 1, 3)
    state.apply(Drill(1))
    assert age_of(state, 1, 3) == 1
    state.apply(Drill(0))
    assert age_of(state, 1, 3) == 2 and not is_solid(state, 1, 3)
    state.apply(Drill(0))
    assert age_of(state, 1, 3) is None and is_solid(state, 1, 3)


def test_step2_inside_a_collapsing_space_loses() -> None:
    """Step 2 (Collapse): "If you are within a space that collapses, the game ends."""
    state = state_on(terrain("#" * 10))
    state.apply(Start(at(0, 0)))
    state.apply(Drill(0))
    state.apply(Drill(0))
    assert not state.is_terminal
    events = state.apply(Drill(0))
    assert state.is_terminal and events[-1].kind == "loss" and state.returns() == [0.0]


def test_step3_drill_one_space_and_fall_through_open_spaces_beneath() -> None:
    """Step 3 (Drill): drill one space; if only open spaces lie beneath, fall through them;
    only one drill per turn (the fall after it ends the turn's drilling)."""
    pic = """
    .#########
    ##########
    .#########
    .#########
    #########
    """.replace("    #########\n", "##########\n")
    state = state_on(terrain(pic))
    state.apply(Start(at(0, 0)))
    assert state.core.pos == at(0, 0)
    events = state.apply(Drill(1))
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["drill", "fall"]
    assert state.core.turn == 2  # the turn ended: no second drill after the fall
    assert age_of(state, 1, 0) == 1 and age_of(state, 3, 0) == 1
    assert not is_solid(state, 1, 0)


def test_step3_boost_at_most_three_spaces_a_turn_and_ten_a_game() -> None:
    """Step 3, Drilling Boost: at most 3 spaces a turn (one standard + two boost), and only
    10 boost spaces in a game."""
    state = state_on(terrain("#" * 10))
    state.apply(Start(at(0, 0)))
    assert [str(a) for a in state.legal_actions()] == ["drill 0", "drill 1", "drill 2", "drill 3"]
    with pytest.raises(IllegalAction):
        state.apply(Drill(4))
    few = state_on(terrain("#" * 10), boost_total=1)
    few.apply(Start(at(0, 0)))
    assert [a.spaces for a in few.legal_actions()] == [0, 1, 2]
    few.apply(Drill(2))
    assert few.core.boosts == 0
    assert max(a.spaces for a in few.legal_actions()) == 1


def test_step3_drilling_can_be_skipped() -> None:
    """Step 3: "DRILLING CAN BE SKIPPED IN ANY TURN" -- drill 0 is always legal."""
    state = state_on(terrain("#" * 10))
    state.apply(Start(at(0, 4)))
    for _ in range(2):
        assert Drill(0) in state.legal_actions()
        state.apply(Drill(0))


def test_step3_open_marked_spaces_are_not_marked_again() -> None:
    """Step 3: a marked space is open; falling through it again adds no fresh mark -- it keeps
    ageing (see also the Hypothetical Sequence)."""
    state = state_on(terrain(SEQUENCE))
    for action in (Start(at(0, 3)), Drill(1), Drill(0), Drill(2)):
        state.apply(action)
    assert is_solid(state, 2, 3)  # the crossed space collapsed on schedule, not renewed


NODE_PIC = """
#####.####
#####.####
#####.####
##########
##########
"""


def test_step3_node_capture_clears_territory_marks_it_and_no_fall() -> None:
    """Step 3, Control Node: drilling into a node clears every solid space of its territory,
    marked as touched this turn; earlier marks keep their age; the player does not fall."""
    state = state_on(terrain(NODE_PIC, nodes=((2, 8),)))
    state.apply(Start(at(0, 5)))
    assert state.core.pos == at(2, 5)
    events = state.apply(Drill(0))  # turn 2: down is east
    assert state.down == "east"
    events = state.apply(Drill(3))  # (2,6), (2,7) and the node at (2,8)
    assert [e.kind for e in events] == ["drill", "capture", "rotate"]
    assert state.core.pos == at(2, 8)  # no fall into the opened (2,9)
    for cell in diamond(2, 8):
        r, c = divmod(cell, 10)
        assert not is_solid(state, r, c)
        assert age_of(state, r, c) == 0
    assert age_of(state, 0, 5) == 1  # turn 1's marks after the turn-2 collapse: unchanged
    # "your next move can be made from ANY SPACE covered by the Node"
    assert state.phase == "start"
    assert {a.cell for a in state.legal_actions()} == set(diamond(2, 8))


def test_step3_drill_stops_at_a_node() -> None:
    """Step 3, Control Node: hitting a node ends the drill; it cannot be drilled past."""
    state = state_on(terrain(NODE_PIC, nodes=((2, 7),)))
    state.apply(Start(at(0, 5)))
    state.apply(Drill(0))
    assert [a.spaces for a in state.legal_actions()] == [0, 1, 2]


def test_step3_captured_node_collapses_and_returns_to_its_original_state() -> None:
    """Step 3: "Captured Node spaces will collapse at the same rate ... Upon collapse, the Node
    returns to its original state" (solid land, which can be captured again)."""
    state = state_on(terrain(NODE_PIC, nodes=((2, 8),)))
    for action in (Start(at(0, 5)), Drill(0), Drill(3)):
        state.apply(action)
    state.apply(Start(at(4, 8)))  # turn 3, down north: fall back through the territory
    state.apply(Drill(0))
    state.apply(Drill(0))
    if not state.is_terminal:
        for cell in diamond(2, 8):
            r, c = divmod(cell, 10)
            assert is_solid(state, r, c)
        assert state.board.is_land(at(2, 8))


def test_step4_rotate_clockwise_down_cycles_south_east_north_west() -> None:
    """Part 4 (Rotate): 90 degrees clockwise each turn, so board-down is S, E, N, W, S..."""
    state = state_on(terrain("#" * 10), turn_limit=0)
    state.apply(Start(at(0, 4)))
    seen = [state.down]
    for _ in range(2):
        state.apply(Drill(1))
        seen.append(state.down)
    assert seen == ["south", "east", "north"]


def test_victory_reaching_the_far_row_wins_at_once() -> None:
    """Victory Conditions: reaching anywhere on the far row wins as soon as it happens."""
    pic = "\n".join(["#########."] * 20)
    state = state_on(terrain(pic))
    events = state.apply(Start(at(0, 9)))
    assert state.is_terminal and state.returns() == [1.0]
    assert events[-1].kind == "win" and state.core.pos == at(19, 9)


def test_edges_stop_falls_and_cannot_be_drilled() -> None:
    """Interpretation I2: the map's edge is a wall -- falls stop at it, drills cannot pass it."""
    pic = "#.........\n" + "##########\n" * 19
    state = state_on(terrain(pic))
    state.apply(Start(at(0, 0)))
    state.apply(Drill(0))  # turn 2: down is east, along the open top row
    assert state.down == "east" and state.core.pos == at(0, 9)
    # From wherever she stands, drilling toward the edge is limited by it.
    s = state_on(terrain("#" * 10))
    s.apply(Start(at(0, 9)))
    s.apply(Drill(0))  # down east: the edge is right there
    assert [a.spaces for a in s.legal_actions()] == [0]


def test_turn_limit_ends_the_game_as_a_loss() -> None:
    """Interpretation I5: a game still going after `turn_limit` turns is lost."""
    state = state_on(terrain("#" * 10), turn_limit=2)
    state.apply(Start(at(0, 0)))
    state.apply(Drill(1))
    state.apply(Drill(1))
    assert state.is_terminal and state.reason == "turn limit"


def test_illegal_actions_raise_and_change_nothing() -> None:
    """The protocol: malformed or illegal actions raise IllegalAction; the state is unchanged."""
    state = state_on(terrain(SEQUENCE))
    before = state.to_json()
    for text in ["drill 1", "start K1", "jump", "start C2", "drill -1"]:
        with pytest.raises(IllegalAction):
            state.apply(state.parse_action(text))
    assert state.to_json() == before
    for bad in (Start(-1), Start(999), Drill(-1)):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    state.apply(Start(at(0, 3)))
    with pytest.raises(IllegalAction):
        state.apply(Start(at(0, 4)))
    with pytest.raises(IllegalAction):
        state.apply(Drill(9))


def test_action_texts_round_trip() -> None:
    """Actions: str(action) is canonical and parse_action reads it back."""
    state = RotatorState(RotatorParams(), Board.from_nodes(_legal_nodes()))
    for action in [Start(at(0, 3)), Drill(0), Drill(3)]:
        assert state.parse_action(str(action)) == action
    assert state.parse_action("d2") == Drill(2) and state.parse_action("c1") == Start(at(0, 2))
