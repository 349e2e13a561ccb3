"""Bot strength and speed for Small World of Warcraft.

    python bench/bots_smallworld.py [games]
    python bench/bots_smallworld.py ladder [games] [minutes] [first seed]
    python bench/bots_smallworld.py --lookahead N [minutes]

`ladder` (issue 34): 2-seat games, seats alternated, each level against the next weaker one
(expert vs greedy, then greedy vs random): the stronger level's win rate (a shared win counts
a half) with a 95% Wilson interval, the games played, and each level's decision time p50/p99
(bots are handed `determinize(state, seat, rng)`, as the platform does: domain/play.py).
BOT_ITERATIONS scales the expert's budget (printed); `minutes` stops the expert's games early.

`--lookahead N` (issue 34): the same duels against bench/lookahead.py's one-move lookahead:
`lookahead` vs `greedy` (max(N, 100) games), then `expert` vs `lookahead` (N games or `minutes`,
default 60), with the load average at each duel's end.

Plays `games` 2-seat games greedy against random (seats alternate), prints how often the
greedy bot out-scores random, its win rate and both bots' average coins; the same with one
greedy seat among 3-5; the 4-seat team game, a greedy faction (2 seats) against a random one
(factions alternate), and how often the greedy faction wins; then times random play
(legal_moves + decide + evolve steps per second) over 2-5 seat games.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import lookahead
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from domain.contract import SYSTEM
from domain.play import fold
from domain.smallworld import GAME


def play(n, policies, seed, options=None):
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(options or {}, n, random.Random(seed)))
    steps = 0
    while True:
        actors = GAME.actors(state)
        if not actors:
            return GAME.result(state), steps
        actor = actors[0]
        if actor == SYSTEM:
            move = GAME.legal_moves(state, actor)[0]
        else:
            move = policies[actor](state, actor, rng)
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
        steps += 1


def strength(games):
    greedy, rand = GAME.bots["greedy"], GAME.bots["random"]
    wins = ties = more = 0
    g_coins = r_coins = 0
    for seed in range(games):
        g = seed % 2
        policies = {g: greedy, 1 - g: rand}
        result, _ = play(2, policies, seed)
        more += result["scores"][g] > result["scores"][1 - g]
        if result["winners"] == [g]:
            wins += 1
        elif g in result["winners"]:
            ties += 1
        g_coins += result["scores"][g]
        r_coins += result["scores"][1 - g]
    print(f"2 seats, greedy vs random: {games} games, greedy out-scored random in {more}"
          f" ({100 * more / games:.1f}%), won {wins} ({100 * wins / games:.0f}%),"
          f" shared {ties}; average coins greedy {g_coins / games:.1f}, random {r_coins / games:.1f}")


def strength_many(games):
    """One greedy seat against random ones, 3-5 seats (the greedy seat rotates)."""
    greedy, rand = GAME.bots["greedy"], GAME.bots["random"]
    for n in (3, 4, 5):
        wins = g_coins = r_coins = 0
        for seed in range(games):
            g = seed % n
            result, _ = play(n, {s: greedy if s == g else rand for s in range(n)}, seed)
            wins += result["winners"] == [g]
            g_coins += result["scores"][g]
            r_coins += (sum(result["scores"]) - result["scores"][g]) / (n - 1)
        print(f"{n} seats, 1 greedy vs {n - 1} random: {games} games, greedy won {wins}"
              f" ({100 * wins / games:.0f}%); average coins greedy {g_coins / games:.1f},"
              f" random {r_coins / games:.1f}")


def strength_team(games):
    """The 4-seat team game: a greedy faction against a random one (Alliance seats 0 and 2,
    Horde seats 1 and 3; the greedy faction alternates), each `team_score` option."""
    greedy, rand = GAME.bots["greedy"], GAME.bots["random"]
    for score in ("lowest", "highest"):
        wins = 0
        for seed in range(games):
            g = seed % 2
            policies = {s: greedy if s % 2 == g else rand for s in range(4)}
            result, _ = play(4, policies, seed, {"team": True, "team_score": score})
            wins += set(result["winners"]) == {g, g + 2}
        print(f"4 seats, team game ({score}), greedy faction vs random faction: {games} games,"
              f" the greedy faction won {wins} ({100 * wins / games:.1f}%)")


def dry_display(games):
    """How often 5 greedy seats find nothing to pick (the display ran dry with 8 races)."""
    greedy = GAME.bots["greedy"]
    for options in ({}, {"team": True}):
        skips = 0
        for seed in range(games):
            rng = random.Random(seed)
            state = fold(GAME, GAME.setup(options, 5, random.Random(seed)))
            while GAME.actors(state):
                actor = GAME.actors(state)[0]
                move = GAME.legal_moves(state, actor)[0] if actor == SYSTEM else greedy(state, actor, rng)
                skips += move["type"] == "skip_pick"
                for event in GAME.decide(state, actor, move, rng):
                    state = GAME.evolve(state, event)
        print(f"5 greedy seats{' (team game)' if options else ''}: {games} games,"
              f" {skips / games:.2f} skipped picks a game")


def speed(games):
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        n = 2 + seed % 4
        rng = random.Random(seed)
        state = fold(GAME, GAME.setup({}, n, random.Random(seed)))
        while True:
            actors = GAME.actors(state)
            if not actors:
                break
            moves = GAME.legal_moves(state, actors[0])
            for event in GAME.decide(state, actors[0], rng.choice(moves), rng):
                state = GAME.evolve(state, event)
            steps += 1
    elapsed = time.perf_counter() - start
    print(f"random play: {games} games (2-5 seats), {steps} steps in {elapsed:.2f}s ="
          f" {steps / elapsed:,.0f} (legal_moves + decide + evolve) steps/s")


def duel(strong, weak, games, minutes=None, seed0=0, verbose=True):
    """`strong` against `weak`, 2 seats, seats alternated; decisions through bot_move (or
    bench/lookahead.py's `lookahead`, handed the same determinization)."""
    from domain.smallworld.bots import SEARCHED
    times = {strong: [], weak: []}
    searched = {strong: [], weak: []}  # decisions at a searched step with 2+ moves
    score = 0.0
    played = wins = ties = 0
    coins = [0, 0]
    deadline = time.monotonic() + 60 * minutes if minutes else None
    for k in range(games):
        if deadline and time.monotonic() > deadline:
            break
        seed = seed0 + k
        me = k % 2
        levels = {me: strong, 1 - me: weak}
        rng = random.Random(seed)
        state = fold(GAME, GAME.setup({}, 2, random.Random(seed)))
        while actors := GAME.actors(state):
            actor = actors[0]
            if actor == SYSTEM:
                move = GAME.legal_moves(state, actor)[0]
            else:
                t0 = time.perf_counter()
                move = lookahead.move(GAME, state, actor, levels[actor], rng)
                times[levels[actor]].append(time.perf_counter() - t0)
                if state.turn.step in SEARCHED and len(GAME.legal_moves(state, actor)) > 1:
                    searched[levels[actor]].append(times[levels[actor]][-1])
            for event in GAME.decide(state, actor, move, rng):
                state = GAME.evolve(state, event)
        result = GAME.result(state)
        played += 1
        if result["winners"] == [me]:
            wins += 1
            score += 1
        elif me in result["winners"]:
            ties += 1
            score += 0.5
        coins[0] += result["scores"][me]
        coins[1] += result["scores"][1 - me]
        if verbose:
            print(f"  game {played}: {strong} {'won' if result['winners'] == [me] else 'shared' if me in result['winners'] else 'lost'}"
                  f" {result['scores'][me]}-{result['scores'][1 - me]}", flush=True)
    low, high = wilson(score, played)
    rate = score / played if played else 0.0
    print(f"{strong} vs {weak}: {played} games, {strong} won {wins}, shared {ties}: win rate {100 * rate:.1f}%"
          f" (95% CI {100 * low:.1f}-{100 * high:.1f}%); average coins {coins[0] / max(played, 1):.1f}"
          f" vs {coins[1] / max(played, 1):.1f}; load average {lookahead.load_average()}")
    for level, ts in times.items():
        print(f"  {level}: {len(ts)} decisions, p50 {1000 * percentile(ts, 0.5):.1f} ms,"
              f" p99 {1000 * percentile(ts, 0.99):.1f} ms; at picks, starts and conquests with a choice:"
              f" {len(searched[level])}, p50 {1000 * percentile(searched[level], 0.5):.1f} ms,"
              f" p99 {1000 * percentile(searched[level], 0.99):.1f} ms")


def ladder(games, minutes=None, seed0=2000):
    from domain.search import iterations_scale
    from domain.smallworld import bots
    scale = iterations_scale()
    print(f"BOT_ITERATIONS={scale:g}: expert searches {max(1, int(bots.EXPERT_ITERATIONS * scale))} iterations"
          f" a decision (tuned {bots.EXPERT_ITERATIONS}), depth {bots.EXPERT_DEPTH}")
    levels = list(GAME.bots)
    duel("greedy", "random", max(games, 100), verbose=False)
    duel(levels[-1], "greedy", games, minutes, seed0=seed0)


def against_lookahead(games, minutes=60.0, seed0=60_000):
    from domain.search import iterations_scale
    print(f"BOT_ITERATIONS={iterations_scale():g}")
    duel("lookahead", "greedy", max(games, 100), seed0=seed0 + 10_000, verbose=False)
    duel("expert", "lookahead", games, minutes, seed0=seed0)


if __name__ == "__main__" and sys.argv[1:2] == ["--lookahead"]:
    against_lookahead(int(sys.argv[2]) if len(sys.argv) > 2 else 40, float(sys.argv[3]) if len(sys.argv) > 3 else 60.0)
elif __name__ == "__main__" and sys.argv[1:2] == ["ladder"]:
    ladder(int(sys.argv[2]) if len(sys.argv) > 2 else 30, float(sys.argv[3]) if len(sys.argv) > 3 else None,
           int(sys.argv[4]) if len(sys.argv) > 4 else 2000)
elif __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    strength(games)
    strength_many(max(10, games // 4))
    strength_team(max(10, games // 2))
    dry_display(max(5, games // 10))
    speed(max(20, games // 5))
