"""Each game's own mutations for `position_mutations`: every one breaks an invariant that the
game's rules rely on (RULES.md of each game), so its loader must refuse the result."""

from __future__ import annotations

import math
import random
from typing import Any

from tests.games.position_mutations import Mutation, Position

COLS = "ABCDEFGHIJ"


# -- rigged chance (troll, Star Dice, wizard) --------------------------------------------------------
def bad_rig(data: Position, rng: random.Random) -> Position | None:
    """A rigged queue the game never draws from, or a value it can never draw (a d6 showing 7,
    a d20 showing 0, a card that is not in the game)."""
    queue, value = rng.choice([("no_such_queue", 1), ("d6", 7), ("d6", 0), ("d20", 21),
                               ("d6", True), ("wizard_draw", "dragon.99"), ("loot_draw", "x")])
    data["chance"].setdefault("rigged", {}).setdefault(queue, []).append(value)
    return data


# -- Rotator ---------------------------------------------------------------------------------------
def _cell(row: int, col: int) -> str:
    return f"{COLS[col]}{row + 1}"


def rotator_player_in_rock(data: Position, rng: random.Random) -> Position | None:
    """The player inside solid rock (a space that has collapsed or was never opened)."""
    if data["phase"] not in ("drill", "start") or data["player"] is None:
        return None
    rocks = [(r, c) for r, row in enumerate(data["solid"]) for c, ch in enumerate(row) if ch == "#"]
    r, c = rng.choice(rocks)
    data["player"] = _cell(r, c)
    return data


def rotator_player_floating(data: Position, rng: random.Random) -> Position | None:
    """Drilling from a space over open air (the fall would have gone on; the space under the
    player has fallen away), rule 7."""
    if data["phase"] != "drill":
        return None
    down = [(1, 0), (0, 1), (-1, 0), (0, -1)][(data["turn"] - 1) % 4]
    spots = []
    for r, row in enumerate(data["ages"]):
        for c, ch in enumerate(row):
            rr, cc = r + down[0], c + down[1]
            if ch != "-" and 0 <= rr < 20 and 0 <= cc < 10 and data["solid"][rr][cc] == ".":
                spots.append((r, c))
    if not spots:
        return None
    data["player"] = _cell(*rng.choice(spots))
    return data


def rotator_numbers(data: Position, rng: random.Random) -> Position | None:
    key, value = rng.choice([("turn", 0), ("turn", -3), ("turn", 10**6), ("boosts_left", -1),
                             ("boosts_left", 11), ("turn", True), ("boosts_left", 2.5)])
    data[key] = value
    return data


def rotator_phase(data: Position, rng: random.Random) -> Position | None:
    data["phase"] = rng.choice(["falling", "START", None, 1])
    return data


def _repaint(data: Position, find: tuple[str, str], paint: tuple[str, str],
             rng: random.Random) -> Position:
    """Pick a cell showing find[1] in the rows data[find[0]]; write one of paint[1] there in
    the rows data[paint[0]]."""
    rows, wanted = data[find[0]], find[1]
    r, c = rng.choice([(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                       if ch == wanted])
    row = data[paint[0]][r]
    data[paint[0]][r] = row[:c] + rng.choice(paint[1]) + row[c + 1:]
    return data


def rotator_touched_rock(data: Position, rng: random.Random) -> Position | None:
    """A solid space marked as touched (touched spaces are open, rule 7)."""
    return _repaint(data, ("solid", "#"), ("ages", "012"), rng)


def rotator_choices(data: Position, rng: random.Random) -> Position | None:
    """A start square outside the top row or the captured node's territory (rules 6, 12)."""
    if data["phase"] != "start":
        return None
    data["choices"] = list(data["choices"]) + [rng.choice(["A20", "J20", "E15", "B11"])]
    return data


def rotator_board(data: Position, rng: random.Random) -> Position | None:
    """A node moved or removed: the board breaks a placement rule (rules 2-5)."""
    return _repaint(data, ("board", "@"), ("board", "#."), rng)


ROTATOR: list[Mutation] = [bad_rig, rotator_player_in_rock, rotator_player_floating, rotator_numbers,
                           rotator_phase, rotator_touched_rock, rotator_choices, rotator_board]


# -- Star Dice -------------------------------------------------------------------------------------
SIDES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12, "d20": 20}


def _all_dice(data: Position) -> list[str]:
    return [d for hand in data["hands"] for d in hand] + [p["id"] for p in data["table"]] + list(
        data["eliminated"])


def stardice_die_twice(data: Position, rng: random.Random) -> Position | None:
    """A die in two places, or twice in one (hand, table, eliminated)."""
    dice = [d for d in _all_dice(data) if d != "borg" and ".t" not in d]
    if not dice:
        return None
    die = rng.choice(dice)
    where = rng.choice(["hand", "eliminated", "table"])
    if where == "hand":
        data["hands"][0 if die.startswith("F.") else 1].append(die)
    elif where == "eliminated":
        data["eliminated"].append(die)
    else:
        data["table"].append({"id": die, "x": 0.5, "y": 0.3, "angle": 0.0})
    return data


def stardice_die_missing(data: Position, rng: random.Random) -> Position | None:
    """A die gone from hand without being on the table or eliminated."""
    hands = [(s, i) for s, hand in enumerate(data["hands"]) for i in range(len(hand))]
    if not hands:
        return None
    seat, i = rng.choice(hands)
    del data["hands"][seat][i]
    return data


def stardice_value(data: Position, rng: random.Random) -> Position | None:
    """A die on the table showing a face it does not have (a d6 showing 7)."""
    dice = [k for k in data["values"] if k != "borg" and k != "blank"]
    if not dice:
        return None
    die = rng.choice(dice)
    kind = die.split(".", 1)[1].rstrip("abcdefghijklmnopqrstuvwxyz")
    data["values"][die] = rng.choice([0, -1, SIDES.get(kind, 6) + 1, 1000])
    return data


def stardice_position(data: Position, rng: random.Random) -> Position | None:
    """A piece at a place no piece can be: not a finite number, or far off the table."""
    if not data["table"]:
        return None
    piece = rng.choice(data["table"])
    piece[rng.choice(["x", "y"])] = rng.choice([math.inf, -math.inf, math.nan, 50.0, -9.0, 1e308])
    return data


def stardice_counts(data: Position, rng: random.Random) -> Position | None:
    """Counters out of range: torpedoes, seats, battles, war points, throws."""
    torpedoes = data["params"].get("torpedoes", 0)
    options: list[tuple[str, Any]] = [
        ("torpedoes_left", [-1, 0]), ("torpedoes_left", [torpedoes + 1, 0]),
        ("torpedoes_used", [-1, 0]), ("to_move", 2), ("to_move", -1), ("borg_roller", 7),
        ("battle", 0), ("battle", -4), ("war", [-5, 0]), ("war", [0]), ("throws", -1),
        ("rethrows", -1), ("rethrows", 99), ("clock", -1.0), ("borg_face", 99),
        ("battle_points", [[1, 2]] * (int(data["battle"]) + 3)),
    ]
    key, value = rng.choice(options)
    data[key] = value
    return data


def stardice_phase(data: Position, rng: random.Random) -> Position | None:
    """A phase that contradicts the rest: an unknown one, a winner while play goes on, a game
    over without a result, an opening roll without the Borg die."""
    choice = rng.randrange(4)
    if choice == 0:
        data["phase"] = rng.choice(["scoring", "", None])
    elif choice == 1 and data["phase"] != "over":
        data["winner"] = rng.choice([0, 1])
    elif choice == 2:
        data["phase"], data["winner"], data["draw"] = "over", None, False
    elif choice == 3 and not data["params"].get("use_borg", True):
        data["phase"] = rng.choice(["call", "borg"])
    else:
        data["winner"] = rng.choice([2, -1, "F"])
    return data


def stardice_foreign_die(data: Position, rng: random.Random) -> Position | None:
    """A piece that is not in the game: another player's die in a hand, an unknown name."""
    seat = rng.randrange(2)
    data["hands"][seat].append(rng.choice(["K.d20a" if seat == 0 else "F.d20a", "F.d100a",
                                           "X.d6a", "borg"]))
    return data


STARDICE: list[Mutation] = [bad_rig, stardice_die_twice, stardice_die_missing, stardice_value,
                            stardice_position, stardice_counts, stardice_phase,
                            stardice_foreign_die]

# -- troll -----------------------------------------------------------------------------------------
def _troll_lists(data: Position) -> list[list[str]]:
    out = [stack for row in ("lower", "upper") for stack in data["bridge"][row]]
    out += [data["deck"], data["set_aside"], data["carried"], data["flight_stacks"]["lower"],
            data["flight_stacks"]["upper"]]
    return out


def troll_card_twice(data: Position, rng: random.Random) -> Position | None:
    """A card in two places (seed 000 §3: one deck of 52 cards)."""
    lists = _troll_lists(data)
    card = rng.choice([c for cards in lists for c in cards])
    rng.choice(lists[:12] + lists[12:13]).append(card)
    return data


def troll_card_missing(data: Position, rng: random.Random) -> Position | None:
    lists = [cards for cards in _troll_lists(data) if cards]
    cards = rng.choice(lists)
    del cards[rng.randrange(len(cards))]
    return data


def troll_unknown_card(data: Position, rng: random.Random) -> Position | None:
    lists = [cards for cards in _troll_lists(data) if cards]
    cards = rng.choice(lists)
    cards[rng.randrange(len(cards))] = rng.choice(["1H", "11S", "KX", "", "A", 7])
    return data


def troll_standing(data: Position, rng: random.Random) -> Position | None:
    """The troll off the bridge, or on an empty slot while the game goes on (§6)."""
    if rng.random() < 0.5:
        data["troll"] = rng.choice([{"row": "lower", "position": 0}, {"row": "upper", "position": 7},
                                    {"row": "middle", "position": 3}, {"row": "lower"}])
        return data
    if data["outcome"] is not None:
        return None
    row, pos = data["troll"]["row"], data["troll"]["position"]
    stack = data["bridge"][row][pos - 1]
    data["deck"].extend(stack)
    stack.clear()
    return data


def troll_counters(data: Position, rng: random.Random) -> Position | None:
    """Actions left and turns out of range, a stat below zero, an outcome that is no outcome."""
    key, value = rng.choice([("actions_left", 3), ("actions_left", -1), ("turn", -1),
                             ("turn", True), ("actions_left", 1.0), ("outcome", "draw"),
                             ("lower_colour", "green")])
    if key == "actions_left" and data["outcome"] is not None and value == 3:
        value = -1
    data[key] = value
    if rng.random() < 0.3:
        data["stats"][rng.choice(list(data["stats"]))] = rng.choice([-1, 2.5, "many"])
    return data


def troll_face_up(data: Position, rng: random.Random) -> Position | None:
    """A card face up that is not on the bridge or in the troll's hands, or face up but never
    seen (a face-up card is seen, §6.2)."""
    hidden = data["deck"] + data["set_aside"]
    if rng.random() < 0.5 and hidden:
        data["face_up"].append(rng.choice(hidden))
        return data
    if not data["face_up"]:
        return None
    card = rng.choice(data["face_up"])
    data["seen"] = [c for c in data["seen"] if c != card]
    return data


def troll_carried(data: Position, rng: random.Random) -> Position | None:
    """Three cards in the troll's hands (two only with the toys variant, §4.1)."""
    bricks = [(row, i) for row in ("lower", "upper") for i, st in enumerate(data["bridge"][row])
              if len(st) > 1]
    need = 3 - len(data["carried"])
    if len(bricks) < need:
        return None
    for row, i in rng.sample(bricks, need):
        data["carried"].append(data["bridge"][row][i].pop(0))
    return data


TROLL: list[Mutation] = [bad_rig, troll_card_twice, troll_card_missing, troll_unknown_card, troll_standing,
                         troll_counters, troll_face_up, troll_carried]


# -- the wizard game ---------------------------------------------------------------------------------
WIZARD_LISTS = ("hand", "deck", "discard", "out", "offered")
LOOT_LISTS = ("loot_deck", "loot_discard")


def wizard_card_twice(data: Position, rng: random.Random) -> Position | None:
    """A wizard or loot card in two places (8 Nov "Components": one deck of each)."""
    names = WIZARD_LISTS if rng.random() < 0.5 else LOOT_LISTS
    cards = [c for key in names for c in data[key]]
    if not cards:
        return None
    data[rng.choice(names)].append(rng.choice(cards))
    return data


def wizard_card_missing(data: Position, rng: random.Random) -> Position | None:
    lists = [key for key in WIZARD_LISTS + LOOT_LISTS + ("unused_tiles",) if data[key]]
    key = rng.choice(lists)
    del data[key][rng.randrange(len(data[key]))]
    return data


def wizard_hero(data: Position, rng: random.Random) -> Position | None:
    """A hero with hit points out of range, alive at 0 hp or dead above it, negative keys."""
    hero = rng.choice(data["heroes"])
    key, value = rng.choice([("hp", -5), ("hp", 11), ("hp", 2.5), ("keys", -1), ("gives", -1),
                             ("alive", "yes"), ("hp", True)])
    if key == "hp" and value == 11 and not hero["alive"]:
        value = -5
    hero[key] = value
    if rng.random() < 0.3:
        hero["alive"], hero["hp"] = (not hero["alive"], hero["hp"]) if hero["hp"] in (0, 10) else (
            hero["alive"], -1)
    return data


def wizard_counters(data: Position, rng: random.Random) -> Position | None:
    """Mana below zero or off the wheel, tokens or keys that do not add up."""
    key, value = rng.choice([("mana", -3), ("mana", 99), ("wheel", 0), ("wheel", 21),
                             ("tokens_placed", data["tokens_placed"] + 1), ("tokens_gone", -1),
                             ("keys_found", data["keys_found"] + 1), ("round", -1),
                             ("batches", -2), ("rage", 1)])
    data[key] = value
    return data


def wizard_decision(data: Position, rng: random.Random) -> Position | None:
    """A decision the rules do not know, or with fields of another kind (tokens given during a
    movement choice), or for the wrong seat, or none while the game runs."""
    if data["winner"]:
        data["decision"] = {"kind": "main", "seat": 0}
        return data
    decision = data["decision"]
    choice = rng.randrange(5)
    if choice == 0:
        decision["kind"] = rng.choice(["dance", "", "Commit", None, 3])
    elif choice == 1:
        decision["tokens"] = ["m3", "trap"] if "tokens" not in decision else ["m9"]
    elif choice == 2:
        decision["seat"] = rng.choice([data["params"].get("players", 4), -1, "0", None])
    elif choice == 3:
        data["decision"] = {}
    else:
        data["steps"].append({"do": rng.choice(["teleport", "", None])})
    return data


def wizard_token(data: Position, rng: random.Random) -> Position | None:
    """A token of no known kind on the board, or a token lying there that was never placed."""
    cells = [c for c in data["cells"] if c["tile"]]
    cell = rng.choice(cells)
    if rng.random() < 0.5:
        cell["tokens"].append([rng.choice(["m6", "dragon", "m0"]), False, 1])
    else:
        cell["tokens"].append(["m2", False, 1])
    return data


WIZARD: list[Mutation] = [bad_rig, wizard_card_twice, wizard_card_missing, wizard_hero, wizard_counters,
                          wizard_decision, wizard_token]


GAME_MUTATIONS: dict[str, list[Mutation]] = {
    "troll": TROLL,
    "rotator": ROTATOR,
    "stardice": STARDICE,
    "wizard": WIZARD,
}
