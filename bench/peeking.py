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
import json
import math
import random
import time
from pathlib import Path

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


def _row(d: signals.PeekDecision) -> list:
    """One decision, compact: [moves, honest share of the move played, peeking share of it, the
    two models' firsts differ, the move was the peeking first, it was the honest first] (any
    epsilon's ratio can be recomputed from it)."""
    honest, peek = signals._first(d.honest), signals._first(d.peeking)
    return [d.moves, round(d.honest.get(d.played, 0.0), 5), round(d.peeking.get(d.played, 0.0), 5),
            int(honest != peek), int(d.played == peek), int(d.played == honest)]


def record(args: argparse.Namespace, game, kinds: list[str]) -> None:
    """`--out FILE`: games played one after another (seeds SEED0, SEED0+1, ...), each kind in
    turn, one JSON line a game appended as it ends (a long run's partial results survive); the
    report (`--report FILE`) groups them into players of k games afterwards."""
    out = Path(args.out)
    for i in range(args.games):
        for kind in kinds:
            seed = args.seed0 + i
            started = time.process_time()
            found, won = play(game, kind, seed, args.iterations, kind)
            line = {"game": game.name, "kind": kind, "seed": seed, "iterations": args.iterations,
                    "bot_scale": args.bot_scale, "won": won, "cpu_s": round(time.process_time() - started, 2),
                    "decisions": [_row(d) for d in found]}
            with out.open("a") as f:
                f.write(json.dumps(line) + "\n")


def _llr(row: list, epsilon: float) -> float:
    moves, honest, peek = row[0], row[1], row[2]
    return signals.clipped(math.log((1 - epsilon) * peek + epsilon / moves)
                           - math.log((1 - epsilon) * honest + epsilon / moves))


def _llr_firsts(row: list, epsilon: float) -> float:
    """The ratio with each model reduced to its first move (1 - epsilon on it): nonzero only where
    the firsts differ, a sign test weighted by the moves; blind to how sharp each model is."""
    moves, differ, peek_first, honest_first = row[0], row[3], row[4], row[5]
    if not differ or not (peek_first or honest_first):
        return 0.0
    step = math.log((1 - epsilon + epsilon / moves) / (epsilon / moves))
    return step if peek_first else -step


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] if ordered else float("nan")


def report(paths: list[str], per: list[int], epsilon: float) -> None:
    """Per game and kind: games, decisions and CPU; the mean LLR a decision and a game; and, for
    players of k games (consecutive seeds grouped, no game shared), the share warned or flagged
    at the thresholds of signals.py with its Wilson interval (for a peeker the detection rate,
    for the honest kinds the false-positive rate), and the honest kinds' 95th and 99th
    percentile of a player's LLR (where a threshold at a measured false-positive rate sits)."""
    games: dict[tuple[str, str], list[dict]] = {}
    for path in paths:
        for text in Path(path).read_text().splitlines():
            if text.strip():
                line = json.loads(text)
                name = f"{line['game']} (I {line['iterations']}, B {line['bot_scale']})"
                games.setdefault((name, line["kind"]), []).append(line)
    print(f"epsilon {epsilon}; warn at LLR {signals.PEEK_WARN_LLR:.2f}, flag at {signals.PEEK_FLAG_LLR:.2f}, "
          f"at least {signals.PEEK_MIN_DECISIONS} decisions")
    print("| game | kind | games | decisions a game | CPU s a game | LLR a decision (firsts only) | LLR a game (mean, sd) | "
          "differ: hidden's 1st, seat's 1st | wins | " + " | ".join(f"warned+ over {k} game(s)" for k in per) + " |")
    for (name, kind), lines in sorted(games.items()):
        lines.sort(key=lambda line: line["seed"])
        per_game = [sum(_llr(r, epsilon) for r in line["decisions"]) for line in lines]
        counts = [len(line["decisions"]) for line in lines]
        rows = [r for line in lines for r in line["decisions"]]
        mean = sum(per_game) / len(per_game)
        sd = math.sqrt(sum((x - mean) ** 2 for x in per_game) / max(1, len(per_game) - 1))
        cells = []
        for k in per:
            players = [(sum(counts[i:i + k]), sum(per_game[i:i + k])) for i in range(0, len(lines) - k + 1, k)]
            allowed = signals.peek_allowance(lines[0]["game"])
            warned = sum(signals.peeking_level(n, r, allowed * n) is not None for n, r in players)
            low, high = wilson(warned, len(players))
            tail = "" if kind == "peeking search" else \
                f"; p95 {_quantile([r for _, r in players], 0.95):.1f}, max {max(r for _, r in players):.1f}" \
                if players else ""
            cells.append(f"{warned}/{len(players)} ({low:.2f}-{high:.2f}{tail})" if players else "-")
        print(f"| {name} | `{kind}` | {len(lines)} | {sum(counts) / len(lines):.1f} | "
              f"{sum(line['cpu_s'] for line in lines) / len(lines):.1f} | {sum(per_game) / max(1, len(rows)):.3f} "
              f"({sum(_llr_firsts(r, epsilon) for r in rows) / max(1, len(rows)):.3f}) | "
              f"{mean:.2f}, {sd:.2f} | {sum(r[3] for r in rows)}: {sum(r[3] and r[4] for r in rows)}, "
              f"{sum(r[3] and r[5] for r in rows)} | {sum(line['won'] for line in lines)}/{len(lines)} | "
              + " | ".join(cells) + " |")
    _projection(games, epsilon)


def _moments(lines: list[dict], epsilon: float) -> tuple[float, float, float, float]:
    """(decisions a game, LLR a decision's mean, a game's LLR sd, a decision's sd: the game's over
    the root of its decisions, so that decisions of one game that move together count as such)."""
    per_game = [sum(_llr(r, epsilon) for r in line["decisions"]) for line in lines]
    decisions = sum(len(line["decisions"]) for line in lines) / len(lines)
    mean = sum(per_game) / max(1, sum(len(line["decisions"]) for line in lines))
    game_mean = sum(per_game) / len(per_game)
    sd = math.sqrt(sum((x - game_mean) ** 2 for x in per_game) / (len(per_game) - 1)) if len(per_game) > 1 else 0.0
    return decisions, mean, sd, sd / math.sqrt(max(1.0, decisions))


def _past(k: float, decisions: float, mean: float, sd_game: float, threshold) -> float:
    """The share of players of k games (normal: k games' sum) past `threshold(decisions)`."""
    n = k * decisions
    return 0.5 * math.erfc((threshold(n) - n * mean) / (max(sd_game, 1e-9) * math.sqrt(k)) / math.sqrt(2))


def _projection(games: dict[tuple[str, str], list[dict]], epsilon: float, alpha: float = 0.01) -> None:
    """Players of k games, as the sum of k independent games (normal, each kind's per-game mean
    and sd), at signals.py's thresholds (the allowance included): the share past the warning and
    the flag, k = 1 to 256. Then the calibration: per setting, the allowance the honest kinds
    need for a false-positive rate at most `alpha` at the flag however many decisions a
    player makes, the ratio judged after each (mu + a, mu the drift measured, in brackets its
    95% upper bound,
    a = sigma^2 ln(1 / alpha) / 2T: a random walk of drift -a and sd sigma a step ever reaches T
    with a chance at most exp(-2 a T / sigma^2), Brownian motion's bound); and, at the allowance
    in force, each honest kind's worst case at the warning and the flag, and the games after
    which half / 90% of the peekers are warned and flagged."""
    print("\nprojected share past the warning / the flag, players of k games (normal, per-game mean and sd)")
    ks = (1, 4, 16, 64, 256)
    print("| setting | kind | " + " | ".join(f"k={k}" for k in ks) + " |")
    for (name, kind), lines in sorted(games.items()):
        if len(lines) < 2:
            continue
        decisions, mean, sd, _ = _moments(lines, epsilon)
        allowed = signals.peek_allowance(lines[0]["game"])
        cells = [tuple(_past(k, decisions, mean, sd, lambda n, i=i: signals.peeking_thresholds(allowed * n)[i])
                       for i in (0, 1)) for k in ks]
        print(f"| {name} | `{kind}` | " + " | ".join(f"{w:.2f} / {f:.2f}" for w, f in cells) + " |")
    warn, flag = signals.PEEK_WARN_LLR, signals.PEEK_FLAG_LLR
    print(f"\ncalibration: allowance needed for a worst-case false-positive rate {alpha} at the flag; "
          f"at the allowance in force (signals.PEEK_ALLOWANCE): honest worst case, peekers' games to 50% / 90%")
    print("| setting | kind | decisions a game | LLR a decision (mean, sd) | allowance needed | in force | worst case: warning / flag | "
          "games to warn 50% / 90% | to flag 50% / 90% |")
    for (name, kind), lines in sorted(games.items()):
        if len(lines) < 2:
            continue
        decisions, mean, sd, sd_d = _moments(lines, epsilon)
        allowed = signals.peek_allowance(lines[0]["game"])
        margin = allowed - mean
        if kind == "peeking search":
            needed = worst = "-"
            reach = [_games_to(decisions, mean, sd, lambda n, i=i: signals.peeking_thresholds(allowed * n)[i], q)
                     for i in (0, 1) for q in (0.5, 0.9)]
            games_to = [f"{r}" if r else ">256" for r in reach]
        else:
            upper = mean + 1.96 * sd_d / math.sqrt(decisions * len(lines))  # the drift's 95% upper bound
            spread = sd_d * sd_d * math.log(1 / alpha) / (2 * flag)
            needed = f"{mean + spread:.4f} ({upper + spread:.4f})"
            worst = " / ".join(f"{math.exp(-2 * margin * t / max(sd_d * sd_d, 1e-12)):.3f}" for t in (warn, flag)) \
                if margin > 0 else "1 / 1 (in time)"
            games_to = ["-"] * 4
        print(f"| {name} | `{kind}` | {decisions:.0f} | {mean:.4f}, {sd_d:.3f} | {needed} | {allowed} | {worst} | "
              f"{games_to[0]} / {games_to[1]} | {games_to[2]} / {games_to[3]} |")


def _games_to(decisions: float, mean: float, sd: float, threshold, share: float) -> int | None:
    """The fewest games (up to 256) after which `share` of the players are past the threshold."""
    return next((k for k in range(1, 257) if _past(k, decisions, mean, sd, threshold) >= share), None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.peeking", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="setup")
    parser.add_argument("--players", type=int, default=8, help="players of each kind")
    parser.add_argument("--games", type=int, default=2, help="games of each player")
    parser.add_argument("--iterations", type=int, default=80, help="the detector's search, per model and decision")
    parser.add_argument("--bot-scale", type=float, default=0.1, help="BOT_ITERATIONS of the players' expert")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--out", help="append one JSON line a game to this file (GAMES games of each kind)")
    parser.add_argument("--seed0", type=int, default=0, help="the first game's seed, with --out")
    parser.add_argument("--report", nargs="+", metavar="FILE", help="the table of --out files")
    parser.add_argument("--per", default="1,2,4,8", help="with --report: players of k games")
    parser.add_argument("--epsilon", type=float, default=signals.PEEK_EPSILON, help="with --report")
    args = parser.parse_args(argv)
    if args.report:
        report(args.report, [int(k) for k in args.per.split(",")], args.epsilon)
        return
    game = registry.get(args.game)
    search.set_iterations_scale(args.bot_scale)
    if args.out:
        record(args, game, [k.strip() for k in args.kinds.split(",")])
        return
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
            levels.append(signals.peeking_level(seen["decisions"], seen["log_ratio"], seen["allowed"]))
        warned = sum(level is not None for level in levels)
        flagged = sum(level == "flag" for level in levels)
        low, high = wilson(warned, len(levels))
        print(f"{kind:<16} {len(levels):>7} {decisions:>9} {sum(ratios) / max(1, decisions):>8.3f} "
              f"{min(ratios):>7.1f}..{max(ratios):<7.1f} {warned:>4}/{len(levels):<3} {low:>5.2f}-{high:<5.2f} "
              f"{flagged:>4}/{len(levels):<3} {wins:>3}/{args.players * args.games:<3} "
              f"{firsts[0]:>13}: {firsts[1]:>5}, {firsts[2]:<7} {time.perf_counter() - started:>6.0f}", flush=True)


if __name__ == "__main__":
    main()
