"""Search spaces of game parameters, declared next to their defaults.

A parameter joins the tuner's default space when its dataclass field says where to look, in the
manner of TAG's tunable parameters:

    mana_max: int = field(default=6, metadata={"space": (4, 10)})          # whole numbers 4..10
    connect_range: float = field(default=0.25, metadata={"space": (0.15, 0.4)})  # any number
    rage: bool = field(default=True, metadata={"choices": (True, False)})   # one of these

The default space holds the design dials only (`core.params.is_dial`): a field marked
`"dial": False` (a rule-reading switch) is searched only when named with `--space NAME`.
`--param-space NAME=LO:HI` or `NAME=A,B,C` on the command line replaces or adds a dimension
(values are read like `--param` values, so a typo is one clear error before any game is played).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from playtable.core.errors import BadParameter
from playtable.core.params import is_dial, params_from_dict


@dataclass(frozen=True)
class Dim:
    """One dimension: a range of whole numbers, a range of numbers, or a list of choices."""

    name: str
    kind: str  # "int", "float" or "choice"
    low: float = 0.0
    high: float = 0.0
    choices: tuple[Any, ...] = ()

    def suggest(self, trial: Any) -> Any:
        """The value an Optuna trial proposes for this dimension."""
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.low), int(self.high))
        if self.kind == "float":
            return trial.suggest_float(self.name, float(self.low), float(self.high))
        return trial.suggest_categorical(self.name, self.labels())

    def labels(self) -> list[Any]:
        """The choices as Optuna stores them: plain values as they are, a tuple as its text
        (`3,2,1,1,2,3`), which the parameter reader turns back into the tuple."""
        return [",".join(map(str, c)) if isinstance(c, tuple | list) else c for c in self.choices]

    def label(self, value: Any) -> Any:
        """`value` as a trial of this dimension holds it (`labels`), or None when it lies
        outside the dimension."""
        if self.kind == "choice":
            shown = ",".join(map(str, value)) if isinstance(value, tuple | list) else value
            return next((c for c in self.labels() if c == shown and type(c) is type(shown)), None)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if self.kind == "int" and value != int(value):
            return None
        if not self.low <= value <= self.high:
            return None
        return int(value) if self.kind == "int" else float(value)

    def describe(self) -> str:
        if self.kind == "choice":
            return f"{self.name} in {{{', '.join(map(str, self.choices))}}}"
        return f"{self.name} in [{self.low:g}, {self.high:g}]"


def declared_space(params_type: type, dials_only: bool = False) -> list[Dim]:
    """The dimensions a game's parameter dataclass declares in its fields' metadata (only its
    design dials with `dials_only`)."""
    dims = []
    for f in dataclasses.fields(params_type):
        if dials_only and not is_dial(f):
            continue
        if "space" in f.metadata:
            low, high = f.metadata["space"]
            kind = "int" if isinstance(low, int) and isinstance(high, int) else "float"
            dims.append(Dim(f.name, kind, low, high))
        elif "choices" in f.metadata:
            dims.append(Dim(f.name, "choice", choices=tuple(f.metadata["choices"])))
    return dims


def _value(params_type: type, name: str, text: str) -> Any:
    """A text read as the field's type, through the same reader as `--param` (defaults around it)."""
    return getattr(params_from_dict(params_type, {name: text}), name)


def parse_dim(params_type: type, text: str) -> Dim:
    """`NAME=LO:HI` (a range, whole numbers when the field is) or `NAME=A,B,C` (choices)."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    fields = {f.name: f for f in dataclasses.fields(params_type)}
    if not sep or not spec:
        raise BadParameter(f"--param-space '{text}' is not NAME=LO:HI or NAME=A,B,C")
    if name not in fields:
        raise BadParameter(f"--param-space: unknown parameter '{name}' (known: {', '.join(sorted(fields))})")
    if ":" in spec:
        lo_text, _, hi_text = spec.partition(":")
        low, high = _value(params_type, name, lo_text), _value(params_type, name, hi_text)
        if not isinstance(low, int | float) or isinstance(low, bool):
            raise BadParameter(f"--param-space: '{name}' is not a number; give choices A,B,C")
        if low >= high:
            raise BadParameter(f"--param-space '{text}': the low end must be below the high end")
        return Dim(name, "int" if isinstance(low, int) else "float", low, high)
    choices = tuple(_value(params_type, name, part) for part in spec.split(";" if ";" in spec else ","))
    if len(choices) < 2:
        raise BadParameter(f"--param-space '{text}': give at least two choices")
    return Dim(name, "choice", choices=choices)


def build_space(params_type: type, overrides: Iterable[str] = (), only: Sequence[str] = ()) -> list[Dim]:
    """The declared design dials (or the named declared dimensions, dials or not), with
    `--param-space` texts replacing or adding dimensions. An empty result is an error: there
    would be nothing to tune."""
    if only:
        declared = {d.name: d for d in declared_space(params_type)}
        unknown = [n for n in only if n not in declared]
        if unknown:
            raise BadParameter(f"no declared search space for: {', '.join(unknown)} (use --param-space)")
        dims = {n: declared[n] for n in only}
    else:
        dims = {d.name: d for d in declared_space(params_type, dials_only=True)}
    for text in overrides:
        dim = parse_dim(params_type, text)
        dims[dim.name] = dim
    if not dims:
        raise BadParameter("nothing to tune: this game declares no search space; give --param-space")
    return list(dims.values())
