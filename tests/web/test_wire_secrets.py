"""Nothing hidden goes over the wire: random troll and rotator games are played
through a real server's WebSocket, and every message a seat or a watcher receives is checked
against the hidden parts of the full state at that step, derived from `to_json()` of the
game rebuilt from its record: the troll's face-down cards nobody has seen and the deck (their
order), the seed, and the random stream. Once the game is over, and only then, the end screen's
`end` reveals them: every card still hidden is in it, and nowhere else."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.web.server_process import ServerProcess, start_server
from tests.web.wire_client import Client, create_table, join_query, walk

from playtable.core.records import Record, start_state
from playtable.core.registry import get_game
from playtable.games.troll.cards import card_pretty, card_text, parse_card

WORD = re.compile(r"[\w♠♥♦♣]+")
"""Whole words of a message's text: a card (`7H`, `7♥`) or the seed must not be one."""
FORBIDDEN_KEYS = {"chance", "rigged", "deck", "seed"}
"""Keys of the full state's JSON that no message may carry (the summary's `seed` only once the
game is over)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = Path(tmp_path_factory.mktemp("wire")) / "tables.sqlite3"
    with start_server(db, extra_args=("--rate-limit", "10000")) as running:
        yield running


def _hidden_troll_cards(position: dict[str, Any]) -> set[int]:
    """Every card the player has not seen, from the full state's JSON: face-down bricks never
    turned up, and the whole deck."""
    seen = {parse_card(c) for c in position["seen"]}
    everything = [c for row in position["bridge"].values() for stack in row for c in stack]
    everything += position["deck"]
    return {parse_card(c) for c in everything} - seen


def _check(message: dict[str, Any], hidden_cards: set[int], seed: int, finished: bool) -> None:
    if message.get("type") == "state":
        assert ("end" in message) == (finished and message["terminal"]), message
        if "end" in message:  # the end screen reveals every card still hidden, and only there
            shown = set(WORD.findall(json.dumps(message["end"]["revealed"], ensure_ascii=False)))
            assert all(card_pretty(card) in shown for card in hidden_cards), (hidden_cards, shown)
            message = {k: v for k, v in message.items() if k != "end"}
    words = set(WORD.findall(json.dumps(message, ensure_ascii=False)))
    for card in hidden_cards:
        assert not {card_text(card), card_pretty(card)} & words, (card_text(card), message)
    if not finished:
        assert str(seed) not in words, ("seed", message)
    for key, value in walk(message):
        if key == "seed" and finished and message["type"] == "welcome":
            continue
        assert key not in FORBIDDEN_KEYS, (key, message)
        if key == "card" and isinstance(value, int):
            assert value not in hidden_cards, (value, message)


def _play(server: ServerProcess, game: str, seed: int, rng: random.Random, **extra: Any) -> None:
    created = create_table(server.url, game=game, seed=seed, **extra)
    table_id = created["table_id"]
    log: list[tuple[int, str, dict[str, Any]]] = []  # (step when received, who, message)
    with Client(server.ws_url, table_id, join_query(created)) as player, \
            Client(server.ws_url, table_id) as watcher:
        for who, client in (("player", player), ("watcher", watcher)):
            for message in client.greet():
                log.append((0, who, message))
        _, state = player.received
        if game == "rotator":  # one hint (the solver's words) goes over the wire too
            player.send({"type": "hint", "step": 0})
            log.append((0, "player", player.recv()))
        while not state["terminal"]:
            step = state["step"]
            if state["can_undo"] and rng.random() < 0.2:
                player.send({"type": "undo", "step": step})
            else:
                player.send({"type": "act", "action": rng.choice(state["legal"])["action"], "step": step})
            state = player.recv_type("state")
            log.append((state["step"], "player", state))
            log.append((state["step"], "watcher", watcher.recv_type("state")))
            if rng.random() < 0.05:  # a reconnecting page asks for everything again
                watcher.send({"type": "sync"})
                log.extend((state["step"], "watcher", m) for m in watcher.greet())
    record = Record.from_json(httpx2.get(f"{server.url}/api/tables/{table_id}/record", timeout=10).json())
    assert record.seed == seed
    positions = [start_state(record)]
    for text in record.actions:
        positions.append(positions[-1].clone())
        positions[-1].apply_text(text)
    for step, _who, message in log:
        full = positions[min(step, len(positions) - 1)].to_json()
        hidden = _hidden_troll_cards(full) if game == "troll" else set()
        _check(message, hidden, seed, finished=step == len(positions) - 1 and positions[-1].is_terminal)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(10**9, 2**40), variant=st.sampled_from([None, "plus-one", "tutorial", "draft"]),
       choices=st.integers(0, 2**32))
def test_troll_messages_never_carry_hidden_cards_or_the_seed(
        server: ServerProcess, seed: int, variant: str | None, choices: int) -> None:
    _play(server, "troll", seed, random.Random(choices), variant=variant)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(10**9, 2**40), choices=st.integers(0, 2**32))
def test_rotator_messages_never_carry_the_seed(server: ServerProcess, seed: int, choices: int) -> None:
    _play(server, "rotator", seed, random.Random(choices))


def test_the_check_finds_a_hidden_card(server: ServerProcess) -> None:
    """The checker itself: a message naming an unseen brick fails it."""
    state = get_game("troll").new_state(seed=5)
    hidden = _hidden_troll_cards(state.to_json())
    card = min(hidden)
    with pytest.raises(AssertionError):
        _check({"type": "state", "observation": {"cards": [card_text(card)]}}, hidden, 5, False)
    with pytest.raises(AssertionError):
        _check({"type": "state", "events": [{"data": {"card": card}}]}, hidden, 5, False)
    with pytest.raises(AssertionError):
        _check({"type": "state", "x": "seed 123456789"}, set(), 123456789, False)
    with pytest.raises(AssertionError):  # an end screen before the end
        _check({"type": "state", "terminal": False, "end": {"revealed": []}}, set(), 5, False)
    with pytest.raises(AssertionError):  # an end screen that keeps a card hidden
        _check({"type": "state", "terminal": True, "end": {"revealed": []}}, hidden, 5, True)
