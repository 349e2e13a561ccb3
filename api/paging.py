"""Pages of a Redis sorted set, newest (highest score) first, after a cursor: the lobby's
listings and a player's games page the same way."""
from __future__ import annotations

from typing import Any


def sorted_page(connection: Any, key: str, before: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
    """A page of a sorted set from the highest score down, after cursor (score, member): members
    of the cursor's score come in reverse order of their names, so those after it sort below it."""
    high = "+inf" if before is None else before[0]
    found = connection.zrevrangebyscore(key, high, "-inf", start=0, num=count + 64, withscores=True)
    page = []
    for member, score in found:
        member, score = member.decode(), int(score)
        if before is not None and score == before[0] and member >= before[1]:
            continue
        page.append((member, score))
        if len(page) == count:
            break
    return page
