"""The operator's token (docs/web.md, "Live tables are the operator's"): what lets a person start,
control and close the live Star Dice tables of a server, which no anonymous web client may.

`playtable serve` and `playtable stardice table` make one at start (`secrets.token_urlsafe`) and
print it, in the operator page's address, on stderr; scripted use gives one in the environment
(`PLAYTABLE_OPERATOR_TOKEN`, or the `--operator-token` option), never in a file a client could
name. Every live table has a control token of its own besides. Tokens are compared with
`secrets.compare_digest`; none is ever sent to a page that did not present it.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping

OPERATOR_ENV = "PLAYTABLE_OPERATOR_TOKEN"
"""The environment variable a scripted operator's token comes from (and `serve` hands its worker
processes the token in: the environment, not their command line, which any local user may read)."""
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
"""A token an operator may choose: URL-safe (it travels in an address's #fragment), at least 16
characters (a guessable token would give a stranger the tables)."""
MAX_PRESENTED = 200
"""Characters of a presented token looked at; anything longer is wrong."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_matches(given: object, *expected: str | None) -> bool:
    """Whether `given` (whatever a client sent) is one of the `expected` tokens (None: none)."""
    if not isinstance(given, str) or not 0 < len(given) <= MAX_PRESENTED:
        return False
    presented = given.encode("utf-8", "surrogatepass")
    found = False
    for token in expected:  # every token compared, so the time says nothing of which matched
        if token is not None and secrets.compare_digest(presented, token.encode("ascii")):
            found = True
    return found


def bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header (None: no such header)."""
    value = headers.get("authorization")
    if not isinstance(value, str) or value[:7].lower() != "bearer ":
        return None
    return value[7:].strip()


def from_environment() -> str | None:
    """The token `serve` put in the environment for its worker processes (None: none)."""
    value = os.environ.get(OPERATOR_ENV)
    return value if value and TOKEN_SHAPE.match(value) else None
