"""Run a command in a new network namespace whose only interface is loopback.

    python tests/lab/loopback_only.py COMMAND [ARG ...]

A local Ray binds to, and talks to, every address the machine has; this workplace allows
traffic to loopback only. Inside a fresh network namespace loopback is the only address there
is, so nothing can leave the machine whatever Ray does. Needs CAP_SYS_ADMIN (root, as in CI);
exits with status 77 when the namespace cannot be made, so a caller can skip rather than fail.
Uses only the C library, not `unshare(1)` or `ip(8)`, which a bare machine may lack.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import sys

CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
CANNOT = 77


def enter_loopback_only_namespace() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    # A new namespace's loopback starts down; bring it up as `ip link set lo up` would.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        enter_loopback_only_namespace()
    except OSError as err:
        print(f"cannot make a loopback-only network namespace: {err}", file=sys.stderr)
        return CANNOT
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
