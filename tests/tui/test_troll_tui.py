"""The troll terminal app and the games menu, driven through Textual's test pilot.

Keys are read off the app's own list of options (what a player sees), pressed, and checked
against a reference state that gets the same action through the protocol.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tests.games.troll.helpers import FULL_UPPER, position
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from playtable.core.chance import Chance
from playtable.core.protocol import State
from playtable.core.registry import get_game
from playtable.tui import menu as menu_module
from playtable.tui.confirm_screen import ConfirmScreen
from playtable.tui.menu import MenuApp, app_factory, menu_entries
from playtable.tui.troll import TrollApp, make_app
from playtable.tui.troll_screens import EndScreen, HelpScreen

GAME = get_game("troll")
ARROW_KEYS = {"←": "left", "→": "right", "↑": "up", "↓": "down"}


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


def plain(widget: Static) -> str:
    content = widget.content
    return content.plain if hasattr(content, "plain") else str(content)


def shown_options(app: TrollApp) -> list[tuple[str, str]]:
    """(action text, the line shown) for every option in the list."""
    options = app.query_one("#actions", OptionList)
    out = []
    for i in range(options.option_count):
        option = options.get_option_at_index(i)
        prompt: Any = option.prompt
        out.append((str(option.id), prompt.plain if hasattr(prompt, "plain") else str(prompt)))
    return out


def keys_of(line: str) -> list[str]:
    """The keys printed at the start of an option line: 'p → pick up 7♣' -> ['p', 'right']."""
    keys: list[str] = []
    for token in line.split():
        if len(token) > 2:
            break
        keys.extend(ARROW_KEYS.get(ch, ch) for ch in token)
    return keys


async def play_through_keys(app: TrollApp, pilot: Pilot[Any], choose: Callable[[list[str]], str],
                            max_steps: int = 3000) -> int:
    """Play until the end, each action by the keys the list shows for it; check every step
    against a reference state given the same action through the protocol."""
    reference = GAME.new_state(app.params, app.seed)
    steps = 0
    while not app.state.is_terminal:
        options = shown_options(app)
        assert sorted(text for text, _ in options) == sorted(app.legal_texts())
        text = choose(app.legal_texts())
        line = dict(options)[text]
        await pilot.press(*keys_of(line))
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):  # a warned action (it may lose): say yes
            assert app.state.action_warning(app.state.parse_action(text)) == app.screen.question
            await pilot.press("y")
            await pilot.pause()
        reference.apply(reference.parse_action(text))
        assert app.state.to_json() == reference.to_json(), f"keys {keys_of(line)} did not play {text}"
        steps += 1
        assert steps < max_steps
    return steps


def opening() -> State:
    """A known opening whatever the random stream: the troll on lower 1, 10♦ awake on lower 2."""
    lower = ["2C 3C 4C", "5C 10D", "7C", "8C", "9C 10C", "JC QC KC"]
    return position(lower, FULL_UPPER, troll="lower 1", awake=("10D",), deck=("2H", "3H", "4H"),
                    d6=(3, 3, 3))


def test_arrow_key_moves_the_troll_and_the_screen_follows() -> None:
    async def go() -> None:
        app = TrollApp(None, 7, state=opening())
        async with app.run_test(size=(100, 34)) as pilot:
            assert app.obs["troll"] == {"row": "lower", "position": 1}
            assert "2 left" in plain(app.query_one("#status", Static))
            assert "move right" in app.legal_texts()
            await pilot.press("right")
            await pilot.pause()
            assert app.obs["troll"] == {"row": "lower", "position": 2}
            assert "1 left" in plain(app.query_one("#status", Static))
            board = plain(app.query_one("#board", Static))
            assert "TROLL" in board and "10♦" in board
            assert "The troll steps right to lower 2." in app.log_lines
            assert "stomp" in [text for text, _ in shown_options(app)]
            await pilot.press("s")  # stomp: the second action ends the turn; turn 2 begins
            await pilot.pause()
            assert app.obs["turn"] == 2
            assert any("Turn 2" in line for line in app.log_lines)

    run(go)


def test_pick_up_needs_a_direction_and_escape_cancels() -> None:
    async def go() -> None:
        app = TrollApp(None, 7, state=opening())
        async with app.run_test() as pilot:
            before = app.state.to_json()
            await pilot.press("p")
            assert app.pending == "pick"
            assert "Pick up which brick?" in app.hint_message and "→" in app.hint_message
            await pilot.press("escape")
            assert app.pending is None and app.state.to_json() == before
            await pilot.press("p", "right")
            await pilot.pause()
            assert app.obs["carried"] == [{"card": "10D", "awake": True}]
            assert "carrying 10♦ (a diamond to throw)" in plain(app.query_one("#board", Static))

    run(go)


def test_illegal_keys_change_nothing() -> None:
    async def go() -> None:
        app = TrollApp(None, 7, state=opening())
        async with app.run_test() as pilot:
            before = app.state.to_json()
            # off the bridge, nothing to stomp, nothing to use or lay, a slot number, no wait,
            # a wrong direction for pick up, and keys the app does not know at all
            for keys in (["down"], ["left"], ["s"], ["u"], ["l"], ["3"], ["w"], ["c"],
                         ["p", "left"], ["escape"], ["x", "z", "f5"]):
                await pilot.press(*keys)
                await pilot.pause()
                assert app.state.to_json() == before, keys
                assert not isinstance(app.screen, EndScreen)
            await pilot.press("left")
            assert "off the bridge" in app.hint_message
            # stepping back onto a brick already stood on this turn is refused with a reason
            await pilot.press("right", "left")
            await pilot.pause()
            assert app.obs["troll"]["position"] == 2
            assert "already stood on lower 1" in app.hint_message

    run(go)


def test_the_list_of_options_can_be_clicked_or_chosen_with_enter() -> None:
    async def go() -> None:
        app = TrollApp(None, 7, state=opening())
        async with app.run_test(size=(100, 34)) as pilot:
            first = shown_options(app)[0][0]
            reference = opening()
            await pilot.click("#actions", offset=(3, 1))
            await pilot.pause()
            reference.apply(reference.parse_action(first))
            assert app.state.to_json() == reference.to_json()
            actions = app.query_one("#actions", OptionList)
            actions.focus()
            await pilot.pause()
            actions.highlighted = 0
            chosen = shown_options(app)[0][0]
            await pilot.press("enter")
            await pilot.pause()
            reference.apply(reference.parse_action(chosen))
            assert app.state.to_json() == reference.to_json()
            assert app.focused is app.query_one("#board")  # arrows move the troll again
            actions.focus()
            await pilot.press("escape")  # Esc also leaves the list
            assert app.focused is app.query_one("#board")

    run(go)


def test_whole_game_by_keys_reaches_the_end_screen_with_result_and_score() -> None:
    async def go() -> None:
        app = TrollApp(None, 11)
        async with app.run_test(size=(100, 34)) as pilot:
            rng = random.Random(11)
            steps = await play_through_keys(app, pilot, rng.choice)
            assert steps >= 2
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            obs = app.obs
            shown = " ".join(plain(w) for w in app.screen.query(Static))
            assert ("THE BRIDGE WINS" if obs["outcome"] == "loss" else "WIN") in shown
            assert f"Score: {obs['score']} card" in shown
            assert app.last_end_text.split(" Score:")[0] in shown
            # keys do nothing harmful after the end; n deals a new game
            before = app.state.to_json()
            await pilot.press("escape", "right", "s", "p", "left")
            await pilot.pause()
            assert app.state.to_json() == before
            await pilot.press("n")
            await pilot.pause()
            assert not app.state.is_terminal and app.obs["turn"] == 1
            assert not isinstance(app.screen, EndScreen)

    run(go)


@pytest.mark.parametrize("variant,seed", [("tutorial", 3), (None, 23)])  # 23: a short game (16 actions)
def test_heuristic_bot_plays_by_keys_to_a_result(variant: str | None, seed: int) -> None:
    """The end screen names the result the game reports (win, perfect win or loss)."""
    params = GAME.default_params() if variant is None else GAME.params_type(**GAME.variants[variant])

    async def go() -> None:
        app = TrollApp(params, seed)
        bot = GAME.bots()["heuristic"]()
        rng = Chance(seed)
        async with app.run_test(size=(120, 40)) as pilot:
            await play_through_keys(app, pilot, lambda _legal: str(bot.choose(app.state, rng)))
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            obs = app.obs
            shown = " ".join(plain(w) for w in app.screen.query(Static))
            expected = ("PERFECT WIN!" if obs["perfect"] else "YOU WIN!") if obs["outcome"] == "win" \
                else "THE BRIDGE WINS"
            assert expected in shown
            assert f"Score: {obs['score']}" in shown

    run(go)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_renders_in_small_and_large_terminals(size: tuple[int, int]) -> None:
    async def go() -> None:
        app = TrollApp(None, 5)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            board = app.query_one("#board")
            assert board.region.width >= 57 and board.region.height >= 11
            for selector in ("#status", "#hint", "#log", "#actions", "#reference"):
                region = app.query_one(selector).region
                assert region.width > 0 and region.height > 0, selector
                assert region.right <= size[0] and region.bottom <= size[1], selector
            assert app.query_one("#log").region.height >= 4
            svg = app.export_screenshot()
            assert "TROLL" in svg
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)

    run(go)


def test_make_app_gives_a_troll_app_with_the_seed() -> None:
    app = make_app(seed=5)
    assert isinstance(app, TrollApp) and app.seed == 5
    assert isinstance(make_app().seed, int)


def test_menu_lists_the_games_and_opens_troll() -> None:
    async def go() -> None:
        app = MenuApp()
        async with app.run_test() as pilot:
            games = app.query_one("#games", OptionList)
            ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
            assert ids == [entry.game_id for entry in menu_entries()]
            assert "troll" in ids
            prompt: Any = games.get_option_at_index(ids.index("troll")).prompt
            assert "Angry Troll versus Magic Bridge" in prompt.plain
            games.focus()
            games.highlighted = ids.index("troll")
            await pilot.press("enter")
            await pilot.pause()
            # the rules variants, the easy ones first and marked for a first game
            variants = app.screen.query_one("#variants", OptionList)
            shown = [variants.get_option_at_index(i) for i in range(variants.option_count)]
            assert [o.id for o in shown[:3]] == ["plus-one", "tutorial", "__standard__"]
            assert "first game" in str(shown[0].prompt) and "draft" in [o.id for o in shown]
            await pilot.press("down", "enter")
            await pilot.pause()
        assert app.return_value == ("troll", "tutorial")
        factory = app_factory("troll")
        assert factory is not None and isinstance(factory(), TrollApp)
        app_plus = factory(variant="plus-one")
        assert isinstance(app_plus, TrollApp) and app_plus.params.extra_per_slot == 1

    run(go)


def test_menu_marks_games_without_a_terminal_app(monkeypatch: pytest.MonkeyPatch) -> None:
    class Fake:
        name = "A game still on paper"

    monkeypatch.setattr(menu_module, "game_ids", lambda: ["troll", "paper"])
    monkeypatch.setattr(menu_module, "get_game", lambda gid: GAME if gid == "troll" else Fake())
    entries = {e.game_id: e for e in menu_entries()}
    assert entries["troll"].make_app is not None and entries["troll"].note == ""
    assert entries["paper"].make_app is None
    assert entries["paper"].note == "not yet playable in the terminal"

    async def go() -> None:
        app = MenuApp()
        async with app.run_test() as pilot:
            games = app.query_one("#games", OptionList)
            assert games.get_option_at_index(1).disabled
            games.focus()
            games.highlighted = 1
            await pilot.press("enter")  # a game that cannot be played is not opened
            await pilot.pause()
            assert app.is_running
            await pilot.press("q")
        assert app.return_value is None

    run(go)


def test_run_menu_opens_the_chosen_game_and_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    choices = iter([("troll", "tutorial"), None])
    opened: list[object] = []
    monkeypatch.setattr(MenuApp, "run", lambda self: next(choices))
    monkeypatch.setattr(TrollApp, "run", lambda self: opened.append(self))
    menu_module.run_menu()
    assert len(opened) == 1 and isinstance(opened[0], TrollApp)
    assert opened[0].params.extra_per_slot == 2  # the tutorial variant chosen in the menu


def find_toys_seed() -> tuple[int, str]:
    """A deal of the toys variant where THE CLUB and the diamond can both strike one way."""
    params = GAME.params_type(**GAME.variants["toys"])
    for seed in range(500):
        legal = [str(a) for a in GAME.new_state(params, seed).legal_actions()]
        for text in legal:
            if text.startswith("club ") and f"throw {text.split()[1]}" in legal:
                return seed, text.split()[1]
    raise AssertionError("no such deal in 500 seeds")


def test_two_items_in_hand_ask_which_one_to_use() -> None:
    """Toys variant (seed §4.1): THE CLUB and the ace of diamonds can both hit the same brick;
    'u' then the arrow asks which, 'c' or 't' then the arrow decides."""
    params = GAME.params_type(**GAME.variants["toys"])
    seed, way = find_toys_seed()
    arrow = way  # the direction names are also the arrow keys' names

    async def go() -> None:
        app = TrollApp(params, seed)
        async with app.run_test(size=(100, 34)) as pilot:
            lines = dict(shown_options(app))
            assert keys_of(lines[f"club {way}"]) == ["c", arrow]
            assert keys_of(lines[f"throw {way}"]) == ["t", arrow]
            before = app.state.to_json()
            await pilot.press("u", arrow)
            await pilot.pause()
            assert app.state.to_json() == before
            assert "press c to club or t to throw" in app.hint_message
            await pilot.press("c", arrow)
            await pilot.pause()
            reference = GAME.new_state(params, seed)
            reference.apply(reference.parse_action(f"club {way}"))
            assert app.state.to_json() == reference.to_json()

    run(go)


def find_far_lay() -> tuple[State, int]:
    """A draft-rules position where a carried brick may go to either row of a column that is
    not next to the troll, found by random play."""
    params = GAME.params_type(rules="draft")
    for seed in range(500):
        state = GAME.new_state(params, seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_terminal:
                break
            legal = [str(a) for a in state.legal_actions()]
            column = state.observation(0)["troll"]["position"]
            for c in range(1, 7):
                if abs(c - column) > 1 and f"lay lower {c}" in legal and f"lay upper {c}" in legal:
                    return state, c
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such position in 500 games")


def test_draft_rules_lay_a_brick_far_away_by_slot_number() -> None:
    """Draft rules (seed §4.1): a dormant brick may be laid wherever it touches two bricks:
    'l', the column, then ↑/↓ when both rows of that column are possible."""
    state, column = find_far_lay()

    async def go() -> None:
        reference = GAME.state_from_json(state.to_json())
        app = TrollApp(None, 1, state=GAME.state_from_json(state.to_json()))
        async with app.run_test(size=(100, 40)) as pilot:
            lines = dict(shown_options(app))
            assert keys_of(lines[f"lay lower {column}"]) == ["l", str(column), "down"]
            await pilot.press("l", str(column))
            await pilot.pause()
            assert app.pending_column == column and app.state.to_json() == reference.to_json()
            await pilot.press("down")
            await pilot.pause()
            reference.apply(reference.parse_action(f"lay lower {column}"))
            assert app.state.to_json() == reference.to_json()

    run(go)


@pytest.mark.parametrize("rules", ["final", "draft"])
def test_flight_arrows_on_the_bridge_match_the_flight_the_game_plays(rules: str) -> None:
    """The arrows drawn on awake bricks preview the flight phase (seed §6.2, §7.1: towards the
    closest bank not blocked by the troll); check them against the game's own fled events."""
    from playtable.tui.troll_view import flight_hint

    checked = 0
    for seed in range(200):
        state = GAME.new_state(GAME.params_type(rules=rules), seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            before = state.observation(0)
            events = state.apply(action)
            if before["actions_left"] != 1 or str(action).startswith("move"):
                continue  # the troll stays put during the last action: the preview must hold
            for event in events:
                if event.kind == "turn":
                    break
                if event.kind in ("fled_step", "fled"):
                    start = int(event.data["from"])
                    slot = ("lower" if start < 6 else "upper", start % 6 + 1)
                    if not before["bridge"][slot[0]][slot[1] - 1]["awake"]:
                        continue  # woken by the last action itself (the draft's spade)
                    if event.kind == "fled":
                        expected = str(event.data["bank"])
                    else:
                        expected = "left" if int(event.data["to"]) < start else "right"
                    assert flight_hint(before, slot) == expected, (seed, slot, event.text)
                    checked += 1
    assert checked > 50


def test_play_troll_from_a_position_file_and_bad_files_exit_2(tmp_path: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from playtable.cli import main
    from playtable.core.position import write_position

    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "troll"}', encoding="utf-8")
    for argv in (["play", "troll", "--position", str(bad)],
                 ["play", "troll", "--position", str(tmp_path / "missing.json")]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2

    good = tmp_path / "good.json"
    state = GAME.new_state(None, 9)
    state.apply(state.legal_actions()[0])
    write_position(state, good)
    started: list[TrollApp] = []
    monkeypatch.setattr(TrollApp, "run", lambda self: started.append(self))
    main(["play", "troll", "--position", str(good)])
    assert started and started[0].state.to_json() == state.to_json()
    assert started[0].from_position


def test_an_action_that_collapses_the_bridge_asks_first() -> None:
    """RULES.md W1 (§7.1 "Brick flight phase"): the lone brick at position 3 is awake; stepping
    up lets it flee and the bridge falls apart. The app asks; n changes nothing, y plays it."""
    lower = ["2C 3C 4C", "5C 6C", "7H", "8C", "9C 10C", "JC QC KC"]
    upper = ["2S 3S 4S", "5S 6S", "", "8S", "9S 10S", "JS QS KS"]
    state = position(lower, upper, troll="lower 2", actions_left=1, awake=("7H",), deck=("2D", "3D"))

    async def go() -> None:
        app = TrollApp(None, 1, state=state)
        async with app.run_test(size=(100, 34)) as pilot:
            before = app.state.to_json()
            await pilot.press("up")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen) and "collapses" in app.screen.question
            await pilot.press("n")
            await pilot.pause()
            assert app.state.to_json() == before and "Not played" in plain(app.query_one("#hint", Static))
            await pilot.press("up")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            assert app.state.is_terminal and isinstance(app.screen, EndScreen)

    run(go)


def test_standard_rules_suggest_the_easy_variants_and_tutorial_does_not() -> None:
    """A first game on the designer's hardest rules names the easier variants."""

    async def go() -> None:
        app = TrollApp(None, 2)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            assert any("--variant tutorial" in line for line in app.log_lines)
        easy = TrollApp(GAME.params_type(**GAME.variants["tutorial"]), 2)
        async with easy.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            assert not any("--variant tutorial" in line for line in easy.log_lines)

    run(go)
