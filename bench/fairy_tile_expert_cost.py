"""The CPU of Fairy Tile's expert decisions (issue 34): six expert-only games, every seat the
expert, through the contract suite's playout (the same games for a given commit: the expert draws
no chance of its own).

    python bench/fairy_tile_expert_cost.py

Prints the decisions' count, the games' CPU and the decisions' CPU p50 / p90 / p99 / max. Run it
on two commits to compare (the count is the same when they play the same moves)."""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import tests.contract.test_game_contract as contract
from bench.common import percentile
from domain import registry, search

GAMES = ((2, 100), (3, 100), (2, 7), (4, 5), (2, 11), (3, 12))  # (seats, seed)


def main() -> None:
    search.set_iterations_scale(1.0)
    game, spent = registry.get("fairy-tile"), []
    choose = contract._choose

    def timed(game, state, actor, rng, bot_seats):
        start = time.process_time()
        move = choose(game, state, actor, rng, bot_seats)
        if actor in bot_seats:
            spent.append(time.process_time() - start)
        return move

    contract._choose = timed
    start = time.process_time()
    for n, seed in GAMES:
        contract.playout(game, n, {}, seed=seed, bot_seats={s: "expert" for s in range(n)}, deep=False)
    ms = [1000 * t for t in spent]
    print(f"{len(ms)} decisions, {time.process_time() - start:.1f} s of CPU; per decision p50 "
          f"{percentile(ms, 0.5):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
          f"max {max(ms):.1f} ms")


if __name__ == "__main__":
    main()
