"""The static scores a troll search can rate its horizon with (the bots' `leaf=` option).

- "tuned": `evaluation.score` with `TUNED_WEIGHTS`;
- "heuristic": the heuristic bot's own `evaluate`;
- "learned": `learned.win_chance`, a win chance fitted to how the lab's games ended;
- "distilled": `learned.distilled_chance`, a logistic model of the depth-2 search's own values;
- "network": `value_network.network_chance`, a small network fitted to the same values;
- "rows": `learned.rows_chance`, a win chance fitted to how the games ended that also sees the
  thinner row and the next awakening's risks;
- "draws": `learned.draws_chance`, "rows" that also weighs both rows against the cards still to
  come (`learned.draw_features`).

Each takes a position held at the end of a turn and reads only what the player sees.
"""

from __future__ import annotations

from collections.abc import Callable

from playtable.games.troll.bots import evaluate as heuristic_evaluate
from playtable.games.troll.evaluation import TUNED_WEIGHTS, score
from playtable.games.troll.learned import distilled_chance, draws_chance, rows_chance, win_chance
from playtable.games.troll.rules import TrollState
from playtable.games.troll.value_network import network_chance

Value = Callable[[TrollState], float]


def tuned_score(state: TrollState) -> float:
    return score(state, TUNED_WEIGHTS)


LEAVES: dict[str, Value] = {"tuned": tuned_score, "heuristic": heuristic_evaluate, "learned": win_chance,
                            "distilled": distilled_chance, "network": network_chance, "rows": rows_chance,
                            "draws": draws_chance}
