"""A search bot for any game of the contract (issue 34): determinized Monte Carlo tree search.

A bot sees only its seat's information: the platform hands it a *determinization* of the
state (domain/play.py's `bot_move`: the game's `determinize` resamples everything the seat
cannot see, from what it can). On top of that, this search draws several more
determinizations itself (root-parallel determinized UCT, "ensemble" ISMCTS: Cowling, Powley
and Whitehouse 2012, section 4), runs UCT in each, and plays the move with the most visits
summed over them. Each node keeps a reward per seat, and the seat to act picks its child by
its own reward (max^n UCT), so multi-seat games are searched as they are played.

A game may opt into single-observer information-set MCTS instead (SearchSpec.information_sets,
issue 56; Cowling, Powley and Whitehouse 2012, section 5): one tree over what the seat knows,
its edges keyed by move, a fresh determinization drawn for every iteration and the path's moves
replayed in it (so a chance outcome below the root is drawn afresh each time, not frozen in one
world's tree, and no per-world tree plans for a world it could tell apart), a child picked by
UCB1 among the moves legal in that world, its availability count in place of the parent's visits.

A playout follows the game's `rollout` policy (a cheap heuristic bot) for at most `depth`
moves, then asks the game's `evaluate(state, seat)` (a value in [0, 1]) unless the game ended
(its result: 1 for a winner, shared by tied winners). `prune` may keep the best few of a
state's moves (games with thousands of legal plays).

Deterministic: every draw comes from the rng it is given, and the budget is counted in
iterations (BOT_ITERATIONS scales every game's; tests set it low), so a seed and a budget give
the same move every time, and histories replay.
"""
from __future__ import annotations

import gc
import json
import math
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .contract import SYSTEM, Actor, Event, Move, Policy, State, is_seat


@dataclass(frozen=True)
class SearchRules:
    """The functions of a game's rules a search plays by (a GameDef has them all). A game's
    bots build theirs from the game's rules modules: its GameDef, which holds the bots, is built
    after them."""
    legal_moves: Callable[[State, Actor], list]
    decide: Callable[[State, Actor, Move, random.Random], list]
    evolve: Callable[[State | None, Event], State]
    actors: Callable[[State], list]
    result: Callable[[State], dict | None]
    determinize: Callable[[State, int, random.Random], State] | None = None
    # A search-only successor (issue 56): the state decide + evolve reach from (state, actor,
    # move, rng), built without validation or events; None: decide + evolve. A game that gives
    # one proves it equal to decide + evolve over every legal move of many positions.
    play: Callable[[State, Actor, Move, random.Random], State] | None = None


Rules = Any  # a GameDef or a SearchRules: legal_moves, decide, evolve, actors, result, determinize


_scale = 1.0


def iterations_scale() -> float:
    """The factor on every search's budget (1: as tuned; tests use far less)."""
    return _scale


def set_iterations_scale(factor: float) -> None:
    """Set by the composition roots from BOT_ITERATIONS (app.py, workers/__main__.py): the
    domain reads no environment."""
    global _scale
    _scale = float(factor)


@dataclass(frozen=True)
class SearchSpec:
    iterations: int  # per decision, before BOT_ITERATIONS
    rollout: Policy
    evaluate: Callable[[State, int], float]
    depth: int = 20
    determinizations: int = 8
    exploration: float = 0.7
    prune: Callable[[State, Any, list], list] | None = None
    # A game's own whole playout from a state (issue 56): the rewards per seat the playout
    # below gives, with the same draws from the rng, or None where it gives no shortcut. A game
    # that gives one proves it equal to the generic playout over many positions.
    playout: Callable[[State, random.Random], list | None] | None = None
    # Single-observer information-set MCTS (issue 56; Cowling, Powley & Whitehouse 2012, section
    # 5) in place of the root-parallel trees: one tree over the seat's information set, its edges
    # keyed by move (`key`), a fresh determinization of the root drawn for every iteration and
    # every move replayed in it (so chance below the root is drawn afresh, not frozen per world),
    # a child chosen by UCB1 among the moves legal in this iteration's world, with its
    # availability count (the iterations it could have been chosen in) in place of its parent's
    # visits. `determinizations` is not read in this mode.
    information_sets: bool = False


_UNKNOWN = object()  # a node's actor before it is first asked


class _Node:
    """A state of the tree. Its actor is asked once (the state never changes) and its untried
    moves' indexes are kept in ascending order, as the list built from them afresh was (issue 56:
    the same draws, less work per iteration)."""

    __slots__ = ("state", "moves", "children", "visits", "value", "actor", "untried", "only", "solo")

    def __init__(self, state: State, moves: list | None = None):
        self.state, self.moves = state, moves
        self.children: dict = {}  # move index -> _Node
        self.visits = 0
        self.value: list = []  # summed reward per seat
        self.actor: Any = _UNKNOWN
        self.untried: list | None = None
        self.only: _Node | None = None  # the child, once expanded, of a node with one move
        # A child of a node with one move: its reward is never read (only a choice among several
        # children reads theirs), so the back-up counts its visits alone.
        self.solo = False


class _Edge:
    """A node of the information-set tree, reached by one move key from its parent."""

    __slots__ = ("children", "visits", "available", "value")

    def __init__(self) -> None:
        self.children: dict = {}  # move key -> _Edge
        self.visits = 0
        self.available = 1  # the iterations this move was legal in at its parent (counting its first)
        self.value: list = []  # summed reward per seat


class Searcher:
    """The search level's policy: `Searcher(rules, n_seats_of, spec)(state, seat, rng)`."""

    def __init__(self, rules: Rules, n_seats: Callable[[State], int], spec: SearchSpec):
        self.rules, self.n_seats, self.spec = rules, n_seats, spec

    def __call__(self, state: State, seat: int, rng: random.Random) -> Move:
        moves = self._candidates(self.rules, state, seat)
        if len(moves) == 1:
            return moves[0]
        keys = [_key(m) for m in moves]
        totals = self._visits(state, seat, moves, rng, max(1, int(self.spec.iterations * iterations_scale())))
        return moves[max(range(len(moves)), key=lambda i: (totals[keys[i]], -i))]

    def policy(self, state: State, seat: int, rng: random.Random, budget: int) -> dict[str, float]:
        """The share of the root's visits each of the seat's candidate moves (by its key, `key`)
        got in a search of `budget` iterations: how strongly the search prefers it (the
        peeking detector's model of a player: api/moderation/signals.py)."""
        moves = self._candidates(self.rules, state, seat)
        if len(moves) == 1:
            return {_key(moves[0]): 1.0}
        totals = self._visits(state, seat, moves, rng, max(1, budget))
        spent = sum(totals.values()) or 1
        return {k: v / spent for k, v in totals.items()}

    def _visits(self, state: State, seat: int, moves: list[Move], rng: random.Random, budget: int) -> dict[str, int]:
        """The root's visits per move key, summed over the determinizations."""
        rules = self.rules
        keys = [_key(m) for m in moves]
        if self.spec.information_sets:
            with collector_paused():  # the tree, a local of `_grow`, freed before the collector is back
                tree = self._grow(state, seat, moves, rng, budget)
                return dict(zip(keys, tree))
        worlds = max(1, min(self.spec.determinizations, budget))
        totals = dict.fromkeys(keys, 0)
        root: _Node | None
        child: _Node | None
        with collector_paused():
            for w in range(worlds):
                world = rules.determinize(state, seat, rng) if rules.determinize else state
                root = _Node(world, moves=list(moves))
                for _ in range(budget // worlds + (1 if w < budget % worlds else 0)):
                    self._iterate(rules, root, rng)
                for i, child in root.children.items():
                    totals[keys[i]] += child.visits
                # The tree freed while the collector is off (issue 56): left alive past the
                # `with`, its objects would be young ones for the collector's first pass to walk
                root = child = None
        return totals

    def appraise(self, state: State, seat: int, rng: random.Random, budget: int) -> float:
        """The search's estimate of the seat's reward from `state` (a winning chance in [0, 1]):
        the mean reward of `budget` iterations from the root, over determinizations drawn from
        what the seat sees (game analysis: domain/analysis.py). Whoever is to act at the root
        (the seat or another), each plays by its own reward, as in a decision; a finished
        state is worth its result."""
        rules = self.rules
        if _actor(rules, state) is None:
            return _rewards(rules.result(state), self.n_seats(state))[seat]
        if self.spec.information_sets:
            with collector_paused():
                reward_visits = self._grow(state, seat, None, rng, budget)
            return reward_visits[0] / reward_visits[1] if reward_visits[1] else 0.5
        worlds = max(1, min(self.spec.determinizations, budget))
        reward = visits = 0.0
        root: _Node | None
        with collector_paused():
            for w in range(worlds):
                root = _Node(rules.determinize(state, seat, rng) if rules.determinize else state)
                for _ in range(budget // worlds + (1 if w < budget % worlds else 0)):
                    self._iterate(rules, root, rng)
                reward, visits = reward + root.value[seat], visits + root.visits
                root = None  # freed while the collector is off (as in `_visits`)
        return reward / visits if visits else 0.5

    # ---- one iteration: select, expand, play out, back up --------------------------------------

    def _iterate(self, rules: Rules, root: _Node, rng: random.Random) -> None:
        path, node = [root], root
        while True:
            only = node.only
            if only is not None:  # one move: the one `_select` would pick
                node = only
                path.append(node)
                continue
            actor = node.actor
            if actor is _UNKNOWN:
                actor = node.actor = _actor(rules, node.state)
            if actor is None:
                break
            moves = node.moves
            if moves is None:
                moves = node.moves = self._candidates(rules, node.state, actor)
            children = node.children
            if len(children) < len(moves):
                untried = node.untried
                if untried is None:
                    untried = node.untried = [i for i in range(len(moves)) if i not in children]
                i = rng.choice(untried)
                untried.remove(i)
                child = children[i] = _Node(_play(rules, node.state, actor, moves[i], rng))
                if len(moves) == 1:
                    child.solo = True
                    node.only = child
                node = child
                path.append(node)
                break
            # every move tried (a node of one move was passed by `only` above): the best by UCB1
            node = self._select(node, actor)
            path.append(node)
        rewards = self._playout(rules, node.state, rng)
        for visited in path:
            visited.visits += 1
            if visited.solo:
                continue
            value = visited.value
            if value:
                for s, r in enumerate(rewards):
                    value[s] += r
            else:
                visited.value = list(rewards)

    def _grow(self, state: State, seat: int, moves: list | None, rng: random.Random, budget: int) -> list:
        """An information-set tree of `budget` iterations from `state` as `seat` sees it: the
        visits of each of `moves` (the root's, in order), or with no moves given (an appraisal)
        [the seat's summed reward, the root's visits]."""
        tree = _Edge()
        for _ in range(budget):
            self._iterate_sets(self.rules, tree, state, seat, moves, rng)
        if moves is None:
            return [tree.value[seat] if tree.value else 0.0, tree.visits]
        edges = [tree.children.get(_key_fast(m)) for m in moves]
        return [edge.visits if edge is not None else 0 for edge in edges]

    def _iterate_sets(self, rules: Rules, root: _Edge, state: State, seat: int, moves: list | None,
                      rng: random.Random) -> None:
        """One information-set iteration: a fresh world drawn from the seat's view of `state`,
        the tree descended in it (the root's moves are `moves`, the seat's own, the same in
        every world; below, each state's candidates), the first move of the path the tree has
        not yet seen there expanded (drawn at random), a playout, the rewards backed up."""
        world = rules.determinize(state, seat, rng) if rules.determinize else state
        path, node, expanded = [root], root, False
        exploration, sqrt, log = self.spec.exploration, math.sqrt, math.log
        while not expanded:
            actor = _actor(rules, world)
            if actor is None:
                break
            if moves is None:
                moves = self._candidates(rules, world, actor)
            children = node.children
            if len(moves) == 1:
                chosen, key = moves[0], _key_fast(moves[0])
                child = children.get(key)
                if child is None:
                    child = children[key] = _Edge()
                    expanded = True
                else:
                    child.available += 1
            else:
                keys = [_key_fast(m) for m in moves]
                untried = [i for i, k in enumerate(keys) if k not in children]
                if untried:
                    i = rng.choice(untried)
                    for k in keys:
                        present = children.get(k)
                        if present is not None:
                            present.available += 1
                    child = children[keys[i]] = _Edge()
                    expanded = True
                else:
                    who = actor if isinstance(actor, int) else 0
                    child, best_score, i = None, 0.0, 0
                    for j, k in enumerate(keys):
                        edge = children[k]
                        edge.available += 1
                        visits = edge.visits
                        score = edge.value[who] / visits + exploration * sqrt(log(edge.available) / visits)
                        if child is None or score > best_score:
                            child, best_score, i = edge, score, j
                    assert child is not None
                chosen = moves[i]
            world = _play(rules, world, actor, chosen, rng)
            node, moves = child, None
            path.append(node)
        rewards = self._playout(rules, world, rng)
        for visited in path:
            visited.visits += 1
            value = visited.value
            if value:
                for s, r in enumerate(rewards):
                    value[s] += r
            else:
                visited.value = list(rewards)

    def _select(self, node: _Node, actor: Actor) -> _Node:
        """The child with the best UCB1 score by the actor's reward (the first of equals)."""
        who = actor if isinstance(actor, int) else 0
        log_n = math.log(node.visits + 1)
        exploration, sqrt = self.spec.exploration, math.sqrt
        best, best_score = None, 0.0
        for child in node.children.values():
            visits = child.visits
            score = (child.value[who] / visits if visits else 0.0) + exploration * sqrt(log_n / (visits + 1e-9))
            if best is None or score > best_score:
                best, best_score = child, score
        if best is None:
            raise ValueError("no child to select")
        return best

    def _playout(self, rules: Rules, state: State, rng: random.Random) -> list[float]:
        if self.spec.playout is not None:
            rewards = self.spec.playout(state, rng)
            if rewards is not None:
                return rewards
        for _ in range(self.spec.depth):
            actor = _actor(rules, state)
            if actor is None:
                return _rewards(rules.result(state), self.n_seats(state))
            move = self.spec.rollout(state, actor, rng) if is_seat(actor) else rules.legal_moves(state, actor)[0]
            state = _play(rules, state, actor, move, rng)
        if _actor(rules, state) is None:
            return _rewards(rules.result(state), self.n_seats(state))
        return [self.spec.evaluate(state, s) for s in range(self.n_seats(state))]

    def _candidates(self, rules: Rules, state: State, actor: Actor) -> list[Move]:
        moves = rules.legal_moves(state, actor)
        if self.spec.prune is not None and actor != SYSTEM and len(moves) > 1:
            moves = self.spec.prune(state, actor, moves) or moves
        return moves


_paused = threading.Lock()
_pausing = {"searches": 0, "was_enabled": False}


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a search runs (issue 56), back as it was after the
    last of the process's concurrent searches. A search makes tens of thousands of short-lived
    objects (nodes, states, memo entries) and no cycle among them: reference counting frees a
    tree whole, while the collector's passes over them, as they pile up, were 30% of a Witches
    decision's CPU (3% in Splendor). Decisions are unchanged: the collector decides nothing."""
    with _paused:
        if _pausing["searches"] == 0:
            _pausing["was_enabled"] = gc.isenabled()
            gc.disable()
        _pausing["searches"] += 1
    try:
        yield
    finally:
        with _paused:
            _pausing["searches"] -= 1
            if _pausing["searches"] == 0 and _pausing["was_enabled"]:
                gc.enable()


def _actor(rules: Rules, state: State) -> Actor | None:
    """Who moves next in the search (simultaneous phases are played one seat at a time)."""
    actors = rules.actors(state)
    return actors[0] if actors else None


def _play(rules: Rules, state: State, actor: Actor, move: Move, rng: random.Random) -> State:
    fast = getattr(rules, "play", None)
    if fast is not None:
        return fast(state, actor, move, rng)
    for event in rules.decide(state, actor, move, rng):
        state = rules.evolve(state, event)
    return state


def _rewards(result: dict | None, n: int) -> list[float]:
    winners: Sequence[int] = (result or {}).get("winners") or []
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]


def _key_fast(move: Move) -> str:
    """A move's key inside one information-set search: its repr (a game builds a move's dict in
    one order, so the same move has the same repr in every world; cheaper than `_key`)."""
    return repr(move)


def _key(move: Move) -> str:
    return json.dumps(move, sort_keys=True)


key = _key  # a move's key, as `policy` names it
rewards = _rewards  # a result's reward per seat, as a playout ends (a game's own playout: SearchSpec.playout)
