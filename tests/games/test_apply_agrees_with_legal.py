"""`apply` accepts an action exactly when `legal_actions` lists it, for every game (
item 2b; the protocol in core/protocol.py and DESIGN.md "The game protocol").

Texts are legal action texts, near misses of them (a character changed, dropped or added, a
word more or less, a number pushed out of range, a newline inside) and arbitrary text, tried on
positions met in random play. A text is accepted when it parses to an action the position lists;
a rejected one raises IllegalAction and leaves the position unchanged. The one documented
exception is Star Dice's continuous throws: `legal_actions` lists a finite menu of them and
`apply` takes any throw within the limits (`is_legal`; Star Dice RULES.md, interpretation 29).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.position_mutations import fresh, valid_positions

from playtable.core.errors import IllegalAction
from playtable.core.position import position_from_json, position_to_json
from playtable.core.registry import get_game

GAMES = ["troll", "rotator", "stardice", "wizard"]
VOCABULARY = {
    "troll": ["wait", "stomp", "pick up", "move left", "throw down", "lay upper 3", "club right"],
    "rotator": ["drill 0", "drill 1", "drill 3", "start A1", "start E1", "d2"],
    "stardice": ["touch", "touch d6a", "touch d20b", "hold", "call odd", "call even"],
    "wizard": ["end", "stay", "fight", "entrance S", "tower c3", "keep 1", "discard 1", "move N"],
}
"""Each game's own words, tried on every position: an action that a game accepts without
listing it (Star Dice's `touch` did) is found this way."""


def _live(game_id: str) -> list[str]:
    return [t for t in valid_positions(game_id) if not get_game(game_id).state_from_json(
        {k: v for k, v in fresh(t).items() if k not in ("format", "version", "game")}).is_terminal]


def near_miss(text: str, draw: st.DataObject) -> str:
    """`text` changed a little: what a careless user or a buggy front end sends."""
    how = draw.draw(st.sampled_from(["char", "drop", "insert", "word+", "word-", "upper", "space",
                                     "number", "newline", "same"]), label="near miss")
    i = draw.draw(st.integers(0, max(len(text) - 1, 0)), label="at")
    c = draw.draw(st.sampled_from(list("0123456789abcdxyz -.,\t")), label="char")
    words = text.split()
    if how == "char" and text:
        return text[:i] + c + text[i + 1:]
    if how == "drop" and text:
        return text[:i] + text[i + 1:]
    if how == "insert":
        return text[:i] + c + text[i:]
    if how == "word+":
        return text + " " + draw.draw(st.sampled_from(words + ["x", "2", "left"]), label="word")
    if how == "word-" and len(words) > 1:
        return " ".join(words[:-1])
    if how == "upper":
        return text.upper()
    if how == "space":
        return f"  {text}  "
    if how == "number":
        n = draw.draw(st.sampled_from(["-1", "0", "99", "10000000000000000000000", "1e9", "nan"]))
        return " ".join(n if w.replace(".", "").replace(",", "").isdigit() else w for w in words)
    if how == "newline" and words:
        return "\n".join(words)
    return text


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(draw=st.data())
def test_apply_accepts_exactly_the_listed_actions(draw: st.DataObject) -> None:
    game_id = draw.draw(st.sampled_from(GAMES), label="game")
    texts = _live_positions(game_id)
    position = fresh(texts[draw.draw(st.integers(0, len(texts) - 1), label="position")])
    game = get_game(game_id)
    state = position_from_json(game, position)
    legal = state.legal_actions()
    kind = draw.draw(st.sampled_from(["legal", "near", "near", "word", "word", "any"]),
                     label="text kind")
    base = str(draw.draw(st.sampled_from(legal), label="legal action"))
    if kind == "legal":
        text = base
    elif kind == "near":
        text = near_miss(base, draw)
    elif kind == "word":
        text = draw.draw(st.sampled_from(VOCABULARY[game_id]), label="word")
    else:
        text = draw.draw(st.text(max_size=40), label="any text")
    try:
        action = state.parse_action(text)
    except IllegalAction:
        action = None
    expected = action is not None and (action in legal or _continuous_ok(game_id, state, action))
    before = json.dumps(position_to_json(state))
    try:
        state.apply(action if action is not None else text)
        accepted = True
    except IllegalAction:
        accepted = False
    assert accepted == expected, (game_id, text)
    if not accepted:
        assert json.dumps(position_to_json(state)) == before, "a refused action changed the position"


_CACHE: dict[str, list[str]] = {}


def _live_positions(game_id: str) -> list[str]:
    if game_id not in _CACHE:
        _CACHE[game_id] = _live(game_id)
    return _CACHE[game_id]


def _continuous_ok(game_id: str, state: object, action: object) -> bool:
    """Star Dice's throws are continuous: any throw within the limits is legal (see above)."""
    if game_id != "stardice":
        return False
    from playtable.games.stardice.actions import Throw
    from playtable.games.stardice.table import StarDiceTable

    return isinstance(action, Throw) and isinstance(state, StarDiceTable) and (
        state.is_legal(action) is None)
