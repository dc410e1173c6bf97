"""`playtable serve --node NAME --node-url URL` (docs/web.md, "Several machines"): a node's name,
its address and the nodes' shared secret are checked before the server starts, each refusal in
one line with status 2, and the secret is taken only from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli.cli_runner import run

from playtable.web.server.transport.nodes import NODE_SECRET_ENV, Node, NodeError

SECRET = "s" * 32


@pytest.mark.parametrize(("args", "secret", "said"), [
    (["--node", "a"], SECRET, "--node and --node-url go together"),
    (["--node-url", "http://127.0.0.1:9"], SECRET, "--node and --node-url go together"),
    (["--node", "a", "--node-url", "http://127.0.0.1:9"], None, NODE_SECRET_ENV),
    (["--node", "a", "--node-url", "http://127.0.0.1:9"], "short", "32 to 128 characters"),
    (["--node", "Bad Name", "--node-url", "http://127.0.0.1:9"], SECRET, "a node's name"),
    (["--node", "a", "--node-url", "ftp://127.0.0.1:9"], SECRET, "a node's address"),
    (["--node", "a", "--node-url", "http://127.0.0.1:9/x"], SECRET, "a node's address"),
])
def test_a_node_that_cannot_be_used_is_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], secret: str | None,
        said: str) -> None:
    if secret is None:
        monkeypatch.delenv(NODE_SECRET_ENV, raising=False)
    else:
        monkeypatch.setenv(NODE_SECRET_ENV, secret)
    refused = run("serve", "--port", "0", "--db", str(tmp_path / "t.sqlite3"), *args)
    assert refused.code == 2 and refused.err.count("\n") == 1, refused
    assert said in refused.err and "Traceback" not in refused.err and "open http" not in refused.err


def test_a_node_keeps_its_address_without_a_trailing_slash() -> None:
    node = Node("node-1", "http://10.0.0.2:8000/", SECRET)
    assert node.url == "http://10.0.0.2:8000"
    with pytest.raises(NodeError):
        Node("node-1", "http://user@10.0.0.2:8000", SECRET)
