"""SetUp's expert against greedy, game by game, for paired comparisons of variants (issue 34).

    python bench/setup_expert_paired.py --out FILE [--seeds 50000:64,60000:64,70000:64]
        [--set WORLDS=16 --set WORK_CAP=200000 ...]

2 seats, seats alternated (the expert on seat 0 in even games), through bot_move as
bots_setup.py's `match`; `--set NAME=VALUE` sets one of expert.py's constants (its type
kept) for the run. Each game is appended to FILE as a JSON line (seed, the expert's seat, its
win, the scores, its decisions' CPU times), a summary printed per seed block. The expert is
deterministic for a seed and a budget, so the unchanged expert's lines can be kept and every
variant compared with it on the same seeds."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.bots_setup import duel
from bench.common import percentile, wilson
from domain.setup_game import GAME, expert

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="50000:64,60000:64,70000:64")
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    for item in args.set:
        name, value = item.split("=")
        setattr(expert, name, type(getattr(expert, name))(float(value)))
    wins, games, spent = 0.0, 0, []
    with open(args.out, "a") as out:
        for block in args.seeds.split(","):
            first, count = (int(x) for x in block.split(":"))
            block_wins = 0.0
            for i in range(count):
                seed, strong = first + i, i % 2
                state, by_seat = duel({strong: "expert", 1 - strong: "greedy"}, seed)
                times = by_seat[strong]
                winners = GAME.result(state)["winners"]
                win = (1.0 / len(winners)) if strong in winners else 0.0
                block_wins += win
                spent += times
                out.write(json.dumps({"seed": seed, "strong": strong, "win": win, "scores": list(state.scores),
                                      "times": [round(t, 4) for t in times], "set": args.set}) + "\n")
                out.flush()
            wins += block_wins
            games += count
            low, high = wilson(wins, games)
            print(f"block {first}+{count}: {block_wins:g}; total {wins:g}/{games} = {100 * wins / games:.1f}% "
                  f"({100 * low:.1f}-{100 * high:.1f}); CPU p50 {percentile(spent, 0.5):.3f} s "
                  f"p99 {percentile(spent, 0.99):.3f} s max {max(spent):.3f} s", flush=True)
