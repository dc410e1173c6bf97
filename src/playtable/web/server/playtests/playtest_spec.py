"""What a playtest with people is: its settings, its questionnaire, its schedule of
deals, and the checks on a tester's answers.

A designer (the server's operator) makes a playtest with `playtable playtest-online create`; no
route creates one, so strangers cannot. Still every setting is bounded here as if a stranger had
sent it (the hostile-client rules of docs/web.md): a known game, 1-4 of its named variants (or
`default`, its default rules), 1-2,000 games, seats each a person or a bot whose options are
declared and in bounds (`agents.check_remote_agent_spec`), at most 8 questions of bounded
length, and no path anywhere.

**Seats** (`seats`, one a seat): `person` for a tester, an agent spec for a bot; bots in some
seats or none (the default: every seat a person). The first tester to take a slot opens its
table at the first person seat, and the slot's other person seats are kept for the playtest
(reserved: never in the Open list, no stranger takes them); the next testers are seated there
before any new slot is opened, so people meet at one table as soon as enough have come. The
lab's `win` is seat 0's whoever sits there: a person's row and a bot's row of the same seats
and deal mean the same thing.

**The schedule** pairs deals across variants in permuted blocks: the games are cut into deals
(`games / len(variants)` of them, seeds `first_seed`, `first_seed + 1`, ...); each deal is one
block holding every variant once, in a random order. Testers take the slots in order, so at any
moment the variants' counts differ by at most one, every deal is played under every variant,
and which variant the next tester gets is not known in advance. A tester never gets a deal they
have already played (they would know it).
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from playtable.agents import PERSON, check_remote_agent_spec
from playtable.core.errors import BadParameter, PlaytableError
from playtable.core.params import resolve_params
from playtable.core.registry import game_ids, get_game

DEFAULT_RULES = "default"
"""The variant name of a game's default rules (as `sim` labels them)."""
MAX_VARIANTS = 4
MAX_GAMES = 2000
MAX_QUESTIONS = 8
MAX_PROMPT = 200
MAX_LABEL = 40
MAX_TITLE = 100
MAX_TEXT_ANSWER = 500
MAX_AGENT = 200
SCALE = (1, 5)
"""Every scale question is answered 1-5 (the labels say what its ends mean)."""
QUESTION_KINDS = ("scale", "text")
QUESTION_ID = re.compile(r"[a-z][a-z0-9_]{0,19}")
PLAYTEST_ID = re.compile(r"[A-Za-z0-9_-]{12}")
"""`secrets.token_urlsafe(9)`: unguessable, so the link is the invitation."""


def new_playtest_id() -> str:
    """A new playtest's id (`PLAYTEST_ID`) that does not begin with '-': the designer types it as
    a command's argument (`playtable playtest-online export ID`), where one that did would be
    read as an option (one playtest in 64 could not be exported without `--`)."""
    while True:
        playtest_id = secrets.token_urlsafe(9)
        if not playtest_id.startswith("-"):
            return playtest_id


@dataclass(frozen=True)
class Question:
    id: str
    kind: str
    """"scale" (1-5) or "text" (free text of at most MAX_TEXT_ANSWER characters)."""
    prompt: str
    low: str = ""
    """What 1 means on a scale."""
    high: str = ""
    """What 5 means on a scale."""


DEFAULT_QUESTIONS = (
    Question("fun", "scale", "Was it fun?", "not at all", "great fun"),
    Question("hard", "scale", "How hard was it?", "far too easy", "far too hard"),
    Question("long", "scale", "How long did it feel?", "far too short", "far too long"),
    Question("confused", "text", "What confused you, if anything?"),
)
"""The seeds' own questions: their playtest reports are about fun, difficulty, length and what
testers did not understand ("knocking dice is really difficult")."""


@dataclass(frozen=True)
class PlaytestSpec:
    game: str
    variants: tuple[str, ...]
    games: int
    first_seed: int
    seats: tuple[str, ...]
    """Each seat's player: `PERSON` (a tester) or a bot's agent spec."""
    questions: tuple[Question, ...]
    title: str = ""

    @property
    def deals(self) -> int:
        return self.games // len(self.variants)

    @property
    def people_seats(self) -> tuple[int, ...]:
        return tuple(k for k, agent in enumerate(self.seats) if agent == PERSON)

    @property
    def bots(self) -> tuple[str, ...]:
        return tuple(agent for agent in self.seats if agent != PERSON)

    def table_request(self, variant: str, seed: int) -> dict[str, Any]:
        """The body of a new table of this playtest (checked again by `row_from_request`): the
        first person seat is the creating tester's, the other person seats kept for the
        playtest's next testers."""
        first = self.people_seats[0]
        seats: list[dict[str, Any]] = [
            {"kind": "human", "reserved": True, **({"mine": True} if k == first else {})}
            if agent == PERSON else {"kind": "bot", "agent": agent}
            for k, agent in enumerate(self.seats)]
        return {"game": self.game, "variant": None if variant == DEFAULT_RULES else variant,
                "seed": seed, "seats": seats}

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlaytestSpec:
        # Playtests stored before several people could share a table kept `bots`, the seats
        # after the person's at seat 0.
        seats = data["seats"] if "seats" in data else [PERSON, *data["bots"]]
        return cls(data["game"], tuple(data["variants"]), data["games"], data["first_seed"],
                   tuple(seats), tuple(Question(**q) for q in data["questions"]),
                   data.get("title", ""))


def _text(value: Any, what: str, most: int, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise BadParameter(f"{what} must be text")
    cleaned = value.strip()
    if (not cleaned and not empty) or len(cleaned) > most or not cleaned.isprintable():
        raise BadParameter(f"{what} must be {'0' if empty else '1'} to {most} printable characters "
                           "(no line breaks)")
    return cleaned


def parse_question(text: str) -> Question:
    """`ID:scale:PROMPT[:LOW:HIGH]` or `ID:text:PROMPT` (the CLI's --question)."""
    parts = text.split(":")
    if len(parts) not in (3, 5) or parts[1] not in QUESTION_KINDS or (parts[1] == "text" and len(parts) == 5):
        raise BadParameter(f"--question {text[:60]!r}: write ID:scale:PROMPT[:LOW:HIGH] or ID:text:PROMPT")
    low, high = (parts[3], parts[4]) if len(parts) == 5 else ("", "")
    return Question(parts[0], parts[1], parts[2], low, high)


def check_spec(game: Any, variants: Sequence[Any], games: Any, first_seed: Any, seats: Sequence[Any] | None,
               questions: Sequence[Question], title: Any = "") -> PlaytestSpec:
    """A playtest's settings, each checked and bounded; BadParameter names the first wrong.
    `seats`: each seat's `PERSON` or bot spec; None (or empty) is a person at every seat."""
    if not isinstance(game, str) or game not in game_ids():
        raise BadParameter(f"unknown game {str(game)[:40]!r} (known: {', '.join(game_ids())})")
    the_game = get_game(game)
    known = [DEFAULT_RULES, *the_game.variants]
    if not 1 <= len(variants) <= MAX_VARIANTS or len(set(variants)) != len(variants):
        raise BadParameter(f"give 1 to {MAX_VARIANTS} different variants")
    for name in variants:
        if name not in known:
            raise BadParameter(f"{the_game.name} has no variant {str(name)[:40]!r} "
                               f"(known: {', '.join(known)})")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES \
            or games % len(variants):
        raise BadParameter(f"the number of games must be 1 to {MAX_GAMES} and a multiple of the "
                           f"number of variants ({len(variants)}): each deal is played under each")
    if isinstance(first_seed, bool) or not isinstance(first_seed, int) \
            or not 0 <= first_seed <= 2**62 - MAX_GAMES:
        raise BadParameter("the first seed must be a whole number from 0 to 2^62")
    counts = set()
    for name in variants:
        params = resolve_params(the_game.params_type, the_game.variants,
                                None if name == DEFAULT_RULES else name)
        counts.add(the_game.num_players(params))
    if len(counts) != 1:
        raise BadParameter("the variants have different numbers of seats: compare variants of one size")
    (size,) = counts
    seats = list(seats or [PERSON] * size)
    if len(seats) != size:
        raise BadParameter(f"{the_game.name} has {size} seat(s): give each one's player ({PERSON} for a "
                           f"tester, or a bot), not {len(seats)}")
    if PERSON not in seats:
        raise BadParameter(f"a playtest with people needs at least one {PERSON} seat")
    for agent in seats:
        if not isinstance(agent, str) or len(agent) > MAX_AGENT:
            raise BadParameter("a seat is 'person' or an agent spec of at most 200 characters")
        if agent == PERSON:
            continue
        try:
            check_remote_agent_spec(the_game, agent)
        except PlaytableError as err:
            raise BadParameter(str(err)) from None
    if not 1 <= len(questions) <= MAX_QUESTIONS:
        raise BadParameter(f"give 1 to {MAX_QUESTIONS} questions")
    checked = []
    for q in questions:
        if not isinstance(q.id, str) or not QUESTION_ID.fullmatch(q.id):
            raise BadParameter(f"question id {str(q.id)[:30]!r}: a-z first, then a-z, 0-9 or _, at most 20")
        if q.kind not in QUESTION_KINDS:
            raise BadParameter(f"question {q.id}: the kind must be scale or text")
        checked.append(Question(q.id, q.kind, _text(q.prompt, f"question {q.id}'s prompt", MAX_PROMPT),
                                _text(q.low, f"question {q.id}'s low label", MAX_LABEL, empty=True),
                                _text(q.high, f"question {q.id}'s high label", MAX_LABEL, empty=True)))
    if len({q.id for q in checked}) != len(checked):
        raise BadParameter("two questions have the same id")
    return PlaytestSpec(game, tuple(variants), games, first_seed, tuple(seats), tuple(checked),
                        _text(title, "the title", MAX_TITLE, empty=True))


def schedule(spec: PlaytestSpec, rng: random.Random) -> list[tuple[str, int]]:
    """(variant, seed) of every slot in the order testers take them: one block per deal, each
    variant once in it, in `rng`'s order (see the module's docstring)."""
    slots = []
    for deal in range(spec.deals):
        order = list(spec.variants)
        rng.shuffle(order)
        slots += [(variant, spec.first_seed + deal) for variant in order]
    return slots


class BadAnswers(PlaytableError):
    """Answers that do not fit the questionnaire."""


def check_answers(questions: Sequence[Question], answers: Any) -> dict[str, Any]:
    """A tester's answers: an object of question id to a whole number 1-5 (scale), text of at
    most MAX_TEXT_ANSWER characters (line breaks allowed, no other control character), or null
    (not answered); every question of the questionnaire is in the result (None if skipped)."""
    if not isinstance(answers, dict):
        raise BadAnswers("'answers' must be an object of question id to answer")
    by_id = {q.id: q for q in questions}
    unknown = sorted(set(answers) - set(by_id))
    if unknown:
        raise BadAnswers(f"no question '{str(unknown[0])[:30]}' (known: {', '.join(by_id)})")
    out: dict[str, Any] = {}
    for q in questions:
        value = answers.get(q.id)
        if value is None or value == "":
            out[q.id] = None
        elif q.kind == "scale":
            if isinstance(value, bool) or not isinstance(value, int) or not SCALE[0] <= value <= SCALE[1]:
                raise BadAnswers(f"'{q.id}' is answered with a whole number from {SCALE[0]} to {SCALE[1]}")
            out[q.id] = value
        else:
            if not isinstance(value, str) or len(value) > MAX_TEXT_ANSWER \
                    or not value.replace("\n", " ").isprintable():
                raise BadAnswers(f"'{q.id}' is answered with text of at most {MAX_TEXT_ANSWER} "
                                 "characters (no control characters)")
            out[q.id] = value.strip() or None
    return out
