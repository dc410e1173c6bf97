"""Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse, IEEE TCIAIG 2012).

One tree per observer (MO-ISMCTS): each seat has its own tree whose nodes are that seat's
information sets, not states; in a one-seat game (the troll) this is the single tree of the
player. Every iteration

1. draws a fresh determinization of the root through `State.determinize(decider, rng)`: hidden
   cards *and the future random stream* are resampled from what the deciding seat has seen, so
   the real deal and the real dice never enter the search;
2. descends, the seat to act choosing in its own tree among the actions legal in that
   determinization, by UCB1 in which an edge's exploration term counts how often it was
   *available* (not the parent's visits), maximising its own mean return;
3. after an action, moves every tree to the child keyed by what that tree's seat now sees
   (`observation(seat)`; in the other seats' trees the move itself is one edge, "someone
   moved", and what they saw of it is in that observation): different die results or revealed
   cards lead to different information sets, so no decision in a tree is conditioned on
   anything its seat would not really know (`single_tree=true` gives SO-ISMCTS instead: one
   tree for the decider, in which the other seats choose too);
4. expands new nodes, scores the leaf (with the game's own `Game.evaluate` when it has one,
   else by playing on at random to the end; `rollout_depth` and `rollout_agent` set another
   playout), and backs the values up every tree's path.

Because each iteration samples its own future and every decision inside the tree is taken in a
node that pools all futures consistent with the observer's information, the search does not
"average over clairvoyance" (Bjarnason, Fern & Tadepalli, ICAPS 2009): a move that wins only
after a lucky guess is valued at its real chance, not as a sure win.

The budget is `iterations`, or wall-clock `seconds` when that is positive (then results depend
on the machine's speed; iterations are the reproducible budget). With an iteration budget the
agent is deterministic given the rng handed to `choose`.

Speed (`benchmarks/ismcts_speed.py` times it against the original in one run): edges
are keyed by the action itself (actions are hashable, and equal exactly when their canonical
texts are), a node is a plain dict of its edges, the one-tree search (one seat, or
`single_tree`) has its own loop without per-seat dicts, the leaf scorer is looked up once per
decision, and UCB1 runs in locals over a table of logarithms. The game supplies a cheap
`info_key` and `determinize` (the troll's are in its rules.py; the wizard game's key is in its
observe.py, 2-3 times as fast as the JSON text on 5-player tables). None of this changes a
decision: the random stream is drawn in the same order and the same arithmetic ranks the edges.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from playtable.agents.greedy import GreedyAgent, evaluate, game_of
from playtable.agents.random_agent import RandomAgent
from playtable.agents.spec import build_agent
from playtable.core.chance import Chance
from playtable.core.protocol import Agent, Game, State


class _Edge:
    """An action taken at an information set, with its statistics and where it led (children
    keyed by the information set the action led to)."""

    __slots__ = ("action", "visits", "avail", "total", "children")

    def __init__(self, action: Any, seats: int, avail: int) -> None:
        self.action = action
        self.visits = 0
        self.avail = avail
        self.total = [0.0] * seats
        self.children: dict[Hashable, dict[Any, _Edge]] = {}


_Node = dict[Any, _Edge]
"""An information set of the observer: its edges by action."""

_OTHERS = ("\x00others",)
"""The edge key, in a seat's tree, of a move made by another seat (no game's action)."""

_LOG = [0.0]
"""`_LOG[n] == math.log(n)`, grown as availability counts grow (UCB1 takes one per edge)."""


def _log(n: int) -> float:
    while len(_LOG) <= n:
        _LOG.extend(math.log(k) for k in range(len(_LOG), 2 * len(_LOG)))
    return _LOG[n]


Scorer = Callable[[State], list[float]]
"""Scores a leaf world for every seat (returns at the end, else a playout and/or evaluate)."""


@dataclass
class IsmctsAgent:
    """ISMCTS with one tree per seat and UCB1 over available actions; see the module
    documentation."""

    # Remote bounds (`core.params`). An iteration's cost differs a hundredfold between games:
    # 2,000 iterations (a web test's bot) took under 1 s a move on the troll, 7-14 s on Rotator,
    # 27-110 s on a 5-player wizard game and 28-59 s on Star Dice (a physics throw a step) at
    # the dearest parameters (benchmarks/remote_bounds.py, on the shared 2-core machine, the
    # spread its load; the wizard game's own information-set key later cut its worst move of
    # those measured from 9.4 s to 2.7 s, the same positions, 6 Dec); the default 1,000 is half
    # that. A generic bound cannot be each game's: it stops a client's absurd budget, not a
    # slow game. The playouts multiply a move's cost by up to `rollout_depth` more steps of
    # another agent, so they are lab (command line) settings.
    iterations: int = field(default=1000, metadata={"range": (1, 2000)})
    """Iterations per decision (the reproducible budget)."""
    seconds: float = field(default=0.0, metadata={"range": (0.0, 10.0)})
    """If positive, search for this many seconds instead (not reproducible across machines)."""
    c: float = field(default=0.7, metadata={"range": (0.0, 10.0)})
    """UCB1 exploration constant, on returns rescaled to [0, 1] by the range seen so far."""
    rollout_depth: int = field(default=-1, metadata={"remote": False})
    """Playout steps before falling back to `Game.evaluate`. -1 (auto): none when the game has
    its own `evaluate` (the leaf is scored by the heuristic at once; 8 with a `rollout_agent`),
    otherwise play at random to the end (at most 10,000 steps)."""
    rollout_agent: str = field(default="", metadata={"remote": False})
    """An agent spec (e.g. a game's own bot) that plays the rollouts instead of random moves."""
    width: int = field(default=64, metadata={"range": (1, 128)})
    """Candidate actions per node (`State.sample_actions`; all of a discrete game's usually)."""
    single_tree: bool = False
    """With several seats, search one tree for the deciding seat only (SO-ISMCTS), in which
    the other seats also choose by the decider's information. The default keeps one tree per
    seat (MO-ISMCTS): each seat chooses in its own tree, keyed by its own observations."""
    info_sets: bool = True
    """Key children by the observer's observation (information sets). False merges all outcomes
    of an action into one child (open-loop search), which is cheaper but cruder."""
    _game: Any = field(default=None, init=False, repr=False, compare=False)
    last_stats: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    _rollout_policy: Any = field(default=None, init=False, repr=False, compare=False)

    name = "ismcts"

    def bind(self, game: Game[Any, Any]) -> None:
        self._game = game

    def choose(self, state: State, rng: Chance) -> Any:
        observer = state.current_player
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": 0.0, "edges": {}}
            return legal[0]
        search_rng = Chance(rng.next_u64())
        game = game_of(state, self._game)
        seats = state.num_players
        scorer = self._scorer(game, seats, search_rng)
        roots: dict[int, _Node] = {}
        bounds = [math.inf, -math.inf]
        multi = seats > 1 and not self.single_tree
        memo: list[Any] = [None, []]  # the root's last candidate list and its edges (_iterate_one)
        start = time.perf_counter()
        done = 0
        while True:
            if self.seconds > 0:
                if done > 0 and time.perf_counter() - start >= self.seconds:
                    break
            elif done >= self.iterations:
                break
            if done + 1 >= len(_LOG):
                _log(2 * done + 2)  # an edge is available at most once an iteration
            if multi:
                self._iterate_trees(state, roots, search_rng, scorer, seats, bounds)
            else:
                self._iterate_one(state, observer, roots.setdefault(observer, {}), search_rng,
                                  scorer, seats, bounds, memo)
            done += 1
        elapsed = time.perf_counter() - start
        real = {str(a): a for a in legal}
        root = roots.get(observer, {})
        ranked = [e for e in root.values() if e.action is not None and str(e.action) in real]
        self.last_stats = {
            "iterations": done,
            "seconds": elapsed,
            "edges": {str(e.action): (e.visits, e.total[observer] / max(1, e.visits)) for e in ranked},
        }
        if not ranked:
            return legal[0]
        best = max(ranked, key=lambda e: (e.visits, e.total[observer] / max(1, e.visits)))
        return real[str(best.action)]

    # -- one iteration, one tree (one seat, or SO-ISMCTS) ------------------------------------------
    def _iterate_one(self, root_state: State, observer: int, node: _Node, rng: Chance,
                     scorer: Scorer, seats: int, bounds: list[float], memo: list[Any]) -> None:
        world = root_state.determinize(observer, Chance(rng.next_u64()))
        path: list[_Edge] = []
        width, info_sets, c, sqrt, logs = self.width, self.info_sets, self.c, math.sqrt, _LOG
        # The protocol's own sample_actions copies the legal list when it is no longer than
        # `width` (drawing nothing from rng): read it in place then, as nothing here changes it.
        own = type(world).sample_actions is State.sample_actions
        while not world.is_terminal:
            if own:
                candidates = world.legal_actions()
                if len(candidates) > width:
                    candidates = world.sample_actions(rng, width)
            else:
                candidates = world.sample_actions(rng, width)
            if not candidates:
                break
            untried = []
            if not path and candidates is memo[0]:
                # The root's very legal list again (a determinization may keep the real
                # position's, the troll's does): every action has its edge, in the same order.
                available = memo[1]
                for edge in available:
                    edge.avail += 1
            else:
                available = []
                get = node.get
                for action in candidates:
                    edge = get(action)
                    if edge is None:
                        untried.append(action)
                    else:
                        edge.avail += 1
                        available.append(edge)
                if not path and not untried:
                    memo[0], memo[1] = candidates, available
            if untried:
                action = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                edge = node[action] = _Edge(action, seats, 1)
                world.apply(action)
                path.append(edge)
                # a new edge leads to a new node: nothing below it to look up or keep
                edge.children[world.info_key(observer) if info_sets else ""] = {}
                break
            # UCB1 as in `_select`, inline (this is the hot loop)
            lo, hi = bounds
            scale = 1.0 / (hi - lo) if hi > lo else 1.0
            offset = lo if hi > lo else 0.0
            player = world.current_player
            edge = available[0]
            best_score = -math.inf
            for other in available:
                avail, visits = other.avail, other.visits
                score = (other.total[player] / visits - offset) * scale + c * sqrt(
                    logs[avail] / visits)
                if score > best_score:
                    edge, best_score = other, score
            world.apply(edge.action)
            path.append(edge)
            key = world.info_key(observer) if info_sets else ""
            child = edge.children.get(key)
            if child is None:
                edge.children[key] = {}
                break
            node = child
        values = scorer(world)
        if seats > 1:
            _widen(bounds, values)
            self._back_up(path, values, seats)
            return
        v = values[0]  # one seat: `_widen` and `_back_up` inline
        if v < bounds[0]:
            bounds[0] = v
        if v > bounds[1]:
            bounds[1] = v
        for step in path:
            step.visits += 1
            step.total[0] += v

    # -- one iteration, one tree per seat (MO-ISMCTS) ----------------------------------------------
    def _iterate_trees(self, root_state: State, roots: dict[int, _Node], rng: Chance,
                       scorer: Scorer, seats: int, bounds: list[float]) -> None:
        observer = root_state.current_player
        world = root_state.determinize(observer, Chance(rng.next_u64()))
        nodes = [roots.setdefault(q, {}) for q in range(seats)]
        paths: list[list[_Edge]] = [[] for _ in range(seats)]
        expanded = False
        while not world.is_terminal and not expanded:
            player = world.current_player
            node = nodes[player]
            candidates = world.sample_actions(rng, self.width)
            if not candidates:
                break
            untried = []
            available = []
            for action in candidates:
                edge = node.get(action)
                if edge is None:
                    untried.append(action)
                else:
                    edge.avail += 1
                    available.append(edge)
            if untried:
                action = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                edge = node[action] = _Edge(action, seats, 1)
                expanded = True
            else:
                edge = self._select(available, player, bounds)
                action = edge.action
            world.apply(action)
            for q in range(seats):
                if q == player:
                    step = edge
                else:
                    # In another seat's tree the move is one edge ("someone moved"); what that
                    # seat saw of it is in the observation that keys the child.
                    step = nodes[q].get(_OTHERS) or nodes[q].setdefault(_OTHERS, _Edge(None, seats, 0))
                paths[q].append(step)
                key = world.info_key(q) if self.info_sets else ""
                child = step.children.get(key)
                if child is None:
                    child = step.children[key] = {}
                    expanded = True
                nodes[q] = child
        values = scorer(world)
        _widen(bounds, values)
        for path in paths:
            self._back_up(path, values, seats)

    @staticmethod
    def _back_up(path: list[_Edge], values: list[float], seats: int) -> None:
        for step in path:
            step.visits += 1
            total = step.total
            for s in range(seats):
                total[s] += values[s]

    def _select(self, edges: list[_Edge], player: int, bounds: list[float]) -> _Edge:
        """UCB1 over the available edges (the exploration term counts availability)."""
        lo, hi = bounds
        scale = 1.0 / (hi - lo) if hi > lo else 1.0
        offset = lo if hi > lo else 0.0
        best = edges[0]
        best_score = -math.inf
        c, sqrt, logs = self.c, math.sqrt, _LOG
        for edge in edges:
            avail, visits = edge.avail, edge.visits
            mean = (edge.total[player] / visits - offset) * scale
            score = mean + c * sqrt((logs[avail] if avail < len(logs) else _log(avail)) / visits)
            if score > best_score:
                best, best_score = edge, score
        return best

    def _policy(self, game: Game[Any, Any] | None) -> Any:
        if not self.rollout_agent or game is None:
            return None
        if self._rollout_policy is None:
            # the same agents as `playtable.agents.available_agents` (named here, not imported
            # from the package, which imports this module)
            agents: dict[str, Callable[[], Agent]] = {
                "random": RandomAgent, "greedy": GreedyAgent, "ismcts": IsmctsAgent, **game.bots()}
            self._rollout_policy = build_agent(game, agents, self.rollout_agent)
        return self._rollout_policy

    def _scorer(self, game: Game[Any, Any] | None, seats: int, rng: Chance) -> Scorer:
        """The leaf scorer of one decision: returns at the end; else `rollout_depth` playout
        steps (random, or by `rollout_agent`) and then `Game.evaluate` if not over."""
        depth = self.rollout_depth
        if depth < 0:
            has_own = game is not None and type(game).evaluate is not Game.evaluate
            depth = (8 if self.rollout_agent else 0) if has_own else 10_000
        policy = self._policy(game)
        if depth == 0 and game is not None:
            judge = game.evaluate

            def at_once(world: State) -> list[float]:
                if world.is_terminal:
                    return [float(r) for r in world.returns()]
                if seats == 1:
                    return [float(judge(world, 0))]
                return [float(judge(world, s)) for s in range(seats)]

            return at_once
        return lambda world: self._rollout(world, rng, game, seats, depth, policy)

    def _rollout(self, world: State, rng: Chance, game: Game[Any, Any] | None, seats: int,
                 depth: int, policy: Agent | None) -> list[float]:
        for _ in range(depth):
            if world.is_terminal:
                break
            if policy is not None:
                world.apply(policy.choose(world, rng))
                continue
            candidates = world.sample_actions(rng, self.width)
            world.apply(candidates[rng.below(len(candidates))] if len(candidates) > 1 else candidates[0])
        if world.is_terminal:
            return [float(r) for r in world.returns()]
        return [evaluate(game, world, s) for s in range(seats)]


def _widen(bounds: list[float], values: list[float]) -> None:
    """Stretch the range of returns seen so far (UCB1's rescaling) to take in `values`."""
    for v in values:
        if v < bounds[0]:
            bounds[0] = v
        if v > bounds[1]:
            bounds[1] = v
