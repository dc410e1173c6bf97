"""Bots for The Wizard's Labyrinth.

`heuristic` plays either side with rules of thumb (written out in RULES.md, "Bots"). It is
deterministic given the rng it is handed (used only to break ties). A hero bot uses only what
its seat may see: face-down tokens are counted, never identified; the wizard bot knows its own
tokens and keys but never looks at face-down room tiles. The generic `random` agent (uniform over
the legal actions) is the other bot for both sides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.protocol import Agent, State
from playtable.games.wizard import board
from playtable.games.wizard.actions import Act
from playtable.games.wizard.board import Square
from playtable.games.wizard.content import kind_of
from playtable.games.wizard.position import START_HP, Hero, WizardPosition


def evaluate(st: WizardPosition, seat: int) -> float:
    """A rough value in [0, 1] for `seat`: the heroes' progress (keys, hit points, an open door)
    against the wizard."""
    if st.is_terminal:
        return float(st.returns()[seat])
    living = st.living()
    if not living:
        return 1.0 if seat == 0 else 0.0
    health = sum(h.hp for h in living) / (START_HP * len(st.heroes))
    keys = min(st.keys_found, st.params.keys_needed) / st.params.keys_needed
    heroes = 0.15 + 0.35 * health + 0.4 * keys + (0.1 if st.door_open() else 0.0)
    heroes = max(0.0, min(1.0, heroes))
    return 1.0 - heroes if seat == 0 else heroes


@cache
def p_heroes_win(dice: int, bonus: int, levels: int, add: bool = False) -> float:
    """The chance that the best of `dice` d20 (or their sum when `add`) plus `bonus` ties or
    beats a d20 plus `levels`."""
    if dice <= 0:
        return 0.0
    if add:
        dist = {0: 1.0}
        for _ in range(dice):
            nxt: dict[int, float] = {}
            for s, p in dist.items():
                for f in range(1, 21):
                    nxt[s + f] = nxt.get(s + f, 0.0) + p / 20
            dist = nxt
        total = 0.0
        for w in range(1, 21):
            total += sum(p for s, p in dist.items() if s + bonus >= w + levels) / 20
        return total
    total = 0.0
    for w in range(1, 21):
        t = w + levels - bonus  # the best die must reach t
        if t <= 1:
            total += 1.0
        elif t <= 20:
            total += 1.0 - ((t - 1) / 20) ** dice
    return total / 20


def _noise(rng: Chance) -> float:
    return rng.random() * 0.01


@dataclass
class HeuristicAgent:
    """Rules of thumb for both sides (see RULES.md, 'Bots'); with `mistakes`, a weaker player
    that errs at that rate (RULES.md §9, "A heuristic that errs")."""

    name = "heuristic"
    mistakes: float = field(default=0.0, metadata={"range": (0.0, 1.0)})
    """The chance that a decision with a choice is a legal move picked at random instead of the
    rule of thumb's. The draw comes from the agent's own stream (the rng handed to `choose`),
    and only when the rate is above 0, so the plain heuristic's moves are unchanged."""
    # The heroes' dials (RULES.md §9; the styled agents below turn them): how much a hero fears
    # a fight's damage, at how many hit points he drinks a potion, how strongly he keeps near
    # the others, what keeping a sprint is worth, the win chance he wants before storming the
    # tower (and whether he storms late in the game anyway), the win chance below which he
    # plays a combat bonus, and whether he explores towards the party's tile or his own.
    care = 1.0
    potion_hp = 5
    together = 0.3
    sprint_cost = 1.0
    tower_chance = 0.3
    tower_late = True
    boost_below = 0.7
    own_target = False
    # What a hero's standing still costs (RULES.md §9): the wizard draws, turns his wheel and
    # places tokens every round while a hero's hit points only fall, so a wait that buys nothing
    # is worth less than a step, and a hero off the party's tile steps on rather than wait.
    wait_cost = 3.0

    def choose(self, state: State, rng: Chance) -> Any:
        assert isinstance(state, WizardPosition)
        st = state
        legal: list[Act] = st.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.mistakes and rng.random() < self.mistakes:
            return rng.choice(legal)
        kind = st.decision["kind"]
        method: Callable[[WizardPosition, list[Act], Chance], Act] | None = getattr(
            self, f"_{kind}", None)
        if method is None:
            return rng.choice(legal)
        return method(st, legal, rng)

    # -- the wizard ------------------------------------------------------------------------------
    def _tower(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        return rng.choice(legal)

    def _entrance(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        return rng.choice(legal)

    def _key(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        """Keys far from every corner (where the heroes start) and apart from each other."""
        n = st.size
        corners = [board.corner(n, c) for c in board.CORNERS]
        placed = [sq for sq, c in st.cells.items() if c.key]

        def score(a: Act) -> float:
            sq = board.parse_square(a.args[0], n)
            far = min(_manhattan(sq, c) for c in corners)
            apart = min((_manhattan(sq, p) for p in placed), default=n)
            return 2 * far + min(apart, 3) + _noise(rng) * 100

        return max(legal, key=score)

    def _opening(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        """Send back the cards least useful early: the dearest."""
        return max(legal, key=lambda a: (st.content.wizard[a.args[0]].cost, _noise(rng)))

    def _rage(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        """Remove the tile that lengthens the heroes' way to the tower most."""
        entrance = st.entrance_square()
        heroes = [h.pos for h in st.living()]

        def score(a: Act) -> float:
            gone = board.parse_square(a.args[0], st.size)
            dist = board.distances(entrance, lambda x: x != gone and st.open_square(x), st.size)
            near = min(_manhattan(gone, h) for h in heroes)
            return sum(dist.get(h, 99) for h in heroes) - 0.1 * near + _noise(rng)

        return max(legal, key=score)

    def _main(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        plays = {a.args[0]: a for a in legal if a.verb == "play"}
        if not plays:
            return legal[-1]
        groups = _groups(st)
        biggest = max(len(g) for g in groups.values()) if groups else 0
        for spell in ("whirlwind",):
            if spell in plays and biggest >= 2:
                return plays[spell]
        if "fireball" in plays and (biggest >= 2 or _fireball_kills(st, _fireballs_payable(st))):
            return plays["fireball"]
        if "frost_bolt" in plays and (_door_threat(st) or (biggest >= 2 and len(st.hand) >= 4)):
            return plays["frost_bolt"]
        if "switcheroo" in plays and _best_switch(st) is not None:
            return plays["switcheroo"]
        tokens = [k for k in plays if st.content.wizard[k].type != "spell"]
        if tokens:
            return plays[max(tokens, key=lambda k: (st.content.wizard[k].cost,
                                                    sum(st.content.wizard[k].monsters)))]
        if "fireball" in plays:
            return plays["fireball"]  # no token finds room: mana left unspent is lost (8 Nov)
        return legal[-1]

    def _place(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        """Real monsters on keys, the tower (once open) and where the heroes step next; traps
        where the heroes step next; blanks as decoys near the heroes."""
        heroes = [h.pos for h in st.living()]
        keys = {sq for sq, c in st.cells.items() if c.key and not c.removed}
        guard = {board.step(k, d) for k in keys for d in board.DIRS}
        towards = _hero_paths(st)
        target = _party_target(st)

        def score(a: Act) -> float:
            token, sq = a.args[0], board.parse_square(a.args[1], st.size)
            cell = st.cells[sq]
            near = min((_manhattan(sq, h) for h in heroes), default=9)
            real = sum(1 for t in cell.tokens if t.kind != "blank")
            value = 0.0
            if token.startswith("m"):
                value += 8.0 if sq == st.tower else 0.0
                value += 4.0 if sq in keys else (1.0 if sq in guard else 0.0)
                value += 2.0 if sq == target else 0.0
                value += 3.0 if near == 1 else (1.5 if near == 2 else 0.0)
                value += 2.0 if sq in towards else 0.0
                value += 0.5 * real
            elif token == "trap":
                value += 3.0 if near == 1 else (1.0 if near == 2 else 0.0)
                value += 2.0 if sq in keys else 0.0
                value += 1.5 if sq in towards else 0.0
            else:
                value += 2.5 if near == 1 else (1.0 if near == 2 else 0.0)
                value += 1.0 if not cell.tokens else 0.0
                value -= 1.0 * real
                value += 1.0 if sq == st.tower else 0.0
            order = {"m": 0.3, "t": 0.2, "b": 0.0}[token[0]]
            return value + order + _noise(rng)

        return max(legal, key=score)

    def _spell(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        if legal[0].verb == "switch":
            best = _best_switch(st)
            if best is not None:
                for a in legal:
                    if (a.args[0], a.args[1]) == best:
                        return a
            return rng.choice(legal)
        entrance = st.entrance_square()
        # This Fireball and those he can still pay for this turn: a hero they kill goes first.
        fireball = kind_of(str(st.decision.get("card", ""))) == "fireball"
        burns = 1 + _fireballs_payable(st) if fireball else 0

        def score(a: Act) -> float:
            sq = board.parse_square(a.args[0], st.size)
            here = st.heroes_at(sq)
            kills = sum(1 for h in here if h.hp <= burns)
            return (10 * kills + 3 * len(here) + sum(h.keys for h in here) * 2
                    - 0.3 * _manhattan(sq, entrance) - 0.1 * sum(h.hp for h in here) + _noise(rng))

        return max(legal, key=score)

    def _send(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        entrance = st.entrance_square()

        def score(a: Act) -> float:
            sq = board.parse_square(a.args[0], st.size)
            real = sum(t.level for t in st.cells[sq].tokens)
            return 2 * real + _manhattan(sq, entrance) + _noise(rng)

        return max(legal, key=score)

    def _discard(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        """Discard what cannot be paid for soon, else the weakest card."""
        def score(a: Act) -> float:
            card = st.content.wizard[a.args[0]]
            if card.cost > st.wheel + 1:
                return 100.0 + card.cost
            return -card.cost + _noise(rng)

        return max(legal, key=score)

    def _retreat(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        entrance = st.entrance_square()

        def score(a: Act) -> float:
            sq = board.parse_square(a.args[0], st.size)
            real = sum(t.level for t in st.cells[sq].tokens if t.kind.startswith("m"))
            return 3 * real + _manhattan(sq, entrance) + _noise(rng)

        return max(legal, key=score)

    # -- the heroes ------------------------------------------------------------------------------
    def _start(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        entrance = st.entrance_square()
        return min(legal, key=lambda a: (_manhattan(board.corner(st.size, a.args[0]), entrance),
                                         _noise(rng)))

    def _commit(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        h = st.hero(int(st.decision["seat"]))
        uses = [a for a in legal if a.verb == "use"]
        if uses and h.hp <= self.potion_hp:
            return uses[0]
        gift = _useful_gift(st, h, legal)
        if gift is not None:
            return gift
        target = _party_target(st, h.pos if self.own_target else None)
        dist = board.distances(target, lambda x: st.open_square(x), st.size) if target else {}
        strength = _party_strength(st)

        def score(a: Act) -> float:
            if a.verb in ("use", "give", "givekey"):
                return -1e9
            dest = _destination(st, h.pos, a)
            if dest == st.tower:
                return _tower_score(st, h, strength, self.tower_chance, self.tower_late)
            d = dist.get(dest, 50)
            value = -3.0 * d
            cell = st.cells[dest]
            odds = fight_odds(st, h, dest, strength)
            if odds is not None:
                p, monsters = odds
                care = 2.5 if h.hp <= 3 else (1.5 if h.hp <= 5 else 1.0)
                value += 1.5 * p - self.care * care * (1 - p) * (1 + monsters)
            if not cell.flipped and dest != h.pos:
                value += 1.5
            if a.verb == "sprint":
                value -= self.sprint_cost  # keep the sprint for when it matters
            if a.verb == "stay" and not _waits_for_party(st, h):
                value -= self.wait_cost
            mates_far = [m for m in st.living() if m.seat != h.seat]
            if mates_far:
                value -= self.together * min(_manhattan(dest, m.pos) for m in mates_far)
            return value + _noise(rng)

        return max(legal, key=score)

    def _boost(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        sq, p = fight_at_hand(st)
        boosts = [a for a in legal if a.verb == "boost"]
        if boosts and (p < self.boost_below or sq == st.tower):
            return max(boosts, key=lambda a: st.content.loot[a.args[0]].value)
        return next(a for a in legal if a.verb == "fight")

    def _keep(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        h = st.hero(int(st.decision["seat"]))
        return max(legal, key=lambda a: (_loot_value(st, h, a.args[0]), _noise(rng)))


# -- helpers ------------------------------------------------------------------------------------
def _manhattan(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _groups(st: WizardPosition) -> dict[Square, list[Hero]]:
    out: dict[Square, list[Hero]] = {}
    for h in st.living():
        out.setdefault(h.pos, []).append(h)
    return out


def _door_threat(st: WizardPosition) -> bool:
    if not st.door_open():
        return False
    entrance = st.entrance_square()
    return any(_manhattan(h.pos, entrance) <= 2 for h in st.living())


def _fireballs_payable(st: WizardPosition) -> int:
    """How many Fireballs from his hand the wizard can still pay for this turn."""
    card = st.content.wizard.get("fireball")
    if card is None:
        return 0
    held = sum(1 for c in st.hand if kind_of(c) == "fireball")
    return min(held, st.mana // card.cost) if card.cost else held


def _fireball_kills(st: WizardPosition, burns: int) -> bool:
    """Whether `burns` Fireballs (1 damage each to every hero on a tile) would kill a hero: the
    wizard wins only by killing every hero (8 Nov "Wizard victory"), so a hero within reach of
    his Fireballs is finished off rather than left to hide on an empty tile."""
    return any(h.hp <= burns for h in st.living())


def _best_switch(st: WizardPosition) -> tuple[str, str] | None:
    """Swap the weakest hero onto the strongest hidden monster, never onto a tile the rage has
    cut off from the tower: a hero who wins his fight there could never reach the tower nor be
    reached by the wizard's monsters, and the game could only end in a draw (RULES.md §4)."""
    best: tuple[float, str, str] | None = None
    reach = board.distances(st.entrance_square(), st.open_square, st.size)
    for sq, c in st.cells.items():
        if sq == st.tower or c.removed or not c.tokens or sq not in reach:
            continue
        top = c.tokens[-1]
        if not top.kind.startswith("m") or top.level < 2:
            continue
        for h in st.living():
            if h.pos == sq:
                continue
            value = top.level * 2 - h.hp * 0.3 + len(st.heroes_at(h.pos))
            if best is None or value > best[0]:
                best = (value, f"hero{h.seat}", board.name(sq))
    return None if best is None else (best[1], best[2])


def _hero_paths(st: WizardPosition) -> set[Square]:
    """Squares one step from a hero towards the nearest face-down tile (public knowledge)."""
    out: set[Square] = set()
    for h in st.living():
        for d in board.DIRS:
            nxt = board.step(h.pos, d)
            if st.open_square(nxt) and not st.cells[nxt].flipped:
                out.add(nxt)
    return out


def _destination(st: WizardPosition, frm: Square, a: Act) -> Square:
    if a.verb == "move":
        return board.step(frm, a.args[0])
    if a.verb == "sprint":
        mid = board.step(frm, a.args[0])
        if st.cells[mid].tokens or len(a.args) == 1:
            return mid
        return board.step(mid, a.args[1])
    return frm


def _party_strength(st: WizardPosition) -> dict[str, int]:
    living = st.living()
    return {"bonus": max((st.combat_bonus(h) for h in living), default=0),
            "total_bonus": sum(st.combat_bonus(h) for h in living),
            "hp": sum(h.hp for h in living)}


def fight_odds(st: WizardPosition, h: Hero, dest: Square,
               strength: dict[str, int]) -> tuple[float, float] | None:
    """What hero `h` expects from the tokens on `dest` (None where there are none): the chance
    the heroes win the fight (best of their dice, their swords; a face-down token counted as a
    level-1 half-monster, public facts only) and how many monsters would hurt him if they lose."""
    cell = st.cells[dest]
    hidden = sum(1 for t in cell.tokens if not t.up)
    up = [t for t in cell.tokens if t.up]
    up_levels = sum(t.level for t in up)
    if not (hidden or up_levels):
        return None
    mates = _likely_mates(st, h, dest)
    p = p_heroes_win(1 + mates, strength["bonus"], round(up_levels + 1.0 * hidden),
                     st.params.combat_rolls == "sum")
    return p, len(up) + 0.5 * hidden


def fight_at_hand(st: WizardPosition) -> tuple[Square, float]:
    """The fight the heroes prepare for (a `boost` decision): its square, and their chance to
    win it with the bonuses played so far."""
    step = st.decision["step"]
    sq = board.parse_square(step["square"], st.size)
    party = [st.hero(s) for s in step["heroes"] if st.hero(s).alive]
    levels = sum(t.level for t in st.cells[sq].tokens)
    bonus = sum(st.combat_bonus(h) for h in party) + int(step["bonus"])
    return sq, p_heroes_win(len(party), bonus, levels, st.params.combat_rolls == "sum")


def _likely_mates(st: WizardPosition, h: Hero, dest: Square) -> int:
    """Other heroes who follow the same party plan and stand next to `dest` (they tend to go
    there too)."""
    return sum(1 for m in st.living() if m.seat != h.seat and _manhattan(m.pos, dest) <= 1
               and not m.frozen)


def _party_target(st: WizardPosition, leader: Square | None = None) -> Square | None:
    """The party's shared goal, computed from public facts only, so every hero bot agrees
    without seeing the others' commits: dropped keys, then the tower entrance once the door is
    open, else the nearest face-down tile to the party's leader (the lowest living seat; a
    hero exploring on his own passes his own square as `leader`)."""
    living = st.living()
    if not living:
        return None
    leader = living[0].pos if leader is None else leader
    dropped = [sq for sq, c in st.cells.items() if c.keys and not c.removed]
    if dropped:
        return min(dropped, key=lambda s: _manhattan(s, leader))
    visible_keys = [sq for sq, c in st.cells.items() if c.flipped and c.key and not c.removed
                    and sq != st.tower]
    if visible_keys:
        return min(visible_keys, key=lambda s: _manhattan(s, leader))
    if st.door_open():
        return st.entrance_square()
    dist = board.distances(leader, lambda x: st.open_square(x), st.size)
    unexplored = [sq for sq in dist if not st.cells[sq].flipped]
    if not unexplored:
        return st.entrance_square()
    tokens = {sq: sum(1 for t in st.cells[sq].tokens) for sq in unexplored}
    return min(unexplored, key=lambda s: (dist[s] + 0.2 * tokens[s], s))


def _waits_for_party(st: WizardPosition, h: Hero) -> bool:
    """A wait that buys something: a hero at the open tower door waiting for the rest of the
    party to storm it together (the tower's fight is one roll for all, best die, §3)."""
    return st.door_open() and h.pos == st.entrance_square()


def tower_odds(st: WizardPosition, h: Hero, strength: dict[str, int]) -> float:
    """The chance that `h` and the heroes beside him beat the tower's monsters (a face-down
    token there counted as a level-2 monster)."""
    cell = st.cells[st.tower]
    hidden = sum(1 for t in cell.tokens if not t.up)
    levels = sum(t.level for t in cell.tokens if t.up) + round(2.0 * hidden)
    mates = sum(1 for m in st.living() if m.seat != h.seat and m.pos == h.pos)
    return p_heroes_win(1 + mates, strength["total_bonus"] if mates else st.combat_bonus(h),
                        levels, st.params.combat_rolls == "sum")


def _tower_score(st: WizardPosition, h: Hero, strength: dict[str, int], wanted: float = 0.3,
                 late_too: bool = True) -> float:
    p = tower_odds(st, h, strength)
    mates = sum(1 for m in st.living() if m.seat != h.seat and m.pos == h.pos)
    late = late_too and st.round > st.params.max_rounds * 0.5
    return 100.0 if p >= wanted or late or mates + 1 >= len(st.living()) else -5.0


def _loot_value(st: WizardPosition, h: Hero, kind: str) -> float:
    card = st.content.loot[kind]
    if card.type == "equipment":
        gear = [st.content.lcard(c) for c in st.equipped(h)]
        if card.slot == "sword":
            swords = sorted([g.combat for g in gear if g.slot == "sword"], reverse=True)
            gain = card.combat - (swords[1] if len(swords) >= 2 else 0)
            return 2.0 * max(gain, 0) + 0.3
        boots = [g.save for g in gear if g.slot == "boots"]
        return 1.0 * max(card.save - (boots[0] if boots else 0), 0) + 0.2
    if card.effect == "heal":
        return 3.0 if h.hp <= 6 else 1.5
    if card.effect == "combat_bonus":
        return 1.2 * card.value / 2
    return 1.0


def _useful_gift(st: WizardPosition, h: Hero, legal: list[Act]) -> Act | None:
    """Hand a spare sword to a mate on the tile whose equipment it improves."""
    for a in legal:
        if a.verb != "give":
            continue
        card = st.content.loot[a.args[0]]
        if card.slot != "sword":
            continue
        spare = [c for c in h.items if kind_of(c) == a.args[0] and c not in st.equipped(h)]
        if not spare:
            continue
        mate = st.hero(int(a.args[1][4:]))
        if _loot_value(st, mate, a.args[0]) > 1.0:
            return a
    return None


# -- play styles (seed 003, 26 Oct: "fair for the wizard and the heroes no matter what
# play-style they choose") ------------------------------------------------------------------------
HeroStyle = Literal["steady", "cautious", "reckless"]
WizardStyle = Literal["steady", "hoarding", "spending"]

HERO_STYLES: dict[str, dict[str, Any]] = {
    "steady": {},  # the heuristic's own dials
    # Fear the damage three times as much, drink at 7 hp, keep close together, storm the tower
    # only at even odds or as a whole party (never just because the game drags on), play a
    # combat bonus unless the fight is nearly won.
    "cautious": {"care": 3.0, "potion_hp": 7, "together": 1.0, "tower_chance": 0.5,
                 "tower_late": False, "boost_below": 0.9},
    # Fear the damage a third as much, drink only at 2 hp, each explore towards the face-down
    # tile nearest to himself (the party splits), sprint whenever it goes further, storm the
    # tower as soon as the door opens, keep combat bonuses unless the fight looks lost.
    "reckless": {"care": 0.3, "potion_hp": 2, "together": 0.0, "sprint_cost": -0.5,
                 "tower_chance": 0.0, "boost_below": 0.5, "own_target": True},
}
HOARD_HAND = 6
"""The hand a hoarding wizard keeps before he plays without a threat."""


@dataclass
class StyledAgent(HeuristicAgent):
    """The heuristic with a play style for each side: `heroes` steady (the heuristic), cautious
    or reckless; `wizard` steady, hoarding (keeps his cards until the heroes threaten a key or
    the tower) or spending (spends every point of mana each turn, cheapest cards first, spells
    at any target). It plays whichever side its seat is on (RULES.md §9, "Play styles")."""

    name = "styled"
    heroes: HeroStyle = "steady"
    wizard: WizardStyle = "steady"

    def __post_init__(self) -> None:
        if self.heroes not in HERO_STYLES:
            raise BadParameter(f"heroes must be one of {', '.join(HERO_STYLES)}, not {self.heroes!r}")
        if self.wizard not in ("steady", "hoarding", "spending"):
            raise BadParameter(f"wizard must be steady, hoarding or spending, not {self.wizard!r}")
        for dial, value in HERO_STYLES[self.heroes].items():
            setattr(self, dial, value)

    def _main(self, st: WizardPosition, legal: list[Act], rng: Chance) -> Act:
        if self.wizard == "spending":
            return _spend(st, legal)
        if self.wizard == "hoarding" and not _hoard_threat(st):
            return _hoard(st, legal)
        return super()._main(st, legal, rng)


def _hoard_threat(st: WizardPosition) -> bool:
    """When a hoarding wizard plays his hand: the heroes are one key from the door, the door is
    open or the rage has begun, a hero stands within 2 steps of a key still hidden (the wizard
    knows where), or his hand has grown past `HOARD_HAND`."""
    if st.keys_found + 1 >= st.params.keys_needed or st.door_open() or st.rage:
        return True
    if len(st.hand) > HOARD_HAND:
        return True
    keys = [sq for sq, c in st.cells.items() if c.key and not c.removed]
    return any(_manhattan(h.pos, k) <= 2 for h in st.living() for k in keys)


def _hoard(st: WizardPosition, legal: list[Act]) -> Act:
    """Without a threat a hoarding wizard plays only Whirlwind on a group (it leaves the game
    when played) and Fireball on a hero at 1 hit point; else he keeps his hand."""
    plays = {a.args[0]: a for a in legal if a.verb == "play"}
    groups = _groups(st)
    if "whirlwind" in plays and groups and max(len(g) for g in groups.values()) >= 2:
        return plays["whirlwind"]
    if "fireball" in plays and any(h.hp <= 1 for h in st.living()):
        return plays["fireball"]
    return next(a for a in legal if a.verb == "end")


def _spend(st: WizardPosition, legal: list[Act]) -> Act:
    """A spending wizard empties his mana every turn: Whirlwind on a group, any other spell at
    any target (Switcheroo where it drops a hero on a monster), then his cheapest monsters and
    traps first, to put the most tokens on the board."""
    plays = {a.args[0]: a for a in legal if a.verb == "play"}
    if not plays:
        return legal[-1]
    groups = _groups(st)
    if "whirlwind" in plays and groups and max(len(g) for g in groups.values()) >= 2:
        return plays["whirlwind"]
    for spell in ("fireball", "frost_bolt"):
        if spell in plays:
            return plays[spell]
    if "switcheroo" in plays and _best_switch(st) is not None:
        return plays["switcheroo"]
    tokens = [k for k in plays if st.content.wizard[k].type != "spell"]
    if tokens:
        return plays[min(tokens, key=lambda k: (st.content.wizard[k].cost,
                                                -len(st.content.wizard[k].tokens()), k))]
    return legal[-1]


@dataclass
class CautiousHeroes(StyledAgent):
    """Cautious heroes (and the heuristic wizard)."""

    name = "cautious"
    heroes: HeroStyle = "cautious"


@dataclass
class RecklessHeroes(StyledAgent):
    """Reckless heroes (and the heuristic wizard)."""

    name = "reckless"
    heroes: HeroStyle = "reckless"


@dataclass
class HoardingWizard(StyledAgent):
    """A hoarding wizard (and the heuristic heroes)."""

    name = "hoarder"
    wizard: WizardStyle = "hoarding"


@dataclass
class SpendingWizard(StyledAgent):
    """A spending wizard (and the heuristic heroes)."""

    name = "spender"
    wizard: WizardStyle = "spending"


BOTS: dict[str, Callable[[], Agent]] = {
    "heuristic": HeuristicAgent, "styled": StyledAgent, "cautious": CautiousHeroes,
    "reckless": RecklessHeroes, "hoarder": HoardingWizard, "spender": SpendingWizard,
}
