"""The front of `playtable serve --processes N` (docs/web.md, "Beyond one process"): it owns the
port, starts N table-owning workers (`processes.py`), and hands each new connection to the
worker that owns the table its first request names (`owners.route`; any worker, in turn, when it
names none).

The front reads nothing: it peeks at the request's head (MSG_PEEK leaves the bytes in the kernel
for the worker), passes the socket's descriptor over the worker's Unix socket (SCM_RIGHTS) and
closes its own copy. It costs one hand-over per connection and nothing per message. A worker
that dies is started again (its tables come back from the store, as at a restart); its
connections wait in the front meanwhile. SIGINT or SIGTERM stops every worker, then the front.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from playtable.web.server.transport.owners import preferred, route
from playtable.web.server.transport.processes import ServeSettings

log = logging.getLogger("playtable.web")

MAX_REQUEST_LINE = 8192
"""Peeked bytes in which the request line must end (longer ones go to any worker, which refuses)."""
HEAD_SECONDS = 10.0
"""The longest a new connection may take to send its request line."""
MAX_WAITING = 4096
"""Connections waiting for their request line or their worker past which new ones are closed."""
WORKER_WAIT_SECONDS = 30.0
"""The longest a connection waits for its worker to be (re)started."""
RESTART_PAUSE = 1.0
"""A worker that died is started again at most this often (one failing at once cannot spin)."""
STOP_SECONDS = 15.0


class Worker:
    """One worker process and the front's end of its hand-over socket."""

    def __init__(self, index: int, count: int, peers: Path, settings: ServeSettings) -> None:
        self.index, self.count, self.peers, self.settings = index, count, peers, settings
        self.process: subprocess.Popen[bytes] | None = None
        self.channel: socket.socket | None = None
        self.started_at = 0.0
        self.ready = asyncio.Event()

    def start(self) -> None:
        front_end, worker_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        command = [sys.executable, "-m", "playtable.web.server.transport.processes",
                   str(self.index), str(self.count), str(worker_end.fileno()), str(self.peers),
                   self.settings.to_json()]
        self.process = subprocess.Popen(command, pass_fds=[worker_end.fileno()], stdin=subprocess.DEVNULL)
        worker_end.close()
        front_end.setblocking(False)
        self.channel = front_end
        self.started_at = time.monotonic()
        self.ready.set()

    def died(self) -> int | None:
        """The exit status if the process has ended (its channel is then closed)."""
        if self.process is None:
            return None
        status = self.process.poll()
        if status is not None and self.channel is not None:
            self.channel.close()
            self.channel = None
            self.ready.clear()
        return status

    async def hand(self, conn: socket.socket) -> bool:
        """Pass `conn` to the worker (waiting for room in its socket buffer); whether it went."""
        loop = asyncio.get_running_loop()
        while True:
            channel = self.channel
            if channel is None:
                return False
            try:
                socket.send_fds(channel, [b"c"], [conn.fileno()])
                return True
            except BlockingIOError:
                await _ready(loop.add_writer, loop.remove_writer, channel.fileno(), 1.0)
            except OSError:  # the worker died between two checks: the monitor restarts it
                return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)


async def _ready(add: Any, remove: Any, fd: int, seconds: float) -> bool:
    """Wait until `fd` is ready (`add`/`remove`: the loop's add_reader/remove_reader or its
    writer pair), at most `seconds`; whether it is."""
    ready = asyncio.Event()
    add(fd, ready.set)
    try:
        await asyncio.wait_for(ready.wait(), seconds)
        return True
    except TimeoutError:
        return False
    finally:
        remove(fd)


async def _request_line(sock: socket.socket) -> bytes | None:
    """The request's head as far as it has come, its first line at least (peeked, not read;
    the head's other lines usually come in the same packet), None if the client closed or sent
    no whole line within HEAD_SECONDS."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HEAD_SECONDS
    pause = 0.005
    while True:
        try:
            data = sock.recv(MAX_REQUEST_LINE, socket.MSG_PEEK)
        except BlockingIOError:
            data = None
        except OSError:
            return None
        if data is not None:
            if not data:
                return None
            if b"\n" in data or len(data) >= MAX_REQUEST_LINE:
                return data
            # A part of the line: the rest is on its way (readiness would be no news: the part
            # is still unread), so wait, longer each time (a client trickling bytes costs little).
            await asyncio.sleep(pause)
            pause = min(0.25, 2 * pause)
        left = deadline - loop.time()
        if left <= 0:
            return None
        if not await _ready(loop.add_reader, loop.remove_reader, sock.fileno(), left):
            return None


def request_path(head: bytes) -> str:
    """The path of a request line (`GET /ws/tables/abc?seat=0 HTTP/1.1` -> `/ws/tables/abc`),
    percent-decoded as uvicorn decodes it for the app (so the front and the worker's
    `OwnerCheck` always agree on the owner)."""
    parts = head.split(b"\n", 1)[0].split(b" ")
    if len(parts) < 2:
        return ""
    return unquote(parts[1].split(b"?", 1)[0].decode("latin-1"))


def referer_path(head: bytes) -> str | None:
    """The path of the request's Referer, if the peeked bytes hold that header."""
    for line in head.split(b"\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"referer":
            try:
                return unquote(urlsplit(value.strip().decode("latin-1")).path)
            except ValueError:  # not a URL ("http://[::1/"): routed as if it had none
                return None
        if not line.strip():
            break
    return None


PEERS_PREFIX = "playtable-peers-"
"""The temporary folder of the workers' Unix sockets: this prefix, the front's pid, a dash."""


def remove_stale_peer_folders(parent: Path) -> list[Path]:
    """The folders a front left in `parent` when it was killed outright (SIGKILL: no `finally`
    ran), removed: those of this user whose front's pid is no longer running. A folder holds
    only its workers' sockets. Returns what was removed."""
    removed = []
    for folder in parent.glob(PEERS_PREFIX + "*-*"):
        pid_text = folder.name[len(PEERS_PREFIX):].split("-", 1)[0]
        try:
            found = folder.lstat()  # a link is never followed: only a real folder of this user
            if not pid_text.isdigit() or found.st_uid != os.getuid() or not stat.S_ISDIR(found.st_mode):
                continue
            os.kill(int(pid_text), 0)  # still running (or the pid reused): kept
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        except OSError:  # gone meanwhile, or another user's process: left alone
            continue
    return removed


class Front:
    """The listening socket, the workers, and the hand-over of each connection."""

    def __init__(self, listener: socket.socket, count: int, settings: ServeSettings) -> None:
        self.listener, self.count = listener, count
        remove_stale_peer_folders(Path(tempfile.gettempdir()))
        self.peers = Path(tempfile.mkdtemp(prefix=f"{PEERS_PREFIX}{os.getpid()}-"))
        self.workers = [Worker(i, count, self.peers, settings) for i in range(count)]
        self.turns = itertools.cycle(range(count))
        self.stopping = asyncio.Event()
        self.waiting = 0

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stopping.set)
        for worker in self.workers:
            worker.start()
        self.listener.setblocking(False)
        accepting = loop.create_task(self._accept())
        watching = loop.create_task(self._watch())
        try:
            await self.stopping.wait()
        finally:
            accepting.cancel()
            watching.cancel()
            self.listener.close()
            await self._stop_workers()
            with contextlib.suppress(OSError):
                self.peers.rmdir()

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, _address = await loop.sock_accept(self.listener)
            except OSError as err:  # out of descriptors, say: the client retries
                log.error("accepting a connection failed: %s", err)
                await asyncio.sleep(0.1)
                continue
            if self.waiting >= MAX_WAITING:
                conn.close()
                continue
            loop.create_task(self._route(conn))

    async def _route(self, conn: socket.socket) -> None:
        self.waiting += 1
        try:
            head = await _request_line(conn)
            if head is None:
                return
            path = request_path(head)
            owner = route(path, self.count)  # None: any worker may serve it, best the page's
            index = preferred(path, referer_path(head), self.count)
            if index is None:
                index = next(self.turns)
            deadline = time.monotonic() + WORKER_WAIT_SECONDS
            while time.monotonic() < deadline and not self.stopping.is_set():
                worker = self.workers[index]
                if worker.channel is not None and await worker.hand(conn):
                    return
                if owner is None:  # any worker will do: try the next one
                    index = next(self.turns)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.workers[index].ready.wait(), 0.5)
        finally:
            self.waiting -= 1
            conn.close()  # the worker holds its own copy now

    async def _watch(self) -> None:
        """Start again each worker that died (not while stopping)."""
        while not self.stopping.is_set():
            for worker in self.workers:
                status = worker.died()
                if status is not None and not self.stopping.is_set() \
                        and time.monotonic() - worker.started_at >= RESTART_PAUSE:
                    log.error("worker %d ended (status %s); starting it again", worker.index, status)
                    worker.start()
            await asyncio.sleep(0.2)

    async def _stop_workers(self) -> None:
        for worker in self.workers:
            worker.stop()
        deadline = time.monotonic() + STOP_SECONDS
        for worker in self.workers:
            while worker.process is not None and worker.process.poll() is None \
                    and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            if worker.process is not None and worker.process.poll() is None:
                log.error("worker %d did not stop within %s s; killing it", worker.index, STOP_SECONDS)
                worker.process.kill()
                worker.process.wait()
            if worker.channel is not None:
                worker.channel.close()


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(2048)
    return listener


def serve_processes(host: str, port: int, count: int, settings: ServeSettings) -> None:
    """Run the front and `count` workers until SIGINT or SIGTERM."""
    logging.basicConfig(level=logging.WARNING, format="front: %(levelname)s %(name)s: %(message)s")
    front = Front(listen(host, port), count, settings)
    asyncio.run(front.run())
