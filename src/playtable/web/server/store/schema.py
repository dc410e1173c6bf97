"""The server's database layout, one description for SQLite and PostgreSQL, and its versions.

A database records its layout's version in `schema_version` (one row). `MIGRATIONS` is the
ordered list of steps from an empty database to today's layout: step k takes version k-1 to k.
Opening a database (`opened`) applies, in one transaction and one connection at a time, the
steps it lacks; a database whose version is newer than `LATEST` (written by a later playtable)
is refused in one line rather than misread. A change of layout is a new step at the end, never
an edit of an old one.

Version 1 is the layout as it was when versions began. An SQLite file from before then (no
`schema_version`, tables of an earlier layout) is brought to it by `_catch_up_sqlite`: the
columns, keys and tables added over time, with the data they need, checked one by one as the
modules did before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playtable.web.server.people.names import name_key, name_look
from playtable.web.server.store.database import Database, DatabaseError, StoreError, connect

MAX_NAME = 30
"""A display name's length at most (`people.check_name`)."""

LAYOUT_1_TABLES = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT,
    params TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    created TEXT NOT NULL,
    rematch TEXT,
    rematch_of TEXT,
    ended TEXT,
    result TEXT,
    clock TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    stand_in TEXT,
    PRIMARY KEY (table_id, step)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT UNIQUE,
    created TEXT NOT NULL,
    name_key TEXT,
    name_look TEXT
);
CREATE TABLE IF NOT EXISTS seat_players (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    step INTEGER NOT NULL,
    state TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    who TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    updated TEXT NOT NULL,
    opponents INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, kind, who)
);
CREATE TABLE IF NOT EXISTS rated_tables (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rated INTEGER NOT NULL,
    why TEXT,
    settled TEXT NOT NULL,
    changes TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS table_choices (
    table_id TEXT PRIMARY KEY,
    rated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS solo_scores (
    table_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    won INTEGER NOT NULL,
    ended TEXT NOT NULL,
    PRIMARY KEY (table_id, player_id)
);
CREATE TABLE IF NOT EXISTS rating_opponents (
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    who TEXT NOT NULL,
    opponent TEXT NOT NULL,
    PRIMARY KEY (game, kind, who, opponent)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_networks (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    network TEXT NOT NULL,
    PRIMARY KEY (table_id, seat, network)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS votes (
    table_id TEXT NOT NULL,
    voter INTEGER NOT NULL,
    choice INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (table_id, voter)
);
CREATE TABLE IF NOT EXISTS tables_in_play (
    table_id TEXT PRIMARY KEY,
    network TEXT NOT NULL,
    person TEXT,
    tutorial INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS address_rates (
    kind TEXT NOT NULL,
    address TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, address)
);
CREATE TABLE IF NOT EXISTS address_sockets (
    address TEXT NOT NULL,
    process INTEGER NOT NULL,
    open INTEGER NOT NULL,
    PRIMARY KEY (address, process)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS playtests (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS playtest_slots (
    playtest_id TEXT NOT NULL REFERENCES playtests(id),
    slot INTEGER NOT NULL,
    variant TEXT NOT NULL,
    seed BIGINT NOT NULL,
    table_id TEXT,
    begun INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (playtest_id, slot)
);
CREATE TABLE IF NOT EXISTS playtest_testers (
    playtest_id TEXT NOT NULL,
    slot INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    assigned TEXT NOT NULL,
    answers TEXT,
    answered TEXT,
    network TEXT,
    PRIMARY KEY (playtest_id, slot, seat),
    FOREIGN KEY (playtest_id, slot) REFERENCES playtest_slots(playtest_id, slot) /* rowid */
)
"""
"""Every table of version 1, in the order a copy fills them (a row's references first). The
testers are listed in the order they were seated (their rowid, explicit in PostgreSQL)."""

LAYOUT_1_INDEXES = """
CREATE INDEX IF NOT EXISTS tables_ended ON tables(ended);
CREATE UNIQUE INDEX IF NOT EXISTS players_name_key ON players(name_key);
CREATE UNIQUE INDEX IF NOT EXISTS players_name_look ON players(name_look);
CREATE INDEX IF NOT EXISTS seat_players_by_player ON seat_players(player_id, table_id);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(game, (mu - 3 * sigma) DESC);
CREATE INDEX IF NOT EXISTS solo_by_player ON solo_scores(player_id, game, variant, ended);
CREATE INDEX IF NOT EXISTS tables_in_play_network ON tables_in_play(network, tutorial);
CREATE INDEX IF NOT EXISTS tables_in_play_person ON tables_in_play(person, tutorial);
CREATE INDEX IF NOT EXISTS playtest_testers_by_player ON playtest_testers(playtest_id, player_id)
"""


def _layout_1(db: Database) -> None:
    """Tables, actions, players and seats, snapshots, ratings, bests and opponents, the rated
    choice, seats' networks, votes, tables in play, rate budgets, open sockets, playtests."""
    db.script(LAYOUT_1_TABLES)
    if db.dialect == "sqlite":
        _catch_up_sqlite(db)
    db.script(LAYOUT_1_INDEXES)


def _layout_2(db: Database) -> None:
    """A table remembers the tutorial it guides (its creator's lesson, never "Your turn")."""
    db.execute("ALTER TABLE tables ADD COLUMN tutorial TEXT")


def _layout_3(db: Database) -> None:
    """An action remembers when it was played (UTC seconds since the epoch; NULL for actions
    stored before), and a seat counts the hints it asked and the moves it took back (an undo
    removes its action row, so only a count keeps it): a playtest's export gives people's time
    and help seat by seat (docs/lab.md, "People's time")."""
    db.execute("ALTER TABLE actions ADD COLUMN played DOUBLE PRECISION")
    db.script(LAYOUT_3_TABLES)


LAYOUT_3_TABLES = """
CREATE TABLE IF NOT EXISTS seat_assists (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    hints INTEGER NOT NULL DEFAULT 0,
    undos INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
)
"""
"""Tables added by layout step 3, after version 1's in a copy's order."""

def _layout_nodes(db: Database) -> None:
    """Several machines' servers on one store (docs/web.md, "Several machines"): each node's
    name, address and last heartbeat (`node_registry.py`), and the open sockets counted per
    node and process (`address_rates.AddressSockets`): the process index alone collided across
    nodes. The counts are only what live processes hold now, rewritten as sockets open and
    close, so the old table is dropped, not copied."""
    db.script(LAYOUT_NODES_TABLES)


LAYOUT_NODES_TABLES = """
CREATE TABLE IF NOT EXISTS nodes (
    name TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    seen DOUBLE PRECISION NOT NULL
);
DROP TABLE IF EXISTS address_sockets;
CREATE TABLE IF NOT EXISTS address_sockets (
    address TEXT NOT NULL,
    node TEXT NOT NULL DEFAULT '',
    process INTEGER NOT NULL,
    open INTEGER NOT NULL,
    PRIMARY KEY (address, node, process)
) WITHOUT ROWID
"""
"""The step's tables (`nodes` is not copied by `db copy`: it is who is running now)."""


def _layout_chats(db: Database) -> None:
    """A seat counts the chat lines it sent (the chat itself stays in memory: a count is what a
    playtest's export needs, docs/lab.md "People's time")."""
    db.execute("ALTER TABLE seat_assists ADD COLUMN chats INTEGER NOT NULL DEFAULT 0")


def _layout_leases(db: Database) -> None:
    """A running table's lease (docs/web.md, "Several machines"): which node's process holds it
    (`holder`, its name and worker index), the address the other nodes reach that node at
    (`url`), and until when in the database's clock (`expires`, UTC seconds). Written only by
    servers started with `--node` (`leases.py`); a lease is not history, so `db copy` leaves
    it behind."""
    db.script(LAYOUT_LEASES_TABLES)


LAYOUT_LEASES_TABLES = """
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    url TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_by_holder ON leases(holder);
CREATE INDEX IF NOT EXISTS leases_by_expiry ON leases(expires)
"""


def _layout_proposals(db: Database) -> None:
    """A table's open mid-game proposal of a new game is stored, ask by ask, so a restart keeps
    it for the people who have not answered yet (tables/proposals.py)."""
    db.script(LAYOUT_PROPOSALS_TABLES)


LAYOUT_PROPOSALS_TABLES = """
CREATE TABLE IF NOT EXISTS proposals (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    variant TEXT,
    asked INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
)
"""
"""Tables added by the proposals' layout step, after step 3's in a copy's order."""


def _layout_live_places(db: Database) -> None:
    """Which node runs each live Star Dice table (docs/web.md, "Several machines"): a live table
    is in the memory of one node's process 0, with its UDP listener, so the other nodes send its
    requests there (`live_places.py`). Who runs what now, not history: `db copy` leaves it."""
    db.script(LAYOUT_LIVE_PLACES_TABLES)


LAYOUT_LIVE_PLACES_TABLES = """
CREATE TABLE IF NOT EXISTS live_places (
    live_id TEXT NOT NULL,
    node TEXT NOT NULL,
    PRIMARY KEY (live_id, node)
)
"""

MIGRATIONS: list[Callable[[Database], None]] = [_layout_1, _layout_2, _layout_3, _layout_nodes,
                                                 _layout_chats, _layout_leases, _layout_proposals,
                                                 _layout_live_places]
"""Step k (from 1) brings a database from version k-1 to k."""
LATEST = len(MIGRATIONS)
ORDERED = {"playtest_testers"}
"""Tables whose rows are read in the order they were written (SQLite's rowid)."""


def table_names() -> list[str]:
    """The layout's tables, in the order a copy fills them."""
    layouts = LAYOUT_1_TABLES + LAYOUT_3_TABLES + LAYOUT_PROPOSALS_TABLES
    return [line.split()[5] for line in layouts.splitlines() if line.startswith("CREATE TABLE")]


def version(db: Database) -> int:
    """The layout version `db` has (0: none, an empty database or one from before versions)."""
    if "schema_version" not in db.tables():
        return 0
    found = db.execute("SELECT version FROM schema_version").fetchone()
    return 0 if found is None else int(found[0])


def upgrade(db: Database) -> None:
    """Bring `db` to `LATEST` in place, or refuse one newer than this code."""
    try:
        with db.upgrading():
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            have = version(db)
            if have > LATEST:
                raise StoreError(f"{db.shown} has layout version {have}, newer than this playtable's "
                                 f"({LATEST}): upgrade playtable, or give another database with --db")
            for step in range(have, LATEST):
                MIGRATIONS[step](db)
            if have < LATEST:
                db.execute("DELETE FROM schema_version")
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (LATEST,))
    except DatabaseError as err:
        raise StoreError(f"{db.shown} cannot be used as the tables' database: {err} "
                         "(is it a playtable database? give another with --db)") from None


def opened(where: str | Path, serving: bool = False) -> Database:
    """A connection to the database at `where` (a path or a `postgresql://` URL), upgraded."""
    db = connect(where, serving)
    try:
        upgrade(db)
    except StoreError:
        try:
            db.verify()  # a file with damaged pages says so, not which read failed first
        finally:
            db.close()
        raise
    return db


# -- SQLite files from before versions ---------------------------------------------------------
_OLD_SLOT_COLUMNS = {"player_id", "assigned", "answers", "answered"}
"""A slot's tester was kept in the slot's own row before several people could share a table."""
_OPPONENTS = ("(SELECT COUNT(*) FROM rating_opponents o WHERE o.game = ratings.game "
              "AND o.kind = ratings.kind AND o.who = ratings.who)")


def _catch_up_sqlite(db: Database) -> None:
    """Add what an SQLite file made by an earlier version lacks (nothing on a new one)."""
    have = set(db.columns("tables"))
    if {"id", "game", "seats"} - have:
        raise DatabaseError("its 'tables' table is not a playtable one")
    for column in ("ended", "result", "clock"):
        if column not in have:
            db.execute(f"ALTER TABLE tables ADD COLUMN {column} TEXT")
    if "stand_in" not in db.columns("actions"):
        db.execute("ALTER TABLE actions ADD COLUMN stand_in TEXT")
    if "name_key" not in db.columns("players"):
        _key_old_names(db)
    if "opponents" not in db.columns("ratings"):
        _count_old_opponents(db)
    later = {"playtest_slots": "begun INTEGER NOT NULL DEFAULT 0", "playtest_testers": "network TEXT"}
    for table, column in later.items():  # from before slots went round fairly
        if column.split()[0] not in db.columns(table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
    _move_old_testers(db)


def _key_old_names(db: Database) -> None:
    """A database from before names were unique: each player's name gets its keys; of players
    whose names are one name, the first made keeps it and each later one is renamed with a
    number ("Alice 2"), which they may change in the lobby."""
    db.execute("ALTER TABLE players ADD COLUMN name_key TEXT")
    db.execute("ALTER TABLE players ADD COLUMN name_look TEXT")
    taken: set[str] = set()
    for player_id, name in db.execute("SELECT id, name FROM players ORDER BY created, rowid").fetchall():
        kept, n = name, 1
        while {name_key(kept), name_look(kept)} & taken:
            n += 1
            kept = f"{name[:MAX_NAME - 1 - len(str(n))]} {n}"
        taken |= {name_key(kept), name_look(kept)}
        db.execute("UPDATE players SET name = ?, name_key = ?, name_look = ? WHERE id = ?",
                   (kept, name_key(kept), name_look(kept), player_id))


def _count_old_opponents(db: Database) -> None:
    """A database made before opponents were counted: each rated table's identities met one
    another (in a team game, teammates count too: the changes kept no sides), once."""
    import json

    db.execute("ALTER TABLE ratings ADD COLUMN opponents INTEGER NOT NULL DEFAULT 0")
    for game, changes in db.execute("SELECT game, changes FROM rated_tables WHERE rated = 1").fetchall():
        rated = [(c["kind"], c["who"]) for c in json.loads(changes)]
        db.executemany("INSERT OR IGNORE INTO rating_opponents VALUES (?, ?, ?, ?)",
                       [(game, kind, who, f"{k}:{w}") for kind, who in rated
                        for k, w in rated if (k, w) != (kind, who)])
    db.execute(f"UPDATE ratings SET opponents = {_OPPONENTS}")


def _move_old_testers(db: Database) -> None:
    """A database of the one-tester layout: each slot's tester becomes the playtest's tester at
    seat 0 (the only person seat then), once."""
    if not set(db.columns("playtest_slots")) >= _OLD_SLOT_COLUMNS:
        return
    db.execute(
        "INSERT OR IGNORE INTO playtest_testers (playtest_id, slot, seat, player_id, assigned, "
        "answers, answered) SELECT playtest_id, slot, 0, player_id, coalesce(assigned, ''), "
        "answers, answered FROM playtest_slots WHERE player_id IS NOT NULL")
    for column in sorted(_OLD_SLOT_COLUMNS):
        if column == "player_id":
            db.execute("DROP INDEX IF EXISTS playtest_slots_by_player")
        db.execute(f"ALTER TABLE playtest_slots DROP COLUMN {column}")
