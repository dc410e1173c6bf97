"""Query results for people, readable however they are looked at (`playtable query`):

* on a terminal wide enough: a table with borders (Rich);
* on a terminal narrower than the table: one record at a time, `column | value` lines (psql's
  expanded display), so no column is squeezed to nothing and no value is cut;
* piped or redirected (`| less -S`, `> out.txt`): plain text in aligned columns at the table's
  full width, no borders, no colours, nothing wrapped or cut, one line per row.

Every cell is one line: a newline or other control character inside a value is shown escaped.
`--format csv` and `--format json` are for programs.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from typing import Any

from playtable.cli.lab_progress import format_number

NULL = "NULL"


def cell(value: Any) -> str:
    """A value as one line of text: floats to 4 decimals, None as NULL, control characters
    escaped."""
    if value is None:
        text = NULL
    elif isinstance(value, float):
        text = format_number(value, 4)
    else:
        text = str(value)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _numeric(values: Sequence[Any]) -> bool:
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present)


def natural_width(columns: Sequence[str], texts: Sequence[Sequence[str]]) -> int:
    """The width of the bordered table without wrapping: each column as wide as its widest
    cell, plus a border and a space on either side of each."""
    widths = [max([len(c), *(len(r[i]) for r in texts)]) for i, c in enumerate(columns)]
    return sum(widths) + 3 * len(widths) + 1


def plain(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Aligned columns, two spaces apart, numbers to the right: the full table, nothing cut."""
    texts = [[cell(v) for v in r] for r in rows]
    names = [cell(c) for c in columns]
    widths = [max([len(n), *(len(r[i]) for r in texts)]) for i, n in enumerate(names)]
    right = [_numeric([r[i] for r in rows]) for i in range(len(columns))]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)]
        return "  ".join(parts).rstrip()

    out = [line(names), "  ".join("-" * w for w in widths)]
    out.extend(line(r) for r in texts)
    return "\n".join(out) + "\n"


def records(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """One block per row, one `column | value` line per column (no value is ever cut)."""
    names = [cell(c) for c in columns]
    width = max((len(n) for n in names), default=0)
    out: list[str] = []
    for number, row in enumerate(rows, 1):
        out.append(f"-[ row {number} ]" + "-" * max(0, width - 6))
        out.extend(f"{n.ljust(width)} | {cell(v)}" for n, v in zip(names, row, strict=True))
    if not rows:
        out.append("(no rows)")
    return "\n".join(out) + "\n"


def print_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Print a query's result the readable way for where stdout goes (see the module)."""
    stream = sys.stdout
    terminal = bool(getattr(stream, "isatty", lambda: False)())
    if not terminal:
        stream.write(plain(columns, rows))
        stream.flush()
        return
    width = shutil.get_terminal_size().columns
    texts = [[cell(v) for v in r] for r in rows]
    if natural_width([cell(c) for c in columns], texts) > width:
        stream.write(records(columns, rows))
        stream.flush()
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table()
    right = [_numeric([r[i] for r in rows]) for i in range(len(columns))]
    for name, is_number in zip(columns, right, strict=True):  # Text: a value is never markup
        table.add_column(Text(cell(name)), justify="right" if is_number else "left", no_wrap=True)
    for row in texts:
        table.add_row(*(Text(v) for v in row))
    Console(file=stream, width=width, highlight=False).print(table)
