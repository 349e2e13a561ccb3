"""Who finished where in an ended game, read from its summary (the harvest's entry), for rating.

A game is rated when it was not created casual (`"rated": false`), finished by its rules or by
a resignation (not abandoned or aborted), every seat is a player (`player` id) or a bot
level (an anonymous seat has no one to rate), and it is a real game: every seat made the
game type's number of decisions of its own (`rated_after`, GET /game-types) before it ended.
`unrated_reason` says which of these a game missed, in that order (`casual`, `aborted`,
`abandoned`, `anonymous_seat`, `one_seat`, `too_short`; `private` for a private game, which is
never logged). The entry is judged alone, so a rebuild judges every game as it was judged:
an entry keeps the threshold its game ended under (`rated_after`) with each seat's decisions
(`decisions`); one logged before that rule (issue 50: no `rated_after`) is judged by the rule
of its time, with no threshold, so the ratings it made rebuild to the same numbers.
Each player and each bot level is an identity: `player:<id>`, `bot:<level>` (a bot level is rated
as a player of its own, which gives the bots' ladder).

Ranks (0 best, ties share a rank): the winners first; the others by score in the game's own
direction (Witches: the lowest total is best), a resigned seat last. A team game (`teams` in the
result) ranks teams: the winning team first, the others by their members' best score.
Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from api.games import harvest

if TYPE_CHECKING:
    from api.games.repository import Game

LOWER_SCORE_WINS = frozenset({"witches"})  # the game types whose lowest score is the best
# Why a game is not rated (GET /games/{id}/ratings, the game's view, `game.finished`).
CASUAL, PRIVATE, ABORTED, ABANDONED = "casual", "private", "aborted", "abandoned"
ANONYMOUS_SEAT, ONE_SEAT, TOO_SHORT = "anonymous_seat", "one_seat", "too_short"
UNRATED_REASONS = (CASUAL, PRIVATE, ABORTED, ABANDONED, ANONYMOUS_SEAT, ONE_SEAT, TOO_SHORT)


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


def unrated_reason(entry: dict[str, Any]) -> str | None:
    """Why the ended game `entry` is not rated; None when it is."""
    result = entry.get("result") or {}
    if entry.get("rated") is False:
        return CASUAL
    for ended in (ABORTED, ABANDONED):
        if entry.get("status") == ended or result.get("outcome") == ended:
            return ended
    if entry.get("status") != "finished":
        return ABANDONED  # not an ended game's entry: nothing to rate
    who = [identity(s) for s in entry.get("seats") or []]
    if any(w is None for w in who):
        return ANONYMOUS_SEAT
    if len(who) < 2:
        return ONE_SEAT
    return TOO_SHORT if too_short(entry) else None


def too_short(entry: dict[str, Any]) -> bool:
    """Whether a seat made fewer decisions of its own than the game's threshold before it ended
    (never for an entry logged before the threshold: it has no `rated_after`)."""
    rated_after = entry.get("rated_after")
    if not isinstance(rated_after, dict):
        return False
    needed = rated_after.get("decisions_per_seat") or 0
    made = entry.get("decisions") or []
    return any((made[i] if i < len(made) else 0) < needed for i in range(len(entry.get("seats") or [])))


def game_unrated_reason(game: Game) -> str | None:
    """Why the game is not rated, once it is over (None: rated, or not over yet)."""
    if not game.finished:
        return None
    if not game.platform.rated:
        return CASUAL
    if game.platform.private:
        return PRIVATE  # never logged for the harvest, never counted
    return unrated_reason(harvest.summary(game))


def standings(entry: dict[str, Any]) -> list[Standing] | None:
    """The sides of the ended game `entry` in rank order, or None when it is not rated."""
    if unrated_reason(entry) is not None:
        return None
    result = entry.get("result") or {}
    seats = entry.get("seats") or []
    who = [identity(s) for s in seats]
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


def places(entry: dict[str, Any]) -> list[int]:
    """Each seat's place in the ended game `entry` (1 the best; tied sides share a place), rated or
    not: a tournament's table result (api/tournaments/). An aborted or abandoned game's seats
    all share the last place."""
    seats = entry.get("seats") or []
    result = entry.get("result") or {}
    if entry.get("status") != "finished" or result.get("outcome") in (ABORTED, ABANDONED):
        return [len(seats)] * len(seats)
    sides = _sides(result, len(seats))
    keys = [_sort_key(entry["type"], result, side) for side in sides]
    found = [len(seats)] * len(seats)
    for side, key in zip(sides, keys):
        for seat in side:
            found[seat] = 1 + sum(len(other) for other, k in zip(sides, keys) if k < key)
    return found
