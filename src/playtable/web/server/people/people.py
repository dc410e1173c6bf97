"""People without accounts: a display name and a private player key.

The browser makes the key once (32 random bytes, written as 43 characters of base64url) and
keeps it in its own storage; it is sent only in request bodies and WebSocket messages, never in
a URL. The server keeps the key's SHA-256 (as it keeps seat tokens), so its database never
holds a key that could be replayed. A name is one player's (docs/web.md "Names"): unique up to
case, width and look-alike characters (`names.py`; the store's unique index decides, across
processes), it belongs to the key that took it until that key takes another, and no person's
name reads as a bot's ("bot: ...", as the leaderboard shows bots).

`People` is the registry in front of the store: checking what a client sends (a key of the right
shape, a name of 1-30 printable characters), making a player for a new key, renaming for a
known one, and finding the player of a key (a small cache, so a page's `hello` and the lobby's
polling do not each query the database).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections import OrderedDict
from typing import Any

from playtable.web.server.people.names import name_key
from playtable.web.server.store.store import MAX_NAME, NameTaken, PlayerRow, StoreError, TableStore
from playtable.web.server.tables.table_request import BadRequest, now
from playtable.web.server.transport.wire import KEY_ALPHABET, KEY_LENGTH

BOT_PREFIX = name_key("bot:")
CACHED_PLAYERS = 10_000


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def valid_key(key: Any) -> bool:
    return isinstance(key, str) and len(key) == KEY_LENGTH and set(key) <= KEY_ALPHABET


def check_key(key: Any) -> str:
    """The key, or BadRequest saying what a key is."""
    if not valid_key(key):
        raise BadRequest(f"'key' must be a player key: {KEY_LENGTH} characters of A-Z, a-z, 0-9, "
                         "'-' and '_' (the lobby makes one and keeps it in the browser)")
    return str(key)


def check_name(name: Any) -> str:
    """A display name: 1-30 printable characters once trimmed of spaces (no tab, line break,
    control or invisible formatting character), runs of spaces inside collapsed to one."""
    if not isinstance(name, str):
        raise BadRequest("'name' must be text: 1 to 30 printable characters")
    cleaned = re.sub(" {2,}", " ", name.strip(" "))  # tabs and line breaks stay, and fail
    if not 1 <= len(cleaned) <= MAX_NAME or not cleaned.isprintable():
        raise BadRequest(f"'name' must be 1 to {MAX_NAME} printable characters (no line breaks "
                         "or control characters)")
    if name_key(cleaned).replace(" ", "").startswith(BOT_PREFIX):
        raise BadRequest("a name must not start with 'bot:': that is how bots are shown")
    return cleaned


class People:
    """The players of one server, in front of its store."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._by_hash: OrderedDict[str, PlayerRow] = OrderedDict()

    def find(self, key: str) -> PlayerRow | None:
        """The player of a (well-formed) key, or None if no player has it."""
        key_hash = hash_key(key)
        player = self._by_hash.get(key_hash)
        if player is not None:
            self._by_hash.move_to_end(key_hash)
            return player
        player = self.store.find_player(key_hash)
        if player is not None:
            self._remember(player)
        return player

    def known(self, key: Any) -> PlayerRow:
        """The player of `key`, or BadRequest (a bad key: 400; an unknown one: 403)."""
        player = self.find(check_key(key))
        if player is None:
            raise BadRequest("no player has this key: choose a name in the lobby first", 403)
        return player

    def register(self, key: Any, name: Any) -> tuple[PlayerRow, bool]:
        """The player of `key` with the name `name` (made now, or renamed); whether it is new."""
        key, name = check_key(key), check_name(name)
        player = self.find(key)
        try:
            if player is None:
                player = PlayerRow(secrets.token_urlsafe(9), name, hash_key(key), now())
                self.store.add_player(player)
                self._remember(player)
                return player, True
            if player.name != name:
                self.store.rename_player(player.id, name)
                player.name = name
        except NameTaken:
            raise BadRequest(f"the name '{name}' is taken: names are one person's, whatever their case "
                             "or look-alike letters; choose another", 409) from None
        except StoreError:
            raise BadRequest("the server could not save your name (its disk may be full)", 503) from None
        return player, False

    def renamed(self, player_id: str, name: str) -> None:
        """Another server process renamed this player: the cached row takes the name."""
        for player in self._by_hash.values():
            if player.id == player_id:
                player.name = name

    def _remember(self, player: PlayerRow) -> None:
        if player.key_hash is None:
            return
        self._by_hash[player.key_hash] = player
        while len(self._by_hash) > CACHED_PLAYERS:
            self._by_hash.popitem(last=False)
