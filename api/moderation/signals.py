"""Sandbagging and boosting, read from the rated games (Lichess's SandbagWatch, ported): pure.

A rated game is *fast* for its loser when the loser made at most FAST_DECISIONS decisions in it,
or the whole game lasted at most FAST_SECONDS: a fast loss is a *sandbag* for the loser (its
rating given away) and a *boost* for the winner (rank 0). Over each player's last WINDOW rated
results (oldest first), WARN_AT fast losses (or wins) make a warning, FLAG_AT a flag; and WARN_AT
or FLAG_AT fast wins over one and the same opponent (Lichess's older Boosting rule) make a
`same_opponent` warning or flag. Each flag carries its evidence: the games, and the figures.
"""
from __future__ import annotations

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
