"""What each seat may know, and determinization (resampling what a seat cannot know).

Public: the grid, removed tiles, face-up tiles and tokens, where face-down tokens lie and which
placement put them there, heroes (hit points, places, items, keys: heroes play open-handed),
the wizard's hand size, both decks' sizes, both discard piles, the Mana Wheel, played cards.

The wizard also knows: his hand, the identity of every token (he placed them), where the
untaken keys lie, the cards of his opening draw.
A hero also knows: his own pending move.
Nobody knows: the order of the decks, the faces of face-down room tiles (the alpha rules shuffle
them face down), the moves other heroes have committed but not revealed.
"""

from __future__ import annotations

from typing import Any, TypeVar

from playtable.core.chance import Chance
from playtable.core.words import plural
from playtable.games.wizard import board
from playtable.games.wizard.board import Square
from playtable.games.wizard.content import kind_of
from playtable.games.wizard.hero_turn import legal_commit
from playtable.games.wizard.position import Token, WizardPosition
from playtable.games.wizard.wizard_turn import placeable

P = TypeVar("P", bound=WizardPosition)


def role(seat: int) -> str:
    return "wizard" if seat == 0 else f"hero{seat}"


def observation(st: WizardPosition, seat: int) -> dict[str, Any]:
    wizard = seat == 0
    cells = []
    for sq, c in sorted(st.cells.items()):
        view: dict[str, Any] = {"square": board.name(sq), "removed": c.removed,
                                "flipped": c.flipped}
        if sq == st.tower:
            view["tower"] = True
        elif c.flipped:
            tile = st.content.tile(c.tile)
            view.update(tile=tile.id, draw=tile.draw, mana=tile.mana, key=c.key)
        elif wizard and c.key:
            view["key"] = True
        view["tokens"] = [
            {"up": t.up, "batch": t.batch, **({"kind": t.kind} if t.up or wizard else {})}
            for t in c.tokens
        ]
        if c.items:
            view["items"] = [kind_of(i) for i in c.items]
        if c.keys:
            view["keys"] = c.keys
        cells.append(view)
    heroes = []
    for h in st.heroes:
        eq = st.equipped(h)
        heroes.append({
            "seat": h.seat, "hp": h.hp, "alive": h.alive, "square": board.name(h.pos),
            "keys": h.keys, "equipped": sorted(kind_of(c) for c in eq),
            "hand": sorted(kind_of(c) for c in h.items if c not in eq),
            "combat_bonus": st.combat_bonus(h), "save_bonus": st.save_bonus(h),
            "frozen": h.frozen, "stuck": h.stuck, "committed": h.seat in st.commits,
        })
    decision: dict[str, Any] = {}
    if st.decision:
        decision = {"kind": st.decision["kind"], "seat": st.decision["seat"]}
        if st.decision["kind"] == "keep":
            decision["cards"] = [kind_of(c) for c in st.decision["cards"]]
        if st.decision["kind"] in ("place", "spell", "send") and st.decision.get("card"):
            decision["card"] = kind_of(st.decision["card"])
        if st.decision["kind"] == "place" and wizard:
            decision["tokens"] = list(st.decision["tokens"])
        if st.decision["kind"] in ("retreat",):
            decision["hero"] = st.decision["hero"]
        if "left" in st.decision and st.decision["kind"] != "key":
            decision["left"] = st.decision["left"]
    obs: dict[str, Any] = {
        "game": "wizard", "seat": seat, "role": role(seat), "round": st.round,
        "to_move": st.current_player, "decision": decision, "size": st.size,
        "tower": board.name(st.tower), "entrance": st.entrance,
        "entrance_square": board.name(st.entrance_square()),
        "start": board.name(st.start) if st.start else None,
        "cells": cells, "heroes": heroes,
        "wizard": {
            "hand_size": len(st.hand), "deck_size": len(st.deck),
            "discard": [kind_of(c) for c in st.discard], "removed": [kind_of(c) for c in st.out],
            "in_play": [kind_of(c) for c in st.offered] if st.decision.get("kind") != "opening"
            else [],
            "wheel": st.wheel, "mana_left": st.mana, "wheel_max": st.params.mana_max,
        },
        "loot": {"deck_size": len(st.loot_deck), "discard": [kind_of(c) for c in st.loot_discard]},
        "keys_found": st.keys_found, "keys_needed": st.params.keys_needed,
        "door_open": st.door_open(), "rage": st.rage,
        "winner": st.winner or None, "end": st.end or None,
        "names": st.content.names(),  # public: the content's names for the ids above
        "faces": st.content.faces(),  # public: every card's name, type, cost and effect in words
    }
    if wizard:
        obs["wizard"]["hand"] = sorted(kind_of(c) for c in st.hand)
        if st.decision.get("kind") == "opening":
            obs["wizard"]["opening"] = sorted(kind_of(c) for c in st.offered)
    elif seat in st.commits:
        obs["my_move"] = st.commits[seat]
    return obs


def info_key(st: WizardPosition, seat: int, shared: dict[bool, tuple[Any, ...]] | None = None
             ) -> tuple[Any, ...]:
    """The facts of `observation(st, seat)` as nested tuples, equal exactly when the observations
    are (a test compares the two over many games, their determinizations and copies with one
    fact changed), for the searches' information sets: building the observation and its JSON
    text was about two thirds of an ISMCTS iteration. The content's names and faces are left
    out: the game's parameters fix them, so every state one search compares has the same.
    `shared` keeps the wizard's and the heroes' views of the position (`_view_key`) for the
    other seats of the same position: a search asks every seat's key after each move."""
    wizard = seat == 0
    view = shared.get(wizard) if shared is not None else None
    if view is None:
        view = _view_key(st, wizard)
        if shared is not None:
            shared[wizard] = view
    own: Any = None
    if wizard:
        own = (tuple(sorted(kind_of(c) for c in st.hand)),
               tuple(sorted(kind_of(c) for c in st.offered))
               if st.decision.get("kind") == "opening" else None)
    elif seat in st.commits:
        own = st.commits[seat]
    return (seat, view, own)


def _view_key(st: WizardPosition, wizard: bool) -> tuple[Any, ...]:
    """`info_key`'s facts that the wizard sees alike in every position (`wizard`) or every hero
    does (the heroes play open-handed: only a hero's own pending move is his alone)."""
    cells = []
    for sq, c in sorted(st.cells.items()):
        if sq == st.tower:
            face: tuple[Any, ...] = ("tower",)
        elif c.flipped:
            tile = st.content.tile(c.tile)
            face = ("tile", tile.id, tile.draw, tile.mana, c.key)
        else:
            face = ("key",) if wizard and c.key else ()
        tokens = tuple((t.up, t.batch, t.kind if t.up or wizard else None) for t in c.tokens)
        cells.append((sq, c.removed, c.flipped, face, tokens, tuple(kind_of(i) for i in c.items),
                      c.keys))
    heroes = []
    for h in st.heroes:
        eq = st.equipped(h)
        heroes.append((h.seat, h.hp, h.alive, h.pos, h.keys, tuple(sorted(kind_of(c) for c in eq)),
                       tuple(sorted(kind_of(c) for c in h.items if c not in eq)),
                       st.combat_bonus(h), st.save_bonus(h), h.frozen, h.stuck, h.seat in st.commits))
    kind = st.decision.get("kind")
    decision: tuple[Any, ...] = ()
    if st.decision:
        decision = (kind, st.decision["seat"],
                    tuple(kind_of(c) for c in st.decision["cards"]) if kind == "keep" else None,
                    kind_of(st.decision["card"]) if kind in ("place", "spell", "send")
                    and st.decision.get("card") else None,
                    tuple(st.decision["tokens"]) if kind == "place" and wizard else None,
                    st.decision["hero"] if kind == "retreat" else None,
                    st.decision["left"] if "left" in st.decision and kind != "key" else None)
    return (st.round, st.current_player, decision, st.size, st.tower, st.entrance,
            st.entrance_square(), st.start, tuple(cells), tuple(heroes),
            len(st.hand), len(st.deck), tuple(kind_of(c) for c in st.discard),
            tuple(kind_of(c) for c in st.out),
            tuple(kind_of(c) for c in st.offered) if kind != "opening" else (),
            st.wheel, st.mana, st.params.mana_max, len(st.loot_deck),
            tuple(kind_of(c) for c in st.loot_discard), st.keys_found, st.params.keys_needed,
            st.door_open(), st.rage, st.winner, st.end)


def public_observation(st: WizardPosition) -> dict[str, Any]:
    """What a spectator may see: the public part only, which is what every hero sees minus his
    own pending move (heroes play open-handed; the wizard's hand, the tokens' faces and the
    committed moves stay hidden)."""
    obs = observation(st, 1)
    obs.pop("my_move", None)
    obs.update(seat=None, role="watcher")
    return obs


def token_words(kind: str) -> str:
    """A token as players name it: 'a level 3 monster', 'a trap', 'a blank'."""
    if kind in ("trap", "blank"):
        return f"a {kind}"
    return f"a level {kind[1:]} monster"


def _signed(n: int) -> str:
    return f"{n:+d}"


def hidden_parts(st: WizardPosition) -> list[dict[str, Any]]:
    """Everything that stayed hidden, for the end screen (RULES.md section 7, "At the end"): the
    wizard's hand, where the keys nobody found lay, what each face-down token was, the faces of
    the tiles nobody turned up, and the tokens torn out with their tiles unseen. Card and tile
    names, never instance ids."""
    content = st.content
    names = content.names()
    keys: list[str] = []
    tokens: list[str] = []
    tiles: list[str] = []
    for sq, c in sorted(st.cells.items()):
        if sq == st.tower:
            hidden = [t for t in c.tokens if not t.up]
            if hidden:
                tokens.append(f"the tower: {', '.join(token_words(t.kind) for t in hidden)}")
            continue
        where = board.name(sq)
        if c.key and not c.flipped and not c.removed:
            keys.append(f"{where}: a key nobody found")
        hidden = [t for t in c.tokens if not t.up]
        if hidden and not c.removed:
            tokens.append(f"{where}: {', '.join(token_words(t.kind) for t in hidden)}")
        if not c.flipped and c.tile:
            tile = content.tile(c.tile)
            gone = " (torn out by the rage)" if c.removed else ""
            tiles.append(f"{where}{gone}: {tile.name} (card draw {_signed(tile.draw)}, "
                         f"mana {_signed(tile.mana)}){', a key tile' if tile.key else ''}")
    counted: dict[str, int] = {}
    for card in st.hand:
        name = names.get(kind_of(card), kind_of(card))
        counted[name] = counted.get(name, 0) + 1
    hand = [name if n == 1 else f"{name} x{n}" for name, n in sorted(counted.items())]
    lost = [token_words(t.kind) for t in st.lost]
    sections = [
        {"heading": "The wizard's hand", "lines": hand or ["no cards"]},
        {"heading": "Keys never found", "lines": keys or ["none: every hidden key was found"]},
        {"heading": "Face-down tokens", "lines": tokens or ["none left face down"]},
        {"heading": "Tiles never turned up", "lines": tiles or ["none: every tile was turned up"]},
    ]
    if lost:
        sections.append({"heading": "Tokens torn out with their tiles, unseen", "lines": lost})
    return sections


_SECRET_VERBS = {"move", "stay", "sprint", "key", "return"}


def action_for(action: str, actor: int | None, seat: int | None) -> str:
    """An action's text as `seat` may read it in a log (RULES.md section 7): only its player sees
    a committed move (revealed by the events once all have committed), where the wizard hid a
    key, which cards he sent back from his opening draw, and which token he placed (the others
    read where: 'place token c4')."""
    words = action.split()
    if seat == actor or not words:
        return action
    if words[0] == "place" and len(words) == 3:
        return f"place token {words[2]}"
    if words[0] in _SECRET_VERBS:
        return {"key": "hide key", "return": "return card"}.get(words[0], "secret move")
    return action


_END_TEXT = {
    "tower": "The heroes broke into the wizard's tower and defeated him: the heroes win.",
    "heroes_dead": "All the heroes are dead: the wizard wins.",
}


def end_text(st: WizardPosition) -> str | None:
    """Why the game ended (8 Nov "The Game", RULES.md section 4)."""
    if not st.winner:
        return None
    if st.end == "turn_limit":
        return f"{plural(st.params.max_rounds, 'round')} passed with no winner: the game is a draw."
    return _END_TEXT.get(st.end, f"The game is over: {st.winner} win.")


def waiting_for(st: WizardPosition) -> list[int]:
    """Every seat that must act before the game goes on: during the heroes' secret commits,
    every hero who may move and has not committed yet (they commit one at a time, in seat
    order, but all of them are awaited)."""
    if st.is_terminal:
        return []
    if st.decision.get("kind") != "commit":
        return [st.current_player]
    return [h.seat for h in st.heroes
            if h.alive and not h.frozen and not h.stuck and h.seat not in st.commits]


def determinize(st: P, seat: int, rng: Chance) -> P:
    """A copy where what `seat` cannot know is resampled from `rng`: the decks' order, the faces
    of face-down tiles, other heroes' pending moves, the future chance stream; for a hero also
    the wizard's hand, the identity of face-down tokens (within each placement) and where the
    untaken keys lie."""
    out = st.clone()
    out.chance = Chance(rng.next_u64())
    rng.shuffle(out.loot_deck)
    _resample_tiles(out, seat, rng)
    if seat != 0:
        pool = out.hand + out.deck + (out.offered if out.decision.get("kind") == "opening" else [])
        rng.shuffle(pool)
        if out.decision.get("kind") == "opening":
            k = len(out.offered)
            out.offered, pool = pool[:k], pool[k:]
        out.hand, out.deck = pool[: len(out.hand)], pool[len(out.hand):]
        _resample_tokens(out, rng)
    else:
        rng.shuffle(out.deck)
    _resample_commits(out, seat, rng)
    return out


def _resample_tiles(out: WizardPosition, seat: int, rng: Chance) -> None:
    hidden: list[Square] = [sq for sq, c in sorted(out.cells.items())
                            if sq != out.tower and not c.flipped]
    pool = [out.cells[sq].tile for sq in hidden if not out.content.tile(out.cells[sq].tile).key]
    spare_keys = [t for t in out.unused_tiles if out.content.tile(t).key]
    pool += [t for t in out.unused_tiles if not out.content.tile(t).key]
    if seat != 0:
        keys = [out.cells[sq].tile for sq in hidden if out.cells[sq].key]
        for sq in hidden:
            out.cells[sq].key = False
        chosen = list(hidden)
        rng.shuffle(chosen)
        chosen = sorted(chosen[: len(keys)])
        regular_places = [sq for sq in hidden if sq not in chosen]
        for sq, tile in zip(chosen, keys, strict=True):
            out.cells[sq].key = True
            out.cells[sq].tile = tile
    else:
        regular_places = [sq for sq in hidden if not out.cells[sq].key]
    rng.shuffle(pool)
    for sq in regular_places:
        out.cells[sq].tile = pool.pop()
    out.unused_tiles = pool + spare_keys


PLACE_TRIES = 50
"""Resamplings of a placement's token kinds tried before keeping the true one (rejection
sampling: the copy must agree with what the heroes saw, a wizard still placing)."""


def _resample_tokens(out: WizardPosition, rng: Chance) -> None:
    slots: dict[int, list[Token]] = {}
    for _, c in sorted(out.cells.items()):
        for t in c.tokens:
            if not t.up:
                slots.setdefault(t.batch, []).append(t)
    for t in out.lost:
        slots.setdefault(t.batch, []).append(t)
    pending: list[str] = []
    if out.decision.get("kind") == "place":  # the card's tokens not yet placed are unseen too
        pending = out.decision["tokens"]
        slots.setdefault(int(out.decision["batch"]), [])
    for batch, tokens in slots.items():
        kinds = [t.kind for t in tokens]
        own = out.decision.get("kind") == "place" and batch == int(out.decision["batch"])
        if own:
            kinds += pending
        shuffled = list(kinds)
        rng.shuffle(shuffled)
        for _ in range(PLACE_TRIES):
            # The wizard is still placing, so some token in hand has a square (a trap never goes
            # on the tower: `placeable`): a resampling that leaves none is not a world the
            # heroes may be in, and its copy would have no legal action.
            if not own or any(placeable(out, k) for k in set(shuffled[len(tokens):])):
                break
            rng.shuffle(shuffled)
        else:
            shuffled = kinds  # the true assignment is always consistent with what was seen
        for t, k in zip(tokens, shuffled, strict=False):
            t.kind = k
        if own:
            pending[:] = shuffled[len(tokens):]


def _resample_commits(out: WizardPosition, seat: int, rng: Chance) -> None:
    for other in sorted(out.commits):
        if other == seat:
            continue
        saved = out.decision
        out.decision = {"kind": "commit", "seat": other}
        options = [a for a in legal_commit(out) if a.verb in ("move", "stay", "sprint")]
        out.decision = saved
        out.commits[other] = str(rng.choice(options))
