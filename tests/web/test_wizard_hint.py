"""A seated player of a wizard table asks for a hint over the socket and gets the bot's move with
the reason in words (RULES.md §9, "Hints"), worked out in the server's workers."""

from __future__ import annotations

from starlette.testclient import TestClient
from tests.web.conftest import create, seat_query


def test_the_wizard_seat_gets_a_hint_that_says_why(client: TestClient) -> None:
    created = create(client, game="wizard", seed=2)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        welcome, state = ws.receive_json(), ws.receive_json()
        assert welcome["type"] == "welcome" and state["your_turn"]
        ws.send_json({"type": "hint", "step": state["step"]})
        answer = ws.receive_json()
        assert answer["type"] == "hint"
        assert answer["action"] in [offered["action"] for offered in state["legal"]]
        assert answer["text"].startswith(f"{answer['action']}. Why: ")
