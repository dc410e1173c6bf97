"""The bookkeeping of a lab run (`sim`, `compare`): the result file and its metadata, recovery
and resumption of a run that was killed, and SIGTERM taken as Ctrl-C so that every finished game
is kept however the run ends.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import click

from playtable.cli.lab_progress import Live


class TermAsInterrupt:
    """While running, SIGTERM (kill, a timeout) stops the run like Ctrl-C, so the finished
    games are still written and the result file is completed."""

    def __enter__(self) -> TermAsInterrupt:
        import signal

        def handler(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt

        try:
            self._previous: Any = signal.signal(signal.SIGTERM, handler)
        except ValueError:  # not the main thread
            self._previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


@dataclass
class RunFrame:
    """What `recorded_run` hands the command: the games a killed earlier run of it left (to be
    skipped), and, once the run ends, the number of rows the result file really holds."""

    previous: list[dict[str, Any]] = field(default_factory=list)
    rows_in_file: int = 0
    on_chunk: Any = None
    """Takes a worker's Chunk into the file and the progress bar: a command that sets
    `options.on_chunk` (sim) passes its chunks on to it."""

    def done(self) -> set[tuple[str, int]]:
        return {(str(r["variant"]), int(r["seed"])) for r in self.previous}


def resume_killed(out: str, arms: Sequence[Any], seeds: Collection[int]) -> list[dict[str, Any]]:
    """A run that was killed outright (not interrupted) left its games in a journal beside OUT:
    merge them into NAME.recovered.parquet (cumulatively), and return those of this run."""
    from playtable.lab.recovery import check_resumable, recover, recovered_path, resume
    from playtable.lab.storage import journal_path

    check_resumable(out, arms, seeds)  # refuse before anything is touched
    if journal_path(out).exists():
        target = recovered_path(out)
        count = recover(out, target)
        click.echo(f"a killed run had left {count} finished games: saved to {target}", err=True)
    previous = resume(out, arms, seeds)
    if previous:
        click.echo(f"resuming: {len(previous)} games recovered from {recovered_path(out)} are kept", err=True)
    return previous


def command_line() -> str:
    """The command being run, as typed (for the metadata of the files it writes)."""
    import shlex

    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    argv = obj.get("argv") if isinstance(obj, dict) else None
    return shlex.join(["playtable", *(argv if argv is not None else sys.argv[1:])])


@contextmanager
def recorded_run(
    options: Any,
    out: str | None,
    total: int,
    label: str,
    quiet: bool,
    arms: Sequence[Any] = (),
    seeds: Collection[int] = (),
    force: bool = False,
) -> Iterator[RunFrame]:
    """The frame of a `sim` or `compare` run: check the run options before anything is shown,
    refuse an existing OUT without --force, recover what a killed earlier run left and resume
    it (its games of this run are written first and skipped), then hand every finished chunk
    of rows (through `options.on_rows`, or chunks through `frame.on_chunk`) to the Parquet file
    OUT and the progress bar, with SIGTERM taken as Ctrl-C; the file is completed however the
    run ends."""
    from playtable.core.extras import require
    from playtable.lab.chunks import ChunkSpec

    options.check()
    frame = RunFrame()
    writer = None
    if out:
        require("lab", "--out (a Parquet result file)")
        from playtable.core.files import check_new_output
        from playtable.lab.recovery import recovered_path
        from playtable.lab.storage import ResultWriter, row_count

        check_new_output(out, force)
        frame.previous = resume_killed(out, arms, seeds)
        writer = ResultWriter(out, command=command_line())
    options.chunk_spec = ChunkSpec(table=writer is not None, journal=writer is not None)
    with TermAsInterrupt(), Live(total, label, quiet) as live:

        def on_rows(rows: list[dict[str, Any]]) -> None:
            if writer is not None:
                writer.write(rows)
            live.add(rows)

        def on_chunk(chunk: Any) -> None:
            if writer is not None:
                writer.write_chunk(chunk)
            live.add_counts(chunk.wins)

        if frame.previous:
            on_rows(frame.previous)
        options.on_rows = on_rows
        frame.on_chunk = on_chunk
        try:
            yield frame
        finally:
            if writer is not None and out:
                writer.close()
                frame.rows_in_file = row_count(out)
                if frame.previous:  # every recovered game is in OUT now
                    recovered_path(out).unlink(missing_ok=True)
