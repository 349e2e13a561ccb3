"""Sandbagging and boosting, read from the rated games (Lichess's SandbagWatch, ported): pure.

A rated game is *fast* for its loser when the loser made at most FAST_DECISIONS decisions in it,
or the whole game lasted at most FAST_SECONDS: a fast loss is a *sandbag* for the loser (its
rating given away) and a *boost* for the winner (rank 0). Over each player's last WINDOW rated
results (oldest first), WARN_AT fast losses (or wins) make a warning, FLAG_AT a flag; and WARN_AT
or FLAG_AT fast wins over one and the same opponent (Lichess's older Boosting rule) make a
`same_opponent` warning or flag. Each flag carries its evidence: the games, and the figures.

Peeking (issue 50), in hidden-information games: for each decision of a player, the search's
preference over the seat's moves is computed twice (domain/analysis.py's `peek_evidence`): from
what the seat could see (its determinizations: `honest`) and from the real state, every hidden
card in sight (`peeking`). Each is a model of the player: the chance it gives the move played is
its visit share, mixed with a uniform choice (PEEK_EPSILON: a player is never a perfect search).
Over a player's decisions, the log-likelihood ratio sum(log P_peeking / P_honest) says how much
better the hidden state explains them than what the seat saw; a player whose ratio passes
PEEK_WARN_LLR (PEEK_FLAG_LLR) over at least PEEK_MIN_DECISIONS decisions is warned (flagged),
with the figures: the ratio, the decisions, and how often the move played was each model's first.
The thresholds are calibrated by bench/peeking.py on bots that provably see only their seat
(their false positives) and on a bot given the hidden state (its detection).
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

FAST_DECISIONS = 4  # a loss with at most this many decisions of the loser is fast
FAST_SECONDS = 60  # ...or a game over within this many seconds of its creation
WINDOW = 7  # the results kept per player (Lichess: the last 7)
WARN_AT = 3
FLAG_AT = 4


@dataclass(frozen=True)
class RatedGame:
    """What the signals read of one rated game."""
    id: str
    type: str
    at: int  # ms, when it ended
    ranks: dict[str, int]  # identity -> its best rank (0 best)
    decisions: dict[str, int]  # identity -> its decisions in the game
    seconds: float  # from the game's creation to its end


def fast_pairs(game: RatedGame) -> list[tuple[str, str]]:
    """(winner, loser) for each fast loss of the game."""
    if len(game.ranks) < 2:
        return []
    worst = max(game.ranks.values())
    losers = [w for w, r in game.ranks.items() if r == worst and r > 0]
    winners = [w for w, r in game.ranks.items() if r == 0]
    fast = [loser for loser in losers
            if game.decisions.get(loser, 0) <= FAST_DECISIONS or game.seconds <= FAST_SECONDS]
    return [(w, loser) for loser in fast for w in winners]


def _evidence(games: list[RatedGame]) -> list[dict[str, Any]]:
    """Each game's figures: when it ended, how long it lasted, each identity's decisions and rank."""
    return [{"game": g.id, "type": g.type, "at": g.at, "seconds": None if g.seconds == float("inf") else g.seconds,
             "decisions": g.decisions, "ranks": g.ranks} for g in games]


def _level(n: int) -> str | None:
    return "flag" if n >= FLAG_AT else "warning" if n >= WARN_AT else None


def flags(games: Iterable[RatedGame]) -> list[dict[str, Any]]:
    """The sandbagging, boosting and same-opponent flags of the players in `games` (any order)."""
    ordered = sorted(games, key=lambda g: (g.at, g.id))
    results: dict[str, list[tuple[RatedGame, str | None]]] = {}  # identity -> (game, "sandbag"/"boost"/None)
    against: dict[tuple[str, str], list[RatedGame]] = {}
    for game in ordered:
        pairs = fast_pairs(game)
        sandbag = {loser for _, loser in pairs}
        boost = {w for w, _ in pairs}
        for who in game.ranks:
            kind = "sandbag" if who in sandbag else "boost" if who in boost else None
            results.setdefault(who, []).append((game, kind))
        for pair in pairs:
            against.setdefault(pair, []).append(game)
    found: list[dict[str, Any]] = []
    for who, seen in results.items():
        window = seen[-WINDOW:]
        for kind, signal in (("sandbag", "sandbagging"), ("boost", "boosting")):
            marked = [g for g, k in window if k == kind]
            level = _level(len(marked))
            if level is not None:
                found.append({"signal": signal, "level": level, "identities": [who],
                              "games": [g.id for g in marked],
                              "figures": {"fast_results": len(marked), "window": len(window),
                                          "fast_decisions": FAST_DECISIONS, "fast_seconds": FAST_SECONDS,
                                          "warn_at": WARN_AT, "flag_at": FLAG_AT, "per_game": _evidence(marked)}})
    for (winner, loser), games_ in against.items():
        recent = games_[-WINDOW:]
        level = _level(len(recent))
        if level is not None:
            found.append({"signal": "same_opponent", "level": level, "identities": [winner, loser],
                          "games": [g.id for g in recent],
                          "figures": {"fast_wins": len(recent), "winner": winner, "loser": loser,
                                      "warn_at": WARN_AT, "flag_at": FLAG_AT, "per_game": _evidence(recent)}})
    return found


PEEK_EPSILON = 0.2  # the uniform share of a player model: P(move) = (1 - e) * share + e / moves
PEEK_MIN_DECISIONS = 20  # decisions of a player before its ratio is judged
# At most this much a decision, either way: as much as a decision between two moves can weigh
# (the models wholly apart). Beyond it lie only decisions with more moves than the search's
# iterations, where the move played was tried by one search and not the other by chance
# (measured: Witches' passes, 4,845 ways to pass 3 cards, weighed +-5.5 at 80 iterations,
# and one such decision warned a random player; every other decision measured lies within +-1.3).
PEEK_CLIP = math.log((1 - PEEK_EPSILON / 2) / (PEEK_EPSILON / 2))
PEEK_WARN_LLR = math.log(100)  # the hidden state explains the decisions 100 times better: a warning
PEEK_FLAG_LLR = math.log(10_000)  # ...10,000 times: a flag
# Allowed per decision before the ratio counts against a player (measured, bench/README.md's
# issue 50): an honest player's ratio may drift up (a random Witches player: +0.007 a decision;
# an honest search's first games in Splendor and SetUp: +0.007, +0.018), e.g. where the search
# of one real world gives sharper shares than the search over the seat's determinizations; a
# drift, however small, crosses any fixed threshold in enough decisions. Judged is the ratio
# minus this allowance times the decisions: an honest drift a below it sums to a falling trend,
# whose chance of ever reaching a threshold T, however long the player plays, is at most
# exp(-2 a T / sigma^2) (sigma: a decision's sd), while a peeker's larger drift still crosses.
# Per game type (the drift and the sd are the game's): for each, the largest over an honest
# search and a random player of drift + sigma^2 ln(100) / (2 ln 10,000) (so a flag at most 1%
# however long they play), rounded up to 0.005 (`python -m bench.peeking --report`); the
# largest for a type not measured. Measured at PEEKING_ITERATIONS=80 (2026-12-06,
# bench/peeking_games.jsonl); another budget wants its own.
PEEK_ALLOWANCE: dict[str, float] = {"splendor": 0.005, "witches": 0.03, "setup": 0.015, "fairy-tile": 0.015,
                                    "smallworld-of-warcraft": 0.02}
PEEK_ALLOWANCE_UNMEASURED = max(PEEK_ALLOWANCE.values())


def peek_allowance(game_type: str) -> float:
    """The ratio allowed per decision of a game type before it counts against the player."""
    return PEEK_ALLOWANCE.get(game_type, PEEK_ALLOWANCE_UNMEASURED)


@dataclass(frozen=True)
class PeekDecision:
    """One decision's evidence (domain/analysis.py's peek_evidence, with who and where)."""
    identity: str
    game: str
    type: str
    version: int
    moves: int  # the seat's legal moves
    played: str  # the move played (its key)
    honest: dict[str, float]  # move key -> visit share, searched from the seat's determinizations
    peeking: dict[str, float]  # ... from the real state


def _chance(shares: dict[str, float], played: str, moves: int) -> float:
    return (1 - PEEK_EPSILON) * shares.get(played, 0.0) + PEEK_EPSILON / max(1, moves)


def clipped(ratio: float) -> float:
    """A decision's ratio within +-PEEK_CLIP."""
    return max(-PEEK_CLIP, min(PEEK_CLIP, ratio))


def log_ratio(decision: PeekDecision) -> float:
    """log P_peeking(played) - log P_honest(played): > 0 where the hidden state explains it better
    (within +-PEEK_CLIP)."""
    return clipped(math.log(_chance(decision.peeking, decision.played, decision.moves)) - math.log(
        _chance(decision.honest, decision.played, decision.moves)))


def _first(shares: dict[str, float]) -> str | None:
    return max(sorted(shares), key=lambda k: shares[k]) if shares else None


def peeking(decisions: Iterable[PeekDecision]) -> dict[str, dict[str, Any]]:
    """Per identity: its decisions, the summed log-likelihood ratio, the allowance its decisions
    sum to (`allowed`: peek_allowance per decision of its type), and how often the move played
    was the first of each model (among the decisions where the two models' firsts differ)."""
    found: dict[str, dict[str, Any]] = {}
    for d in decisions:
        seen = found.setdefault(d.identity, {"decisions": 0, "log_ratio": 0.0, "allowed": 0.0, "games": set(),
                                             "differ": 0, "played_peeking_first": 0, "played_honest_first": 0})
        seen["decisions"] += 1
        seen["log_ratio"] += log_ratio(d)
        seen["allowed"] += peek_allowance(d.type)
        seen["games"].add(d.game)
        honest, peek = _first(d.honest), _first(d.peeking)
        if honest != peek:
            seen["differ"] += 1
            seen["played_peeking_first"] += d.played == peek
            seen["played_honest_first"] += d.played == honest
    return found


def peeking_thresholds(allowed: float = 0.0) -> tuple[float, float]:
    """The ratio that warns and the one that flags a player whose decisions' allowance sums to
    `allowed`: the fixed thresholds raised by it."""
    return PEEK_WARN_LLR + allowed, PEEK_FLAG_LLR + allowed


def peeking_level(decisions: int, ratio: float, allowed: float = 0.0) -> str | None:
    if decisions < PEEK_MIN_DECISIONS:
        return None
    warn, flag = peeking_thresholds(allowed)
    return "flag" if ratio >= flag else "warning" if ratio >= warn else None


def peeking_flags(decisions: Iterable[PeekDecision]) -> list[dict[str, Any]]:
    """A `peeking` warning or flag for each player whose decisions the hidden state explains
    implausibly better than what its seat saw, with the figures."""
    found = []
    for who, seen in sorted(peeking(decisions).items()):
        level = peeking_level(seen["decisions"], seen["log_ratio"], seen["allowed"])
        if level is None:
            continue
        warn, flag = peeking_thresholds(seen["allowed"])
        found.append({"signal": "peeking", "level": level, "identities": [who], "games": sorted(seen["games"]),
                      "figures": {"decisions": seen["decisions"], "log_likelihood_ratio": round(seen["log_ratio"], 3),
                                  "decisions_where_the_models_differ": seen["differ"],
                                  "played_the_hidden_states_first": seen["played_peeking_first"],
                                  "played_the_seats_first": seen["played_honest_first"],
                                  "epsilon": PEEK_EPSILON, "min_decisions": PEEK_MIN_DECISIONS,
                                  "allowed": round(seen["allowed"], 3),
                                  "warn_at": round(warn, 3), "flag_at": round(flag, 3)}})
    return found


# ---- table-overlap collusion (issue 50), in 3-6 seat games ------------------------------------
# Two accounts that often sit at one table where one of them benefits: the *feeder* finishes
# last while the *beneficiary* wins, again and again. By chance (every order of the table equally
# likely) that happens in an n-seat game with probability 1 / (n (n - 1)); over the pair's last
# OVERLAP_WINDOW rated games together (within the lookback), the chance of as many such games or
# more (a Poisson-binomial tail) is the evidence's figure. A pair is warned at OVERLAP_WARN_AT
# such games whose chance is at most OVERLAP_WARN_P, flagged at OVERLAP_FLAG_AT at most
# OVERLAP_FLAG_P. Bots are never a pair's member (they provably play their seat alone).
OVERLAP_SEATS = (3, 6)  # the tables judged: from 3 to 6 identities
OVERLAP_WINDOW = 20  # the pair's games together judged, the most recent
OVERLAP_WARN_AT, OVERLAP_WARN_P = 3, 0.01
OVERLAP_FLAG_AT, OVERLAP_FLAG_P = 4, 0.001


def _fed(game: RatedGame) -> list[tuple[str, str]]:
    """(beneficiary, feeder) for each pair of players of the game where one won and the other
    finished last."""
    worst = max(game.ranks.values())
    if worst == 0:
        return []
    people = [w for w in game.ranks if w.startswith("player:")]
    return [(w, f) for w in people for f in people if game.ranks[w] == 0 and game.ranks[f] == worst]


def at_least(k: int, chances: list[float]) -> float:
    """P(X >= k) for X the number of successes of independent trials of these chances."""
    dist = [1.0]
    for p in chances:
        dist = [(dist[i] if i < len(dist) else 0.0) * (1 - p) + (dist[i - 1] * p if i > 0 else 0.0)
                for i in range(len(dist) + 1)]
    return min(1.0, sum(dist[k:]))


def table_overlap(games: Iterable[RatedGame]) -> list[dict[str, Any]]:
    """A `table_overlap` warning or flag for each ordered pair (beneficiary, feeder) of players
    whose games together the feeder finished last and the beneficiary won implausibly often."""
    together: dict[tuple[str, str], list[RatedGame]] = {}
    for game in sorted(games, key=lambda g: (g.at, g.id)):
        if not OVERLAP_SEATS[0] <= len(game.ranks) <= OVERLAP_SEATS[1]:
            continue
        people = sorted(w for w in game.ranks if w.startswith("player:"))
        for a in people:
            for b in people:
                if a != b:
                    together.setdefault((a, b), []).append(game)
    found = []
    for (winner, feeder), shared in sorted(together.items()):
        window = shared[-OVERLAP_WINDOW:]
        fed = [g for g in window if (winner, feeder) in _fed(g)]
        if len(fed) < OVERLAP_WARN_AT:
            continue
        chance = at_least(len(fed), [1 / (len(g.ranks) * (len(g.ranks) - 1)) for g in window])
        level = ("flag" if len(fed) >= OVERLAP_FLAG_AT and chance <= OVERLAP_FLAG_P
                 else "warning" if chance <= OVERLAP_WARN_P else None)
        if level is None:
            continue
        found.append({"signal": "table_overlap", "level": level, "identities": [winner, feeder],
                      "games": [g.id for g in fed],
                      "figures": {"beneficiary": winner, "feeder": feeder, "games_together": len(window),
                                  "won_while_the_other_was_last": len(fed),
                                  "chance_if_independent": float(f"{chance:.3g}"), "window": OVERLAP_WINDOW,
                                  "warn_at": OVERLAP_WARN_AT, "warn_p": OVERLAP_WARN_P,
                                  "flag_at": OVERLAP_FLAG_AT, "flag_p": OVERLAP_FLAG_P,
                                  "per_game": _evidence(fed)}})
    return found
