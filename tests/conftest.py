"""The whole suite's order: the longest tests first.

pytest-xdist hands each worker tests in the order they were collected, so a test of several
minutes collected late (the newcomer's whole Star Dice war, whose throws stream in real time)
ran alone at the end while the other worker sat idle (its later throws now shown fast, it takes
about two minutes; the two Star Dice wars also marked, now under half a minute each, stay so:
collected late, they too would end the suite alone). Marked `long`, such a test is moved to the
front, where it runs beside everything else (longest first is the classic rule for sharing jobs
between workers). Each worker collects the same tests and sorts them the same way, as xdist
requires."""

from __future__ import annotations

from typing import Any


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "long: among the suite's longest tests, run first (tests/conftest.py)")


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: the rest keep their order
