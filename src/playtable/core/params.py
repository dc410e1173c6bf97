"""Reading game parameters from `key=value` texts and JSON, with clear errors, and bounding
what a remote client may set.

A game's parameters are a frozen dataclass. Supported field types: bool, int, float, str,
`Literal[...]` of strings, and `tuple[int, ...]` / `tuple[float, ...]` / `tuple[str, ...]`
(written `3,2,1,1,2,3`). A dataclass may define `validate(self)` raising BadParameter for
constraints between fields. Agents' options are dataclass fields too, read the same way.

**Remote clients** (a web request: a stranger) may set only what a field declares, in its
`metadata`; `check_remote_values` enforces it, `undeclared_fields` lists the fields that
declare nothing (a test keeps that list empty for every game and agent). Undeclared means
not client-settable:

* `"range": (lo, hi)`: an int or float field, or the items of a tuple field, lies in
  [lo, hi]. A tuple field also declares `"max_items": n` (and `"min_items": n` if needed).
* bool and `Literal[...]` fields (and tuples of Literal items) are bounded by their type.
* `"one_of": (names...)`: a str field, or the items of a `tuple[str, ...]`, is one of these
  names (a troll leaf, a Star Dice die kind).
* `"names_file": True` with `"shipped": (names...)` and `"max_len": n`: a str that may name a
  file on the host (Rotator's board). Remotely it is a shipped name, the field's default, or
  inline text (a value with a newline in it, which the game's loader reads as the file's
  text) of at most `max_len` characters; never a path.
* `"remote": False`: an operator's setting (command line, files; the wizard's content
  directory), refused over the network whatever its value.

Bounds are chosen so that a new state and one bot move stay bounded in time at the extremes
(each game's parameters say what was measured); `"space"` and `"choices"` are the lab
tuner's search space, which lies inside the bounds.

**Design dials.** A field with a `"space"` or `"choices"` is a dimension the tuner can search;
it joins the tuner's *default* space only if it is a design dial (`is_dial`). A switch that
selects a reading of the rules or a setup idea kept for comparison (the troll's
`win_waits_for_set_aside`, an old reading of §7.1; `start_row_roll`, Test #7's setup idea)
declares `"dial": False`: it is searched only when named (`--space NAME`), since a designer
tuning difficulty does not mean to change which rules are played.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import math
import textwrap
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args, get_origin

from playtable.core.errors import BadParameter


@functools.cache
def _field_types(params_type: type) -> Mapping[str, Any]:
    """A parameters dataclass's field types, worked out once per class: `get_type_hints`
    evaluates every annotation's text again at each call, and a game that copies its state
    through JSON (the wizard) reads its parameters at every copy."""
    return types.MappingProxyType(typing.get_type_hints(params_type))


def _coerce(name: str, kind: Any, value: Any) -> Any:
    origin = get_origin(kind)
    if origin is Literal:
        choices = get_args(kind)
        if value not in choices:
            raise BadParameter(
                f"parameter '{name}' must be one of {', '.join(map(str, choices))}, not {value!r}"
            )
        return value
    if origin in (types.UnionType, typing.Union):
        errors = []
        for option in get_args(kind):
            if option is type(None) and value in (None, "none", "None"):
                return None
            if option is type(None):
                continue
            try:
                return _coerce(name, option, value)
            except BadParameter as err:
                errors.append(str(err))
        raise BadParameter(errors[0] if errors else f"parameter '{name}': bad value {value!r}")
    if origin is tuple:
        item_kind = get_args(kind)[0]
        if isinstance(value, str):
            items: list[Any] = [v.strip() for v in value.split(",") if v.strip()]
        elif isinstance(value, list | tuple):
            items = list(value)
        else:
            raise BadParameter(f"parameter '{name}' must be a comma-separated list, not {value!r}")
        return tuple(_coerce(name, item_kind, v) for v in items)
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise BadParameter(f"parameter '{name}' must be true or false, not {value!r}")
    if kind is int:
        if isinstance(value, bool | float):
            raise BadParameter(f"parameter '{name}' must be a whole number, not {value!r}")
        try:
            whole = int(value)
        except (TypeError, ValueError):
            raise BadParameter(f"parameter '{name}' must be a whole number, not {value!r:.40}") from None
        if abs(whole) >= 2**63:
            # every count, limit and seed of a game fits in 64 bits; larger ones only hang
            raise BadParameter(f"parameter '{name}' is out of range (|value| < 2**63)")
        return whole
    if kind is float:
        if isinstance(value, bool):
            raise BadParameter(f"parameter '{name}' must be a number, not {value!r}")
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            raise BadParameter(f"parameter '{name}' must be a number, not {value!r:.40}") from None
        if not math.isfinite(number):
            # no rule is written for an infinite or undefined quantity (and inf*0 is NaN)
            raise BadParameter(f"parameter '{name}' must be a finite number, not {value!r:.40}")
        return number
    if kind is str:
        if not isinstance(value, str):
            raise BadParameter(f"parameter '{name}' must be text, not {value!r}")
        return value
    raise BadParameter(f"parameter '{name}' has a type playtable cannot read: {kind}")


def params_from_dict(params_type: type, values: Mapping[str, Any], base: Any = None) -> Any:
    """A params instance from `values` over `base` (or the defaults). Unknown keys are errors."""
    kinds = _field_types(params_type)
    current = base if base is not None else params_type()
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if key not in kinds:
            known = ", ".join(sorted(kinds))
            raise BadParameter(f"unknown parameter '{key}' (known: {known})")
        changes[key] = _coerce(key, kinds[key], value)
    try:
        result = dataclasses.replace(current, **changes)
    except (TypeError, ValueError) as err:
        raise BadParameter(str(err)) from None
    validate = getattr(result, "validate", None)
    if callable(validate):
        validate()
    return result


@functools.cache
def field_docs(params_type: type) -> dict[str, str]:
    """Each parameter's description, on one line: its `doc` metadata, else the docstring written
    under the field in the class body (read from the source; '' where there is neither)."""
    docs = {f.name: " ".join(str(f.metadata.get("doc", "")).split())
            for f in dataclasses.fields(params_type)}
    try:
        body = ast.parse(textwrap.dedent(inspect.getsource(params_type))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return docs
    statements = getattr(body, "body", [])
    for field_line, after in zip(statements, statements[1:], strict=False):
        if (isinstance(field_line, ast.AnnAssign) and isinstance(field_line.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str) and not docs.get(field_line.target.id)):
            docs[field_line.target.id] = " ".join(after.value.value.split())
    return docs


def is_dial(field: dataclasses.Field[Any]) -> bool:
    """Whether a parameter is a design dial the tuner searches by default: it declares where to
    search (`"space"` or `"choices"`) and is not marked `"dial": False` (module documentation)."""
    meta = field.metadata
    return ("space" in meta or "choices" in meta) and meta.get("dial", True) is not False


def split_assignments(pairs: Iterable[str]) -> dict[str, str]:
    """`["a=1", "b=x"]` -> {"a": "1", "b": "x"}, with an error naming a malformed pair."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadParameter(f"'{pair}' is not of the form key=value")
        out[key.strip()] = value.strip()
    return out


def resolve_params(
    params_type: type,
    variants: Mapping[str, Mapping[str, Any]],
    variant: str | None = None,
    assignments: Iterable[str] = (),
) -> Any:
    """Defaults, then the named variant's values, then explicit `key=value` overrides."""
    params = params_type()
    if variant:
        if variant not in variants:
            known = ", ".join(sorted(variants)) or "none"
            raise BadParameter(f"unknown variant '{variant}' (known: {known})")
        params = params_from_dict(params_type, variants[variant], params)
    overrides = split_assignments(assignments)
    if overrides:
        params = params_from_dict(params_type, overrides, params)
    return params


# -- what a remote client may set -------------------------------------------------------------------

_VALUE_SHOWN = 40
"""Characters of a refused value quoted back (a client's value is never echoed whole)."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _VALUE_SHOWN else text[: _VALUE_SHOWN - 3] + "..."


def _declared_bounds(kind: Any, meta: Mapping[str, Any]) -> str | None:
    """Why a field of type `kind` with `meta` is not client-settable, or None when it is
    bounded (or an operator's setting, refused anyway)."""
    if meta.get("remote") is False:
        return None
    origin = get_origin(kind)
    if kind is bool or origin is Literal:
        return None
    if kind in (int, float):
        return None if "range" in meta else "a number without a declared 'range'"
    if kind is str:
        if meta.get("names_file"):
            return None if "shipped" in meta and "max_len" in meta else \
                "a file name without 'shipped' names and 'max_len'"
        return None if "one_of" in meta else "a text without declared 'one_of' names"
    if origin is tuple:
        if "max_items" not in meta:
            return "a list without a declared 'max_items'"
        item = get_args(kind)[0]
        if item is bool or get_origin(item) is Literal:
            return None
        if item in (int, float):
            return None if "range" in meta else "a list of numbers without a declared 'range'"
        if item is str:
            return None if "one_of" in meta else "a list of texts without declared 'one_of' names"
    return f"a type remote clients cannot set ({kind})"


def undeclared_fields(params_type: type) -> list[str]:
    """Every settable field of `params_type` that declares no bounds and is not marked
    `"remote": False`, as `name: why` (empty when every field is accounted for)."""
    hints = _field_types(params_type)
    out = []
    for f in dataclasses.fields(params_type):
        if not f.init or f.name.startswith("_"):
            continue
        why = _declared_bounds(hints[f.name], f.metadata)
        if why is not None:
            out.append(f"{f.name}: {why}")
    return out


def _bound_text(lo: Any, hi: Any) -> str:
    return f"from {lo} to {hi}"


def _check_number(name: str, value: Any, meta: Mapping[str, Any], what: str = "") -> None:
    lo, hi = meta["range"]
    if not lo <= value <= hi:
        raise BadParameter(f"parameter '{name}'{what} must be {_bound_text(lo, hi)} when set by a "
                           f"remote client, not {_shown(value)}")


def _check_remote_field(name: str, kind: Any, meta: Mapping[str, Any], raw: Any, default: Any) -> None:
    if meta.get("remote") is False:
        raise BadParameter(f"parameter '{name}' is the operator's setting (command line or files) "
                           "and cannot be set by a remote client")
    why = _declared_bounds(kind, meta)
    if why is not None:
        raise BadParameter(f"parameter '{name}' cannot be set by a remote client ({why})")
    value = _coerce(name, kind, raw)  # a clear BadParameter for a value of the wrong type
    origin = get_origin(kind)
    if kind in (int, float):
        _check_number(name, value, meta)
    elif kind is str and meta.get("names_file"):
        shipped = tuple(meta["shipped"])
        inline = "\n" in value
        if value in shipped or value == default:
            return
        if not inline:
            raise BadParameter(f"parameter '{name}' must be one of {', '.join(shipped)} or the "
                               "text itself when set by a remote client, never a file on the host")
        if len(value) > meta["max_len"]:
            raise BadParameter(f"parameter '{name}': inline text is limited to {meta['max_len']} "
                               f"characters, not {len(value)}")
    elif kind is str:
        names = tuple(meta["one_of"])
        if value not in names:
            raise BadParameter(f"parameter '{name}' must be one of {', '.join(names)} when set by "
                               f"a remote client, not {_shown(value)}")
    elif origin is tuple:
        least, most = meta.get("min_items", 0), meta["max_items"]
        if not least <= len(value) <= most:
            raise BadParameter(f"parameter '{name}' takes {_bound_text(least, most)} items when "
                               f"set by a remote client, not {len(value)}")
        item = get_args(kind)[0]
        for v in value:
            if item in (int, float):
                _check_number(name, v, meta, "'s items")
            elif item is str and v not in meta["one_of"]:
                raise BadParameter(f"parameter '{name}' takes items among "
                                   f"{', '.join(meta['one_of'])} when set by a remote client, "
                                   f"not {_shown(v)}")


def check_remote_values(params_type: type, values: Mapping[str, Any]) -> None:
    """Raise BadParameter (one sentence naming the parameter and what it allows) unless every
    key of `values` is a field a remote client may set and its value lies in that field's
    declared bounds (see the module documentation). `values` are raw JSON or `key=value`
    texts (numbers as strings, lists or comma-separated texts); nothing here opens a file or
    builds the parameters. Only a client's explicit values are checked: defaults and a named
    variant's values come from the game and are trusted."""
    if not isinstance(values, Mapping):
        raise BadParameter("parameters must be an object of names to values")
    hints = _field_types(params_type)
    fields = {f.name: f for f in dataclasses.fields(params_type)
              if f.init and not f.name.startswith("_")}
    for key, raw in values.items():
        if not isinstance(key, str) or key not in fields:
            known = ", ".join(sorted(fields))
            raise BadParameter(f"unknown parameter {_shown(key)} (known: {known})")
        field = fields[key]
        _check_remote_field(key, hints[key], field.metadata, raw, field.default)
