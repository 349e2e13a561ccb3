"""A flat Monte Carlo baseline per game (issue 56), kept apart from the shipped levels, and the
bench that plays each game's `expert` against it at the same CPU per decision.

    python -m bench.flat_mc GAME A B GAMES [--seed0 S] [--seats N] [--minutes M] [--k 8] [--cpu-ms MS]
    python -m bench.flat_mc splendor expert flat-mc 40      # the expert against the baseline
    python -m bench.flat_mc witches flat-mc careful 20      # any two levels: the game's, flat-mc, lookahead
    python -m bench.flat_mc GAME SEED0 GAMES                # the first form: expert against flat-mc

The baseline (`FlatMC`): at a decision with more than one legal move, each move is applied once
to the determinization handed over (as `bot_move` hands a level: its seat's view only) and rated
by the game's own static evaluation (the expert's `evaluate`, a finished game by its result); the
top `k` go to a UCB1 bandit at the root. Each iteration draws a fresh determinization from the
seat's view (the game's `determinize`), plays the arm's move in it, then a light rollout (the
game's rollout policy, the expert's depth, then `evaluate`): its reward is the seat's. It stops
when its CPU (time.process_time) reaches its budget, and plays the most visited arm. No tree, no
priors, no pruning beyond the one-move top k (past MANY_MOVES legal moves, SetUp's and Small
World's thousands, the game's own `prune` cuts them first): about a hundred lines, as an outsider
would write. bench/ only: no level the server ships can import it (tests/test_architecture.py).

The budget is the expert's: the mean CPU of the expert's searched decisions so far in the same
match (`--cpu-ms` before the first one), so both spend the same per decision whatever the load.
Witches' passes and spell choices are played by `careful`, as the expert plays them.

The match (`match`): level A in one seat, level B in the others (the game's fewest seats), A's
seat rotating with the game number, game i seeded SEED0 + i (each game `one_game`, which
bench/ladder.py plays too). A level is one of the game's own
(`bot_move`), `flat-mc` or `lookahead` (the one-move lookahead of bench/lookahead*.py), each
handed its seat's determinization. It prints A's wins (a shared win counts as a share), the 95%
Wilson interval (bench/common.py), and decision CPU p50/p99 per level. With three seats or more
it also prints A's pairwise score (`pairwise`): the share of the other seats A finished ahead
of, a tie half, by the result's scores (even is 50% whatever the seats: the 3-6 seat games'
measure against the same bar as a 2-seat game's wins).
"""
from __future__ import annotations

import argparse
import math
import os
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
LOOKAHEAD = "lookahead"
MANY_MOVES = 200  # more legal moves than this are cut to the game's `prune` before the one-move rating


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
        if len(moves) > MANY_MOVES:  # thousands of plays (SetUp, Small World): the game's own cut first
            moves = search._candidates(rules, state, seat)

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


def lookahead_policy(game):
    """The game's one-move lookahead (bench/lookahead*.py), or None."""
    if game.name == "setup":
        from bench.lookahead_setup import setup_lookahead
        return setup_lookahead
    if game.name == "fairy-tile":
        from bench.lookahead_fairy_tile import lookahead_policy as fairy_tile_lookahead
        return fairy_tile_lookahead
    from bench.lookahead import POLICIES
    return POLICIES.get(game.name)


def levels_of(game) -> list[str]:
    """What `match` can seat: the game's own levels, the baseline and the lookahead."""
    return [*game.bots, LEVEL] + ([LOOKAHEAD] if lookahead_policy(game) else [])


def play(game, levels: dict, seed: int, baseline: FlatMC, cpu: dict, budget_from: str | None = "expert",
         history: list | None = None) -> dict:
    """One game; levels maps seat -> a level of `levels_of(game)`; every seat decides from its
    own determinization (bot_move's); CPU per decision appended to cpu[level] (seconds). The
    baseline's budget follows the mean CPU of `budget_from`'s searched decisions (over 2 ms);
    None: it stays as it is (bench.ladder's fixed budget). `history`, if given, gets the game's
    events (bench.fold_cost folds them)."""
    rng = random.Random(seed)
    history = [] if history is None else history
    history += game.setup(game.default_options(), len(levels), random.Random(seed))
    state = fold(game, history)
    policies = {LEVEL: baseline, LOOKAHEAD: lookahead_policy(game)}
    while actors := game.actors(state):
        actor = actors[0]
        if actor == SYSTEM or actor not in levels:
            move = game.legal_moves(state, actor)[0]
        else:
            level = levels[actor]
            start = time.process_time()
            if level in policies:
                seen = game.determinize(state, actor, rng) if game.determinize is not None else state
                move = policies[level](seen, actor, rng)
            else:
                move = bot_move(game, state, actor, level, rng)
            spent = time.process_time() - start
            cpu.setdefault(level, []).append(spent)
            if level == budget_from and spent > 0.002:  # a searched decision: the baseline's budget follows
                searched = cpu.setdefault(f"{level} searched", [])
                searched.append(spent)
                baseline.cpu_s = sum(searched) / len(searched)
        for event in game.decide(state, actor, move, rng):
            state = game.evolve(state, event)
            history.append(event)
    return game.result(state)


def one_game(game, a: str, b: str, n: int, seat: int, seed: int, baseline: FlatMC, cpu: dict,
             budget_from: str | None = "expert") -> dict:
    """One game of level `a` in `seat` against level `b` in the other n - 1 seats, seeded `seed`
    (`play`'s): its winners and scores, `a`'s win (a shared win as a share), its pairwise score
    (3 seats or more, else None) and the decision CPU of this game alone per level (ms; the
    match's `cpu` keeps every game's, which the baseline's budget follows)."""
    before = {level: len(spent) for level, spent in cpu.items()}
    result = play(game, {s: (a if s == seat else b) for s in range(n)}, seed, baseline, cpu, budget_from)
    winners = result.get("winners") or []
    return {"seat": seat, "seed": seed, "winners": winners, "scores": result.get("scores"),
            "won": 1 / len(winners) if seat in winners else 0.0,
            "pairwise": pairwise(result, seat, n) if n > 2 else None,
            "cpu_ms": {level: [round(1000 * t, 2) for t in cpu[level][before.get(level, 0):]]
                       for level in dict.fromkeys((a, b)) if level in cpu}}


def pairwise(result: dict, seat: int, n: int) -> float | None:
    """The share of the other n - 1 seats `seat` finished ahead of (a tie counts half), by the
    result's `scores`; which way is better is read from the winners (Witches' fewest fire points,
    the others' most). None when the result has no scores per seat."""
    scores, winners = result.get("scores"), result.get("winners") or []
    if not isinstance(scores, list) or len(scores) != n or not winners:
        return None
    lower_wins = scores[winners[0]] == min(scores) and scores[winners[0]] != max(scores)
    ahead = 0.0
    for other in range(n):
        if other == seat:
            continue
        mine, theirs = scores[seat], scores[other]
        if mine == theirs:
            # equal scores: the game's own tie-break decided who is among the winners
            ahead += 0.5 if (seat in winners) == (other in winners) else float(seat in winners)
        else:
            ahead += float((mine < theirs) == lower_wins)
    return ahead / (n - 1)


def match(name: str, seed0: int, games: int, minutes: float = 14.0, k: int = 8, cpu_ms: float = 400.0,
          verbose: bool = True, a: str = "expert", b: str = LEVEL, seats: int | None = None) -> dict:
    """`games` games of level `a` against level `b`: `a` in one seat, `b` in the others (the
    game's fewest seats unless `seats`), `a`'s seat rotating with the game number, game i seeded
    seed0 + i. Prints `a`'s wins (a shared win as a share) with a 95% Wilson interval and the
    decision CPU p50/p99 per level. The baseline's CPU budget: the mean of `a`'s (else `b`'s)
    searched decisions so far when that level is `expert`, else `cpu_ms`."""
    game = registry.get(name)
    assert game is not None, f"unknown game {name}"
    known = levels_of(game)
    for level in (a, b):
        assert level in known, f"{name} has no level {level!r}: {', '.join(known)}"
    n = seats or game.min_seats
    baseline = FlatMC(game, k=k, cpu_s=cpu_ms / 1000)
    budget_from = a if a == "expert" else b
    wins, played, cpu, ahead = 0.0, 0, {}, []
    begun = time.perf_counter()
    for i in range(games):
        if time.perf_counter() - begun > 60 * minutes:
            break
        seat = i % n
        one = one_game(game, a, b, n, seat, seed0 + i, baseline, cpu, budget_from)
        wins += one["won"]
        played += 1
        share = one["pairwise"]
        if share is not None:
            ahead.append(share)
        if verbose:
            places = f", ahead of {share * (n - 1):g} of {n - 1}, scores {one['scores']}" if share is not None else ""
            print(f"  game {played} (seed {seed0 + i}, {a} seat {seat}): winners {one['winners']}{places} "
                  f"({a} running {wins:g}/{played})", flush=True)
    low, high = wilson(wins, played)
    print(f"{name}: {a} vs {b}{f' (k={k})' if LEVEL in (a, b) else ''}, {n} seats, seeds {seed0}-{seed0 + played - 1}: "
          f"{played} games, {a} won {wins:g} ({100 * wins / max(1, played):.1f}%, 95% Wilson CI "
          f"{100 * low:.1f}-{100 * high:.1f}%, even is {100 / n:.0f}%), {time.perf_counter() - begun:.0f}s wall, "
          f"load {os.getloadavg()[0]:.1f}")
    if ahead:
        beaten, pairs = sum(ahead) * (n - 1), len(ahead) * (n - 1)
        low, high = wilson(beaten, pairs)
        print(f"  pairwise: {a} finished ahead of {beaten:g} of {pairs} opponents ({100 * beaten / pairs:.1f}%, "
              f"95% Wilson {100 * low:.1f}-{100 * high:.1f}%, even is 50%; the pairs of one game are not independent)")
    for level in dict.fromkeys((a, b)):
        spent = cpu.get(level, [])
        if spent:
            print(f"  {level}: {len(spent)} decisions, CPU p50 {1000 * percentile(spent, 0.5):.1f} ms, "
                  f"p99 {1000 * percentile(spent, 0.99):.1f} ms")
    if baseline.iterations:
        its = baseline.iterations
        print(f"  {LEVEL}: iterations per searched decision p50 {percentile(its, 0.5):.0f}")
    return {"wins": wins, "played": played, "cpu": cpu, "pairwise": ahead}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.flat_mc", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("levels", nargs="*", help="A B GAMES (A against B), or SEED0 GAMES (expert against flat-mc)")
    parser.add_argument("--seed0", type=int, default=1, help="game i is seeded SEED0 + i (default 1)")
    parser.add_argument("--seats", type=int, help="seats per game (default: the game's fewest)")
    parser.add_argument("--minutes", type=float, default=14.0, help="stop starting games after this (default 14)")
    parser.add_argument("--k", type=int, default=8, help="the baseline's arms (default 8)")
    parser.add_argument("--cpu-ms", type=float, default=400.0,
                        help="the baseline's CPU per decision until the expert's first searched one (default 400)")
    args = parser.parse_args(argv)
    if len(args.levels) == 2:  # the first form: GAME SEED0 GAMES
        a, b, games, seed0 = "expert", LEVEL, int(args.levels[1]), int(args.levels[0])
    elif len(args.levels) == 3:
        (a, b, count), seed0 = args.levels, args.seed0
        games = int(count)
    else:
        parser.error("give A B GAMES (or SEED0 GAMES)")
    match(args.game, seed0, games, minutes=args.minutes, k=args.k, cpu_ms=args.cpu_ms, a=a, b=b, seats=args.seats)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
