"""The runner's Ray backend: batches played as Ray tasks, locally or on a cluster."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

from playtable.core.errors import BadParameter


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BadParameter("the ray backend needs Ray: pip install 'playtable[ray]'") from None
    return ray


def run_ray(
    batches: Iterator[Any], workers: int, address: str | None, play: Callable[..., Any]
) -> Iterator[Any]:
    """`play(work)` of every batch on Ray, results as they finish (the runner orders them)."""
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                # A local Ray stays on the loopback interface and reports no usage statistics.
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                ray.init(
                    num_cpus=max(1, workers),
                    include_dashboard=False,
                    log_to_driver=False,
                    _node_ip_address="127.0.0.1",
                )
        except Exception as err:  # Ray raises several kinds; the user needs one line
            where = f"at {address}" if address else "locally"
            raise BadParameter(f"cannot start or reach Ray {where}: {str(err).splitlines()[0]}") from None
        started = True
    try:
        remote = ray.remote(play)
        limit = max(2, 2 * workers)
        running: list[Any] = []
        exhausted = False
        while running or not exhausted:
            while not exhausted and len(running) < limit:
                item = next(batches, None)
                if item is None:
                    exhausted = True
                else:
                    running.append(remote.remote(item))
            if not running:
                break
            done, _ = ray.wait(running, num_returns=1)
            running.remove(done[0])
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()
