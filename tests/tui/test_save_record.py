"""The terminal apps save a record on request: Ctrl+S writes game, parameters,
seed and every action so far (undone ones taken back), and the record replays to the very
position on the screen."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from playtable.core.records import Record, replay
from playtable.games.rotator.rules import RotatorParams
from playtable.tui.rotator import RotatorApp
from playtable.tui.troll import TrollApp


def _replayed(path: Path) -> dict[str, object]:
    state, _ = replay(Record.from_json(json.loads(path.read_text())))
    return state.to_json()


def test_troll_app_saves_a_record_that_replays_to_the_screen(tmp_path: Path) -> None:
    out = tmp_path / "game.record.json"
    app = TrollApp(None, 11, record_path=str(out))

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(3):
                safe = [a for a in app.state.legal_actions() if app.state.action_warning(a) is None]
                app.play(str(safe[0]), confirmed=True)
                await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()

    asyncio.run(drive())
    assert "Record saved" in app.hint_message
    assert len(json.loads(out.read_text())["actions"]) == 3
    assert _replayed(out) == app.state.to_json()


def test_rotator_app_record_leaves_out_undone_moves(tmp_path: Path) -> None:
    mp = pytest.MonkeyPatch()
    mp.chdir(tmp_path)
    try:
        app = RotatorApp(RotatorParams(), 5)

        async def drive() -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                for _ in range(2):
                    await pilot.press("enter")
                    await pilot.pause()
                await pilot.press("u")
                await pilot.pause()
                await pilot.press("ctrl+s")
                await pilot.pause()

        asyncio.run(drive())
    finally:
        mp.undo()
    saved = tmp_path / "rotator-5.record.json"
    assert saved.exists(), app.hint_text
    assert _replayed(saved) == app.state.to_json()


def test_wizard_app_record_holds_bots_and_humans_moves(tmp_path: Path) -> None:
    from playtable.games.wizard.params import WizardParams
    from playtable.tui.wizard import WizardApp

    out = tmp_path / "w.record.json"
    app = WizardApp(WizardParams(players=3), 8, {0: "heuristic", 1: "heuristic", 2: "heuristic"}, str(out))

    async def drive() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.action_save_record()
            await pilot.pause()

    asyncio.run(drive())
    assert out.exists() and _replayed(out) == app.state.to_json()
