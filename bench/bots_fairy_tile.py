"""Measures Fairy Tile's bots and engine speed.

    python bench/bots_fairy_tile.py [games] [round_limit]
    python bench/bots_fairy_tile.py ladder [expert_games] [minutes] [random_games] [first_game]
    python bench/bots_fairy_tile.py lookahead [games] [minutes] [first_game]
    python bench/bots_fairy_tile.py cost

The ladder: `expert` against the strongest level before it (`storyteller`), then `storyteller`
against `random`, 2 seats, seats alternating, every bot handed its seat's determinization (as
the platform does: domain/play.py's bot_move); win rate (a shared win counts half) with a 95%
Wilson interval, games played, and each level's decision time (p50 / p99, CPU time of the
process). The expert's games stop at `expert_games` or after `minutes`, whichever comes first.
BOT_ITERATIONS scales the expert's budget.

`lookahead`: `expert` against the bench-only one-move lookahead (bench/lookahead_fairy_tile.py),
the same way. `first_game` (default 0): game g is seeded 5000 + g, so runs of games 0-29 and
30-59 side by side are one run of 60 split over two processes (sum their wins).

1. Bot strength: `storyteller` against `random` over many 2-seat games, seats alternating; how
   often the storyteller finishes its book first (wins by book_finished), and how games end.
2. Engine speed: random play, counting legal_moves + decide + evolve steps per second.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import percentile, wilson  # (the bench package applies BOT_ITERATIONS)
from domain.fairy_tile import GAME
from domain.play import bot_move, fold
from domain.search import iterations_scale

ENGINE = {"steps": 0, "seconds": 0.0, "events": []}


def play(seed: int, levels: dict, n: int, round_limit: int):
    """One bot game; also times the engine's own work (legal_moves + decide + evolve)."""
    rng = random.Random(seed)
    events = GAME.setup({"round_limit": round_limit}, n, rng)
    state = fold(GAME, events)
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        move = GAME.bots[levels[seat]](state, seat, rng)
        start = time.perf_counter()
        GAME.legal_moves(state, seat)
        new = GAME.decide(state, seat, move, rng)
        for event in new:
            state = GAME.evolve(state, event)
        ENGINE["seconds"] += time.perf_counter() - start
        ENGINE["steps"] += 1
        events += new
    ENGINE["events"].append(events)
    return GAME.result(state)


def strength(games: int, round_limit: int) -> None:
    wins, overall, reasons, turns, told = 0, 0, Counter(), [], [0, 0]
    start = time.time()
    for g in range(games):
        smart = g % 2
        levels = {smart: "storyteller", 1 - smart: "random"}
        result = play(1000 + g, levels, 2, round_limit)
        reasons[result["reason"]] += 1
        turns.append(result["turns"])
        if result["reason"] == "book_finished" and result["winners"] == [smart]:
            wins += 1
        overall += smart in result["winners"]
        told[0] += result["scores"][smart]
        told[1] += result["scores"][1 - smart]
    print(f"storyteller vs random, 2 seats, {games} games (seats alternating, round limit {round_limit}):")
    print(f"  storyteller finished its book first in {wins}/{games} = {wins / games:.1%}")
    print(f"  storyteller among the winners (round-limit endings included): {overall}/{games} = {overall / games:.1%}")
    print(f"  endings: {dict(reasons)}; mean turns {sum(turns) / games:.1f}")
    print(f"  mean cards told: storyteller {told[0] / games:.1f}, random {told[1] / games:.1f}")
    print(f"  ({time.time() - start:.1f}s)")
    print(f"engine in those games: {ENGINE['steps']} steps, {ENGINE['steps'] / ENGINE['seconds']:,.0f} "
          f"(legal_moves + decide + evolve) steps/s, bot thinking excluded")
    start, count = time.perf_counter(), 0
    for events in ENGINE["events"]:
        fold(GAME, events)
        count += len(events)
    print(f"replay: {count / (time.perf_counter() - start):,.0f} events/s (evolve only)")


def speed(games: int) -> None:
    for n in (2, 3, 4):
        steps, start = 0, time.time()
        for seed in range(games):
            rng = random.Random(seed)
            state = fold(GAME, GAME.setup(GAME.default_options(), n, rng))
            while GAME.actors(state):
                actor = GAME.actors(state)[0]
                move = rng.choice(GAME.legal_moves(state, actor))
                for event in GAME.decide(state, actor, move, rng):
                    state = GAME.evolve(state, event)
                steps += 1
        elapsed = time.time() - start
        print(f"random play, {n} seats: {steps} steps in {elapsed:.1f}s = {steps / elapsed:,.0f} "
              f"(legal_moves + decide + evolve) steps/s")


def timed_game(game, levels: dict, seed: int, round_limit: int, times: dict):
    """One game of `levels` (by seat), every bot handed its seat's determinization (bot_move);
    each decision's CPU time appended to times[its level]. The final state."""
    rng = random.Random(seed)
    state = fold(game, game.setup({"round_limit": round_limit}, len(levels), rng))
    while game.actors(state):
        seat = game.actors(state)[0]
        t = time.process_time()
        move = bot_move(game, state, seat, levels[seat], rng)
        times[levels[seat]].append(time.process_time() - t)
        for event in game.decide(state, seat, move, rng):
            state = game.evolve(state, event)
    return state


def expert_cost() -> None:
    """The expert's decision CPU in six expert-only games of 2-4 seats (the same games for a
    given commit: the expert draws no chance of its own), to compare two commits."""
    times: dict[str, list] = {"expert": []}
    start = time.process_time()
    for n, seed in ((2, 100), (3, 100), (2, 7), (4, 5), (2, 11), (3, 12)):
        timed_game(GAME, {s: "expert" for s in range(n)}, seed, 100, times)
    ms = [1000 * t for t in times["expert"]]
    print(f"expert-only games: {len(ms)} decisions, {time.process_time() - start:.1f} s of CPU; per decision "
          f"p50 {percentile(ms, 0.5):.1f} ms, p90 {percentile(ms, 0.9):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
          f"max {max(ms):.1f} ms")


def match(strong: str, weak: str, games: int, seconds: float, round_limit: int = 100, game=GAME,
          first: int = 0) -> None:
    """`strong` against `weak`, seats alternating, until `games` or `seconds` run out. Decision
    times are the process's CPU time (the machine is shared: wall time would count the others)."""
    times: dict[str, list] = {strong: [], weak: []}
    wins, played, reasons, told = 0.0, 0, Counter(), [0, 0]
    start = time.time()
    while played < games and time.time() - start < seconds:
        g = first + played
        me = g % 2
        levels = {me: strong, 1 - me: weak}
        result = game.result(timed_game(game, levels, 5000 + g, round_limit, times))
        winners = result["winners"]
        wins += 1.0 / len(winners) if me in winners else 0.0
        played += 1
        reasons[result["reason"]] += 1
        told[0] += result["scores"][me]
        told[1] += result["scores"][1 - me]
        print(f"  game {g + 1}: {strong} seat {me}, winners {winners}, told {result['scores']}, "
              f"{result['reason']} ({time.time() - start:.0f}s)", flush=True)
    low, high = wilson(wins, played)
    print(f"{strong} vs {weak}, 2 seats, seats alternating: {strong} won {wins:g}/{played} = "
          f"{wins / max(1, played):.1%} (95% Wilson CI {low:.1%}-{high:.1%}); endings {dict(reasons)}; "
          f"mean told {told[0] / max(1, played):.1f} vs {told[1] / max(1, played):.1f}")
    for level, ts in times.items():
        print(f"  {level}: {len(ts)} decisions, p50 {percentile(ts, 0.5) * 1000:.1f} ms, p99 {percentile(ts, 0.99) * 1000:.1f} ms")
    print(f"  ({time.time() - start:.0f}s)", flush=True)


def ladder(expert_games: int, minutes: float, random_games: int, first: int = 0) -> None:
    print("expert: one-turn lookahead over the unseen cards (domain/fairy_tile/expert.py), "
          f"BOT_ITERATIONS {iterations_scale():g} (below 1: that share of its candidates weighed, at least 3)", flush=True)
    match("expert", "storyteller", expert_games, minutes * 60, first=first)
    if random_games:
        match("storyteller", "random", random_games, 120)


def lookahead(games: int, minutes: float, first: int = 0) -> None:
    from bench.lookahead_fairy_tile import LOOKAHEAD_MOVES, game_with_lookahead
    print(f"lookahead: the storyteller's top {LOOKAHEAD_MOVES} moves, one ply", flush=True)
    match("expert", "lookahead", games, minutes * 60, game=game_with_lookahead(), first=first)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "cost":
        expert_cost()
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "lookahead":
        lookahead(int(sys.argv[2]) if len(sys.argv) > 2 else 30, float(sys.argv[3]) if len(sys.argv) > 3 else 15,
                  int(sys.argv[4]) if len(sys.argv) > 4 else 0)
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "ladder":
        ladder(int(sys.argv[2]) if len(sys.argv) > 2 else 30, float(sys.argv[3]) if len(sys.argv) > 3 else 15,
               int(sys.argv[4]) if len(sys.argv) > 4 else 40, int(sys.argv[5]) if len(sys.argv) > 5 else 0)
        sys.exit(0)
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    strength(games, limit)
    speed(max(3, games // 40))
