"""Group commit (issue 32): the actions of every table that arrive in one turn of the event loop
are written to the store in one transaction, then each table moves on and is told.

Durability is unchanged: an action is acknowledged (its table changes, its state goes out) only
after the transaction holding it has committed, i.e. it is in SQLite's write-ahead log and
survives a crash of the server (store.py). What changes is the cost: one commit (one append to
the log, one lock) for the whole batch instead of one an action, with no timer and no added
wait. The batch is written on the loop's next turn (`call_soon`), so a quiet server writes
batches of one as before, and a busy one batches as many actions as arrived together.

A table has at most one action being written (`Table.writing`): a second action for it waits
until the first is stored and played, then is checked against the table as it is then, as if
it had arrived after it (the same answers as before: `stale`, `illegal`, or played).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from playtable.web.server.store import ActionRow, StoreError, TableStore

log = logging.getLogger("playtable.web")

Then = Callable[[StoreError | None], Any]
"""Run once the action's batch is written (None) or refused (the store's error); it runs inside
the flush, so it happens whatever became of the task that asked (a client gone meanwhile)."""


class GroupCommit:
    """Collects `ActionRow`s during a turn of the event loop and writes them together."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.pending: list[tuple[ActionRow, Then]] = []
        self.batches = 0
        """Transactions written so far (benchmarks compare it with the actions)."""

    def append(self, row: ActionRow, then: Then) -> None:
        if not self.pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self.pending.append((row, then))

    def flush(self) -> None:
        batch, self.pending = self.pending, []
        if not batch:
            return
        failure: StoreError | None = None
        try:
            self.store.append_actions([row for row, _ in batch])
            self.batches += 1
        except StoreError as err:  # nothing of the batch was written: each table is told
            failure = err
        for _, then in batch:
            try:
                then(failure)
            except Exception:  # one table's failure must not leave the others of its batch hanging
                log.exception("after storing an action")
