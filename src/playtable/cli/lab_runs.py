"""The bookkeeping of a lab run (`sim`, `compare`): the result file and its metadata, one run at
a time on it (a lock beside it), recovery and resumption of a run that was killed, SIGTERM taken
as Ctrl-C so that every finished game is kept however the run ends, and the one line that says
what the file holds when the run ends.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import click

from playtable.cli.common import log, quiet_wanted
from playtable.cli.lab_progress import Live
from playtable.core.errors import BadParameter


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
    """The rows of OUT once the run ends, 0 when this run wrote no file (no game finished:
    whatever was at OUT before is untouched)."""
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
        log.warning("a killed run had left %d finished games: saved to %s", count, target)
    previous = resume(out, arms, seeds)
    if previous:
        log.warning("resuming: %d games recovered from %s are kept", len(previous), recovered_path(out))
    return previous


def continue_interrupted(out: str, arms: Sequence[Any], seeds: Collection[int]) -> None:
    """OUT is what an interrupted run of this very command wrote (Ctrl-C or SIGTERM complete
    the file, so its journal is gone): its games become the recovered games this run resumes
    from, as a killed run's are, and OUT is written again, whole, by this run."""
    import os

    from playtable.core.files import shown
    from playtable.lab.recovery import interrupted_games, recovered_path

    target = recovered_path(out)
    if not os.path.isfile(out) or os.path.islink(out) or os.path.lexists(target):
        return
    games = interrupted_games(out, arms, seeds)
    if games:
        os.replace(out, target)
        log.warning("continuing an interrupted run: its %d games in %s are kept", games, shown(out))


def check_out_names(out: str) -> None:
    """The files a run keeps beside OUT (its journal, the recovered games) need names the
    system can hold too: a name too long is refused now, not when the first games are written."""
    from playtable.core.files import check_name, shown
    from playtable.lab.recovery import recovered_path
    from playtable.lab.storage import journal_path

    for companion in (journal_path(out), recovered_path(out)):
        try:
            check_name(companion)
        except BadParameter:
            raise BadParameter(f"--out {shown(out)}: the name is too long for the files kept beside "
                               f"it ({shown(companion.name)}); choose a shorter name") from None


def end_line(out: str | None, finished: int, rows_in_file: int, interrupted: bool) -> str:
    """What the result file holds once the run ended, in one line (the run's last word)."""
    from playtable.core.files import shown

    if interrupted:
        head = f"interrupted: {finished} finished game{'s' if finished != 1 else ''} kept"
        if not out:
            return head if finished else "interrupted before any game finished"
        if rows_in_file:
            return (f"{head}, {rows_in_file} rows written to {shown(out)}; the same command "
                    "continues the run")
        return f"interrupted before any game finished: {shown(out)} not written"
    if not out:
        return ""
    if rows_in_file:
        return f"{rows_in_file} rows written to {shown(out)}"
    return f"no game finished: {shown(out)} not written"


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
    run ends. While it runs, OUT is locked (`core.files.exclusive`): a second run on it is
    refused."""
    from playtable.core.extras import require

    options.check()
    frame = RunFrame()
    writer = None
    with ExitStack() as held:
        if out:
            require("lab", "--out (a Parquet result file)")
            from playtable.core.files import check_new_output, exclusive

            check_out_names(out)
            # One run at a time on OUT: a second one is refused while the first is alive (its
            # journal is then a live run's, not one a killed run left to recover).
            held.enter_context(exclusive(out, "running a simulation into it"))
            if not force:
                continue_interrupted(out, arms, seeds)
            check_new_output(out, force)
            frame.previous = resume_killed(out, arms, seeds)
            from playtable.lab.storage import ResultWriter

            writer = ResultWriter(out, command=command_line())
        yield from _run_frame(options, out, total, label, quiet, frame, writer)


def _run_frame(options: Any, out: str | None, total: int, label: str, quiet: bool, frame: RunFrame,
               writer: Any) -> Iterator[RunFrame]:
    from playtable.lab.chunks import ChunkSpec
    from playtable.lab.runner import stop_signals_held

    options.chunk_spec = ChunkSpec(table=writer is not None, journal=writer is not None)
    with TermAsInterrupt(), Live(total, label, quiet or quiet_wanted()) as live:

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
                from playtable.lab.recovery import recovered_path
                from playtable.lab.storage import row_count

                with stop_signals_held():  # a second Ctrl-C does not cut the file short
                    writer.close()
                frame.rows_in_file = row_count(out) if writer.rows_written else 0
                if frame.previous and writer.rows_written:  # every recovered game is in OUT now
                    recovered_path(out).unlink(missing_ok=True)
