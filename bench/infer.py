"""Witches: the expert dealing hidden hands around the voids shown (issue 56's inference,
domain/witches/determinize.py `INFER`) against the same expert sampling uniformly.

    BOT_ITERATIONS=0.2 python bench/infer.py SEED0 ROUNDS [--minutes M]

One seat (rotating with the round number) decides with inference, the others uniformly (the
flag is set before each decision); each game is one round of 3 seats, seeded SEED0 + i. A round
is won by the fewest fire points (ties shared). Prints the inferring seat's wins with a 95%
Wilson interval, its mean fire points against the uniform seats' mean, and CPU per decision.
"""
from __future__ import annotations

import importlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from domain.contract import SYSTEM
from domain.play import bot_move, fold
from domain.search import iterations_scale
from domain.witches import GAME

det = importlib.import_module("domain.witches.determinize")


def one_round(seed: int, inferring: int, n: int, cpu: dict) -> tuple:
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed)))
    while (actors := GAME.actors(state)) and state.round <= 1:
        actor = actors[0]
        if actor == SYSTEM:
            move = GAME.legal_moves(state, actor)[0]
        else:
            det.INFER = actor == inferring
            start = time.process_time()
            move = bot_move(GAME, state, actor, "expert", rng)
            cpu.setdefault(det.INFER, []).append(time.process_time() - start)
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
    det.INFER = True
    return state.history[0] if state.history else state.totals


def main(seed0: int, rounds: int, minutes: float, n: int = 3) -> None:
    wins, played, mine, theirs, cpu = 0.0, 0, 0.0, 0.0, {}
    begun = time.perf_counter()
    for i in range(rounds):
        if time.perf_counter() - begun > 60 * minutes:
            break
        seat = i % n
        points = one_round(seed0 + i, seat, n, cpu)
        best = min(points)
        low = [s for s in range(n) if points[s] == best]
        wins += (seat in low) / len(low)
        mine += points[seat]
        theirs += sum(p for s, p in enumerate(points) if s != seat) / (n - 1)
        played += 1
        print(f"  round {played} (seed {seed0 + i}, inferring seat {seat}): points {list(points)}", flush=True)
    lo, hi = wilson(wins, played)
    print(f"witches, BOT_ITERATIONS={iterations_scale():g}, {n} seats, seeds {seed0}-{seed0 + played - 1}: "
          f"{played} rounds, inference won {wins:g} ({100 * wins / max(1, played):.1f}%, 95% Wilson CI "
          f"{100 * lo:.1f}-{100 * hi:.1f}%, even is {100 / n:.0f}%), fire points {mine / max(1, played):.2f} "
          f"vs uniform {theirs / max(1, played):.2f} (lower is better), {time.perf_counter() - begun:.0f}s wall")
    for flag, spent in cpu.items():
        print(f"  {'inference' if flag else 'uniform'}: {len(spent)} decisions, CPU p50 "
              f"{1000 * percentile(spent, 0.5):.1f} ms, p99 {1000 * percentile(spent, 0.99):.1f} ms")


if __name__ == "__main__":
    args = sys.argv[1:]
    minutes = float(args[args.index("--minutes") + 1]) if "--minutes" in args else 14.0
    nums = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--minutes")]
    main(int(nums[0]), int(nums[1]), minutes)
