"""Several people's connections to one table, played in step with one another (tests and
benchmarks of shared tables).

Each connection is a pair of callables, receive() -> message and send(message). A bot at the
table may move at any time (from the moment the table is made, before the people connect), so
connections greet at different steps: every turn of the loop first brings each connection up
to the newest step any has seen, then lets the connection whose turn it is act (the first, if
several may) or waits for the bots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Message = dict[str, Any]
Receive = Callable[[], Message]
Send = Callable[[Message], None]


def next_state(receive: Receive, after: int, tries: int = 200) -> Message:
    """The connection's next `state` of a step after `after` (other messages skipped); an
    `error` (an action refused) fails loudly instead of waiting for ever."""
    for _ in range(tries):
        message = receive()
        if message["type"] == "state" and message["step"] > after:
            return message
        if message["type"] == "error":
            raise AssertionError(f"the server refused: {message}")
    raise AssertionError(f"no state after step {after}")


def play_in_step(connections: list[tuple[Receive, Send]],
                 choose: Callable[[int, Message], str], max_turns: int = 5000) -> Message:
    """Play the table to its end: `choose(k, state)` gives connection k's action when it is to
    act. Returns the final state (bounded by `max_turns`)."""
    states = [next_state(receive, -1) for receive, _ in connections]
    for _ in range(max_turns):
        top = max(state["step"] for state in states)
        for k, (receive, _) in enumerate(connections):
            while states[k]["step"] < top:
                states[k] = next_state(receive, states[k]["step"])
        if states[0]["terminal"]:
            return states[0]
        mover = next((k for k, state in enumerate(states) if state["your_turn"]), 0)
        state = states[mover]
        if state["your_turn"]:
            connections[mover][1]({"type": "act", "action": choose(mover, state), "step": state["step"]})
        states[mover] = next_state(connections[mover][0], state["step"])
    raise AssertionError(f"the game did not end in {max_turns} turns")
