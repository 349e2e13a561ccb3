"""CPU of a game's expert decisions over seeded games, and of folding those games' events: what a
change to a game's reducer costs its search and every move and past state (issue 56, Fairy
Tile's trail).

    python -m bench.fold_cost GAME [SEED0] [GAMES] [--levels expert,storyteller]

Game i is seeded SEED0 + i and played to its end by the levels given (one a seat; bench.flat_mc's
`play`, which keeps the events); each expert decision's CPU (time.process_time) is summed; then every game's events are folded 20 times.
Run it in two trees in turn (A B A B) to compare a change: the same seeds play the same games
when the decisions are the same.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.flat_mc import FlatMC, play  # (the bench package applies BOT_ITERATIONS)
from domain import registry
from domain.play import fold


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.fold_cost", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("seed0", type=int, nargs="?", default=5000)
    parser.add_argument("games", type=int, nargs="?", default=6)
    parser.add_argument("--levels", default="expert,storyteller")
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    levels = args.levels.split(",")
    cpu: dict[str, list[float]] = {}
    histories: list[list[dict]] = []
    unused = FlatMC(game)  # play's baseline: no seat here plays flat-mc
    for seed in range(args.seed0, args.seed0 + args.games):
        histories.append([])
        play(game, dict(enumerate(levels)), seed, unused, cpu, budget_from=None, history=histories[-1])
    expert = cpu.get("expert", [])
    start = time.process_time()
    for _ in range(20):
        for events in histories:
            fold(game, events)
    folded = time.process_time() - start
    print(f"expert {1000 * sum(expert) / max(1, len(expert)):.2f} ms a decision over {len(expert)}; "
          f"fold {1e6 * folded / 20 / sum(map(len, histories)):.2f} us an event")


if __name__ == "__main__":
    main(sys.argv[1:])
