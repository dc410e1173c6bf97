"""The troll position's JSON form (docs/positions.md) and the player's observation.

Both read a `TrollPosition` (state.py); the rules' `TrollState` delegates here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from playtable.core import checks
from playtable.core.chance import Chance
from playtable.core.errors import BadPosition
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.games.troll import bridge as geo
from playtable.games.troll.cards import card_text, parse_card
from playtable.games.troll.params import TrollParams
from playtable.games.troll.state import TrollPosition

P = TypeVar("P", bound=TrollPosition)

ROW_NAMES = ("lower", "upper")


def _slot_json(slot: int) -> dict[str, Any]:
    return {"row": ROW_NAMES[slot // geo.COLUMNS], "position": slot % geo.COLUMNS + 1}


def _texts(cards: list[int]) -> list[str]:
    return [card_text(c) for c in cards]


def state_to_json(state: TrollPosition) -> dict[str, Any]:
    """Everything, hidden parts included. Stacks list cards bottom to top; the deck and the
    set-aside pile list the next card to come first."""
    return {
        "params": params_as_dict(state.params),
        "chance": state.chance.to_json(),
        "bridge": {
            row: [_texts(state.stacks[r * geo.COLUMNS + c]) for c in range(geo.COLUMNS)]
            for r, row in enumerate(ROW_NAMES)
        },
        "face_up": sorted(_texts(list(state.face_up))),
        "seen": sorted(_texts(list(state.seen))),
        "deck": _texts(state.deck[::-1]),
        "set_aside": _texts(state.set_aside),
        "flight_stacks": {"lower": _texts(state.played[0]), "upper": _texts(state.played[1])},
        "lower_colour": "red" if state.lower_red else "black",
        "troll": _slot_json(state.troll),
        "carried": _texts(state.carried),
        "visited": [_slot_json(s) for s in sorted(state.visited)],
        "actions_left": state.actions_left,
        "turn": state.turn,
        "outcome": state.outcome,
        "end_reason": state.end_reason,
        "stats": dict(state.stats),
    }


def _slot_from(data: Any, what: str) -> int:
    if not isinstance(data, Mapping) or data.get("row") not in ROW_NAMES:
        raise BadPosition(f"'{what}' must be {{\"row\": \"lower\"|\"upper\", \"position\": 1-6}}")
    position = data.get("position")
    if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= geo.COLUMNS:
        raise BadPosition(f"'{what}.position' must be a whole number 1-6")
    return ROW_NAMES.index(data["row"]) * geo.COLUMNS + position - 1


def _cards(data: Any, what: str) -> list[int]:
    if not isinstance(data, list):
        raise BadPosition(f"'{what}' must be a list of cards")
    return [parse_card(c) for c in data]


def state_from_json(data: Mapping[str, Any], cls: type[P]) -> P:
    """A `cls` (the rules' state class, `rules.TrollPosition`) read from `data` and checked."""
    for key in ("params", "chance", "bridge", "deck", "troll", "turn", "actions_left"):
        if key not in data:
            raise BadPosition(f"missing '{key}'")
    params = params_from_dict(TrollParams, data["params"])
    state = cls(params, Chance.from_json(data["chance"]))
    bridge = data["bridge"]
    if not isinstance(bridge, Mapping) or any(
        not isinstance(bridge.get(r), list) or len(bridge[r]) != geo.COLUMNS for r in ROW_NAMES
    ):
        raise BadPosition("'bridge' must have 'lower' and 'upper' rows of 6 stacks each")
    for r, row in enumerate(ROW_NAMES):
        for c, stack in enumerate(bridge[row]):
            state.stacks[r * geo.COLUMNS + c] = _cards(stack, f"bridge.{row}[{c}]")
    state.face_up = set(_cards(data.get("face_up", []), "face_up"))
    state.seen = set(_cards(data.get("seen", []), "seen"))
    state.deck = _cards(data["deck"], "deck")[::-1]
    state.set_aside = _cards(data.get("set_aside", []), "set_aside")
    flights = data.get("flight_stacks", {"lower": [], "upper": []})
    state.played = (_cards(flights.get("lower", []), "flight_stacks.lower"),
                    _cards(flights.get("upper", []), "flight_stacks.upper"))
    if data.get("lower_colour", "red") not in ("red", "black"):
        raise BadPosition("'lower_colour' must be red or black")
    state.lower_red = data.get("lower_colour", "red") == "red"
    state.troll = _slot_from(data["troll"], "troll")
    state.carried = _cards(data.get("carried", []), "carried")
    state.visited = {_slot_from(v, "visited") for v in data.get("visited", [])} | {state.troll}
    state.turn = checks.whole(data["turn"], "turn", 0)
    state.actions_left = checks.whole(data["actions_left"], "actions_left", 0, 2)
    outcome = data.get("outcome")
    if outcome not in (None, "win", "loss"):
        raise BadPosition("'outcome' must be null, \"win\" or \"loss\"")
    state.outcome = outcome
    state.end_reason = checks.text(data.get("end_reason", ""), "end_reason")
    stats = data.get("stats", {})
    if not isinstance(stats, Mapping):
        raise BadPosition("'stats' must be an object")
    state.stats.update({k: checks.whole(v, f"stats.{k}", 0) for k, v in stats.items()
                        if k in state.stats})
    # after the deal only the d6 is drawn (the 'deck' queue rigs the deal itself, §5)
    checks.rigged(state.chance.rigged, {"d6": checks.die(6)})
    check_invariants(state)
    return state


def check_invariants(state: TrollPosition) -> None:
    """Raise BadPosition if the position breaks the game's invariants."""
    everywhere = [c for s in state.stacks for c in s] + state.deck + state.set_aside
    everywhere += state.played[0] + state.played[1] + state.carried
    if sorted(everywhere) != list(range(52)):
        missing = sorted(set(range(52)) - set(everywhere))
        repeated = sorted({c for c in everywhere if everywhere.count(c) > 1})
        raise BadPosition(
            "the 52 cards must each appear exactly once"
            + (f"; missing {', '.join(map(card_text, missing))}" if missing else "")
            + (f"; repeated {', '.join(map(card_text, repeated))}" if repeated else "")
        )
    on_table = {c for s in state.stacks for c in s} | set(state.carried)
    if not state.face_up <= on_table:
        raise BadPosition("'face_up' may only name cards on the bridge or carried")
    if not state.face_up <= state.seen:
        unseen = sorted(state.face_up - state.seen)[0]
        raise BadPosition(f"{card_text(unseen)} is face up, so it must be in 'seen' (§6.2)")
    if not state.seen.isdisjoint(state.deck):  # the deck lies face down and is only drawn from
        card = sorted(state.seen.intersection(state.deck))[0]
        raise BadPosition(f"{card_text(card)} is still in the deck, so it cannot be in 'seen'")
    if state.outcome is None:
        if not state.stacks[state.troll]:
            raise BadPosition("the troll must stand on a brick")
        if state.actions_left not in (1, 2):
            raise BadPosition("'actions_left' must be 1 or 2 while the game goes on")
    if len(state.carried) > 2:
        raise BadPosition("the troll carries at most two cards (two only with the toys variant)")


def observation(state: TrollPosition) -> dict[str, Any]:
    """What the player may see: face-up cards, the bricks it remembers, heights, the troll, the
    flight stacks and set-aside cards, the deck's size. Never the deck order, an unseen
    face-down brick, or the future die rolls.

    Built at every move a person makes at a table (about a seventh of the server's
    instructions an action), so the bridge is one loop over the slots. `flees`: which way an
    awake brick not under the troll will step in the next flight phase (§7.1, I6), shown to
    the player, who can work it out anyway."""
    seen, face_up, troll = state.seen, state.face_up, state.troll
    bridge: dict[str, list[dict[str, Any]]] = {row: [] for row in ROW_NAMES}
    for slot, stack in enumerate(state.stacks):
        awake = bool(stack) and stack[-1] in face_up
        bridge[ROW_NAMES[slot // geo.COLUMNS]].append({
            "height": len(stack),
            "cards": [card_text(c) if c in seen else None for c in stack],
            "awake": awake,
            "flees": None if slot == troll or not awake
            else "left" if geo.flight_step(slot, troll) < 0 else "right",
        })
    return {
        "turn": state.turn,
        "actions_left": state.actions_left,
        "lower_colour": "red" if state.lower_red else "black",
        "bridge": bridge,
        "troll": _slot_json(state.troll),
        "visited": [_slot_json(s) for s in sorted(state.visited)],
        "carried": [{"card": card_text(c), "awake": c in state.face_up} for c in state.carried],
        "deck_count": len(state.deck),
        "set_aside": _texts(state.set_aside),
        "flight_stacks": {"lower": _texts(state.played[0]), "upper": _texts(state.played[1])},
        "outcome": state.outcome,
        "perfect": state.perfect,
        "end_reason": state.end_reason,
        "score": state.score,
    }
