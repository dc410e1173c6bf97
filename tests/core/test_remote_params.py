"""What a remote client may set: `check_remote_values` takes only declared
fields inside their declared bounds, reads raw JSON and `key=value` texts without crashing, and
says in one sentence which parameter and what it allows."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.core.errors import BadParameter
from playtable.core.params import check_remote_values, undeclared_fields


@dataclass(frozen=True)
class Toy:
    count: int = field(default=3, metadata={"range": (1, 10)})
    rate: float = field(default=0.5, metadata={"range": (0.0, 1.0)})
    fast: bool = False
    mode: Literal["a", "b"] = "a"
    sizes: tuple[int, ...] = field(default=(1, 2), metadata={"range": (0, 5), "min_items": 1,
                                                              "max_items": 3})
    kinds: tuple[str, ...] = field(default=("x",), metadata={"one_of": ("x", "y"), "max_items": 4})
    leaf: str = field(default="plain", metadata={"one_of": ("plain", "fancy")})
    board: str = field(default="", metadata={"names_file": True, "shipped": ("small", "big"),
                                             "max_len": 50})
    folder: str = field(default="", metadata={"remote": False})
    limit: int = 100
    note: str = ""
    widths: tuple[int, ...] = field(default=(), metadata={"max_items": 2})
    _hidden: int = field(default=0, init=False)


def refusal(values: dict[str, Any]) -> str:
    with pytest.raises(BadParameter) as err:
        check_remote_values(Toy, values)
    return str(err.value)


def test_declared_values_inside_their_bounds_pass_in_json_and_text_forms() -> None:
    check_remote_values(Toy, {})
    check_remote_values(Toy, {"count": 10, "rate": 0.0, "fast": True, "mode": "b"})
    check_remote_values(Toy, {"count": "1", "rate": "1", "fast": "false"})  # key=value texts
    check_remote_values(Toy, {"sizes": [0, 5, 5], "kinds": "x,y,y,x"})
    check_remote_values(Toy, {"sizes": "4", "leaf": "fancy", "board": "big"})
    check_remote_values(Toy, {"board": "...\n.@.\n"})  # inline text, with a line break
    check_remote_values(Toy, {"board": ""})  # the default: no board named


@pytest.mark.parametrize(("values", "words"), [
    ({"count": 11}, ["'count'", "from 1 to 10", "11"]),
    ({"count": "1000000000"}, ["'count'", "from 1 to 10"]),
    ({"rate": -0.1}, ["'rate'", "from 0.0 to 1.0"]),
    ({"sizes": [1, 2, 3, 4]}, ["'sizes'", "from 1 to 3 items", "not 4"]),
    ({"sizes": []}, ["'sizes'", "from 1 to 3 items"]),
    ({"sizes": [6]}, ["'sizes'", "items", "from 0 to 5"]),
    ({"kinds": ["x", "z"]}, ["'kinds'", "x, y", "'z'"]),
    ({"leaf": "other"}, ["'leaf'", "plain, fancy"]),
    ({"board": "/etc/shadow"}, ["'board'", "small, big", "never a file"]),
    ({"board": "../../etc/passwd"}, ["'board'", "never a file"]),
    ({"board": "x\n" * 30}, ["'board'", "50 characters", "60"]),
    ({"folder": ""}, ["'folder'", "operator's setting"]),
    ({"folder": "/tmp"}, ["'folder'", "operator's setting"]),
    ({"limit": 5}, ["'limit'", "cannot be set by a remote client", "range"]),
    ({"note": "hi"}, ["'note'", "cannot be set by a remote client"]),
    ({"widths": [1]}, ["'widths'", "cannot be set by a remote client", "range"]),
    ({"nope": 1}, ["unknown parameter 'nope'", "count"]),
    ({"_hidden": 1}, ["unknown parameter '_hidden'"]),
    ({"mode": "c"}, ["'mode'", "a, b"]),
    ({"fast": "maybe"}, ["'fast'", "true or false"]),
    ({"count": [1, 2]}, ["'count'", "whole number"]),
    ({"count": "9" * 5000}, ["'count'", "whole number"]),
    ({"rate": "nan"}, ["'rate'", "finite"]),
    ({"board": 7}, ["'board'", "text"]),
])
def test_each_refusal_is_one_sentence_naming_the_parameter_and_what_it_allows(
        values: dict[str, Any], words: list[str]) -> None:
    message = refusal(values)
    assert "\n" not in message and len(message) < 300
    for word in words:
        assert word in message, (word, message)


def test_a_refused_value_is_never_echoed_whole() -> None:
    assert len(refusal({"leaf": "z" * 10_000})) < 200
    assert len(refusal({"board": "/" + "a" * 10_000})) < 200


def test_undeclared_fields_are_listed_with_the_reason() -> None:
    assert undeclared_fields(Toy) == [
        "limit: a number without a declared 'range'",
        "note: a text without declared 'one_of' names",
        "widths: a list of numbers without a declared 'range'",
    ]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["count", "rate", "fast", "mode", "sizes", "kinds", "leaf",
                                        "board", "folder", "limit", "other"]), JSON, max_size=4))
def test_any_json_value_is_either_accepted_or_refused_with_bad_parameter(values: dict[str, Any]) -> None:
    with contextlib.suppress(BadParameter):
        check_remote_values(Toy, values)


def test_values_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(BadParameter, match="object"):
        check_remote_values(Toy, ["count", 1])  # type: ignore[arg-type]
