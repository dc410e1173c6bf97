"""The invariants of a wizard position that the rules rely on, checked when a position is read
from outside (`WizardGame.state_from_json`; copies of a valid state skip it): each broken one
raises BadPosition naming it (`benchmarks/invalid_positions.py` mutates positions to check them).

* Every wizard card, loot card and tile is exactly once somewhere (8 Nov "Components": the
  wizard deck, the loot deck and the tiles; RULES.md): the wizard's hand, deck, discard pile,
  cards out of the game and cards being resolved; the loot deck and discard pile, the heroes'
  items, items dropped on the board and loot waiting to be kept; the board and the tiles
  beside it.
* Heroes have 0 to 10 hit points and are alive exactly when above 0; a dead hero carries
  nothing; the Mana Wheel and the mana left are on the wheel; tokens on the board are the ones
  placed and not gone; keys found are the ones held or dropped.
* The pending decision has exactly the fields of its kind (a movement choice carries no tokens)
  and belongs to the right seat; automatic steps are ones the rules know; a finished game has
  no decision, a running one has one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playtable.core import checks
from playtable.core.errors import BadPosition, IllegalAction
from playtable.games.wizard import board
from playtable.games.wizard.position import MONSTERS, START_HP, WizardPosition

WIZARD_KINDS = ("tower", "entrance", "key", "opening", "rage", "main", "place", "spell", "send",
                "discard", "retreat")
HERO_KINDS = ("start", "commit", "boost", "keep")
TOKEN_KINDS = (*MONSTERS, "trap", "blank")


def check_position(st: WizardPosition, data: dict[str, Any]) -> None:
    """Raise BadPosition naming the first invariant `st` (read from `data`) breaks."""
    _check_written(data)
    wizard, loot = set(st.content.wizard_instances(st.params.rules)), set(st.content.loot_instances())
    checks.rigged(st.chance.rigged, {
        "d20": checks.die(20),
        "wizard_draw": lambda v: v in wizard or v in {c.rsplit(".", 1)[0] for c in wizard},
        "loot_draw": lambda v: v in loot or v in {c.rsplit(".", 1)[0] for c in loot},
    })
    _check_pieces(st)
    _check_heroes(st)
    _check_counters(st)
    _check_decision(st)


def _check_written(data: dict[str, Any]) -> None:
    """Numbers and flags as written: `true` is not 1, 2.5 is not 2."""
    for i, raw in enumerate(checks.items(data["heroes"], "heroes")):
        for key in ("seat", "hp", "keys", "gives"):
            checks.whole(raw[key], f"heroes[{i}].{key}")
        for key in ("alive", "frozen", "stuck", "entered", "fought"):
            checks.flag(raw[key], f"heroes[{i}].{key}")
    for raw in checks.items(data["cells"], "cells"):
        checks.whole(raw["keys"], f"cells {raw['square']}.keys", 0)
        for key in ("flipped", "removed", "key", "cleared"):
            checks.flag(raw[key], f"cells {raw['square']}.{key}")
    checks.flag(data["rage"], "rage")
    checks.word(data["winner"], "winner", ("", "wizard", "heroes", "draw"))
    checks.text(data["end"], "end")
    for key, value in checks.mapping(data["stats"], "stats").items():
        checks.whole(value, f"stats.{key}", 0)
    for key in checks.mapping(data["commits"], "commits"):
        if not key.isdigit():
            raise BadPosition(f"'commits' key {key!r} is not a hero's seat")


def _check_pieces(st: WizardPosition) -> None:
    content = st.content
    checks.exactly_once(st.hand + st.deck + st.discard + st.out + st.offered,
                        set(content.wizard_instances(st.params.rules)),
                        "the wizard cards (hand, deck, discard, out, offered)")
    keeping = list(st.decision.get("cards", [])) if st.decision.get("kind") == "keep" else []
    loot = st.loot_deck + st.loot_discard + [c for h in st.heroes for c in h.items]
    loot += [c for cell in st.cells.values() for c in cell.items] + keeping
    checks.exactly_once(loot, set(content.loot_instances()),
                        "the loot cards (deck, discard, heroes, board, being kept)")
    tiles = [cell.tile for cell in st.cells.values() if cell.tile] + st.unused_tiles
    checks.exactly_once(tiles, set(content.regular_tiles() + content.key_tiles()),
                        "the tiles (on the board or beside it)")
    for sq, cell in sorted(st.cells.items()):
        if cell.key and not (cell.tile and content.tile(cell.tile).key):
            raise BadPosition(f"cell {board.name(sq)} holds an untaken key, but its tile "
                              f"{cell.tile or '(none)'} is not a key tile")


def _check_heroes(st: WizardPosition) -> None:
    for h in st.heroes:
        checks.whole(h.hp, f"hero {h.seat} hp", 0, START_HP)
        checks.whole(h.keys, f"hero {h.seat} keys", 0, 3)
        checks.whole(h.gives, f"hero {h.seat} gives", 0, st.params.max_gives)
        if h.alive != (h.hp > 0):
            raise BadPosition(f"hero {h.seat} has {h.hp} hp: a hero is alive exactly when above 0")
        if not h.alive and (h.items or h.keys):
            raise BadPosition(f"hero {h.seat} is dead and still carries items or keys (a dead "
                              "hero drops them)")


def _check_counters(st: WizardPosition) -> None:
    p = st.params
    checks.whole(st.wheel, "wheel", p.mana_min, p.mana_max)
    checks.whole(st.mana, "mana", 0, p.mana_max)
    checks.whole(st.round, "round", 0, p.max_rounds + 1)
    checks.whole(st.batches, "batches", 0)
    checks.whole(st.tokens_gone, "tokens_gone", 0)
    checks.whole(st.tokens_placed, "tokens_placed", st.tokens_gone)
    on_board = st.token_count()
    if st.tokens_placed - st.tokens_gone != on_board:
        raise BadPosition(f"{on_board} tokens lie on the board, but {st.tokens_placed} were placed "
                          f"and {st.tokens_gone} are gone")
    held = sum(h.keys for h in st.heroes) + sum(c.keys for c in st.cells.values())
    checks.whole(st.keys_found, "keys_found", 0, len(st.content.key_tiles()))
    if st.keys_found != held:
        raise BadPosition(f"'keys_found' is {st.keys_found}, but heroes hold or dropped {held}")


def _seat(value: Any, st: WizardPosition) -> int:
    return checks.whole(value, "decision seat", 1, st.params.players - 1)


def _square(value: Any, st: WizardPosition) -> Any:
    try:
        return board.parse_square(checks.text(value, "decision square"), st.size)
    except Exception as err:  # parse_square raises IllegalAction for a bad square name
        raise BadPosition(f"decision square {value!r:.20}: {err}") from None


def _step(value: Any, st: WizardPosition) -> None:
    from playtable.games.wizard.rules import STEPS

    step = checks.mapping(value, "step")
    checks.word(step.get("do"), "step kind", tuple(STEPS))


FIELDS: dict[str, dict[str, Callable[[Any, WizardPosition], Any]]] = {
    "left": {"left": lambda v, st: checks.whole(v, "decision left", 0)},
    "card": {"card": lambda v, st: checks.text(v, "decision card")},
    "place": {"card": lambda v, st: checks.text(v, "decision card"),
              "tokens": lambda v, st: [checks.word(t, "token", TOKEN_KINDS)
                                       for t in checks.items(v, "decision tokens")],
              "batch": lambda v, st: checks.whole(v, "decision batch", 1, st.batches)},
    "send": {"card": lambda v, st: checks.text(v, "decision card"), "square": _square,
             "heroes": lambda v, st: [_seat(s, st) for s in checks.items(v, "decision heroes")],
             # the squares heroes were already blown to (Whirlwind, RULES.md 10), not seats
             "used": lambda v, st: [_square(s, st) for s in checks.items(v, "decision used")]},
    "keep": {"cards": lambda v, st: [checks.text(c, "card") for c in checks.items(v, "cards")]},
    "boost": {"step": _step},
    "retreat": {"hero": _seat},
}
KIND_FIELDS = {"tower": {}, "entrance": {}, "main": {}, "start": {}, "commit": {},
               "key": FIELDS["left"], "opening": FIELDS["left"], "rage": FIELDS["left"],
               "discard": FIELDS["left"], "spell": FIELDS["card"], "place": FIELDS["place"],
               "send": FIELDS["send"], "keep": FIELDS["keep"], "boost": FIELDS["boost"],
               "retreat": FIELDS["retreat"]}


def _check_decision(st: WizardPosition) -> None:
    for step in checks.items(st.steps, "steps"):
        _step(step, st)
    if st.winner:
        if st.decision or st.steps:
            raise BadPosition(f"the game is over ({st.winner}): no decision or step is pending")
        return
    decision = st.decision
    if not decision:
        raise BadPosition("a running game needs a pending 'decision'")
    kind = checks.word(decision.get("kind"), "decision kind", tuple(KIND_FIELDS))
    expected = {"kind", "seat", *KIND_FIELDS[kind]}
    extra = sorted(set(decision) - expected)
    missing = sorted(expected - set(decision))
    if extra or missing:
        raise BadPosition(f"a '{kind}' decision has the fields {', '.join(sorted(expected))}"
                          + (f"; not {extra[0]}" if extra else f"; {missing[0]} is missing"))
    for key, check in KIND_FIELDS[kind].items():
        check(decision[key], st)
    seat = decision["seat"]
    if kind in WIZARD_KINDS and seat != 0:
        raise BadPosition(f"a '{kind}' decision is the wizard's (seat 0), not seat {seat!r:.10}")
    if kind in HERO_KINDS:
        hero = st.hero(_seat(seat, st))
        if not hero.alive:
            raise BadPosition(f"a '{kind}' decision is for hero {hero.seat}, who is dead")
    for committed in st.commits:
        if not 1 <= committed < st.params.players:
            raise BadPosition(f"'commits' names seat {committed}, which is no hero")
    _check_commits(st)


def _check_commits(st: WizardPosition) -> None:
    """Each hero's secret move is one it could have chosen where it stands: a move, a stay or
    a sprint among its legal choices (a text the reveal could not play is refused now)."""
    from playtable.games.wizard.actions import parse
    from playtable.games.wizard.hero_turn import legal_commit

    saved = st.decision
    try:
        for seat, text in sorted(st.commits.items()):
            try:
                move = str(parse(text))
            except IllegalAction:
                raise BadPosition(f"hero {seat}'s committed move {text!r:.40} is not a move") from None
            st.decision = {"kind": "commit", "seat": seat}
            choices = {str(a) for a in legal_commit(st) if a.verb in ("move", "stay", "sprint")}
            if move not in choices:
                raise BadPosition(f"hero {seat}'s committed move {text!r:.40} is not one it can make "
                                  f"from {board.name(st.hero(seat).pos)}")
    finally:
        st.decision = saved
