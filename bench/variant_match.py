"""A variant of a game's expert against the equal-CPU flat Monte Carlo (issue 56): bench.flat_mc's
match, with the game's `expert` replaced in this process by a variant named here, so the
baseline's CPU budget follows the variant's decisions as it follows the expert's.

    python -m bench.variant_match GAME VARIANT GAMES [--seed0 S] [--minutes M]
    python -m bench.variant_match splendor ismcts 100 --seed0 930000 --minutes 900

Variants (`VARIANTS`): `ismcts` (the game's expert search in domain/search.py's information-set
mode, SearchSpec.information_sets, at ITERATIONS[game] iterations: about the expert's CPU per
decision, measured with bench/expert_cpu.py's positions).
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.flat_mc import match  # (the bench package applies BOT_ITERATIONS)
from domain import registry
from domain.analysis import searcher_of
from domain.search import Searcher

ITERATIONS = {"splendor": 240}  # the information-set search's budget at about the expert's CPU


def ismcts(game):
    base = searcher_of(game)
    spec = dataclasses.replace(base.spec, information_sets=True, iterations=ITERATIONS[game.name])
    return Searcher(base.rules, base.n_seats, spec)


VARIANTS = {"ismcts": ismcts}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.variant_match", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("games", type=int)
    parser.add_argument("--seed0", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=14.0)
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    assert game is not None, f"unknown game {args.game}"
    game.bots["expert"] = VARIANTS[args.variant](game)
    match(args.game, args.seed0, args.games, minutes=args.minutes)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
