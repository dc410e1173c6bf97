"""The troll's network leaf (`games/troll/value_network.py`, `leaf=network`)."""

from __future__ import annotations

import math

import pytest
from tests.games.troll.helpers import held_twins

from playtable.games.troll.learned import FEATURES, RISK_FEATURES, distilled_inputs, survival
from playtable.games.troll.value_network import layers_of, logit, network, network_chance

INPUTS = [*FEATURES, *RISK_FEATURES]


def test_the_forward_pass_is_relu_layers_then_a_plain_logit() -> None:
    """Two inputs taken as the first two, a hidden layer of two units (one of them cut to zero by
    the ReLU), one output, checked by hand."""
    n = len(INPUTS)
    data = {"inputs": INPUTS, "layers": [
        {"weights": [[1.0, 2.0] + [0.0] * (n - 2), [-1.0, -1.0] + [0.0] * (n - 2)], "bias": [0.5, 0.0]},
        {"weights": [[3.0, 7.0]], "bias": [-1.0]},
    ]}
    x = [1.0, 0.25] + [9.0] * (n - 2)
    assert logit(layers_of(data), x) == pytest.approx(-1.0 + 3.0 * (0.5 + 1.0 + 0.5) + 7.0 * 0.0)


def test_a_network_file_for_other_inputs_or_shapes_is_refused() -> None:
    n = len(INPUTS)
    layer = {"weights": [[0.0] * n], "bias": [0.0]}
    with pytest.raises(ValueError, match="other inputs"):
        layers_of({"inputs": INPUTS[:-1], "layers": [layer]})
    with pytest.raises(ValueError, match="does not take"):
        layers_of({"inputs": INPUTS, "layers": [{"weights": [[0.0] * (n - 1)], "bias": [0.0]}]})
    with pytest.raises(ValueError, match="2 outputs"):
        layers_of({"inputs": INPUTS, "layers": [{"weights": [[0.0] * n] * 2, "bias": [0.0, 0.0]}]})


def test_the_shipped_network_gives_a_probability_read_from_what_the_player_sees() -> None:
    """The leaf is the network's logit through the logistic curve times `survival` (the double
    awakening's factor, seed 000 §7.1), the same for positions that differ only in hidden cards,
    and 1 or 0 once the game is decided."""
    assert len(network()[0][0][0]) == len(INPUTS)
    for held, twin in held_twins():
        chance = network_chance(held)
        assert 0.0 < chance < 1.0
        z = logit(network(), distilled_inputs(held))
        assert chance == pytest.approx(survival(held) / (1.0 + math.exp(-z)))
        assert network_chance(twin) == chance
        held.outcome = "win"
        assert network_chance(held) == 1.0
        held.outcome = "collapse"
        assert network_chance(held) == 0.0
