"""The wizard game's secrets over the wire: random wizard games with every seat a
person (the wizard and two to four heroes, each on its own WebSocket) and a watcher, played
through a real server; every message each connection received is checked against the full
position at that step, rebuilt from the finished game's record. A hero's or a watcher's
messages never carry a face-down token's identity, an unflipped tile's face or key, the
wizard's hand, opening draw or deck order, another hero's uncommitted move, the seed or the
random stream; the wizard's never carry a hero's uncommitted move (nor the tiles' faces, which
nobody knows: RULES.md section 7). A hero's token cannot act for another seat or the wizard.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from tests.web.server_process import ServerProcess, start_server
from tests.web.wire_client import Client, create_table, join_query, walk

from playtable.core.records import Record, start_state
from playtable.games.wizard import board
from playtable.games.wizard.state import WizardState

FORBIDDEN_KEYS = {"chance", "rigged", "deck", "seed", "commits", "unused_tiles", "loot_deck",
                  "offered", "steps", "lost"}
"""Keys of the full state's JSON that no message may carry (the seed only once it is over)."""
WORD = re.compile(r"[\w.]+")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = Path(tmp_path_factory.mktemp("wizard-wire")) / "tables.sqlite3"
    with start_server(db, extra_args=("--rate-limit", "10000")) as running:
        yield running


def _observations(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [message["observation"]] if message.get("type") == "state" else []


def check_message(message: dict[str, Any], seat: int | None, pos: WizardState, seed: int,
                  finished: bool) -> None:
    """Fails if `message`, sent to `seat` (None: a watcher) while the game stood at `pos`,
    carries anything that seat may not know."""
    hero_or_watcher = seat != 0
    if message.get("type") == "state":  # the end screen's reveal only at the end
        assert ("end" in message) == (finished and message["terminal"]), message
    text = json.dumps(message)
    words = set(WORD.findall(text))
    if not finished:
        assert str(seed) not in words, ("seed", message)
    for key, _ in walk(message):
        if key == "seed" and finished and message["type"] == "welcome":
            continue
        assert key not in FORBIDDEN_KEYS, (key, message)
    # Card and tile instances ("goblin.3") never go out: the pages get kinds and names only.
    instances = set(pos.hand) | set(pos.deck) | set(pos.offered) | set(pos.unused_tiles)
    instances |= {c.tile for c in pos.cells.values()}
    assert not instances & words, (instances & words, message)
    # Uncommitted moves: only the hero who chose one may see it (`my_move`, his `last_action`).
    without_legal = {k: v for k, v in message.items() if k != "legal"}
    if isinstance(message.get("log"), list):  # his own past moves are his to see: his "stay" of an
        without_legal["log"] = [e for e in message["log"] if e.get("seat") != seat]  # earlier round
    for other, move in pos.commits.items():
        for key, value in walk(without_legal):
            if value == move and isinstance(value, str) and pos.commits.get(seat) != move:
                assert seat == other, (other, move, key, message)  # (the same text as his own is his)
    for obs in _observations(message):
        cells = {c["square"]: c for c in obs["cells"]}
        for sq, cell in pos.cells.items():
            seen = cells[board.name(sq)]
            if sq != pos.tower and not cell.flipped:  # nobody knows a face-down tile's face
                assert not {"tile", "draw", "mana"} & set(seen), (seen, message)
                if hero_or_watcher:
                    assert "key" not in seen, (seen, message)
            if hero_or_watcher:
                for token, shown in zip(cell.tokens, seen["tokens"], strict=True):
                    assert token.up or "kind" not in shown, (shown, message)
        if hero_or_watcher:
            assert not {"hand", "opening"} & set(obs["wizard"]), message
            assert obs["decision"].get("tokens") is None, message
        if seat is None or seat == 0:
            assert "my_move" not in obs, message


def _play(server: ServerProcess, players: int, seed: int, rng: random.Random) -> None:
    created = create_table(server.url, game="wizard", seed=seed, players=players,
                           params={"max_rounds": rng.randint(2, 4)})
    table_id = created["table_id"]
    log: list[tuple[int, int | None, dict[str, Any]]] = []
    seats = [Client(server.ws_url, table_id, join_query(created, s)) for s in range(players)]
    watcher = Client(server.ws_url, table_id)
    clients: list[tuple[int | None, Client]] = [*enumerate(seats), (None, watcher)]
    try:
        states: dict[int | None, dict[str, Any]] = {}
        for who, client in clients:
            for message in client.greet():
                log.append((0, who, message))
            states[who] = client.received[-1]
        state = states[0]
        while not state["terminal"]:
            mover = state["current_player"]
            mine = states[mover]
            assert mine["your_turn"] and all(not states[s]["your_turn"] for s in range(players) if s != mover)
            if rng.random() < 0.05:  # someone else's token tries to act for the mover
                other = rng.choice([s for s in range(players) if s != mover])
                seats[other].send({"type": "act", "action": mine["legal"][0]["action"], "step": mine["step"]})
                refused = seats[other].recv_type("error")
                assert refused["code"] in ("forbidden", "illegal"), refused
            seats[mover].send({"type": "act", "action": rng.choice(mine["legal"])["action"],
                               "step": mine["step"]})
            for who, client in clients:
                states[who] = client.recv_type("state")
                log.append((states[who]["step"], who, states[who]))
            state = states[0]
            if rng.random() < 0.03:  # a reconnecting hero page asks for everything again
                seats[1].send({"type": "sync"})
                log.extend((state["step"], 1, m) for m in seats[1].greet())
        for who, client in clients:
            log.extend((state["step"], who, m) for m in client.received if m["type"] == "error")
    finally:
        for _, client in clients:
            client.close()
    record = Record.from_json(httpx2.get(f"{server.url}/api/tables/{table_id}/record", timeout=10).json())
    positions: list[WizardState] = [start_state(record)]  # type: ignore[list-item]
    for text in record.actions:
        positions.append(positions[-1].clone())
        positions[-1].apply_text(text)
    last = len(positions) - 1
    for step, who, message in log:
        check_message(message, who, positions[min(step, last)], seed, step == last)


@settings(max_examples=6, deadline=None, phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(10**9, 2**40), players=st.sampled_from([3, 4, 5]), choices=st.integers(0, 2**32))
def test_wizard_messages_keep_every_seats_secrets(
        server: ServerProcess, seed: int, players: int, choices: int) -> None:
    _play(server, players, seed, random.Random(choices))


def test_a_heros_token_acts_for_no_other_seat(server: ServerProcess) -> None:
    created = create_table(server.url, game="wizard", seed=11, players=3)
    table_id = created["table_id"]
    hero_token = join_query(created, 1).split("token=", 1)[1]
    # Hero 1's token offered for the wizard's seat or hero 2's is refused: a watcher.
    for seat in (0, 2):
        with Client(server.ws_url, table_id, f"seat={seat}&token={hero_token}") as intruder:
            refused = intruder.recv()
            assert refused["type"] == "error" and refused["code"] == "forbidden"
            welcome, state = intruder.greet()
            assert welcome["role"] == "watcher" and state["your_turn"] is False
            intruder.send({"type": "act", "action": "tower c3", "step": state["step"]})
            assert intruder.recv_type("error")["code"] == "forbidden"
    # With its own seat, at the wizard's turn, hero 1 may not play the wizard's move.
    with Client(server.ws_url, table_id, join_query(created, 1)) as hero:
        _, state = hero.greet()
        assert state["current_player"] == 0 and state["legal"] == []
        hero.send({"type": "act", "action": "tower c3", "step": state["step"]})
        refused = hero.recv_type("error")
        assert refused["code"] == "illegal" and "not your turn" in refused["message"]
    summary = httpx2.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
    assert summary["step"] == 0


def test_the_check_finds_a_leak() -> None:
    """The checker itself: a hero's view with a face-down token's kind, a watcher's with a
    hero's committed move, or the wizard's hand in a hero's message, fails it."""
    from playtable.core.registry import get_game

    pos: WizardState = get_game("wizard").new_state(seed=1234567891)  # type: ignore[assignment]
    while pos.decision.get("kind") in ("tower", "entrance", "key", "opening"):  # keys hidden
        pos.apply(pos.legal_actions()[0])
    wizard_view = {"type": "state", "observation": pos.observation(0)}
    check_message(wizard_view, 0, pos, 1234567891, False)
    keyed = [c for c in wizard_view["observation"]["cells"] if c.get("key")]
    assert keyed
    if keyed:
        with pytest.raises(AssertionError):
            check_message(wizard_view, 1, pos, 1234567891, False)
    with pytest.raises(AssertionError):
        check_message({"type": "state", "x": pos.deck[0]}, 1, pos, 1234567891, False)
    pos.commits[2] = "move N"
    with pytest.raises(AssertionError):
        check_message({"type": "state", "events": [{"data": {"m": "move N"}}]}, 1, pos, 1234567891, False)
    with pytest.raises(AssertionError):
        check_message({"type": "state", "x": "seed 1234567891"}, 1, pos, 1234567891, False)


def test_every_seats_replay_opens_only_after_the_end(server: ServerProcess) -> None:
    """Per-seat replays: a seat's view needs its token while the game runs; once it is over,
    every seat's view (the wizard's hand and tokens too) is open to everyone."""
    running = create_table(server.url, game="wizard", seed=5, players=3)
    base = f"{server.url}/api/tables/{running['table_id']}/replay"
    steps = httpx2.get(f"{base}?seat=0", timeout=10).json()["steps"]
    assert steps[-1]["observation"]["role"] == "watcher"
    token = join_query(running, 0)
    steps = httpx2.get(f"{base}?{token}", timeout=10).json()["steps"]
    assert steps[-1]["observation"]["role"] == "wizard"
    bots = [{"kind": "bot", "agent": "random"}] * 3
    done = create_table(server.url, game="wizard", seed=6, players=3, seats=bots, params={"max_rounds": 1})
    url = f"{server.url}/api/tables/{done['table_id']}"
    for _ in range(600):  # bounded: three random bots finish a one-round game in well under a minute
        if httpx2.get(url, timeout=10).json()["status"] == "finished":
            break
        time.sleep(0.1)
    steps = httpx2.get(f"{url}/replay?seat=0", timeout=10).json()["steps"]
    assert steps[-1]["observation"]["role"] == "wizard" and "hand" in steps[-1]["observation"]["wizard"]
    assert all(s["action"] is None or "secret" not in s["action"] for s in steps)


def test_table_chat_reaches_everyone_and_only_players_write(server: ServerProcess) -> None:
    created = create_table(server.url, game="wizard", seed=12, players=3)
    table_id = created["table_id"]
    with Client(server.ws_url, table_id, join_query(created, 2)) as hero, \
            Client(server.ws_url, table_id) as watcher:
        hero.greet()
        watcher.greet()
        hero.send({"type": "chat", "text": "  hello, wizard  "})
        for client in (hero, watcher):
            line = client.recv_type("chat")
            assert (line["seat"], line["name"], line["text"]) == (2, "Hero 2", "hello, wizard")
        watcher.send({"type": "chat", "text": "I only watch"})
        assert watcher.recv_type("error")["code"] == "forbidden"
        for bad in ("", "two\nlines", "x" * 301, 5):
            hero.send({"type": "chat", "text": bad})
            assert hero.recv_type("error")["code"] == "bad_message"
    with Client(server.ws_url, table_id) as late:  # a later page gets the chat so far
        assert [c["text"] for c in late.greet()[0]["chat"]] == ["hello, wizard"]
