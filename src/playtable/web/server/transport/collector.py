"""The table server's settings for Python's cyclic garbage collector.

CPython frees almost everything by reference counting; the cyclic collector is for objects in
reference cycles, and it runs by allocation counts: with the defaults (700, 10, 10) a server at
1,000 tables ran a young collection about every 20 actions and a full one every few seconds,
and a full one scans every tracked object of every table in play (its steps and events: about
five objects an action), 110-210 ms on this machine during which no table moves
(`benchmarks/web_processes.py`, measured with a gc callback; docs/web.md, "Measured").

So, once the server has started (modules imported, tables restored):
- what exists then is frozen (`gc.freeze`): it lives as long as the server (modules, classes,
  the restored tables while they are played), so no later collection scans it again. A cycle
  among those objects that becomes garbage is never freed; that is at most the tables restored
  at start, which the server held anyway;
- the young generation is collected after 50,000 net new objects instead of 700 (most of an
  action's objects die by reference counting before that), so collections are rarer and a full
  one is considered after 10 million; a cycle made after the start is still freed, by the
  collection of whichever generation it has reached.

That count does not bound the young generation under a load held for minutes: it is allocations
minus deallocations, and the tables that end free old objects all the time, so after two
minutes at 1,000 tables on one process the young generation held 460,000 objects and a young
collection took 400-560 ms. Collecting it on a timer and freezing the survivors was measured
and is worse (docs/web.md, "Sustained load"); fewer tracked objects per table is what is left.
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 20, 10)
"""`gc.set_threshold`: young collections a 50,000 net allocations; the middle one after 20 of
them; a full one considered after 10 middle ones (and run only when the objects that survived
since the last full one are a quarter of the rest, CPython's own rule)."""


def settle() -> None:
    """Freeze what the started server holds and set the thresholds (see the module's text)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
