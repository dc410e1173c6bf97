"""Reading game parameters from `key=value` texts and JSON, with clear errors.

A game's parameters are a frozen dataclass. Supported field types: bool, int, float, str,
`Literal[...]` of strings, and `tuple[int, ...]` / `tuple[float, ...]` / `tuple[str, ...]`
(written `3,2,1,1,2,3`). A dataclass may define `validate(self)` raising BadParameter for
constraints between fields.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args, get_origin

from playtable.core.errors import BadParameter


def _field_types(params_type: type) -> dict[str, Any]:
    return typing.get_type_hints(params_type)


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
