"""Result rows as Arrow columns: the file schema a set of rows implies, and the table of rows.

Shared by the Parquet writer (`storage.ResultWriter`, in the process that owns the file) and by
the runner's workers (`chunks.encode`), which turn their own games into a table so that the
parent only appends it: the same rows give the same table wherever it is built.

The schema: the base columns (`BASE_FIELDS`, the game-quality measures among them since schema
version 2), one `m_<name>` per game metric seen in the first
rows, `extra_metrics` (JSON text of metrics that appear only later), one `p_<name>` per game
parameter (typed), and `actions` when the rows keep records.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

BASE_FIELDS: list[pa.Field] = [
    pa.field("game", pa.string()),
    pa.field("variant", pa.string()),
    pa.field("seed", pa.int64()),
    pa.field("params", pa.string()),
    pa.field("agents", pa.list_(pa.string())),
    pa.field("players", pa.int32()),
    pa.field("completed", pa.bool_()),
    pa.field("error", pa.string()),
    pa.field("length", pa.int64()),
    pa.field("win", pa.bool_()),
    pa.field("draw", pa.bool_()),
    pa.field("winner", pa.int32()),
    pa.field("winners", pa.list_(pa.int32())),
    pa.field("seat_names", pa.list_(pa.string())),
    pa.field("returns", pa.list_(pa.float64())),
    pa.field("return_0", pa.float64()),
    pa.field("decisions", pa.list_(pa.int64())),
    pa.field("branching_mean", pa.float64()),
    pa.field("branching_max", pa.int64()),
    pa.field("events", pa.map_(pa.string(), pa.int64())),
    # The game-quality measures (`quality.py`, schema 2): null where the game has no value of
    # its own, and (but lead_changes) where no side won.
    pa.field("lead_changes", pa.int64()),
    pa.field("winner_behind", pa.float64()),
    pa.field("drama", pa.float64()),
    pa.field("decided_at", pa.float64()),
]
BASE_NAMES = [f.name for f in BASE_FIELDS]


def _metric_type(value: Any) -> pa.DataType:
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int | float):
        return pa.float64()
    return pa.string()


def _param_type(value: Any) -> pa.DataType:
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    if isinstance(value, float):
        return pa.float64()
    return pa.string()


def _param_value(value: Any, kind: pa.DataType) -> Any:
    """The value in its column's type, or None when it does not fit (it stays in `params`)."""
    if kind == pa.bool_():
        return value if isinstance(value, bool) else None
    if kind == pa.int64():
        return (
            value if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63 else None
        )
    if kind == pa.float64():
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def params_of(row: dict[str, Any]) -> dict[str, Any]:
    params = row.get("params")
    if isinstance(params, str):
        try:
            params = json.loads(params)
        except json.JSONDecodeError:
            return {}
    return params if isinstance(params, dict) else {}


def schema_for(rows: Sequence[dict[str, Any]]) -> pa.Schema:
    """The columns a file starting with `rows` has (no metadata)."""
    metric_types: dict[str, pa.DataType] = {}
    for row in rows:
        for key, value in row.get("metrics", {}).items():
            metric_types.setdefault(key, _metric_type(value))
    param_types: dict[str, pa.DataType] = {}
    for row in rows:
        for key, value in params_of(row).items():
            param_types.setdefault(key, _param_type(value))
    fields = list(BASE_FIELDS)
    fields += [pa.field(f"m_{k}", t) for k, t in metric_types.items()]
    fields.append(pa.field("extra_metrics", pa.string()))
    fields += [pa.field(f"p_{k}", t) for k, t in param_types.items()]
    # Each game's action texts, when the run keeps records (`sim --keep-records`).
    if any("actions" in row for row in rows):
        fields.append(pa.field("actions", pa.list_(pa.string())))
    return pa.schema(fields)


class TableMaker:
    """Rows to tables of one schema (the parsed parameters of each arm are kept: every row of an
    arm carries the same JSON text)."""

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.metric_names = [f.name[2:] for f in schema if f.name.startswith("m_")]
        self.param_types = {f.name[2:]: f.type for f in schema if f.name.startswith("p_")}
        self.with_actions = "actions" in schema.names
        self._params_seen: dict[str, dict[str, Any]] = {}

    def table(self, rows: Sequence[dict[str, Any]]) -> pa.Table:
        columns: dict[str, list[Any]] = {name: [] for name in self.schema.names}
        for row in rows:
            for name in BASE_NAMES:
                value = row.get(name)
                if name == "events":
                    value = sorted((value or {}).items())
                columns[name].append(value)
            metrics = dict(row.get("metrics", {}))
            for key in self.metric_names:
                value = metrics.pop(key, None)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    value = float(value)
                elif value is not None and not isinstance(value, bool):
                    value = str(value)
                columns[f"m_{key}"].append(value)
            columns["extra_metrics"].append(json.dumps(metrics) if metrics else None)
            if self.with_actions:
                columns["actions"].append(row.get("actions"))
            raw = row.get("params")
            params = self._params_seen.get(raw) if isinstance(raw, str) else None
            if params is None:
                params = params_of(row)
                if isinstance(raw, str):
                    self._params_seen[raw] = params
            for key, kind in self.param_types.items():
                columns[f"p_{key}"].append(_param_value(params[key], kind) if key in params else None)
        return pa.table(columns, schema=self.schema)


@functools.cache
def _ipc_options() -> pa.ipc.IpcWriteOptions:
    return pa.ipc.IpcWriteOptions(compression=pa.Codec("zstd", compression_level=1))


def ipc_message(table: pa.Table) -> bytes:
    """`table` as Arrow IPC stream messages without the schema: what a result file's journal
    appends after its own schema message (`storage.ResultWriter`), buffers compressed with zstd
    (about 90 bytes a troll game in batches of 256, against 1 KB of JSON)."""
    sink = pa.BufferOutputStream()
    writer = pa.ipc.new_stream(sink, table.schema, options=_ipc_options())
    writer.write_table(table)
    data = sink.getvalue().to_pybytes()
    head = table.schema.serialize().to_pybytes()
    if not data.startswith(head):  # pragma: no cover - a pyarrow that lays the stream out otherwise
        raise ValueError("unexpected Arrow stream layout: the schema message differs")
    return data[len(head):]


def as_result_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row as read from a file made a result row again: events as a dict, and the game's
    metrics (`m_` columns and `extra_metrics`) as `metrics`. Changes and returns `row`."""
    events = row.get("events")
    if isinstance(events, list):
        row["events"] = dict(events)
    # A null m_ column means the game does not report that metric (files of other games).
    row["metrics"] = {k[2:]: v for k, v in row.items() if k.startswith("m_") and v is not None}
    extra = row.get("extra_metrics")
    if extra:
        row["metrics"].update(json.loads(extra))
    return row
