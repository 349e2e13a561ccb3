"""Who finished where in an ended game, read from its summary (the harvest's entry), for rating.

A game is rated when it was not created casual (`"rated": false`), finished by its rules or by
a resignation (not abandoned or aborted), and every seat is a player (`player` id) or a bot
level: an anonymous seat has no one to rate.
Each player and each bot level is an identity: `player:<id>`, `bot:<level>` (a bot level is rated
as a player of its own, which gives the bots' ladder).

Ranks (0 best, ties share a rank): the winners first; the others by score in the game's own
direction (Witches: the lowest total is best), a resigned seat last. A team game (`teams` in the
result) ranks teams: the winning team first, the others by their members' best score.
Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LOWER_SCORE_WINS = frozenset({"witches"})  # the game types whose lowest score is the best


@dataclass(frozen=True)
class Standing:
    """One side of a rated game: its seats, the identity of each, and its rank (0 best)."""
    seats: tuple[int, ...]
    identities: tuple[str, ...]
    rank: int


def identity(seat: dict[str, Any]) -> str | None:
    if seat.get("bot") is not None:
        return f"bot:{seat['bot']}"
    if seat.get("player") is not None:
        return f"player:{seat['player']}"
    return None  # an anonymous person: nobody to rate


def standings(entry: dict[str, Any]) -> list[Standing] | None:
    """The sides of the ended game `entry` in rank order, or None when it is not rated."""
    result = entry.get("result") or {}
    if entry.get("status") != "finished" or result.get("outcome") in ("abandoned", "aborted") \
            or entry.get("rated") is False:
        return None
    seats = entry.get("seats") or []
    who = [identity(s) for s in seats]
    if len(who) < 2 or any(w is None for w in who):
        return None
    sides = _sides(result, len(seats))
    keys = [_sort_key(entry["type"], result, side) for side in sides]
    order = sorted(range(len(sides)), key=lambda i: keys[i])
    ranked: list[Standing] = []
    for place, i in enumerate(order):
        rank = ranked[-1].rank if ranked and keys[order[place - 1]] == keys[i] else place
        ranked.append(Standing(sides[i], tuple(who[s] for s in sides[i]), rank))  # type: ignore[misc]
    return ranked


def _sides(result: dict[str, Any], n: int) -> list[tuple[int, ...]]:
    teams = result.get("teams")
    if teams:
        return [tuple(t["seats"] if isinstance(t, dict) else t) for t in teams]
    return [(seat,) for seat in range(n)]


def _sort_key(type_: str, result: dict[str, Any], side: tuple[int, ...]) -> tuple[Any, ...]:
    """Smaller is better: (not a winner, resigned, the best member's score in the game's direction)."""
    winners = set(_seat_numbers(result.get("winners") or []))
    resigned = set(result.get("resigned") or [])
    scores = result.get("scores")
    won = any(s in winners for s in side)
    if not isinstance(scores, list) or not all(isinstance(scores[s], (int, float)) for s in side if s < len(scores)):
        return (not won, all(s in resigned for s in side), 0)
    sign = 1 if type_ in LOWER_SCORE_WINS else -1
    best = min(sign * scores[s] for s in side)
    return (not won, all(s in resigned for s in side), best)


def _seat_numbers(winners: list[Any]) -> list[int]:
    """Winners as seat numbers (some games name a winner as `{"seat": n, ...}`)."""
    return [w["seat"] if isinstance(w, dict) else w for w in winners]
