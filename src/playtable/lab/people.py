"""Games people played, as lab rows (docs/lab.md, "Playtests with people").

A person's game is a record: the game, its parameters, its seed and the action texts in order.
`person_row` replays that record through the runner's own `play_game`, so a person's row has
exactly the columns, types and meanings of a `sim` row (outcome, length, branching, events, the
game-quality measures, the game's metrics, typed parameters): `query`, `report`, `compare`'s
readers and pandas read human games as they read bot games, alone or in the same files. A
person's seat is labelled with the agent `person`, the bots' seats with their specs.

What a bot row never has comes after the sim columns, in this order, each a list with one
entry a seat as `agents` is (NULL at a bot's seat), since several testers may share a game:

    testers      each tester's name, or an anonymous id (`tester-1`, ...) when exported so
    suspect      one VARCHAR a game: why the game may not be a real try (a tester with too few
                 moves of their own, a game over in too few seconds), NULL when none; the
                 server's export says (docs/web.md "Playtest slots"), so a designer filters
                 `WHERE suspect IS NULL` rather than counting junk games silently
    minutes      one DOUBLE a game: from its first to its last action (NULL: its actions were
                 stored before the server kept their times)
    decision_seconds  the median of the seat's gaps since the previous action, over the moves
                 the person made (a stand-in's move is the clock's, not a decision)
    hints, undos, stand_in_moves, chats  BIGINT: the hints the seat asked, the moves it took
                 back, the moves a bot made for it when its clock ran out, the chat lines it sent
    q_<id>       each tester's answer: BIGINT for a scale, VARCHAR for free text (NULL: not
                 answered)

(A game is one row, as a `sim` game is, so counts and win rates count games; pandas reads a
solitaire game's answer as `q_fun[0]`, and `explode` gives one line a tester.)

`people_schema` is the sim schema of the rows (`columns.schema_for`, the very object `sim`
writes) followed by those columns; `write_people` writes a file with the lab's metadata
(`storage.file_metadata`), so a reader that checks the schema version reads it like any other.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from playtable.core.files import open_atomic
from playtable.lab.columns import TableMaker, schema_for
from playtable.lab.runner import Arm, play_game
from playtable.lab.storage import file_metadata

TESTER_COLUMN = "testers"
SUSPECT_COLUMN = "suspect"
QUESTION_PREFIX = "q_"
MINUTES_COLUMN = "minutes"
SEAT_ACTIVITY = {"decision_seconds": pa.float64(), "hints": pa.int64(), "undos": pa.int64(),
                 "stand_in_moves": pa.int64(), "chats": pa.int64()}
"""People's time and help, each a list with one entry a seat (NULL at a bot's seat)."""


def person_row(game: str, params: Mapping[str, Any], seed: int, actions: Sequence[str],
               agents: Sequence[str], label: str) -> dict[str, Any]:
    """The sim row of a game people (and bots) played: `actions` replayed from the start of
    (`game`, `params`, `seed`), each seat labelled by `agents` (`agents.PERSON` for a person)."""
    arm = Arm(game, dict(params), tuple(agents), label, max_steps=max(1, len(actions)))
    return play_game(arm, seed, record=list(actions))


def people_schema(rows: Sequence[dict[str, Any]], questions: Sequence[tuple[str, str]]) -> pa.Schema:
    """The sim schema of `rows`, then `testers`, `suspect` and one `q_<id>` per (id, kind)
    question (kind "scale": list of BIGINT, "text": list of VARCHAR), each a list with one entry
    a seat (`suspect`: one text a game)."""
    extra = [pa.field(TESTER_COLUMN, pa.list_(pa.string())), pa.field(SUSPECT_COLUMN, pa.string()),
             pa.field(MINUTES_COLUMN, pa.float64())]
    extra += [pa.field(name, pa.list_(kind)) for name, kind in SEAT_ACTIVITY.items()]
    extra += [pa.field(QUESTION_PREFIX + qid, pa.list_(_answer_type(kind))) for qid, kind in questions]
    return pa.schema(list(schema_for(rows)) + extra)


def _answer_type(kind: str) -> pa.DataType:
    return pa.int64() if kind == "scale" else pa.string()


def seat_activity(actions: Sequence[tuple[int | None, float | None, str | None]],
                  assists: Mapping[int, tuple[int, int, int]], people_seats: Sequence[int],
                  seats: int) -> dict[str, Any]:
    """A game's `minutes` and, seat by seat (None at a bot's seat), its `SEAT_ACTIVITY`, from
    its actions in order as (seat, when played in seconds or None, stand-in bot or None) and
    each seat's (hints, undos, chats)."""
    times = [played for _, played, _ in actions if played is not None]
    activity: dict[str, Any] = {MINUTES_COLUMN: (times[-1] - times[0]) / 60 if times else None}
    activity.update({name: [None] * seats for name in SEAT_ACTIVITY})
    gaps: dict[int, list[float]] = {seat: [] for seat in people_seats}
    for (_, before, _), (seat, played, stand_in) in zip(actions, actions[1:], strict=False):
        if seat in gaps and not stand_in and before is not None and played is not None:
            gaps[seat].append(played - before)
    for seat in people_seats:
        hints, undos, chats = assists.get(seat, (0, 0, 0))
        activity["decision_seconds"][seat] = statistics.median(gaps[seat]) if gaps[seat] else None
        activity["hints"][seat], activity["undos"][seat] = hints, undos
        activity["stand_in_moves"][seat] = sum(1 for s, _, bot in actions if s == seat and bot)
        activity["chats"][seat] = chats
    return activity


def people_table(rows: Sequence[dict[str, Any]], testers: Sequence[Sequence[str | None]],
                 answers: Sequence[Sequence[Mapping[str, Any] | None]],
                 questions: Sequence[tuple[str, str]],
                 suspects: Sequence[str | None] | None = None,
                 activity: Sequence[Mapping[str, Any]] | None = None) -> pa.Table:
    """Rows (from `person_row`), each with its testers and their answers seat by seat (None at
    a bot's seat), why it is suspect (None: it is not; no `suspects`: none is) and its
    `seat_activity` (none given: unknown), as one Arrow table."""
    suspects = list(suspects) if suspects is not None else [None] * len(rows)
    activity = list(activity) if activity is not None else [{} for _ in rows]
    if not (len(rows) == len(testers) == len(answers) == len(suspects) == len(activity)):
        raise ValueError("each row needs its testers, their answers, whether it is suspect "
                         "and its activity")
    for row, seat_testers, seat_answers in zip(rows, testers, answers, strict=True):
        if not len(row["agents"]) == len(seat_testers) == len(seat_answers):
            raise ValueError("each row's testers and answers need one entry a seat")
    base = TableMaker(schema_for(rows)).table(rows)
    schema = people_schema(rows, questions)
    columns = [base.column(i) for i in range(base.num_columns)]
    columns.append(pa.array([list(t) for t in testers], pa.list_(pa.string())))
    columns.append(pa.array(suspects, pa.string()))
    columns.append(pa.array([a.get(MINUTES_COLUMN) for a in activity], pa.float64()))
    for name, kind in SEAT_ACTIVITY.items():
        columns.append(pa.array([a.get(name, [None] * len(row["agents"])) for a, row
                                 in zip(activity, rows, strict=True)], pa.list_(kind)))
    for qid, kind in questions:
        columns.append(pa.array([[None if a is None else a.get(qid) for a in seat_answers]
                                 for seat_answers in answers], pa.list_(_answer_type(kind))))
    return pa.Table.from_arrays(columns, schema=schema)


def write_people(table: pa.Table, out: str | Path, command: str = "") -> Path:
    """Write `table` as a result file (the lab's metadata; under a temporary name, renamed when
    complete, never through a symlink)."""
    out = Path(out)
    table = table.replace_schema_metadata(file_metadata(command))
    with open_atomic(out) as handle:
        pq.write_table(table, handle)
    return out
