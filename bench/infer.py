"""Witches: the expert dealing hidden hands around the voids shown (issue 56's inference,
domain/witches/determinize.py `INFER`) against the same expert sampling uniformly.

    BOT_ITERATIONS=0.2 python bench/infer.py SEED0 ROUNDS [--minutes M]
    python bench/infer.py --accuracy SEED0 ROUNDS [--worlds 20]

One seat (rotating with the round number) decides with inference, the others uniformly (the
flag is set before each decision); each game is one round of 3 seats, seeded SEED0 + i. A round
is won by the fewest fire points (ties shared). Prints the inferring seat's wins with a 95%
Wilson interval, its mean fire points against the uniform seats' mean, and CPU per decision.

`--accuracy`: how right the worlds are, apart from play. Rounds of three `careful` seats; at
every decision of the playing phase where another seat has shown a void, `--worlds` worlds are
drawn from the deciding seat's view with inference and as many uniformly (the same rng seeds),
and each counts the other seats' unseen cards it put in the hand that truly holds them. Prints
the share placed right, each way.
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


def accuracy(seed0: int, rounds: int, worlds: int = 20, n: int = 3) -> dict[bool, float]:
    right = {True: 0, False: 0}
    total = {True: 0, False: 0}
    positions = 0
    for i in range(rounds):
        rng = random.Random(seed0 + i)
        state = fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed0 + i)))
        while (actors := GAME.actors(state)) and state.round <= 1:
            actor = actors[0]
            if actor != SYSTEM and state.voids and any(state.voids[s] for s in range(n) if s != actor):
                positions += 1
                for flag in (True, False):
                    det.INFER = flag
                    for k in range(worlds):
                        world = det.determinize(state, actor, random.Random(k))
                        for other in range(n):
                            if other != actor:
                                right[flag] += len(set(state.hands[other]) & set(world.hands[other]))
                                total[flag] += len(state.hands[other])
                det.INFER = True
            move = GAME.legal_moves(state, actor)[0] if actor == SYSTEM else bot_move(GAME, state, actor, "careful", rng)
            for event in GAME.decide(state, actor, move, rng):
                state = GAME.evolve(state, event)
    shares = {flag: right[flag] / max(1, total[flag]) for flag in right}
    print(f"witches, {n} seats, seeds {seed0}-{seed0 + rounds - 1}: {positions} decisions with a void shown, "
          f"{worlds} worlds each way: unseen cards placed in the hand that holds them, inference "
          f"{100 * shares[True]:.1f}%, uniform {100 * shares[False]:.1f}%")
    return shares


if __name__ == "__main__":
    args = sys.argv[1:]
    minutes = float(args[args.index("--minutes") + 1]) if "--minutes" in args else 14.0
    worlds = int(args[args.index("--worlds") + 1]) if "--worlds" in args else 20
    nums = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] not in ("--minutes", "--worlds"))]
    if "--accuracy" in args:
        accuracy(int(nums[0]), int(nums[1]), worlds)
    else:
        main(int(nums[0]), int(nums[1]), minutes)
