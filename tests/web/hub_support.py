"""The hub of an app running in this process (a `TestClient`'s), for tests that must reach past
the routes: its clocks, its workers."""

from __future__ import annotations

import gc

from playtable.web.server.hub import Hub


def running_hub() -> Hub:
    """The newest hub whose workers are still open. `type(o) is Hub`, not `isinstance`: the
    garbage collector's list may hold weak proxies to dead objects, and `isinstance` asks a proxy
    for its class, which raises ReferenceError once its object is gone. A hub and its concerns
    refer to each other, so a test's hub made without workers (None) may linger until the
    collector runs: it is passed over."""
    hubs = [o for o in gc.get_objects()
            if type(o) is Hub and o.workers is not None and not o.workers.play.closed]
    assert hubs, "no app with a running hub in this process"
    return hubs[-1]
