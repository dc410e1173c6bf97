"""The heroes' turn (seed 8 Nov 'Movement phase', 'Combat phase', 'Avoiding traps', 'Dying',
'Loot phase', 'Keys', 'Loot Cards', 'Trading'). Movement is simultaneous: each hero commits in
seat order, unseen by the others, and all moves are revealed together."""

from __future__ import annotations

from typing import Any

from playtable.core.words import plural
from playtable.games.wizard import board
from playtable.games.wizard.actions import Act, act, parse
from playtable.games.wizard.board import Square
from playtable.games.wizard.content import kind_of
from playtable.games.wizard.position import START_HP, Hero, WizardPosition

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


# -- start of the heroes' turn and the secret commits ------------------------------------------
def step_hero_turn(st: WizardPosition, step: dict[str, Any]) -> None:
    st.say("hero_turn", "The heroes' turn.")
    for h in st.heroes:
        h.entered = h.fought = False
        h.gives = 0
        h.stuck = h.alive and not h.frozen and bool(st.cells[h.pos].tokens)
        if h.stuck:
            h.prev = None
            st.say("stuck", f"Hero {h.seat} starts on a tile with tokens and cannot move.",
                   hero=h.seat)
        if h.alive and h.frozen:
            st.say("frozen", f"Hero {h.seat} is frozen and skips this turn.", hero=h.seat)
    st.commits = {}
    st.steps.insert(0, {"do": "commit_next"})


def step_commit_next(st: WizardPosition, step: dict[str, Any]) -> None:
    for h in st.heroes:
        if h.alive and not h.frozen and not h.stuck and h.seat not in st.commits:
            st.decision = {"kind": "commit", "seat": h.seat}
            return
    st.steps.insert(0, {"do": "reveal"})


def _can_step(st: WizardPosition, frm: Square, d: str) -> bool:
    to = board.step(frm, d)
    if to == st.tower:
        return frm == st.entrance_square() and d == OPPOSITE[st.entrance] and st.door_open()
    return st.open_square(to)


def _has(h: Hero, st: WizardPosition, effect: str) -> list[str]:
    return sorted({kind_of(c) for c in h.items if st.content.lcard(c).effect == effect})


def legal_commit(st: WizardPosition) -> list[Act]:
    h = st.hero(int(st.decision["seat"]))
    out = [act("move", d) for d in board.DIRS if _can_step(st, h.pos, d)]
    out.append(act("stay"))
    if _has(h, st, "sprint"):
        for d1 in board.DIRS:
            if not _can_step(st, h.pos, d1) or board.step(h.pos, d1) == st.tower:
                continue
            mid = board.step(h.pos, d1)
            for d2 in board.DIRS:
                if _can_step(st, mid, d2) and board.step(mid, d2) != h.pos:
                    out.append(act("sprint", d1, d2))
    if h.hp < START_HP:
        out.extend(act("use", k) for k in _has(h, st, "heal"))
    if h.gives < st.params.max_gives:
        mates = [m for m in st.heroes_at(h.pos) if m.seat != h.seat]
        for m in mates:
            out.extend(act("give", k, f"hero{m.seat}") for k in sorted({kind_of(c) for c in h.items}))
            if h.keys:
                out.append(act("givekey", f"hero{m.seat}"))
    return out


def _take(h: Hero, kind: str) -> str:
    card = next(c for c in h.items if kind_of(c) == kind)
    h.items.remove(card)
    return card


def do_commit(st: WizardPosition, a: Act) -> None:
    h = st.hero(int(st.decision["seat"]))
    if a.verb == "use":
        card = _take(h, a.args[0])
        st.loot_discard.append(card)
        healed = min(START_HP, h.hp + st.content.lcard(card).value) - h.hp
        h.hp += healed
        st.say("heal", f"Hero {h.seat} drinks a {st.content.lcard(card).name} and heals {healed}.",
               hero=h.seat, amount=healed)
        return
    if a.verb in ("give", "givekey"):
        mate = st.hero(int(a.args[-1][4:]))
        h.gives += 1
        if a.verb == "givekey":
            h.keys -= 1
            mate.keys += 1
            st.say("give_key", f"Hero {h.seat} hands a key to hero {mate.seat}.",
                   hero=h.seat, to=mate.seat)
        else:
            mate.items.append(_take(h, a.args[0]))
            st.say("give", f"Hero {h.seat} gives {st.content.loot[a.args[0]].name} to hero "
                   f"{mate.seat}.", hero=h.seat, to=mate.seat, card=a.args[0])
        return
    st.commits[h.seat] = str(a)
    st.say("commit", f"Hero {h.seat} has chosen a move (hidden until all have chosen).",
           hero=h.seat)
    st.decision = {}
    st.steps.insert(0, {"do": "commit_next"})


# -- reveal and resolution ------------------------------------------------------------------------
def step_reveal(st: WizardPosition, step: dict[str, Any]) -> None:
    passed: list[dict[str, Any]] = []  # tiles a sprint went through (23 Oct, 17 Oct rules)
    for seat, text in sorted(st.commits.items()):
        h = st.hero(seat)
        a = parse(text)
        if a.verb == "stay":
            st.say("hero_stays", f"Hero {seat} stays on {board.name(h.pos)}.", hero=seat)
            continue
        path = list(a.args)
        if a.verb == "sprint":
            st.loot_discard.append(_take(h, "sprint"))
        start = h.pos
        for i, d in enumerate(path):
            h.prev = h.pos
            h.pos = board.step(h.pos, d)
            if i + 1 < len(path) and st.cells[h.pos].tokens:
                st.say("sprint_stopped", f"Hero {seat}'s sprint stops at tokens on "
                       f"{board.name(h.pos)}.", hero=seat)
                break
            if i + 1 < len(path) and st.params.flip_tiles == "on_enter":
                passed.append({"do": "pass", "square": board.name(h.pos), "hero": seat})
        h.entered = True
        where = "the tower" if h.pos == st.tower else board.name(h.pos)
        st.say("hero_moves", f"Hero {seat} {'sprints' if a.verb == 'sprint' else 'moves'} from "
               f"{board.name(start)} to {where}.", hero=seat, frm=board.name(start),
               to=board.name(h.pos))
    st.commits = {}
    squares = sorted({h.pos for h in st.living() if (h.entered or h.stuck)})
    st.steps[:0] = passed + [{"do": "tile", "square": board.name(sq)} for sq in squares] + [
        {"do": "loot_phase"}, {"do": "end_hero_turn"}]


def step_pass(st: WizardPosition, step: dict[str, Any]) -> None:
    """A tile a sprint went through under the beta and alpha rules (`flip_tiles=on_enter`):
    23 Oct and 17 Oct 'Movement phase': "When a player enters a new tile, that player flips
    that tile ... if there are no monsters on that tile the player get to loot that room ...
    If a player can move more than 1 tile due to abilities, that player then gets to loot every
    tile without monsters on it that the player enters." A sprint stops at the first tile with
    tokens (RULES.md 3.3), so a tile gone through holds none: it is turned face up with its
    effects, looted once (if it was face down) and its key and any dropped keys and loot are
    picked up by the sprinter (RULES.md §5)."""
    sq = board.parse_square(step["square"], st.size)
    h = st.hero(int(step["hero"]))
    cell = st.cells[sq]
    if not h.alive or sq == st.tower or cell.removed or cell.tokens:
        return
    st.say("hero_passes", f"Hero {h.seat} sprints through {board.name(sq)}.", hero=h.seat,
           square=board.name(sq))
    if not cell.flipped:
        flip_tile(st, sq)
        _give_loot(st, [h], 1, "explores")
    pick_up(st, sq, [h])


def _participants(st: WizardPosition, sq: Square) -> list[Hero]:
    return [h for h in st.heroes_at(sq) if (h.entered or h.stuck) and not h.frozen]


def step_tile(st: WizardPosition, step: dict[str, Any]) -> None:
    sq = board.parse_square(step["square"], st.size)
    cell = st.cells[sq]
    party = _participants(st, sq)
    if not party:
        return
    hidden = [t for t in cell.tokens if not t.up]
    if hidden:
        for t in hidden:
            t.up = True
        names = ", ".join(_token_name(t.kind) for t in hidden)
        st.say("tokens_flipped", f"Tokens flipped on {board.name(sq)}: {names}.",
               square=board.name(sq), tokens=[t.kind for t in hidden])
    blanks = [t for t in cell.tokens if t.kind == "blank"]
    if blanks:
        cell.tokens = [t for t in cell.tokens if t.kind != "blank"]
        st.tokens_gone += len(blanks)
    fresh = False
    if st.params.flip_tiles == "on_enter" and sq != st.tower and not cell.flipped:
        flip_tile(st, sq)
        fresh = True
    traps = [t for t in cell.tokens if t.kind == "trap"]
    if traps:
        cell.tokens = [t for t in cell.tokens if t.kind != "trap"]
        st.tokens_gone += len(traps)
        _spring_traps(st, sq, party, len(traps))
        party = [h for h in party if h.alive]
        if st.winner:
            return
    monsters = [t for t in cell.tokens if t.kind.startswith("m")]
    if monsters and party:
        st.steps.insert(0, {"do": "combat", "square": board.name(sq),
                            "heroes": [h.seat for h in party], "bonus": 0, "asked": []})
        return
    if sq == st.tower and party:
        st.finish("heroes", "tower", "The heroes storm the empty tower and defeat the wizard!")
        return
    if fresh and party:
        _give_loot(st, party, 1, "explores")


def _token_name(kind: str) -> str:
    return {"trap": "trap", "blank": "blank"}.get(kind, f"monster level {kind[1:]}")


def trap_threshold(st: WizardPosition, traps: int) -> int:
    """The save needed against `traps` traps in one tile (8 Nov: 7+, 10+, 13+; 3 more per trap
    beyond three is ours)."""
    return 7 + 3 * (traps - 1)


def _spring_traps(st: WizardPosition, sq: Square, party: list[Hero], traps: int) -> None:
    st.stats["traps_sprung"] += traps
    if st.params.trap_rule == "scaled":
        need = trap_threshold(st, traps)
        for h in party:
            roll = st.chance.roll(20)
            total = roll + st.save_bonus(h)
            ok = total >= need
            st.say("trap_save", f"Hero {h.seat} rolls {roll}+{st.save_bonus(h)}={total} against "
                   f"{plural(traps, 'trap')} (needs {need}+): {'avoided' if ok else 'hit'}.",
                   hero=h.seat, roll=roll, total=total, need=need, ok=ok)
            if not ok:
                st.damage(h, 2, sq, "trap")
        return
    for _ in range(traps):
        for h in party:
            if not h.alive:
                continue
            roll = st.chance.roll(20)
            total = roll + st.save_bonus(h)
            ok = total >= st.params.trap_save
            st.say("trap_save", f"Hero {h.seat} rolls {roll}+{st.save_bonus(h)}={total} against a "
                   f"trap (needs {st.params.trap_save}+): {'avoided' if ok else 'hit'}.",
                   hero=h.seat, roll=roll, total=total, need=st.params.trap_save, ok=ok)
            if not ok:
                st.damage(h, 2, sq, "trap")


def step_combat(st: WizardPosition, step: dict[str, Any]) -> None:
    sq = board.parse_square(step["square"], st.size)
    party = [st.hero(s) for s in step["heroes"] if st.hero(s).alive and st.hero(s).pos == sq]
    if not party:
        return
    for h in party:
        if h.seat not in step["asked"] and _has(h, st, "combat_bonus"):
            st.decision = {"kind": "boost", "seat": h.seat, "step": step}
            return
    _fight(st, sq, party, int(step["bonus"]))


def legal_boost(st: WizardPosition) -> list[Act]:
    h = st.hero(int(st.decision["seat"]))
    return [act("boost", k) for k in _has(h, st, "combat_bonus")] + [act("fight")]


def do_boost(st: WizardPosition, a: Act) -> None:
    step = st.decision["step"]
    h = st.hero(int(st.decision["seat"]))
    if a.verb == "fight":
        step["asked"].append(h.seat)
    else:
        card = _take(h, a.args[0])
        st.loot_discard.append(card)
        value = st.content.lcard(card).value
        step["bonus"] = int(step["bonus"]) + value
        st.say("boost", f"Hero {h.seat} plays {st.content.lcard(card).name} (+{value}).",
               hero=h.seat, card=kind_of(card), value=value)
    st.decision = {}
    st.steps.insert(0, step)


def _combat_words(where: str, w_roll: int, levels: int, rolls: list[int], summed: bool, extra: int,
                  won: bool) -> str:
    """A fight in one sentence each side (8 Nov "Combat"): what was rolled, what was added, the
    totals, who won (a tie goes to the heroes)."""
    if len(rolls) == 1:
        dice = f"rolls {rolls[0]}"
    else:
        listed = ", ".join(map(str, rolls[:-1])) + f" and {rolls[-1]}"
        dice = f"roll {listed} and " + (f"add them up ({sum(rolls)})" if summed
                                         else f"keep the best ({max(rolls)})")
    side = "the hero" if len(rolls) == 1 else "the heroes"
    heroes_total = (sum(rolls) if summed else max(rolls)) + extra
    return (f"Combat on {where}: the wizard rolls {w_roll} and adds {levels} for the monsters' "
            f"levels, {w_roll + levels}; {side} {dice}, plus {extra} for swords and bonuses, "
            f"{heroes_total}. The {'heroes' if won else 'monsters'} win"
            f"{' (a tie goes to the heroes)' if won and heroes_total == w_roll + levels else ''}.")


def _fight(st: WizardPosition, sq: Square, party: list[Hero], bonus: int) -> None:
    cell = st.cells[sq]
    monsters = [t for t in cell.tokens if t.kind.startswith("m")]
    levels = sum(t.level for t in monsters)
    st.stats["combats"] += 1
    if sq == st.tower:
        st.stats["tower_attempts"] += 1
    w_roll = st.chance.roll(20)
    rolls = [st.chance.roll(20) for _ in party]
    gear = sum(st.combat_bonus(h) for h in party)
    base = sum(rolls) if st.params.combat_rolls == "sum" else max(rolls)
    heroes_total = base + gear + bonus
    wizard_total = w_roll + levels
    won = heroes_total >= wizard_total
    st.say("combat", _combat_words('the tower' if sq == st.tower else board.name(sq), w_roll, levels,
                                   rolls, st.params.combat_rolls == "sum", gear + bonus, won),
           square=board.name(sq), wizard_roll=w_roll, levels=levels, hero_rolls=rolls,
           heroes_total=heroes_total, wizard_total=wizard_total, heroes_win=won)
    for h in party:
        h.fought = True
    if won:
        st.stats["combats_won"] += 1
        cell.tokens = [t for t in cell.tokens if not t.kind.startswith("m")]
        st.tokens_gone += len(monsters)
        if sq == st.tower:
            st.finish("heroes", "tower", "The heroes beat the tower's guards and cut down the "
                      "wizard: the heroes win!")
            return
        first = not cell.cleared
        cell.cleared = True
        rule = st.params.combat_loot
        if rule == "draw2keep1":
            cards = [c for c in (st.draw_loot(), st.draw_loot()) if c is not None]
            if cards:
                receiver = _receiver(party)
                st.say("loot_offer", f"Hero {receiver.seat} draws "
                       f"{', '.join(st.content.lcard(c).name for c in cards)} and keeps one.",
                       hero=receiver.seat, cards=[kind_of(c) for c in cards])
                st.decision = {"kind": "keep", "seat": receiver.seat, "cards": cards}
        else:
            n = 2 if rule == "two" or first else 1
            _give_loot(st, party, n, "wins")
        return
    damage = len(monsters) if st.params.loss_damage == "per_monster" else 1
    for h in party:
        st.damage(h, damage, sq, "lost combat")
    if st.winner:
        return
    for h in party:
        if not h.alive:
            continue
        if h.prev is not None and h.entered:
            h.pos = h.prev
            st.say("retreat", f"Hero {h.seat} retreats to {board.name(h.pos)}.", hero=h.seat,
                   to=board.name(h.pos))
        else:
            st.steps.insert(0, {"do": "retreat", "hero": h.seat})


def _receiver(party: list[Hero]) -> Hero:
    return min(party, key=lambda h: (len(h.items), h.seat))


def _give_loot(st: WizardPosition, party: list[Hero], n: int, why: str) -> None:
    for _ in range(n):
        card = st.draw_loot()
        if card is None:
            return
        h = _receiver(party)
        h.items.append(card)
        st.say("loot", f"Hero {h.seat} {why} and loots {st.content.lcard(card).name}.",
               hero=h.seat, card=kind_of(card))


def legal_keep(st: WizardPosition) -> list[Act]:
    return [act("keep", k) for k in sorted({kind_of(c) for c in st.decision["cards"]})]


def do_keep(st: WizardPosition, a: Act) -> None:
    h = st.hero(int(st.decision["seat"]))
    cards = list(st.decision["cards"])
    kept = next(c for c in cards if kind_of(c) == a.args[0])
    cards.remove(kept)
    h.items.append(kept)
    st.loot_discard.extend(cards)
    st.say("loot_keep", f"Hero {h.seat} keeps {st.content.lcard(kept).name}.", hero=h.seat,
           card=kind_of(kept))
    st.decision = {}


def _retreat_options(st: WizardPosition, h: Hero) -> list[Square]:
    return sorted(x for x in (board.step(h.pos, d) for d in board.DIRS) if st.open_square(x))


def step_retreat(st: WizardPosition, step: dict[str, Any]) -> None:
    h = st.hero(int(step["hero"]))
    if not h.alive:
        return
    if not _retreat_options(st, h):
        st.say("retreat", f"Hero {h.seat} has nowhere to retreat and stays.", hero=h.seat)
        return
    st.decision = {"kind": "retreat", "seat": 0, "hero": h.seat}


def legal_retreat(st: WizardPosition) -> list[Act]:
    h = st.hero(int(st.decision["hero"]))
    return [act("retreat", board.name(x)) for x in _retreat_options(st, h)]


def do_retreat(st: WizardPosition, a: Act) -> None:
    h = st.hero(int(st.decision["hero"]))
    h.pos = board.parse_square(a.args[0], st.size)
    st.say("retreat", f"The wizard drives hero {h.seat} back to {a.args[0]}.", hero=h.seat,
           to=a.args[0])
    st.decision = {}


# -- loot phase ---------------------------------------------------------------------------------
def flip_tile(st: WizardPosition, sq: Square) -> None:
    """Turn a tile face up and apply its Card Draw and Mana Wheel values (8 Nov 'Tiles')."""
    cell = st.cells[sq]
    if cell.flipped:
        return
    cell.flipped = True
    tile = st.content.tile(cell.tile)
    before = st.wheel
    st.wheel = max(st.params.mana_min, min(st.params.mana_max, st.wheel + tile.mana))
    st.say("tile_flipped", f"{board.name(sq)} is turned face up: {tile.name} (card draw "
           f"{tile.draw:+d}, mana {tile.mana:+d}){', with a key!' if cell.key else '.'}",
           square=board.name(sq), tile=tile.id, draw=tile.draw, mana=tile.mana, key=cell.key)
    if st.wheel != before:
        st.say("mana", f"The Mana Wheel turns to {st.wheel}.", wheel=st.wheel)
    if tile.draw > 0:
        n = st.draw_wizard(tile.draw)
        st.say("wizard_draw", f"The wizard draws {n} card{'' if n == 1 else 's'}.", count=n)
    elif tile.draw < 0:
        st.steps.insert(0, {"do": "discard", "n": -tile.draw})


def pick_up(st: WizardPosition, sq: Square, here: list[Hero] | None = None) -> None:
    """Heroes on a tile without tokens (or `here`, a sprinter going through it) take its key
    and any dropped loot and keys."""
    cell = st.cells[sq]
    here = st.heroes_at(sq) if here is None else here
    if not here or cell.tokens:
        return
    first = min(here, key=lambda h: h.seat)
    if cell.key and cell.flipped:
        cell.key = False
        first.keys += 1
        st.keys_found += 1
        st.say("key_found", f"Hero {first.seat} takes a key ({st.keys_found} found).",
               hero=first.seat, found=st.keys_found)
        if st.params.rage and st.keys_found >= st.params.keys_needed and not st.rage:
            st.rage = True
            st.say("rage", "The wizard's rage makes the whole labyrinth shake and crumble: at "
                   f"the start of each of his turns he tears {st.num_players} tiles out of it, one "
                   "for each player.", tiles=st.num_players)
    if cell.keys:
        first.keys += cell.keys
        st.say("keys_picked", f"Hero {first.seat} picks up {plural(cell.keys, 'dropped key')}.",
               hero=first.seat, count=cell.keys)
        cell.keys = 0
    for card in list(cell.items):
        h = _receiver(here)
        h.items.append(card)
        st.say("item_picked", f"Hero {h.seat} picks up {st.content.lcard(card).name}.",
               hero=h.seat, card=kind_of(card))
    cell.items = []


def step_loot_phase(st: WizardPosition, step: dict[str, Any]) -> None:
    squares = sorted({h.pos for h in st.living() if h.pos != st.tower})
    for sq in squares:
        cell = st.cells[sq]
        if cell.tokens:
            continue
        if not cell.flipped and st.params.flip_tiles == "loot_phase":
            flip_tile(st, sq)
            finders = [h for h in st.heroes_at(sq) if not h.fought and not h.frozen]
            if finders:
                _give_loot(st, finders, 1, "explores the room")
        pick_up(st, sq)


def step_end_hero_turn(st: WizardPosition, step: dict[str, Any]) -> None:
    for h in st.heroes:
        h.frozen = h.stuck = h.entered = h.fought = False
        h.gives = 0
    st.steps.append({"do": "wizard_turn"})


LEGAL = {"commit": legal_commit, "boost": legal_boost, "keep": legal_keep,
         "retreat": legal_retreat}
PERFORM = {"commit": do_commit, "boost": do_boost, "keep": do_keep, "retreat": do_retreat}
STEPS = {"hero_turn": step_hero_turn, "commit_next": step_commit_next, "reveal": step_reveal,
         "pass": step_pass, "tile": step_tile, "combat": step_combat, "retreat": step_retreat,
         "loot_phase": step_loot_phase, "end_hero_turn": step_end_hero_turn}
