"""Small helpers for the plain words games and front ends show players."""

from __future__ import annotations


def plural(n: int, noun: str) -> str:
    """A count said without '(s)': '1 blank', '2 blanks', 'no blanks'. Regular nouns only."""
    if n == 0:
        return f"no {noun}s"
    return f"{n} {noun}" + ("" if n == 1 else "s")
