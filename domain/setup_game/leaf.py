"""A learned leaf value for the expert's play-outs (issue 34): more than the score lead.

bots.evaluate reads only the scores and who moves. At the end of a play-out (a determinized
world: both racks dealt) much more is known: what set each side could make right now, how
many of its rack tiles fit one another or the board. `value` is a logistic regression on a
few such features, from one seat's side of a 2-seat game; the weights were fitted on
greedy-vs-greedy games labelled by who won them (bench/setup_leaf_fit.py). Other seat counts
and the team game keep bots.evaluate (the weights know only 2 seats).
"""
from __future__ import annotations

import math

from .bots import _JOINS, _valued, evaluate
from .moves import placements
from .state import State, tops


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


WEIGHTS: tuple = (0.0000, 3.5058, 0.0163, 3.0700, 3.9945, 1.4108, 1.5933, 0.4708, 0.1690)  # v1, see below


WEIGHTS_OWN: tuple = (-0.2588, 3.4286, -0.2588, 1.7258, 4.1396, 0.5090, 0.2981)  # mover rows only


def value(state: State, seat: int, softness: float = 1.0, own: bool = False) -> float:
    """The seat's chance to win by the fitted logistic (2 seats), else bots.evaluate;
    `softness` > 1 flattens it (the logit divided by it)."""
    if state.n != 2 or state.teams or not WEIGHTS:
        return evaluate(state, seat)
    if own:
        z = sum(w * x for w, x in zip(WEIGHTS_OWN, features_own(raw(state, seat, own=True)))) / softness
    else:
        z = sum(w * x for w, x in zip(WEIGHTS, features(raw(state, seat)))) / softness
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
