"""A troll position's chance of being won, as a small neural network distilled from the search.

`learned.distilled_chance` is a logistic model of the depth-2 search's values of the turn
endings it weighed; fitted to the same values, a network with two hidden layers holds much more
of the search (docs/lab.md "Distilling the search into its leaf"). `network_chance` is that
network (`leaf=network`): the same 35 inputs (`learned.distilled_inputs`), two layers of ReLU
units, a logit, times `learned.survival` as both fitted models do.

The weights are in `value_network.json`, written by `benchmarks/troll_distil.py --export`
(which names its own command line in the file); the input scaling is folded into the first
layer. The forward pass is plain Python, a few thousand multiply-adds a position, so a player's
install needs no numerical library; like the features, it reads only what the player sees.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from operator import mul
from typing import Any

from playtable.games.troll.learned import FEATURES, RISK_FEATURES, chance_from_logit, distilled_inputs
from playtable.games.troll.rules import TrollState

Layer = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]
"""One weight row per unit, and the units' biases."""


@cache
def network() -> tuple[Layer, ...]:
    """The shipped network's layers, read once."""
    return layers_of(json.loads(files(__package__).joinpath("value_network.json").read_text()))


def layers_of(data: dict[str, Any]) -> tuple[Layer, ...]:
    """A network file's layers, checked: fitted on `learned.distilled_inputs`, each layer as wide
    as the one before it is deep, one output."""
    if tuple(data["inputs"]) != (*FEATURES, *RISK_FEATURES):
        raise ValueError("the network was fitted on other inputs than learned.distilled_inputs")
    layers = tuple((tuple(tuple(map(float, row)) for row in layer["weights"]),
                    tuple(map(float, layer["bias"]))) for layer in data["layers"])
    width = len(data["inputs"])
    for rows, bias in layers:
        if len(rows) != len(bias) or any(len(row) != width for row in rows):
            raise ValueError(f"a layer of the network does not take {width} inputs to {len(bias)} units")
        width = len(bias)
    if width != 1:
        raise ValueError(f"the network has {width} outputs, not one")
    return layers


def logit(layers: tuple[Layer, ...], inputs: list[float]) -> float:
    """The network's output for one position's inputs: ReLU between layers, none after the last."""
    values: list[float] | tuple[float, ...] = inputs
    *hidden, (last_rows, last_bias) = layers
    for rows, bias in hidden:
        values = [max(0.0, b + sum(map(mul, row, values))) for row, b in zip(rows, bias, strict=True)]
    return last_bias[0] + sum(map(mul, last_rows[0], values))


def network_chance(state: TrollState) -> float:
    """The network's chance that the troll wins from a position held at the end of a turn (1 or
    0 once the game is over), times `survival`."""
    return chance_from_logit(state, lambda s: logit(network(), distilled_inputs(s)))
