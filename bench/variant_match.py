"""A variant of a game's expert against the equal-CPU flat Monte Carlo (issue 56): bench.flat_mc's
match, with the game's `expert` replaced in this process by a variant named here, so the
baseline's CPU budget follows the variant's decisions as it follows the expert's.

    python -m bench.variant_match GAME VARIANT GAMES [--seed0 S] [--minutes M]
    python -m bench.variant_match splendor ismcts 100 --seed0 930000 --minutes 900
    python -m bench.variant_match splendor worlds 200 --seed0 640000 --against-expert   # new expert vs old

Variants (`VARIANTS`): `ismcts` (the game's expert search in domain/search.py's information-set
mode, SearchSpec.information_sets, at ITERATIONS[game] iterations: about the expert's CPU per
decision, measured with bench/expert_cpu.py's positions paired, `--variant ismcts:N`; Splendor's
expert is this since issue 56; Witches' and Small World's keep their experts' split: the search
plays only the decisions their experts search), `worlds` (the per-world search Splendor's expert was before issue 56; with
--against-expert the shipped expert plays it), `sampled` (SetUp: the expectimax with the fast greedy's answers and 24 worlds, about
the expert's CPU: 16 worlds cost 0.64x over 24 positions, decided in turn), `infer` (SetUp: the expert with
its worlds from domain/setup_game/infer.py's posterior of the last setter's kept tiles; Splendor:
the expert with its worlds from domain/splendor/infer.py's weights of the other seats' blind reserves).
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
from domain.smallworld import bots as smallworld_bots
from domain.witches import bots as witches_bots

ITERATIONS = {"splendor": 240, "witches": 480, "smallworld-of-warcraft": 85}  # about the expert's CPU (paired)
WORLDS = {"splendor": 400}  # the per-world search's budget before issue 56's information sets


def ismcts(game, iterations: int | None = None, **knobs):
    """The game's expert with its search in the information-set mode at ITERATIONS[game] (or
    `iterations`), other SearchSpec fields from `knobs` (e.g. exploration); a game whose expert
    searches only some decisions (Witches' card plays, Small World's picks, declines and
    conquests) keeps its own split (`_EXPERT_WITH`)."""
    base = searcher_of(game)
    spec = dataclasses.replace(base.spec, information_sets=True,
                               iterations=iterations or ITERATIONS[game.name], **knobs)
    search = Searcher(base.rules, base.n_seats, spec)
    wrap = _EXPERT_WITH.get(game.name)
    return wrap(search) if wrap else search


# the experts that search only some decisions, each around a given search (their own split kept)
_EXPERT_WITH = {"witches": witches_bots.expert_with, "smallworld-of-warcraft": smallworld_bots.expert_with}


def worlds(game):
    """The game's expert search as it was before issue 56's information-set mode: root-parallel
    per-world trees at WORLDS[game] iterations (Splendor's expert until then)."""
    base = searcher_of(game)
    spec = dataclasses.replace(base.spec, information_sets=False, iterations=WORLDS[game.name])
    return Searcher(base.rules, base.n_seats, spec)


def setup_sampled(game, worlds: int = 24, replies: int = 2):
    """SetUp's expectimax (domain/setup_game/expert.py) with the other seats' answers and its
    own follow-ups played by the search's fast greedy (`rollout_policy`: the best of 16 plays
    drawn at random) in place of greedy over every play, and more worlds for the CPU saved."""
    import random as _random

    from domain.setup_game import expert
    from domain.setup_game.bots import prune, rollout_policy
    from domain.setup_game.determinize import determinize

    def outcome(world, seat, move, rng):
        state = expert._play(world, seat, move, rng)
        for _ in range(replies * world.n - 1):
            if state.over:
                break
            state = expert._play(state, state.turn, rollout_policy(state, state.turn, rng), rng)
        return expert.value(state, seat)

    def choose(state, seat, rng):
        moves = prune(state, seat, None, keep=expert.CANDIDATES)
        if len(moves) == 1:
            return moves[0]
        totals = [0.0] * len(moves)
        for _ in range(worlds):
            seed = rng.getrandbits(64)
            world = determinize(state, seat, _random.Random(seed))
            for i, move in enumerate(moves):
                totals[i] += outcome(world, seat, move, _random.Random(seed + 1))
        return moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]

    return choose


def setup_infer(game):
    """SetUp's expert (domain/setup_game/expert.py) with its worlds drawn from the inferred
    posterior of the last setter's kept tiles (domain/setup_game/infer.py) in place of uniform
    dealing: the same candidates, worlds and answers otherwise."""
    from domain.setup_game import expert
    from domain.setup_game.infer import Posterior

    def choose(state, seat, rng):
        return expert.choose(state, seat, rng, dealer=Posterior)

    return choose


def splendor_infer(game):
    """Splendor's expert with every iteration's world drawn by domain/splendor/infer.py's
    weights of the other seats' blind reserves (what they did since reserving them, watched
    at each of the seat's decisions) in place of uniform dealing: the same search otherwise
    (with no evidence, the same worlds draw for draw)."""
    from domain.splendor.bots import expert_policy
    from domain.splendor.infer import Posterior, Record

    records: dict = {}  # seat -> what it has watched in this game

    def choose(state, seat, rng):
        record = records.get(seat)
        if record is None or state.turns < record.turns:  # a new game
            record = records[seat] = Record(seat)
        record.watch(state)
        rules = dataclasses.replace(expert_policy.rules, determinize=Posterior(state, seat, record).world)
        return Searcher(rules, expert_policy.n_seats, expert_policy.spec)(state, seat, rng)

    return choose


def infer(game):
    """The game's expert with inferred worlds (SetUp's or Splendor's)."""
    return {"setup": setup_infer, "splendor": splendor_infer}[game.name](game)


VARIANTS = {"infer": infer, "ismcts": ismcts, "sampled": setup_sampled, "worlds": worlds}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.variant_match", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("games", type=int)
    parser.add_argument("--seed0", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=14.0)
    parser.add_argument("--against-expert", action="store_true",
                        help="the game's own expert in the other seats, not the flat MC (the variant is `a`)")
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    assert game is not None, f"unknown game {args.game}"
    if args.against_expert:  # e.g. the shipped expert against the search it replaced
        game.bots[args.variant] = VARIANTS[args.variant](game)
        match(args.game, args.seed0, args.games, minutes=args.minutes, a="expert", b=args.variant)
        return 0
    game.bots["expert"] = VARIANTS[args.variant](game)
    match(args.game, args.seed0, args.games, minutes=args.minutes)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
