"""The wizard's turn (seed 8 Nov 'The Turn / Wizard', 'Rage of the wizard!', 'Wizard Cards',
'Placement of traps and Monsters', 'Monsters in the wizard tower', 'Discard', 'Removed')."""

from __future__ import annotations

from typing import Any

from playtable.core.words import plural
from playtable.games.wizard import board
from playtable.games.wizard.actions import Act, act
from playtable.games.wizard.board import Square
from playtable.games.wizard.content import kind_of
from playtable.games.wizard.position import Token, WizardPosition


# -- start of the turn ------------------------------------------------------------------------
def step_wizard_turn(st: WizardPosition, step: dict[str, Any]) -> None:
    if st.round >= st.params.max_rounds:
        st.finish("draw", "turn_limit",
                  f"{plural(st.params.max_rounds, 'round')} {'has' if st.params.max_rounds == 1 else 'have'} "
                  "passed with no winner: the game is a draw.")
        return
    st.round += 1
    st.say("wizard_turn", f"Round {st.round}: the wizard's turn.", round=st.round)
    extra = 0
    if st.params.mana_per_turn:
        if st.wheel >= st.params.mana_max:
            extra = 1
        else:
            st.wheel = min(st.params.mana_max, st.wheel + st.params.mana_per_turn)
            st.say("mana", f"The Mana Wheel spins up to {st.wheel}.", wheel=st.wheel)
    elif st.wheel >= st.params.mana_max:
        extra = 1
    st.steps[:0] = [{"do": "rage"}, {"do": "wizard_draw", "n": 1 + extra}, {"do": "wizard_main"}]


def removable(st: WizardPosition) -> list[Square]:
    """Tiles the rage may remove now: not the tower or its ring, no hero on it, and every living
    hero can still reach the tower entrance and every tile with dropped keys."""
    ring = board.ring(st.tower, st.size)
    hero_squares = {h.pos for h in st.living()}
    keys = {sq for sq, c in st.cells.items() if c.keys and not c.removed}
    entrance = st.entrance_square()
    cut, reach = board.separators(entrance, st.open_square, st.size, hero_squares | keys)
    if not (hero_squares | keys) <= reach:
        return []  # someone is already cut off: the rage may not make it worse
    return [sq for sq, cell in sorted(st.cells.items())
            if not cell.removed and sq != st.tower and sq not in ring and sq not in hero_squares
            and sq not in keys and sq not in cut]


def step_rage(st: WizardPosition, step: dict[str, Any]) -> None:
    if not st.rage:
        return
    left = int(step.get("left", st.num_players))
    if left > 0 and removable(st):
        st.decision = {"kind": "rage", "seat": 0, "left": left}


def legal_rage(st: WizardPosition) -> list[Act]:
    return [act("remove", board.name(sq)) for sq in removable(st)]


def do_rage(st: WizardPosition, a: Act) -> None:
    sq = board.parse_square(a.args[0], st.size)
    cell = st.cells[sq]
    cell.removed = True
    for t in cell.tokens:
        if not t.up:
            st.lost.append(t)
    st.tokens_gone += len(cell.tokens)
    cell.tokens = []
    st.loot_discard.extend(cell.items)
    cell.items = []
    st.stats["tiles_removed"] += 1
    st.say("tile_removed", f"The wizard's rage tears {board.name(sq)} out of the labyrinth.",
           square=board.name(sq))
    left = int(st.decision["left"]) - 1
    st.decision = {}
    st.steps.insert(0, {"do": "rage", "left": left})


def step_wizard_draw(st: WizardPosition, step: dict[str, Any]) -> None:
    n = st.draw_wizard(int(step["n"]))
    st.say("wizard_draw", f"The wizard draws {n} card{'' if n == 1 else 's'}.", count=n)


def step_wizard_main(st: WizardPosition, step: dict[str, Any]) -> None:
    st.mana = st.wheel
    st.decision = {"kind": "main", "seat": 0}


# -- playing cards ------------------------------------------------------------------------------
def placeable(st: WizardPosition, token: str) -> list[Square]:
    """Squares where `token` may go: no hero, fewer tokens than the cap, not removed; the tower
    only for monsters and blanks once the heroes hold the keys they need."""
    heroes = {h.pos for h in st.living()}
    out = []
    for sq, cell in sorted(st.cells.items()):
        if cell.removed or sq in heroes or len(cell.tokens) >= st.params.cap:
            continue
        if sq == st.tower and (token == "trap" or st.keys_found < st.params.keys_needed):
            continue
        out.append(sq)
    return out


def _spell_targets(st: WizardPosition, effect: str) -> list[Act]:
    if effect == "switcheroo":
        token_squares = [sq for sq, c in sorted(st.cells.items()) if c.tokens and sq != st.tower]
        return [act("switch", f"hero{h.seat}", board.name(sq))
                for h in st.living() for sq in token_squares if sq != h.pos]
    squares = sorted({h.pos for h in st.living()})
    return [act("target", board.name(sq)) for sq in squares]


def playable(st: WizardPosition, kind: str) -> bool:
    card = st.content.wizard[kind]
    if card.cost > st.mana:
        return False
    if card.type == "spell":
        return bool(_spell_targets(st, card.effect))
    return any(placeable(st, t) for t in set(card.tokens()))


def legal_main(st: WizardPosition) -> list[Act]:
    kinds = sorted({kind_of(c) for c in st.hand})
    return [act("play", k) for k in kinds if playable(st, k)] + [act("end")]


def do_main(st: WizardPosition, a: Act) -> None:
    if a.verb == "end":
        st.say("wizard_end", "The wizard ends his turn.")
        st.decision = {}
        st.steps.insert(0, {"do": "hero_turn"})
        return
    card_id = next(c for c in st.hand if kind_of(c) == a.args[0])
    card = st.content.wcard(card_id)
    st.hand.remove(card_id)
    st.offered.append(card_id)
    st.mana -= card.cost
    st.stats["cards_played"] += 1
    st.say("card_played", f"The wizard plays {card.describe()}.", card=card.id, cost=card.cost)
    if card.type == "spell":
        st.decision = {"kind": "spell", "seat": 0, "card": card_id}
    else:
        st.batches += 1
        st.decision = {"kind": "place", "seat": 0, "card": card_id, "tokens": card.tokens(),
                       "batch": st.batches}
        _maybe_done_placing(st)


def _finish_card(st: WizardPosition, card_id: str) -> None:
    st.offered.remove(card_id)
    card = st.content.wcard(card_id)
    if card.removed:
        st.out.append(card_id)
        st.say("card_removed", f"{card.name} is removed from the game.", card=card.id)
    else:
        st.discard.append(card_id)
    st.decision = {"kind": "main", "seat": 0}


def _maybe_done_placing(st: WizardPosition) -> None:
    tokens = st.decision["tokens"]
    if not any(placeable(st, t) for t in set(tokens)):
        if tokens:
            one = len(tokens) == 1
            st.say("tokens_unplaced", f"{plural(len(tokens), 'token')} {'finds' if one else 'find'} "
                   f"no room and {'is' if one else 'are'} not placed.",
                   count=len(tokens))
        _finish_card(st, st.decision["card"])


def legal_place(st: WizardPosition) -> list[Act]:
    return [act("place", t, board.name(sq)) for t in sorted(set(st.decision["tokens"]))
            for sq in placeable(st, t)]


def do_place(st: WizardPosition, a: Act) -> None:
    token, sq = a.args[0], board.parse_square(a.args[1], st.size)
    st.cells[sq].tokens.append(Token(token, False, int(st.decision["batch"])))
    st.tokens_placed += 1
    st.decision["tokens"].remove(token)
    st.say("token_placed", f"The wizard places a face-down token on {board.name(sq)}.",
           square=board.name(sq), batch=st.decision["batch"])
    _maybe_done_placing(st)


def legal_spell(st: WizardPosition) -> list[Act]:
    return _spell_targets(st, st.content.wcard(st.decision["card"]).effect)


def do_spell(st: WizardPosition, a: Act) -> None:
    card_id = st.decision["card"]
    card = st.content.wcard(card_id)
    if a.verb == "switch":
        h = st.hero(int(a.args[0][4:]))
        sq = board.parse_square(a.args[1], st.size)
        old = h.pos
        token = st.cells[sq].tokens.pop()
        st.cells[old].tokens.append(token)
        h.pos, h.prev = sq, None
        st.say("switcheroo", f"Switcheroo! Hero {h.seat} swaps places with a token: "
               f"{board.name(old)} <-> {board.name(sq)}.", hero=h.seat,
               frm=board.name(old), to=board.name(sq))
        _finish_card(st, card_id)
        return
    sq = board.parse_square(a.args[0], st.size)
    here = st.heroes_at(sq)
    if card.effect == "frost_bolt":
        for h in here:
            h.frozen = True
        st.say("frost_bolt", f"Frost Bolt: the heroes on {board.name(sq)} skip their next turn.",
               square=board.name(sq), heroes=[h.seat for h in here])
        _finish_card(st, card_id)
    elif card.effect == "fireball":
        st.say("fireball", f"Fireball on {board.name(sq)}!", square=board.name(sq))
        for h in here:
            st.damage(h, 1, sq, "Fireball")
        if not st.winner:
            _finish_card(st, card_id)
        else:
            _finish_card(st, card_id)
            st.decision = {}
    else:  # whirlwind
        st.say("whirlwind", f"Whirlwind on {board.name(sq)}!", square=board.name(sq))
        st.decision = {"kind": "send", "seat": 0, "card": card_id, "square": board.name(sq),
                       "heroes": [h.seat for h in here], "used": []}
        _next_send(st)


def _send_options(st: WizardPosition) -> list[Square]:
    sq = board.parse_square(st.decision["square"], st.size)
    near = [board.step(sq, d) for d in board.DIRS]
    near = [x for x in near if st.open_square(x)]
    used = {board.parse_square(u, st.size) for u in st.decision["used"]}
    fresh = [x for x in near if x not in used]
    return sorted(fresh or near)


def _next_send(st: WizardPosition) -> None:
    while st.decision["heroes"] and not _send_options(st):
        seat = st.decision["heroes"].pop(0)
        st.say("whirlwind_stay", f"Hero {seat} has nowhere to be blown and stays.", hero=seat)
    if st.decision["heroes"]:
        return
    sq = board.parse_square(st.decision["square"], st.size)
    cell = st.cells[sq]
    st.batches += 1
    placed = 0
    for _ in range(2):
        if len(cell.tokens) < st.params.cap:
            cell.tokens.append(Token("m5", True, st.batches))
            st.tokens_placed += 1
            placed += 1
    st.say("whirlwind_monsters", f"{plural(placed, 'level 5 monster')} "
           f"{'appears' if placed == 1 else 'appear'} on {board.name(sq)}.",
           square=board.name(sq), count=placed)
    _finish_card(st, st.decision["card"])


def legal_send(st: WizardPosition) -> list[Act]:
    return [act("send", board.name(x)) for x in _send_options(st)]


def do_send(st: WizardPosition, a: Act) -> None:
    seat = st.decision["heroes"].pop(0)
    h = st.hero(seat)
    to = board.parse_square(a.args[0], st.size)
    h.pos, h.prev = to, None
    st.decision["used"].append(a.args[0])
    st.say("whirlwind_move", f"Hero {seat} is blown to {a.args[0]}.", hero=seat, to=a.args[0])
    _next_send(st)


# -- discarding for a tile's negative Card Draw value --------------------------------------------
def step_discard(st: WizardPosition, step: dict[str, Any]) -> None:
    n = int(step["n"])
    if n > 0 and st.hand:
        st.decision = {"kind": "discard", "seat": 0, "left": n}


def legal_discard(st: WizardPosition) -> list[Act]:
    return [act("discard", k) for k in sorted({kind_of(c) for c in st.hand})]


def do_discard(st: WizardPosition, a: Act) -> None:
    card = next(c for c in st.hand if kind_of(c) == a.args[0])
    st.hand.remove(card)
    st.discard.append(card)
    st.say("wizard_discard", f"The wizard discards {st.content.wcard(card).name}.",
           card=kind_of(card))
    left = int(st.decision["left"]) - 1
    st.decision = {}
    st.steps.insert(0, {"do": "discard", "n": left})


LEGAL = {"rage": legal_rage, "main": legal_main, "place": legal_place, "spell": legal_spell,
         "send": legal_send, "discard": legal_discard}
PERFORM = {"rage": do_rage, "main": do_main, "place": do_place, "spell": do_spell,
           "send": do_send, "discard": do_discard}
STEPS = {"wizard_turn": step_wizard_turn, "rage": step_rage, "wizard_draw": step_wizard_draw,
         "wizard_main": step_wizard_main, "discard": step_discard}
