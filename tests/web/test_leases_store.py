"""The leases of running tables in the store, on both engines (docs/web.md, "Several
machines"): taken with the table's creation, renewed in one statement, taken over only once
expired and by one node only, and every write that changes a table fenced by its lease."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from playtable.web.server.hub import Hub
from playtable.web.server.store.leases import LeaseLost, LeaseStore
from playtable.web.server.store.store import PlayerRow, SeatRow, Snapshot, SqlStore, TableRow
from playtable.web.server.tables import leasing
from playtable.web.server.tables.proposals import SqlProposalStore
from playtable.web.server.tables.room import Limits, rebuilt
from playtable.web.server.tables.table_request import BadRequest, row_from_request
from playtable.web.server.transport.nodes import Node
from playtable.web.server.transport.owners import Owner, owner_of


def _row(table_id: str) -> TableRow:
    return TableRow(table_id, "troll", None, {}, 7, [SeatRow("human", "Ann")], "2026-12-06T05:00:00")


def _holder(db_where: str | Path, name: str, lost: list[str]) -> SqlStore:
    store = SqlStore(db_where)
    store.hold_as(LeaseStore(store.db, f"{name}/0", f"http://{name}:8000", 6.0), lost.append)
    return store


def _expire(store: SqlStore, table_id: str | None = None) -> None:
    """The lease runs out (its expiry set in the past, as a holder that stopped renewing)."""
    if table_id is None:
        store.db.execute("UPDATE leases SET expires = 0")
    else:
        store.db.execute("UPDATE leases SET expires = 0 WHERE table_id = ?", (table_id,))


@pytest.fixture
def two(db_where: str | Path) -> Iterator[tuple[SqlStore, SqlStore, list[str]]]:
    lost: list[str] = []
    first, second = _holder(db_where, "one", lost), _holder(db_where, "two", lost)
    yield first, second, lost
    first.close()
    second.close()


def test_a_table_is_leased_with_its_creation_and_renewed_for_its_holder(
        two: tuple[SqlStore, SqlStore, list[str]], db_where: str | Path) -> None:
    first, second, _ = two
    first.create(_row("t1"))
    assert first.leases is not None and second.leases is not None
    lease = first.leases.lease_of("t1")
    assert lease is not None and (lease.holder, lease.url, lease.live) == ("one/0", "http://one:8000", True)
    assert first.leases.renew() == {"t1"} and second.leases.renew() == set()
    assert second.leases.expired(10) == [] and second.leases.claim(["t1"]) == []
    alone = SqlStore(db_where)  # a server without --node writes no lease
    alone.create(_row("t2"))
    assert first.leases.lease_of("t2") is None and first.leases.unleased(10) == ["t2"]
    alone.close()


def test_an_expired_lease_is_taken_over_and_the_old_holder_can_no_longer_write(
        two: tuple[SqlStore, SqlStore, list[str]]) -> None:
    first, second, lost = two
    first.create(_row("t1"))
    first.append_action("t1", 1, 0, "roll")
    first.save_snapshot("t1", Snapshot(1, {"at": 1}))
    assert second.leases is not None and first.leases is not None
    _expire(first)
    assert second.leases.expired(10) == ["t1"] and second.leases.claim(["t1"]) == ["t1"]
    refused = {
        "action": lambda: first.append_action("t1", 2, 0, "late"),
        "undo": lambda: first.drop_last_action("t1", 1),
        "snapshot": lambda: first.save_snapshot("t1", Snapshot(2, {"at": 2})),
        "seat": lambda: first.seat_player("t1", 0, PlayerRow("p1", "Ann", None, "2026")),
        "joined": lambda: first.mark_joined("t1", 0),
        "clock": lambda: first.save_clock("t1", {"settings": {}}),
        "rematch": lambda: first.link_rematch("t1", "t9"),
        "proposal": lambda: SqlProposalStore(first.db, first.fence).ask("t1", 0, None, 1),
        "proposal decided": lambda: SqlProposalStore(first.db, first.fence).clear("t1"),
        "end": lambda: first.mark_ended("t1", "2026-12-06T05:01:00", None),
    }
    for what, write in refused.items():
        with pytest.raises(LeaseLost):
            write()
        assert lost[-1] == "t1", what
    assert len(lost) == len(refused)
    row = second.load("t1")
    assert row is not None and row.actions == [(0, "roll")] and row.ended is None and row.rematch is None
    assert row.seats[0].player is None and not row.seats[0].joined and row.clock is None
    assert second.snapshot("t1") == Snapshot(1, {"at": 1})
    assert SqlProposalStore(second.db, second.fence).of("t1") == []
    SqlProposalStore(second.db, second.fence).ask("t1", 0, None, 1)  # the holder's are written
    second.append_action("t1", 2, 0, "walk")  # the new holder plays on
    assert first.leases.renew() == set() and second.leases.renew() == {"t1"}
    second.mark_ended("t1", "2026-12-06T05:02:00", None)
    assert second.leases.lease_of("t1") is None  # an ended table has no lease
    # ...so its rematch is linked by whichever node serves its page, the old holder's too, and
    # its decided proposals cleared
    first.link_rematch("t1", "t9")
    SqlProposalStore(first.db, first.fence).clear("t1")
    assert SqlProposalStore(second.db, second.fence).of("t1") == []
    assert (second.load("t1") or _row("")).rematch == "t9" and len(lost) == len(refused)


def test_two_nodes_sweeping_at_once_never_both_take_a_table(
        two: tuple[SqlStore, SqlStore, list[str]]) -> None:
    first, second, _ = two
    ids = [f"t{k}" for k in range(40)]
    for table_id in ids:
        first.create(_row(table_id))
    _expire(first)
    taken: dict[str, list[str]] = {}
    start = threading.Barrier(2)

    def sweep(store: SqlStore, name: str) -> None:
        assert store.leases is not None
        start.wait(timeout=10)
        taken[name] = [t for k in range(0, 40, 8) for t in store.leases.claim(ids[k:k + 8])]

    runs = [threading.Thread(target=sweep, args=(store, name)) for store, name in
            ((first, "one"), (second, "two"))]
    for run in runs:
        run.start()
    for run in runs:
        run.join(timeout=30)
    assert sorted(taken["one"] + taken["two"]) == sorted(ids)
    assert not set(taken["one"]) & set(taken["two"])


def test_a_running_table_without_a_lease_is_claimed_once_and_an_ended_one_never(
        two: tuple[SqlStore, SqlStore, list[str]], db_where: str | Path) -> None:
    first, second, _ = two
    alone = SqlStore(db_where)
    alone.create(_row("old"))
    alone.create(_row("over"))
    alone.mark_ended("over", "2026-12-06T05:01:00", None)
    alone.close()
    assert first.leases is not None and second.leases is not None
    assert first.leases.unleased(10) == ["old"]
    assert first.leases.claim(["old", "over"]) == ["old"] and second.leases.claim(["old"]) == []
    assert second.leases.unleased(10) == []



def test_locate_says_where_a_table_is_served_and_takes_an_expired_one_over(db_where: str | Path) -> None:
    """`hub.leases.locate` (what the nodes' forwarding asks): None for a table held here (taken
    over first if its lease had expired) or one that is unknown; else the address of the live
    node that holds it. The old holder, once it knows, lets the table go and cannot write."""
    stores = [SqlStore(db_where) for _ in range(2)]
    one, two = (Hub(store, None, node=Node(name, f"http://{name}:8000", "s" * 32))  # type: ignore[arg-type]
                for store, name in zip(stores, ("one", "two"), strict=True))  # no bots
    row, _tokens, _ = row_from_request({"game": "troll", "seats": [{"kind": "human"}], "seed": 1})
    stores[0].create(row)
    held = one.keep(row, rebuilt(row))
    assert held is not None
    first = str(held.state.legal_actions()[0])
    played = [first]

    async def scenario() -> None:
        assert one.act(held, 0, first)
        assert await one.locate(row.id) is None
        assert await two.locate(row.id) == "http://one:8000" and row.id not in two.tables
        assert await two.locate("unknown") is None
        _expire(stores[0])
        assert await two.locate(row.id) is None
        taken = two.tables[row.id]
        assert taken.step == 1 and taken.state.to_json() == held.state.to_json()
        one.leases.renew()  # finds the lease gone: the table leaves one's memory
        assert row.id not in one.tables and held.is_over
        assert await one.locate(row.id) == "http://two:8000"
        played.append(str(taken.state.legal_actions()[0]))
        held.abandoned = False  # as if a bot's turn in flight had not seen the table let go
        assert not one.act(held, 0, played[1])  # refused by the lease: nothing written
        assert two.act(taken, 0, played[1])

    try:
        asyncio.run(scenario())
        assert [text for _, text in stores[1].load(row.id).actions] == played  # type: ignore[union-attr]
    finally:
        for store in stores:
            store.close()


def test_an_old_holder_writes_no_proposal_and_leaves_the_count_in_play_to_the_new_one(
        db_where: str | Path) -> None:
    """Node one made two wizard tables (two people sat down at each) and node two took them over
    (their leases expired): node one, not yet knowing, is asked for a new game mid-game at one
    and ends the other (its reaper, say). Neither is written: no proposal is stored, no end, no
    settlement of its ratings (which would leave the real end unrated), and the network that
    made them still has both in play (the new holder's to release); node one lets both go, and
    answers the proposal with 503 (asked again, it reaches node two)."""
    stores = [SqlStore(db_where) for _ in range(2)]
    one, two = (Hub(store, None, node=Node(name, f"http://{name}:8000", "s" * 32))  # type: ignore[arg-type]
                for store, name in zip(stores, ("one", "two"), strict=True))  # no bots
    made = []
    for seed in (1, 2):
        row, tokens, _ = row_from_request({"game": "wizard", "players": 3, "seed": seed,
                                           "seats": [{"kind": "human"}] * 3})
        row.seats[0].joined = row.seats[1].joined = True
        stores[0].create(row)
        assert one.in_play.reserve(row.id, "198.51.100.7", None, False, 20, 10) is None
        held = one.keep(row, rebuilt(row))
        assert held is not None
        made.append((held, tokens))
    (asked, tokens), (ended, _) = made

    def rows(table: str, table_id: str) -> int:
        return int(stores[1].db.execute(f"SELECT COUNT(*) FROM {table} WHERE table_id = ?",
                                        (table_id,)).fetchone()[0])

    async def scenario() -> None:
        _expire(stores[0])
        for table in (asked, ended):
            assert await two.locate(table.id) is None and table.id in two.tables
        with pytest.raises(BadRequest) as refused:
            await one.rematches.rematch(asked, {"seat": 0, "token": tokens[0]}, "198.51.100.7")
        assert refused.value.status == 503 and "another server" in refused.value.message
        one.mark_ended(ended)

    try:
        asyncio.run(scenario())
        assert two.proposals.of(asked.id) == []
        for table in (asked, ended):
            assert table.id not in one.tables  # let go at the refused write
            assert rows("tables_in_play", table.id) == 1 and rows("rated_tables", table.id) == 0
            row = stores[1].load(table.id)
            assert row is not None and row.ended is None
    finally:
        for store in stores:
            store.close()


def test_each_process_of_a_node_sweeps_only_the_tables_it_owns(db_where: str | Path) -> None:
    """With `--processes 2` a node's two workers hold leases of their own (`NAME/0`, `NAME/1`)
    and each takes over only the expired tables its number owns (`owners.py`)."""
    lost: list[str] = []
    dead = _holder(db_where, "one", lost)
    ids = [f"t{k}" for k in range(12)]
    for table_id in ids:
        dead.create(_row(table_id))
    _expire(dead)
    stores = [SqlStore(db_where) for _ in range(2)]
    workers = [Hub(store, None, owner=Owner(k, 2), node=Node("two", "http://two:8000", "s" * 32))  # type: ignore[arg-type]
               for k, store in enumerate(stores)]
    try:
        taken = [asyncio.run(worker.leases.sweep()) for worker in workers]
        for k, worker in enumerate(workers):
            assert taken[k] == [t for t in ids if owner_of(t, 2) == k] and set(worker.tables) == set(taken[k])
        assert dead.leases is not None
        holders = {t: getattr(dead.leases.lease_of(t), "holder", None) for t in ids}
        assert holders == {t: f"two/{owner_of(t, 2)}" for t in ids}
    finally:
        for store in [dead, *stores]:
            store.close()


def test_a_process_that_cannot_renew_for_a_whole_lease_lets_every_table_go(
        db_where: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its database out of reach (here: its connection closed), a process keeps its tables
    until its leases have surely run out, then serves none of them."""
    store = SqlStore(db_where)
    hub = Hub(store, None, node=Node("one", "http://one:8000", "s" * 32))  # type: ignore[arg-type]
    row, _tokens, _ = row_from_request({"game": "troll", "seats": [{"kind": "human"}], "seed": 1})
    store.create(row)
    assert hub.keep(row, rebuilt(row)) is not None
    hub.leases.renew()
    assert row.id in hub.tables
    store.db.close()
    hub.leases.renew()  # failed, but within the lease: still served
    assert row.id in hub.tables
    monkeypatch.setattr(leasing, "LEASE_SECONDS", 0.0)
    hub.leases.renew()
    assert row.id not in hub.tables


def test_a_full_node_takes_over_no_more_tables_than_it_may_hold(db_where: str | Path) -> None:
    lost: list[str] = []
    dead = _holder(db_where, "one", lost)
    for k in range(5):
        dead.create(_row(f"t{k}"))
    _expire(dead)
    store = SqlStore(db_where)
    full = Hub(store, None, Limits(tables=3), node=Node("two", "http://two:8000", "s" * 32))  # type: ignore[arg-type]
    try:
        assert len(asyncio.run(full.leases.sweep())) == 3 and len(full.tables) == 3
        assert asyncio.run(full.leases.sweep()) == []  # the other two are left to other nodes
        assert dead.leases is not None and len(dead.leases.expired(10)) == 2
    finally:
        dead.close()
        store.close()
