"""SetUp bot strength and engine speed.

    python bench/bots_setup.py [games] [--ladder N] [--ladder-only] [--lookahead N]

0. the ladder (issue 34): expert vs greedy over N 2-seat games (default 30; seats alternated,
   seeded), then greedy vs random (cheap: 200 games): win rate with a 95% Wilson interval (a
   shared win counts half), and each level's decision time p50/p99. Bots play as the platform
   runs them (domain/play.py's bot_move: from a determinization of their seat's view).
   BOT_ITERATIONS scales the expert's budget (1: as tuned).
   --seed S: the first game's seed (50,000; a run on other seeds adds independent games).
   --lookahead N: expert vs the bench-only one-move lookahead (bench/lookahead_setup.py) over
   N 2-seat games, the same way.
1. greedy vs random: `games` 2-seat games (default 400), the greedy bot on seat 0 in half of
   them and on seat 1 in the other half (seat 0 moves first), seeded, so the run repeats.
2. random play speed: steps per second, one step = legal_moves + decide + evolve, over
   random 2/3/4-seat and team games; and the sizes of the legal-move lists seen. Times are
   this process's CPU time (the machine is shared: wall-clock figures swing with its load).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from bench.lookahead_setup import setup_lookahead
from domain.play import bot_move, fold
from domain.search import iterations_scale
from domain.setup_game import GAME

BENCH_LEVELS = {"lookahead": setup_lookahead}  # bench-only opponents, not the game's levels


def decide_as(level: str, state, seat: int, rng: random.Random) -> dict:
    """A level's move as the platform asks it (bot_move: from its seat's determinization);
    bench-only levels are handed the same determinization."""
    if level in GAME.bots:
        return bot_move(GAME, state, seat, level, rng)
    return BENCH_LEVELS[level](GAME.determinize(state, seat, rng), seat, rng)


def play_game(policies: dict, n: int, options: dict, seed: int):
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup({**GAME.default_options(), **options}, n, rng))
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        move = GAME.bots[policies[seat]](state, seat, rng)
        for event in GAME.decide(state, seat, move, rng):
            state = GAME.evolve(state, event)
    return GAME.result(state), state


def duel(levels: dict, seed: int) -> tuple:
    """One 2-seat game of `levels` (by seat), bots handed determinizations as on the platform:
    the final state and each seat's decision times in CPU seconds."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), 2, rng))
    times: dict = {0: [], 1: []}
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        start = time.process_time()
        move = decide_as(levels[seat], state, seat, rng)
        times[seat].append(time.process_time() - start)
        for event in GAME.decide(state, seat, move, rng):
            state = GAME.evolve(state, event)
    return state, times


def match(strong: str, weak: str, games: int, seed: int = 50_000, verbose: bool = False) -> dict:
    """`strong` against `weak`, 2 seats, seats alternated (strong moves first in even games),
    bots handed determinizations as on the platform; decision times in CPU seconds."""
    wins = shared = 0
    margin = 0
    times: dict = {strong: [], weak: []}
    for i in range(games):
        strong_seat = i % 2
        levels = {strong_seat: strong, 1 - strong_seat: weak}
        state, spent = duel(levels, seed + i)
        for seat, seconds in spent.items():
            times[levels[seat]].extend(seconds)
        winners = GAME.result(state)["winners"]
        if strong_seat in winners:
            shared += len(winners) > 1
            wins += len(winners) == 1
        margin += state.scores[strong_seat] - state.scores[1 - strong_seat]
        if verbose:
            print(f"    game {i + 1}/{games}: {strong} on seat {strong_seat}, scores {list(state.scores)}, "
                  f"winners {list(winners)}", flush=True)
    rate = (wins + shared / 2) / games
    low, high = wilson(wins + shared / 2, games)
    print(f"{strong} vs {weak}, 2 seats: {games} games (seats alternated)")
    print(f"  {strong} won {wins}, shared {shared}, lost {games - wins - shared}: "
          f"win rate {100 * rate:.1f}% (95% Wilson CI {100 * low:.1f}-{100 * high:.1f}%), "
          f"mean margin {margin / games:+.1f} points")
    for level, spent in times.items():
        print(f"  {level} decision time: p50 {1000 * percentile(spent, 0.5):.1f} ms, "
              f"p99 {1000 * percentile(spent, 0.99):.1f} ms, max {1000 * max(spent):.1f} ms "
              f"over {len(spent)} decisions (CPU time)")
    return {"wins": wins, "shared": shared, "games": games, "rate": rate, "ci": (low, high), "times": times}


def ladder(games: int, seed: int = 50_000) -> None:
    print(f"ladder (BOT_ITERATIONS={iterations_scale():g}; levels {', '.join(GAME.bots)})")
    match("expert", "greedy", games, seed=seed, verbose=True)
    match("greedy", "random", 200)


def greedy_vs_random(games: int) -> None:
    wins = shared = 0
    margin = 0
    turns = 0
    for i in range(games):
        greedy_seat = i % 2
        policies = {greedy_seat: "greedy", 1 - greedy_seat: "random"}
        result, state = play_game(policies, 2, {}, seed=10_000 + i)
        winners = result["winners"]
        if greedy_seat in winners:
            if len(winners) > 1:
                shared += 1
            else:
                wins += 1
        margin += result["scores"][greedy_seat] - result["scores"][1 - greedy_seat]
        turns += state.turns
    print(f"greedy vs random, 2 seats: {games} games (greedy moves first in half of them)")
    print(f"  greedy won {wins} ({100 * wins / games:.1f}%), shared {shared}, "
          f"lost {games - wins - shared}")
    print(f"  mean score margin greedy - random: {margin / games:+.1f} points; "
          f"mean turns per game {turns / games:.1f}")


def greedy_among_randoms(games: int) -> None:
    """One greedy seat (rotating) against random seats with 3 and 4 players, and a greedy team
    (rotating) against a random team in the team game."""
    for n, options in ((3, {}), (4, {}), (4, {"teams": True})):
        wins = 0
        for i in range(games):
            if options:
                team = ((0, 1), (2, 3))[i % 2]
                policies = {s: "greedy" if s in team else "random" for s in range(4)}
                ours = set(team)
            else:
                policies = {s: "greedy" if s == i % n else "random" for s in range(n)}
                ours = {i % n}
            result, _ = play_game(policies, n, options, seed=20_000 + i)
            wins += bool(ours & set(result["winners"]))
        label = "greedy team vs random team" if options else f"1 greedy vs {n - 1} random"
        print(f"  {label} ({n} seats): {games} games, won {wins} ({100 * wins / games:.1f}%)")


def random_speed(games: int) -> None:
    configs = [(2, {}), (3, {}), (4, {}), (4, {"teams": True})]
    steps, sizes, histories = 0, [], []
    spent = 0.0
    for i in range(games):
        n, options = configs[i % len(configs)]
        rng = random.Random(i)
        events = GAME.setup({**GAME.default_options(), **options}, n, rng)
        state = fold(GAME, events)
        start = time.process_time()
        while GAME.actors(state):
            seat = GAME.actors(state)[0]
            moves = GAME.legal_moves(state, seat)
            sizes.append(len(moves))
            new = GAME.decide(state, seat, rng.choice(moves), rng)
            for event in new:
                state = GAME.evolve(state, event)
            events += new
            steps += 1
        spent += time.process_time() - start
        histories.append(events)
    sizes.sort()
    pick = lambda q: sizes[min(len(sizes) - 1, int(q * len(sizes)))]
    print(f"random play: {games} games, {steps} steps, {steps / spent:,.0f} steps/s "
          "(legal_moves + decide + evolve)")
    start = time.process_time()
    for events in histories:
        fold(GAME, events)
    replay = time.process_time() - start
    count = sum(len(events) for events in histories)
    print(f"  replay (evolve only): {count / replay:,.0f} events/s, "
          f"{count / len(histories):.0f} events per game")
    print(f"  legal moves per turn: mean {sum(sizes) / len(sizes):.0f}, median {pick(0.5)}, "
          f"p90 {pick(0.9)}, p99 {pick(0.99)}, max {sizes[-1]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="SetUp bot strength and engine speed.")
    parser.add_argument("games", nargs="?", type=int, default=400, help="greedy vs random games")
    parser.add_argument("--ladder", type=int, default=30, help="expert vs greedy games (0: none)")
    parser.add_argument("--ladder-only", action="store_true", help="only the ladder")
    parser.add_argument("--lookahead", type=int, default=0, help="expert vs lookahead games (0: none)")
    parser.add_argument("--seed", type=int, default=50_000, help="the first game's seed (more games: new seeds)")
    args = parser.parse_args()
    if args.lookahead:
        match("expert", "lookahead", args.lookahead, seed=args.seed, verbose=True)
    if args.ladder:
        ladder(args.ladder, args.seed)
    if not args.ladder_only:
        greedy_vs_random(args.games)
        greedy_among_randoms(100)
        random_speed(200)
