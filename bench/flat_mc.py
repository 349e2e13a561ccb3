"""A flat Monte Carlo baseline per game (issue 56), kept apart from the shipped levels, and the
bench that plays each game's `expert` against it at the same CPU per decision.

    python bench/flat_mc.py GAME SEED0 GAMES [--minutes M] [--k 8] [--cpu-ms MS]

The baseline (`FlatMC`): at a decision with more than one legal move, each move is applied once
to the determinization handed over (as `bot_move` hands a level: its seat's view only) and rated
by the game's own static evaluation (the expert's `evaluate`, a finished game by its result); the
top `k` go to a UCB1 bandit at the root. Each iteration draws a fresh determinization from the
seat's view (the game's `determinize`), plays the arm's move in it, then a light rollout (the
game's rollout policy, the expert's depth, then `evaluate`): its reward is the seat's. It stops
when its CPU (time.process_time) reaches its budget, and plays the most visited arm. No tree, no
priors, no pruning beyond the one-move top k: about a hundred lines, as an outsider would write.

The budget is the expert's: the mean CPU of the expert's searched decisions so far in the same
match (`--cpu-ms` before the first one), so both spend the same per decision whatever the load.
Witches' passes and spell choices are played by `careful`, as the expert plays them.

The match: the expert in one seat, the baseline in the others (the game's fewest seats), the
expert's seat rotating with the game number, game i seeded SEED0 + i. It prints the expert's
wins (a shared win counts as a share), the 95% Wilson interval, and decision CPU p50/p99 per level.
"""
from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from domain import registry
from domain.analysis import searcher_of
from domain.contract import SYSTEM
from domain.play import bot_move, fold
from domain.search import _actor, _play, _rewards

LEVEL = "flat-mc"


def _heuristic_phase(game, state) -> str | None:
    """The level a game's expert hands a non-searched decision to (Witches: passing, spells)."""
    if game.name == "witches":
        from domain.witches.state import PLAYING
        return None if state.phase == PLAYING else "careful"
    return None


class FlatMC:
    def __init__(self, game, k: int = 8, cpu_s: float = 0.4, exploration: float = math.sqrt(2)):
        self.game, self.k, self.cpu_s, self.c = game, k, cpu_s, exploration
        self.search = searcher_of(game)
        self.iterations: list[int] = []

    def __call__(self, state, seat: int, rng: random.Random) -> dict:
        game, search = self.game, self.search
        rules, spec, n = search.rules, search.spec, search.n_seats(state)
        start = time.process_time()
        fallback = _heuristic_phase(game, state)
        if fallback is not None:
            return game.bots[fallback](state, seat, rng)
        moves = rules.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]

        def value(after) -> float:
            if _actor(rules, after) is None:
                return _rewards(rules.result(after), n)[seat]
            return spec.evaluate(after, seat)

        rated = sorted(((value(_play(rules, state, seat, m, rng)), i) for i, m in enumerate(moves)),
                       key=lambda vi: (-vi[0], vi[1]))
        arms = [moves[i] for _, i in rated[: self.k]]
        visits, totals = [0] * len(arms), [0.0] * len(arms)
        t = 0
        while t < len(arms) or time.process_time() - start < self.cpu_s:
            if t < len(arms):
                a = t
            else:
                log_t = math.log(t)
                a = max(range(len(arms)), key=lambda j: totals[j] / visits[j] + self.c * math.sqrt(log_t / visits[j]))
            world = rules.determinize(state, seat, rng) if rules.determinize else state
            after = _play(rules, world, seat, arms[a], rng)
            totals[a] += search._playout(rules, after, rng)[seat]
            visits[a] += 1
            t += 1
        self.iterations.append(t)
        return arms[max(range(len(arms)), key=lambda j: (visits[j], -j))]


def play(game, levels: dict, seed: int, baseline: FlatMC, cpu: dict) -> dict:
    """One game; levels maps seat -> 'expert' or LEVEL; every seat decides from its own
    determinization (bot_move's); CPU per decision appended to cpu[level] (seconds)."""
    rng = random.Random(seed)
    state = fold(game, game.setup(game.default_options(), len(levels), random.Random(seed)))
    while actors := game.actors(state):
        actor = actors[0]
        if actor == SYSTEM or actor not in levels:
            move = game.legal_moves(state, actor)[0]
        else:
            level = levels[actor]
            start = time.process_time()
            if level == LEVEL:
                seen = game.determinize(state, actor, rng) if game.determinize is not None else state
                move = baseline(seen, actor, rng)
            else:
                move = bot_move(game, state, actor, level, rng)
            spent = time.process_time() - start
            cpu.setdefault(level, []).append(spent)
            if level != LEVEL and spent > 0.002:  # a searched decision: the baseline's budget follows
                searched = cpu.setdefault("expert searched", [])
                searched.append(spent)
                baseline.cpu_s = sum(searched) / len(searched)
        for event in game.decide(state, actor, move, rng):
            state = game.evolve(state, event)
    return game.result(state)


def match(name: str, seed0: int, games: int, minutes: float = 14.0, k: int = 8, cpu_ms: float = 400.0,
          verbose: bool = True) -> dict:
    game = registry.get(name)
    assert game is not None, f"unknown game {name}"
    n = game.min_seats
    baseline = FlatMC(game, k=k, cpu_s=cpu_ms / 1000)
    wins, played, cpu = 0.0, 0, {}
    begun = time.perf_counter()
    for i in range(games):
        if time.perf_counter() - begun > 60 * minutes:
            break
        seat = i % n
        levels = {s: ("expert" if s == seat else LEVEL) for s in range(n)}
        result = play(game, levels, seed0 + i, baseline, cpu)
        winners = result.get("winners") or []
        if seat in winners:
            wins += 1 / len(winners)
        played += 1
        if verbose:
            print(f"  game {played} (seed {seed0 + i}, expert seat {seat}): winners {winners} "
                  f"(expert running {wins:g}/{played})", flush=True)
    low, high = wilson(wins, played)
    print(f"{name}: expert vs {LEVEL} (k={k}), {n} seats, seeds {seed0}-{seed0 + played - 1}: {played} games, "
          f"expert won {wins:g} ({100 * wins / max(1, played):.1f}%, 95% Wilson CI "
          f"{100 * low:.1f}-{100 * high:.1f}%), {time.perf_counter() - begun:.0f}s wall")
    for level in ("expert", LEVEL):
        spent = cpu.get(level, [])
        if spent:
            print(f"  {level}: {len(spent)} decisions, CPU p50 {1000 * percentile(spent, 0.5):.1f} ms, "
                  f"p99 {1000 * percentile(spent, 0.99):.1f} ms")
    if baseline.iterations:
        its = baseline.iterations
        print(f"  {LEVEL}: iterations per searched decision p50 {percentile(its, 0.5):.0f}")
    return {"wins": wins, "played": played, "cpu": cpu}


if __name__ == "__main__":
    args = sys.argv[1:]

    def option(flag: str, default: float) -> float:
        return float(args[args.index(flag) + 1]) if flag in args else default
    positional = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or not args[i - 1].startswith("--"))]
    if len(positional) < 3:
        print(__doc__)
        sys.exit(2)
    match(positional[0], int(positional[1]), int(positional[2]), minutes=option("--minutes", 14.0),
          k=int(option("--k", 8)), cpu_ms=option("--cpu-ms", 400.0))
