"""Games people played, as lab rows (issue 31, "Playtests with people").

A person's game is a record: the game, its parameters, its seed and the action texts in order.
`person_row` replays that record through the runner's own `play_game`, so a person's row has
exactly the columns, types and meanings of a `sim` row (outcome, length, branching, events, the
game-quality measures, the game's metrics, typed parameters): `query`, `report`, `compare`'s
readers and pandas read human games as they read bot games, alone or in the same files. The
person's seat is labelled with the agent `person`, the bots' seats with their specs.

What a bot row never has comes after the sim columns, in this order:

    tester       the tester's name, or an anonymous id (`tester-1`, ...) when exported so
    q_<id>       each questionnaire answer: BIGINT for a scale, VARCHAR for free text (NULL:
                 not answered)

`people_schema` is the sim schema of the rows (`columns.schema_for`, the very object `sim`
writes) followed by those columns; `write_people` writes a file with the lab's metadata
(`storage.file_metadata`), so a reader that checks the schema version reads it like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from playtable.core.files import open_atomic
from playtable.lab.columns import TableMaker, schema_for
from playtable.lab.runner import Arm, play_game
from playtable.lab.storage import file_metadata

PERSON = "person"
"""The agent spec of a person's seat in a result row."""
TESTER_COLUMN = "tester"
QUESTION_PREFIX = "q_"


def person_row(game: str, params: Mapping[str, Any], seed: int, actions: Sequence[str],
               agents: Sequence[str], label: str) -> dict[str, Any]:
    """The sim row of a game people (and bots) played: `actions` replayed from the start of
    (`game`, `params`, `seed`), each seat labelled by `agents` (`PERSON` for a person)."""
    arm = Arm(game, dict(params), tuple(agents), label, max_steps=max(1, len(actions)))
    return play_game(arm, seed, record=list(actions))


def people_schema(rows: Sequence[dict[str, Any]], questions: Sequence[tuple[str, str]]) -> pa.Schema:
    """The sim schema of `rows`, then `tester` and one `q_<id>` per (id, kind) question
    (kind "scale": BIGINT, "text": VARCHAR)."""
    extra = [pa.field(TESTER_COLUMN, pa.string())]
    extra += [pa.field(QUESTION_PREFIX + qid, pa.int64() if kind == "scale" else pa.string())
              for qid, kind in questions]
    return pa.schema(list(schema_for(rows)) + extra)


def people_table(rows: Sequence[dict[str, Any]], testers: Sequence[str],
                 answers: Sequence[Mapping[str, Any]],
                 questions: Sequence[tuple[str, str]]) -> pa.Table:
    """Rows (from `person_row`), each with its tester and answers, as one Arrow table."""
    if not (len(rows) == len(testers) == len(answers)):
        raise ValueError("each row needs its tester and its answers")
    base = TableMaker(schema_for(rows)).table(rows)
    schema = people_schema(rows, questions)
    columns = [base.column(i) for i in range(base.num_columns)]
    columns.append(pa.array(list(testers), pa.string()))
    for qid, kind in questions:
        kind_type = pa.int64() if kind == "scale" else pa.string()
        columns.append(pa.array([a.get(qid) for a in answers], kind_type))
    return pa.Table.from_arrays(columns, schema=schema)


def write_people(table: pa.Table, out: str | Path, command: str = "") -> Path:
    """Write `table` as a result file (the lab's metadata; under a temporary name, renamed when
    complete, never through a symlink)."""
    out = Path(out)
    table = table.replace_schema_metadata(file_metadata(command))
    with open_atomic(out) as handle:
        pq.write_table(table, handle)
    return out
