"""Seasons (issue 52): monthly windows (UTC) over the rating history of each game type.

A season's table is a projection of the same ended games as the overall ratings, kept beside
them by the ledger (api/ratings/ledger.py: `<type>:season:<YYYY-MM>`), in the same transaction:
it starts empty (everyone at OpenSkill's starting rating), rates only the games that ended (their
last move) within the month, and stays for good once the month is over. A void re-rates it with
everything else (the ledger's `recompute`), so an ended season's table follows a moderator's
decision exactly. This module names the seasons and their bounds. Pure: no I/O, no clock.
"""
from __future__ import annotations

import calendar
import re
import time
from typing import Any

from api.errors import ApiError, Code

CURRENT = "current"
_NAME = re.compile(r"^([0-9]{4})-([0-9]{2})$")


class UnknownSeason(ApiError):
    status, code = 404, Code.UNKNOWN_SEASON


class SeasonNotStarted(ApiError):
    status, code = 404, Code.SEASON_NOT_STARTED


def current(now_ms: int) -> str:
    """The running season at `now_ms`."""
    year, month = _month(now_ms)
    return f"{year:04d}-{month:02d}"


def resolve(season: str, now_ms: int) -> str:
    """The season a path names (`YYYY-MM`, or `current`), or a refusal: a name that is no month
    (`unknown_season`), a month after the running one (`season_not_started`)."""
    if season == CURRENT:
        return current(now_ms)
    found = _NAME.match(season)
    if found is None or not 1 <= int(found.group(2)) <= 12 or int(found.group(1)) < 1970:
        raise UnknownSeason(f"There is no season {season[:16]!r}: a season is a month, YYYY-MM (or current).")
    if season > current(now_ms):
        running = current(now_ms)
        raise SeasonNotStarted(f"The season {season} has not started yet (the running one is {running}).",
                               details={"current": running})
    return season


def bounds(season: str) -> tuple[int, int]:
    """(its first ms, the first ms after it), UTC."""
    year, month = int(season[:4]), int(season[5:7])
    starts = calendar.timegm((year, month, 1, 0, 0, 0)) * 1000
    after = calendar.timegm((year + month // 12, month % 12 + 1, 1, 0, 0, 0)) * 1000
    return starts, after


def shown(season: str, now_ms: int) -> dict[str, Any]:
    """A season as the API names it: its name, bounds and whether it is running or ended."""
    starts, ends = bounds(season)
    return {"season": season, "status": "running" if season == current(now_ms) else "ended",
            "starts": starts, "ends": ends}


def _month(now_ms: int) -> tuple[int, int]:
    t = time.gmtime(now_ms / 1000)
    return t.tm_year, t.tm_mon
