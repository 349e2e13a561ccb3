"""SetUp: how right the inferred racks are (issue 56; domain/setup_game/infer.py), apart from play.

    python -m bench.setup_infer SEED0 GAMES [--setter greedy|flat-mc] [--cpu-ms 40] [--pool 32] [--beta B]

2-seat games, seeded SEED0 + i: an observer (greedy, the seat rotating with the game) and a
setter (`greedy`, or the flat Monte Carlo baseline at `--cpu-ms` per decision). At every
observer decision where the setter's last set is usable evidence (infer.evidence), the
posterior is built from the observer's determinized view (as bot_move hands it over), with the
pool's weights, and compared with uniform dealing on the setter's true rack (read here only, by
the bench, from the real state):
- the expected number of the setter's true rack tiles a world deals it (exact over the pool's
  weights: a kept hypothesis's true tiles plus the rest's share), against uniform's r x r / unseen;
- the share of positions where the posterior expects more of them than uniform (and fewer);
- the likelihood of the true kept tiles against the pool's mean (the log ratio's mean), and the
  pool's effective sample size.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.flat_mc import FlatMC  # (the bench package applies BOT_ITERATIONS)
from domain import registry
from domain.play import bot_move, fold
from domain.setup_game import infer
from domain.setup_game.data import TILE_INDEX

GAME = registry.get("setup")


def expected_true(post: infer.Posterior, true_rack: set) -> float:
    """The posterior's expected count of true rack tiles in a world's rack of the setter."""
    assert post.ev is not None
    r, k, u = len(true_rack), post.ev.kept, len(post.unseen)
    total = sum(post.weights)
    out = 0.0
    for kept, w in zip(post.hypotheses, post.weights):
        hit = len(true_rack & set(kept))
        out += w / total * (hit + (r - k) * (r - hit) / max(1, u - k))
    return out


def positions(seed: int, observer: int, setter_level: str, cpu_ms: float):
    """(the real state, the setter's true kept tiles) at each observer decision with evidence."""
    rng = random.Random(seed)
    baseline = FlatMC(GAME, cpu_s=cpu_ms / 1000)
    state = fold(GAME, GAME.setup(GAME.default_options(), 2, random.Random(seed)))
    kept_true: tuple = ()
    while actors := GAME.actors(state):
        actor = actors[0]
        if actor == observer:
            if infer.evidence(state, observer) is not None:
                yield state, kept_true
            move = bot_move(GAME, state, actor, "greedy", rng)
        elif setter_level == "flat-mc":
            move = baseline(GAME.determinize(state, actor, rng), actor, rng)
        else:
            move = bot_move(GAME, state, actor, setter_level, rng)
        rack = set(state.racks[actor])
        for event in GAME.decide(state, actor, move, rng):
            if event["type"] == "set_made" and actor != observer:  # (the bench reads the truth)
                kept_true = tuple(sorted(rack - {TILE_INDEX[t] for t in event["from_rack"]}))
            state = GAME.evolve(state, event)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.setup_infer", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed0", type=int)
    parser.add_argument("games", type=int)
    parser.add_argument("--setter", default="greedy", choices=["greedy", "flat-mc"])
    parser.add_argument("--cpu-ms", type=float, default=40.0)
    parser.add_argument("--pool", type=int, default=infer.POOL)
    parser.add_argument("--beta", type=float, default=infer.BETA)
    args = parser.parse_args(argv)
    infer.BETA = args.beta
    rows = []
    for i in range(args.games):
        seed, observer = args.seed0 + i, i % 2
        for state, kept_true in positions(seed, observer, args.setter, args.cpu_ms):
            rng = random.Random(seed * 1000 + state.turns)
            seen = GAME.determinize(state, observer, rng)
            post = infer.Posterior(seen, observer, rng, pool=args.pool)
            if not post.hypotheses:
                continue
            setter = 1 - observer
            true_rack = set(state.racks[setter])
            r, u = len(true_rack), len(post.unseen)
            weights = post.weights
            ess = sum(weights) ** 2 / sum(w * w for w in weights)
            assert post.ev is not None
            ratio = infer.likelihood(post.ev, kept_true) / (sum(weights) / len(weights)) if kept_true else None
            rows.append((expected_true(post, true_rack), r * r / u, ess, ratio, post.ev.kept))
    n = len(rows)
    if not n:
        print("no positions")
        return 0
    inferred = sum(r[0] for r in rows) / n
    uniform = sum(r[1] for r in rows) / n
    more = sum(1 for r in rows if r[0] > r[1] + 1e-9)
    fewer = sum(1 for r in rows if r[0] < r[1] - 1e-9)
    ratios = [r[3] for r in rows if r[3]]
    log_ratio = sum(math.log(x) for x in ratios) / max(1, len(ratios))
    print(f"setup inference, setter {args.setter}{f' {args.cpu_ms:g} ms' if args.setter == 'flat-mc' else ''}, "
          f"beta {args.beta:g}, pool {args.pool}, seeds {args.seed0}-{args.seed0 + args.games - 1}: {n} positions")
    print(f"  true rack tiles a world deals the setter: inferred {inferred:.3f}, uniform {uniform:.3f} "
          f"(+{100 * (inferred / uniform - 1):.1f}%)")
    print(f"  positions where inference expects more of them: {more} ({100 * more / n:.1f}%), fewer: {fewer} "
          f"({100 * fewer / n:.1f}%)")
    print(f"  true kept tiles' likelihood against the pool's mean: mean log ratio {log_ratio:.3f} "
          f"(x{math.exp(log_ratio):.2f} geometric), over {len(ratios)}; pool ESS mean "
          f"{sum(r[2] for r in rows) / n:.1f} of {args.pool}; tiles kept (the evidence's subject) mean "
          f"{sum(r[4] for r in rows) / n:.2f} (a full rack holds 4)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
