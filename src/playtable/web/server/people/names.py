"""When two display names are the same name (docs/web.md "Names"): up to case, width and
look-alike characters, so nobody can sit down as another person's "Alice" with a capital, a
full-width letter or a Cyrillic "А".

`name_key(name)` is what the store keeps unique (`players.name_key`, a unique index): the name
NFKC-normalized and case-folded (Unicode's NFKC_Casefold: full-width and styled letters become
plain ones, "ALICE" becomes "alice"), each character replaced by the one letter its look-alike
class is read as (a skeleton in the sense of UTS #39, Unicode's confusable detection), and
folded again (so "0" and "O" and "o" meet). Folding first turns a capital I into an i, though
it looks like an l: so the name as written has a second key, `name_look` (`players.name_look`,
unique too), its look-alikes replaced before folding, as UTS #39's skeleton does ("AIice" and
"Alice" share it). Two names sharing either key are one name.

No Python library computes the UTS #39 skeleton: `confusable-homoglyphs` (kept, MIT) ships
Unicode's confusables.txt as data but only answers "is this character confusable", and
`confusables` (last released 2021) gives candidate spellings, not one key. So the table is
ours, `confusables.json`, made from confusable-homoglyphs 3.3.1's copy of confusables.txt (its
`source` and `made_by` say how): each class of single characters confusables.txt maps to one
prototype, read as one member of it. Prototypes of several characters ("rn" for "m") are left
out: such names stay apart.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

CONFUSABLES_FILE = "confusables.json"


@cache
def look_alikes() -> dict[str, str]:
    """Character -> the character its look-alike class is read as (only those that differ)."""
    source = resources.files("playtable.web.server.people") / CONFUSABLES_FILE
    table: dict[str, str] = json.loads(source.read_text(encoding="utf-8"))["map"]
    return table


def _fold(text: str) -> str:
    """NFKC_Casefold, as Python's library gives it: NFKC, case folding, NFKC again."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _skeleton(text: str) -> str:
    table = look_alikes()
    return "".join(table.get(c, c) for c in text)


def name_key(name: str) -> str:
    """The key two names share when people would read them as one, whatever their case (see
    the module's docstring)."""
    return _fold(_skeleton(_fold(name)))


def name_look(name: str) -> str:
    """The key of the name as written: look-alikes replaced before case folding."""
    return _fold(_skeleton(unicodedata.normalize("NFKC", name)))
