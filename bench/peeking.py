"""The peeking detector (issue 50), measured: `python -m bench.peeking [--game setup] [--players 8]
[--games 2] [--iterations 80] [--bot-scale 0.1]`.

Kinds of player sit at seat 0 of 2-seat games (Witches: 3) against the honest `expert`: `search`, the
analysis's search (domain/analysis.py's searcher_of), which provably sees only its seat (it
searches its determinizations); `peeking search`, the same search run on the real state
(peeking_searcher: every hidden card in sight); the `random` bot; and the `expert` level itself
(domain/play.py's bot_move hands it a determinization). Each of seat 0's decisions with a choice is given its evidence as the analysis
queue would (domain/analysis.py's peek_evidence: the search's visit shares from the seat's
determinizations and from the real state, ITERATIONS each), and each player's decisions over its
GAMES games are judged by api/moderation/signals.py's peeking_flags. Prints, per kind: players,
decisions, the mean log-likelihood ratio per decision, the share warned or flagged (a detection
rate for the peeker, a false-positive rate for the others) with its Wilson 95% interval, and
seat 0's wins. No Redis, no workers: the search alone (seconds per game: keep it small on a
shared machine).
"""
from __future__ import annotations

import argparse
import math
import random
import time

from api.moderation import signals
from domain import registry, search
from domain.analysis import level_of, peek_evidence, peeking_searcher, searcher_of
from domain.play import bot_move, fold

KINDS = ("search", "random", "peeking search", "expert")
SEATS = {"witches": 3}  # seats of a game (2 unless named)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of k successes in n (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def subject_move(game, kind: str, state, rng: random.Random) -> dict:
    if kind == "expert":
        return bot_move(game, state, 0, level_of(game), rng)
    if kind == "random":
        return game.bots["random"](state, 0, rng)
    if kind == "search":  # the detector's own engine, from the seat's determinizations
        return searcher_of(game)(state, 0, rng)
    return peeking_searcher(game)(state, 0, rng)  # the peeker: the same search of the real state


def play(game, kind: str, seed: int, iterations: int, who: str) -> tuple[list[signals.PeekDecision], bool]:
    """One game: seat 0's decisions' evidence, and whether seat 0 won."""
    rng = random.Random(seed)
    state = fold(game, game.setup(game.default_options(), SEATS.get(game.name, 2), random.Random(seed)))
    found, version = [], 0
    while actors := game.actors(state):
        actor = actors[0]
        if actor == "system":
            move = game.legal_moves(state, actor)[0]
        elif actor == 0:
            move = subject_move(game, kind, state, rng)
            evidence = peek_evidence(game, state, 0, move, seed, version, iterations)
            if evidence is not None:
                found.append(signals.PeekDecision(who, f"{who}/{seed}", game.name, version, evidence["moves"],
                                                  evidence["played"], evidence["honest"], evidence["peeking"]))
        else:
            move = bot_move(game, state, actor, level_of(game), rng)
        events = game.decide(state, actor, move, rng)
        state = fold(game, events, state)
        version += len(events)
    winners = (game.result(state) or {}).get("winners") or []
    return found, 0 in winners


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.peeking", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="setup")
    parser.add_argument("--players", type=int, default=8, help="players of each kind")
    parser.add_argument("--games", type=int, default=2, help="games of each player")
    parser.add_argument("--iterations", type=int, default=80, help="the detector's search, per model and decision")
    parser.add_argument("--bot-scale", type=float, default=0.1, help="BOT_ITERATIONS of the players' expert")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    search.set_iterations_scale(args.bot_scale)
    print(f"# peeking: {game.name}, {args.players} players a kind x {args.games} games, detector "
          f"{args.iterations} iterations a model, players' expert at BOT_ITERATIONS={args.bot_scale}; "
          f"epsilon {signals.PEEK_EPSILON}, warn at LLR {signals.PEEK_WARN_LLR:.2f}, flag at "
          f"{signals.PEEK_FLAG_LLR:.2f}, at least {signals.PEEK_MIN_DECISIONS} decisions")
    print(f"{'kind':<16} {'players':>7} {'decisions':>9} {'LLR/dec':>8} {'LLR min..max':>16} "
          f"{'warned+':>8} {'95% CI':>13} {'flagged':>8} {'wins':>6} {'differ: hidden 1st, seat 1st':>29} {'s':>6}")
    for n, kind in enumerate(k.strip() for k in args.kinds.split(",")):
        started = time.perf_counter()
        ratios, levels, decisions, wins, firsts = [], [], 0, 0, [0, 0, 0]
        for p in range(args.players):
            who = f"{kind}#{p}"
            mine: list[signals.PeekDecision] = []
            for g in range(args.games):
                found, won = play(game, kind, 1_000_000 * n + 1000 * p + g, args.iterations, who)
                mine += found
                wins += won
            seen = signals.peeking(mine).get(who, {"decisions": 0, "log_ratio": 0.0, "differ": 0,
                                                   "played_peeking_first": 0, "played_honest_first": 0})
            decisions += seen["decisions"]
            firsts = [firsts[0] + seen["differ"], firsts[1] + seen["played_peeking_first"],
                      firsts[2] + seen["played_honest_first"]]
            ratios.append(seen["log_ratio"])
            levels.append(signals.peeking_level(seen["decisions"], seen["log_ratio"]))
        warned = sum(level is not None for level in levels)
        flagged = sum(level == "flag" for level in levels)
        low, high = wilson(warned, len(levels))
        print(f"{kind:<16} {len(levels):>7} {decisions:>9} {sum(ratios) / max(1, decisions):>8.3f} "
              f"{min(ratios):>7.1f}..{max(ratios):<7.1f} {warned:>4}/{len(levels):<3} {low:>5.2f}-{high:<5.2f} "
              f"{flagged:>4}/{len(levels):<3} {wins:>3}/{args.players * args.games:<3} "
              f"{firsts[0]:>13}: {firsts[1]:>5}, {firsts[2]:<7} {time.perf_counter() - started:>6.0f}", flush=True)


if __name__ == "__main__":
    main()
