"""The hint for a wizard game (`WizardPosition.hint`): the heuristic bot's choice for the player
whose turn it is, and why it is good, in a sentence a player understands (RULES.md §9, "Hints").

The reason is worked out from the same facts and helpers the bot weighed (`bots.py`), and only
from what the asking seat may see: a hero's hint counts face-down tokens, never identifies them;
the wizard's may name his own hidden monsters and keys (only he is shown his hint).
"""

from __future__ import annotations

from playtable.core.chance import Chance
from playtable.core.words import plural
from playtable.games.wizard import board
from playtable.games.wizard.actions import Act
from playtable.games.wizard.board import Square
from playtable.games.wizard.bots import (
    HeuristicAgent,
    _best_switch,
    _destination,
    _door_threat,
    _fireball_kills,
    _fireballs_payable,
    _groups,
    _manhattan,
    _party_strength,
    _party_target,
    _waits_for_party,
    fight_at_hand,
    fight_odds,
    tower_odds,
)
from playtable.games.wizard.content import kind_of
from playtable.games.wizard.position import Hero, WizardPosition

HINT_SEED = 0
"""The bot breaks its ties with this seed, so a position always gets the same hint."""


def hint(st: WizardPosition) -> tuple[Act, str] | None:
    """(the suggested action, "action: why") for the player to act, or None at the end."""
    if st.is_terminal or not st.legal_actions():
        return None
    act: Act = HeuristicAgent().choose(st, Chance(HINT_SEED))
    kind = str(st.decision.get("kind", ""))
    if len(st.legal_actions()) == 1:
        why = "it is the only move there is now."
    elif kind in _HERO_KINDS:
        why = _why_hero(st, act, kind)
    else:
        why = _why_wizard(st, act, kind)
    return act, f"{_in_words(st, act)}. Why: {why}"


_HERO_KINDS = frozenset({"start", "commit", "boost", "keep"})


def _in_words(st: WizardPosition, act: Act) -> str:
    """`use health_potion` -> `use Health Potion`, `hero2` -> `hero 2`: players read names, never
    ids (the content's names, as the observation gives them to every front end)."""
    names = st.content.names()
    return " ".join([act.verb, *(names.get(arg, f"hero {arg[4:]}" if arg.startswith("hero") else arg)
                                 for arg in act.args)])


def _percent(p: float) -> str:
    return f"{round(100 * p)}%"


# -- the heroes ------------------------------------------------------------------------------
def _why_hero(st: WizardPosition, act: Act, kind: str) -> str:
    if kind == "start":
        return "this corner is the nearest to the tower's entrance, where the heroes must end up."
    h = st.hero(int(st.decision["seat"]))
    if kind == "boost":
        return _why_boost(st, act)
    if kind == "keep":
        card = st.content.loot[act.args[0]]
        return f"of the cards drawn, {card.name} improves you the most."
    if act.verb == "use":
        return (f"you are down to {plural(h.hp, 'hit point')}: heal before the next fight, which could "
                f"otherwise kill you.")
    if act.verb == "give":
        card = st.content.loot[act.args[0]]
        return (f"{card.name} is spare for you but raises Hero {act.args[1][4:]}'s fighting "
                f"bonus: the party fights with the best die and all its swords.")
    return _why_move(st, h, act)


def _why_move(st: WizardPosition, h: Hero, act: Act) -> str:
    dest = _destination(st, h.pos, act)
    strength = _party_strength(st)
    if dest == st.tower:
        p = tower_odds(st, h, strength)
        return (f"beating the tower's monsters wins the game, and the heroes here win that fight "
                f"about {_percent(p)} of the time; waiting only lets the wizard add more.")
    target = _party_target(st, h.pos if HeuristicAgent.own_target else None)
    if act.verb == "stay":
        if _waits_for_party(st, h):
            return ("wait at the open tower door for the rest of the party: the tower's fight is "
                    "one roll for all of you, with the best die and every sword.")
        return "every step from here is worse: each one leads into a fight you would likely lose."
    goal = _goal(st, target)
    odds = fight_odds(st, h, dest, strength)
    fight = ("" if odds is None else
             f"; the tokens on {board.name(dest)} mean a fight the heroes win about "
             f"{_percent(odds[0])} of the time")
    return f"{goal}{fight}."


def _goal(st: WizardPosition, target: Square | None) -> str:
    """Why the party heads for `target` (bots._party_target's order), from public facts."""
    if target is None:
        return "it is the best step"
    where = board.name(target)
    cell = st.cells[target]
    if cell.keys:
        return f"the keys a fallen hero dropped lie on {where}: the party needs them for the door"
    if cell.flipped and cell.key:
        return f"a key lies on {where}: two keys open the tower door"
    if st.door_open() and target == st.entrance_square():
        return f"the tower door is open: head for its entrance, {where}"
    if not cell.flipped:
        return (f"this step heads for {where}, the nearest room still face down: turning it gives loot "
                f"and may give a key")
    return f"every room is explored: head for the tower's entrance, {where}"


def _why_boost(st: WizardPosition, act: Act) -> str:
    sq, p = fight_at_hand(st)
    if act.verb == "boost":
        name = st.content.loot[act.args[0]].name
        if sq == st.tower:
            return f"the tower's fight decides the game: play {name} and every bonus you have."
        return f"without {name} the heroes win this fight only {_percent(p)} of the time."
    return (f"the heroes already win this fight {_percent(p)} of the time: keep your bonuses "
            f"for a harder one.")


# -- the wizard ------------------------------------------------------------------------------
def _why_wizard(st: WizardPosition, act: Act, kind: str) -> str:
    if kind == "main":
        return _why_main(st, act)
    if kind == "place":
        return _why_place(st, act)
    if kind == "spell":
        return _why_spell(st, act)
    square = board.parse_square(act.args[0], st.size) if act.args and kind in (
        "key", "rage", "retreat", "send") else None
    if kind == "key" and square is not None:
        return "far from every corner where the heroes may start, and apart from the other keys."
    if kind == "rage" and square is not None:
        return "tearing this tile out makes the heroes' way to the tower the longest."
    if kind in ("retreat", "send") and square is not None:
        return ("it puts the hero on your monsters or far from the tower's entrance: he must "
                "fight again or walk back.")
    if kind == "opening":
        return "send back the dearest card: cheap cards are what you can pay for early on."
    if kind == "discard":
        card = st.content.wizard[act.args[0]]
        return (f"{card.name} is the card you can least use soon (your wheel is at {st.wheel}).")
    return "here every choice is as good as another."


def _why_main(st: WizardPosition, act: Act) -> str:
    if act.verb == "end":
        return "nothing left in your hand is worth its mana now: keep the cards for later."
    card = act.args[0]
    groups = _groups(st)
    together = max((len(g) for g in groups.values()), default=0)
    if card == "whirlwind":
        return (f"{together} heroes stand together: Whirlwind blows them apart and leaves two "
                f"level-5 monsters where they stood.")
    if card == "fireball":
        if _fireball_kills(st, _fireballs_payable(st)):
            return ("the Fireballs you can pay for this turn kill a hero: you win by killing "
                    "every hero.")
        if together >= 2:
            return f"{together} heroes stand on one tile: Fireball hurts each of them."
        return ("no monster or trap you hold can be paid for or finds room, and mana left "
                "unspent is lost: burn a hero with it.")
    if card == "frost_bolt":
        if _door_threat(st):
            return ("the tower door is open and heroes are near its entrance: freezing them "
                    "costs them a turn.")
        return f"{together} heroes stand together: freezing them all costs the party a turn."
    if card == "switcheroo":
        best = _best_switch(st)
        where = best[1] if best else "a tile"
        return f"it drops a hero onto your strongest hidden monster, on {where}, where he must fight."
    name = st.content.wizard[card].name
    return (f"of the monsters and traps you can place now, {name} is the dearest your "
            f"{st.mana} mana pays for: every token you place is a fight or a decoy in the heroes' "
            f"way.")


def _why_place(st: WizardPosition, act: Act) -> str:
    token, sq = act.args[0], board.parse_square(act.args[1], st.size)
    keys = {s for s, c in st.cells.items() if c.key and not c.removed}
    near = min((_manhattan(sq, h.pos) for h in st.living()), default=9)
    if token.startswith("m"):
        if sq == st.tower:
            return "the tower is the heroes' last fight: every monster there guards your victory."
        if sq in keys:
            return "a key is still hidden under this tile: guard it."
        if any(_manhattan(sq, k) == 1 for k in keys):
            return "this tile is next to a hidden key: guard the way to it."
        if near <= 2:
            return "a hero is about to step here: make him fight."
        return "it stands in the heroes' way to the rooms they have not explored."
    if token == "trap":
        return ("a hero is likely to step here next: a trap costs him 2 hit points when he "
                "fails his save.")
    return ("a decoy near the heroes: they cannot tell a face-down blank from a monster, so it "
            "slows them down.")


def _why_spell(st: WizardPosition, act: Act) -> str:
    if act.verb == "switch":
        return f"Hero {act.args[0][4:]} lands on your monster on {act.args[1]} and must fight it."
    sq = board.parse_square(act.args[0], st.size)
    here = st.heroes_at(sq)
    if kind_of(str(st.decision.get("card", ""))) == "fireball":
        burns = 1 + _fireballs_payable(st)
        dying = [h for h in here if h.hp <= burns]
        if dying:
            return (f"Hero {dying[0].seat} has {plural(dying[0].hp, 'hit point')} left: your "
                    f"Fireballs finish him.")
    if len(here) > 1:
        return f"{len(here)} heroes stand there: the spell hits them all."
    return "the hero there is the most dangerous to you: nearest the tower, or holding keys."
