"""A learned leaf for SetUp's expert, fitted on self-play (issue 34; tried, not kept: bench/README.md).

    python bench/setup_leaf_fit.py gen --out FILE [--games 2000] [--seed 300000] [--explore 0.15]
    python bench/setup_leaf_fit.py fit FILE [--holdout 0.25] [--ridge 1.0]

The features of a 2-seat position from one seat's side (below: the biggest set each side could
make now, whether it finishes, rack tiles that fit together or the board, the lead) were the
module domain/setup_game/leaf.py while the expert tried them as its leaf (commit a36d5ff and the
next ones of branch setupbot5); they are kept here with the fitting, for a later try.

gen: 2-seat games of greedy against greedy (the real state: greedy reads only its own rack);
with chance `explore` a move is drawn among greedy's best 8 sets instead, as the expert's
candidates are, so positions after a non-greedy set are seen too. Before every move, both
seats' `raw` quantities are written (one JSON line per game: the rows and the winner).
fit: a logistic regression on `features` by IRLS (Newton's method; a small ridge keeps it
well posed), in plain Python (about 100,000 rows, 9 weights: a minute): the games split into fitting and
held-out ones; the held-out log-loss and Brier score are printed beside bots.evaluate's, and
the weights. --own: the seat's own side only (features_own).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from domain.play import fold
from domain.setup_game import GAME
from domain.setup_game.bots import _JOINS, _valued, greedy_policy, prune
from domain.setup_game.moves import placements
from domain.setup_game.state import State, tops


def best_points(state: State, seat: int) -> int:
    """The points of the biggest set `seat` could make now (its rack and the market, the board
    as it is), 0 when it can make none: the next set's size is most of a turn's worth."""
    return max((value[0] for _, value in _valued(state, seat, placements(state, seat))), default=0)


def joined(state: State, seat: int) -> tuple[int, int]:
    """(rack tiles that join another rack or market tile, rack tiles that join a top tile):
    a rack of tiles that fit together makes big sets later, even when it makes none now."""
    rack, market = state.racks[seat], state.market
    top = [t for t in tops(state) if t >= 0]
    own = sum(any(_JOINS[t][u] for u in rack + market if u != t) for t in rack)
    board = sum(any(_JOINS[t][u] for u in top) for t in rack)
    return own, board


def raw(state: State, seat: int, own: bool = False) -> dict:
    """The raw quantities of a 2-seat position from `seat`'s side (the fitting script keeps
    them, so feature sets can be tried without replaying games)."""
    other = 1 - seat
    own_me, board_me = joined(state, seat)
    own_opp, board_opp = (0, 0) if own else joined(state, other)
    return {"me": state.scores[seat], "opp": state.scores[other], "goal": state.goal,
            "mover": int(state.turn == seat), "best_me": best_points(state, seat),
            "best_opp": 0 if own else best_points(state, other), "bag": len(state.bag),
            "own_me": own_me, "board_me": board_me, "own_opp": own_opp, "board_opp": board_opp}


def features(r: dict) -> list[float]:
    """The regression's inputs from `raw`'s quantities. Leads are scaled as evaluate scales
    them (a point matters more near the finish); the mover's next set counts at once, and a
    set that reaches the finish is a win if the side can make it before the other."""
    to_me, to_opp = max(1, r["goal"] - r["me"]), max(1, r["goal"] - r["opp"])
    scale = 1.5 + 0.35 * min(to_me, to_opp)
    sign = 1 if r["mover"] else -1
    best_mover, to_mover = (r["best_me"], to_me) if r["mover"] else (r["best_opp"], to_opp)
    best_other, to_other = (r["best_opp"], to_opp) if r["mover"] else (r["best_me"], to_me)
    return [
        1.0,
        (r["me"] - r["opp"]) / scale,                     # evaluate's lead
        sign,                                             # the mover's edge
        sign * min(best_mover, to_mover) / scale,         # the mover's next set, as a lead
        sign * (best_mover >= to_mover),                  # the mover finishes now
        -sign * min(best_other, to_other) / scale,        # what the other could make now
        -sign * (best_other >= to_other),                 # ... and whether it finishes
        (r["own_me"] - r["own_opp"]) / 4,                 # racks that fit together
        (r["board_me"] - r["board_opp"]) / 4,             # racks that fit the board
    ]


def features_own(r: dict) -> list[float]:
    """`features` without what the seat cannot see: the other's set and rack (in a world they
    are dealt at random, so they only add each world's luck to the comparison of candidates)."""
    x = features(r)
    to_me = max(1, r["goal"] - r["me"])
    own_best = min(r["best_me"], to_me) / (1.5 + 0.35 * min(to_me, max(1, r["goal"] - r["opp"])))
    return [x[0], x[1], x[2], own_best, float(r["best_me"] >= to_me) * (1 if r["mover"] else 0.5), r["own_me"] / 4, r["board_me"] / 4]



def gen(out: str, games: int, seed: int, explore: float) -> None:
    with open(out, "a") as f:
        for g in range(games):
            rng = random.Random(seed + g)
            state = fold(GAME, GAME.setup({"teams": False}, 2, rng))
            rows = []
            while GAME.actors(state):
                seat = GAME.actors(state)[0]
                rows += [raw(state, s) for s in (0, 1)]
                rows[-2]["seat"], rows[-1]["seat"] = 0, 1
                if rng.random() < explore:
                    move = rng.choice(prune(state, seat, None, keep=8))
                else:
                    move = greedy_policy(state, seat, rng)
                state = fold(GAME, GAME.decide(state, seat, move, rng), state)
            f.write(json.dumps({"seed": seed + g, "winners": list(GAME.result(state)["winners"]),
                                "rows": rows}) + "\n")


def evaluate_raw(r: dict) -> float:
    """bots.evaluate from the raw quantities (it reads only the scores and the mover)."""
    lead = r["me"] - r["opp"] + (2.0 if r["mover"] else -2.0)
    to_go = max(1.0, r["goal"] - max(r["me"], r["opp"]))
    return 1.0 / (1.0 + math.exp(-lead / (1.5 + 0.35 * to_go)))


def load(path: str) -> list:
    """Per game: [(raw row, 1 if that row's seat won else 0)], shared wins as 0.5."""
    out = []
    for line in open(path):
        game = json.loads(line)
        won = {s: (1.0 / len(game["winners"]) if s in game["winners"] else 0.0) for s in (0, 1)}
        out.append([(r, won[r["seat"]]) for r in game["rows"]])
    return out


def solve(a: list, b: list) -> list:
    """a x = b by Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def logistic(x: list, w: list) -> float:
    z = sum(a * b for a, b in zip(w, x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(xs: list, ys: list, ridge: float, steps: int = 25) -> list:
    """IRLS: w += (X'WX + ridge I)^-1 (X'(y - p) - ridge w)."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        h = [[ridge * (i == j) for j in range(k)] for i in range(k)]
        g = [-ridge * wi for wi in w]
        for x, y in zip(xs, ys):
            p = logistic(x, w)
            s = p * (1 - p)
            for i in range(k):
                g[i] += x[i] * (y - p)
                xi = x[i] * s
                row = h[i]
                for j in range(k):
                    row[j] += xi * x[j]
        step = solve(h, g)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(v) for v in step) < 1e-6:
            break
    return w


def scores(ps: list, ys: list) -> tuple[float, float]:
    eps = 1e-9
    loss = -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps)) for p, y in zip(ps, ys)) / len(ys)
    brier = sum((p - y) ** 2 for p, y in zip(ps, ys)) / len(ys)
    return loss, brier


def report(path: str, holdout: float, ridge: float, mover_only: bool, own: bool) -> list:
    games = load(path)
    cut = int(len(games) * (1 - holdout))
    rows = lambda part: [(r, y) for g in part for r, y in g if r["mover"] or not mover_only]
    train, test = rows(games[:cut]), rows(games[cut:])
    feats = features_own if own else features
    w = fit([feats(r) for r, _ in train], [y for _, y in train], ridge)
    ys = [y for _, y in test]
    fitted = scores([logistic(feats(r), w) for r, _ in test], ys)
    base = scores([evaluate_raw(r) for r, _ in test], ys)
    print(f"{len(games)} games, {len(train)} rows fitted, {len(test)} held out")
    print(f"held out: fitted log-loss {fitted[0]:.4f} Brier {fitted[1]:.4f}; "
          f"evaluate log-loss {base[0]:.4f} Brier {base[1]:.4f}")
    print("WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")
    return w


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--out", required=True)
    g.add_argument("--games", type=int, default=2000)
    g.add_argument("--seed", type=int, default=300_000)
    g.add_argument("--explore", type=float, default=0.15)
    f = sub.add_parser("fit")
    f.add_argument("file")
    f.add_argument("--holdout", type=float, default=0.25)
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--mover-only", action="store_true")
    f.add_argument("--own", action="store_true", help="features_own: the seat's own side only")
    args = parser.parse_args()
    if args.cmd == "gen":
        gen(args.out, args.games, args.seed, args.explore)
    else:
        report(args.file, args.holdout, args.ridge, args.mover_only, args.own)
