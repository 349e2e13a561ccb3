"""Vacations (issue 36): days a player is away, during which its clocks are paused in every game.

Each player has VACATION_DAYS_PER_YEAR days (default 30) a calendar year (UTC: the allowance
resets on January 1). A vacation is planned in advance as whole UTC days (`start` and `end`
dates, both included; one starting today starts now) or taken automatically when one of the
player's deadlines comes and the player allowed it (`auto`): one day, 24 hours from that
deadline. Each day is charged to its own year; vacations may not overlap.

This module keeps the plans (one Redis hash per player, its changes in a WATCH/MULTI
transaction so two requests cannot both take the last days) and the moments they begin and end
(two sorted sets the reconciler polls: workers/vacations.py). The games' clocks are paused by
events in each game's history (api/seating/pauses.py), never by this record: a replay needs no
vacation record. Flask-free.
"""
from __future__ import annotations

import json
import secrets
from datetime import UTC, date, datetime, timedelta
from typing import Any

import redis as redis_errors

from api.errors import ApiError, Code

DAYS_PER_YEAR = 30
DAY_MS = 24 * 3600 * 1000
PLAN_AHEAD_DAYS = 366  # a vacation starts within a year of its planning
TRIES = 20


class InvalidVacation(ApiError):
    status, code = 400, Code.INVALID_VACATION


class VacationOverlaps(ApiError):
    status, code = 409, Code.VACATION_OVERLAPS


class AllowanceExceeded(ApiError):
    status, code = 409, Code.VACATION_ALLOWANCE_EXCEEDED


class UnknownVacation(ApiError):
    status, code = 404, Code.UNKNOWN_VACATION


def _day(at_ms: int) -> date:
    return datetime.fromtimestamp(at_ms / 1000, tz=UTC).date()


def _midnight(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def _iso(at_ms: int) -> str:
    return datetime.fromtimestamp(at_ms / 1000, tz=UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def parse_day(value: object, name: str) -> date:
    if not isinstance(value, str):
        raise InvalidVacation(f"{name} is a date, YYYY-MM-DD (UTC).", details={"fields": {name: ["Not a date."]}})
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidVacation(f"{name} is a date, YYYY-MM-DD (UTC); {value!r} is not one.",
                              details={"fields": {name: ["Not a date."]}}) from None


def charged(first: date, last: date) -> dict[int, int]:
    """The days of first..last (both included) by year."""
    out: dict[int, int] = {}
    day = first
    while day <= last:
        out[day.year] = out.get(day.year, 0) + 1
        day += timedelta(days=1)
    return out


class Vacations:
    def __init__(self, connection: Any, prefix: str = "", days_per_year: int = DAYS_PER_YEAR) -> None:
        self.redis = connection
        self.prefix = prefix
        self.days_per_year = days_per_year

    def _key(self, player: str) -> str:
        return f"{self.prefix}vacations:{{{player}}}"

    def _starts(self) -> str:
        return f"{self.prefix}vacations:starts"

    def _ends(self) -> str:
        return f"{self.prefix}vacations:ends"

    # ---- reading ---------------------------------------------------------------------------

    def _all(self, player: str, pipe: Any = None) -> tuple[bool, list[dict[str, Any]]]:
        raw = (pipe or self.redis).hgetall(self._key(player))
        auto = raw.get(b"auto") == b"1"
        plans = [json.loads(v) for k, v in raw.items() if k.startswith(b"v:")]
        return auto, sorted(plans, key=lambda v: v["start"])

    def used(self, plans: list[dict[str, Any]], year: int) -> int:
        return sum(int(v["charged"].get(str(year), 0)) for v in plans)

    def summary(self, player: str, now_ms: int) -> dict[str, Any]:
        """What `GET /players/me/vacations` shows: this year's allowance, what is left, whether
        a nearing deadline takes a day by itself, and the vacations not over yet."""
        auto, plans = self._all(player)
        year = _day(now_ms).year
        used = self.used(plans, year)
        return {"year": year, "allowance_days": self.days_per_year, "used_days": used,
                "left_days": max(0, self.days_per_year - used), "auto": auto,
                "next_year_left_days": max(0, self.days_per_year - self.used(plans, year + 1)),
                "vacations": [shown(v, now_ms) for v in plans if v["end"] > now_ms]}

    def on_vacation(self, player: str, at_ms: int) -> dict[str, Any] | None:
        return next((v for v in self._all(player)[1] if v["start"] <= at_ms < v["end"]), None)

    # ---- changing --------------------------------------------------------------------------

    def plan(self, player: str, start: object, end: object, now_ms: int) -> dict[str, Any]:
        """A vacation from the `start` date to the `end` date (UTC, both included)."""
        first, last = parse_day(start, "start"), parse_day(end, "end")
        today = _day(now_ms)
        if last < first:
            raise InvalidVacation(f"The vacation ends ({last}) before it starts ({first}).")
        if first < today:
            raise InvalidVacation(f"A vacation is planned in advance: {first} is before today ({today}, UTC).")
        if first > today + timedelta(days=PLAN_AHEAD_DAYS):
            raise InvalidVacation(f"A vacation starts within {PLAN_AHEAD_DAYS} days of today ({today}, UTC).")
        begins = max(_midnight(first), now_ms)
        return self._add(player, begins, _midnight(last + timedelta(days=1)), charged(first, last), False)

    def take_auto(self, player: str, at_ms: int) -> dict[str, Any] | None:
        """One day of vacation from `at_ms` (a deadline of the player's), when the player allows
        it, is not on vacation then, and has a day left in that year; else None."""
        auto, plans = self._all(player)
        if not auto or any(v["start"] <= at_ms < v["end"] for v in plans):
            return None
        try:
            return self._add(player, at_ms, at_ms + DAY_MS, {_day(at_ms).year: 1}, True)
        except (VacationOverlaps, AllowanceExceeded):
            return None

    def set_auto(self, player: str, auto: bool) -> None:
        self.redis.hset(self._key(player), "auto", "1" if auto else "0")

    def cancel(self, player: str, vacation_id: str, now_ms: int) -> None:
        """Drops a vacation that has not begun (its days are given back)."""
        raw = self.redis.hget(self._key(player), f"v:{vacation_id}")
        if raw is None or json.loads(raw)["start"] <= now_ms:
            raise UnknownVacation(f"You have no vacation {vacation_id!r} still to come (one that has begun "
                                  "runs to its end).")
        self.redis.hdel(self._key(player), f"v:{vacation_id}")
        member = f"{player}|{vacation_id}"
        self.redis.zrem(self._starts(), member)
        self.redis.zrem(self._ends(), member)

    def _add(self, player: str, begins: int, ends: int, days: dict[int, int], auto: bool) -> dict[str, Any]:
        key = self._key(player)
        for _ in range(TRIES):
            with self.redis.pipeline() as pipe:
                try:
                    pipe.watch(key)
                    _, plans = self._all(player, pipe)
                    self._check(plans, begins, ends, days)
                    vacation = {"id": secrets.token_hex(6), "start": begins, "end": ends, "auto": auto,
                                "charged": {str(y): n for y, n in days.items()}}
                    # Its moments first: a crash before the plan is written leaves moments of a
                    # vacation that is not there, which the poll drops; never a plan never applied.
                    member = f"{player}|{vacation['id']}"
                    self.redis.zadd(self._starts(), {member: begins})
                    self.redis.zadd(self._ends(), {member: ends})
                    pipe.multi()
                    pipe.hset(key, f"v:{vacation['id']}", json.dumps(vacation))
                    pipe.execute()
                except redis_errors.WatchError:
                    continue  # another change of this player's vacations came first: judged again
            return vacation
        raise VacationOverlaps("Your vacations are changing too fast; read them again and retry.")

    def _check(self, plans: list[dict[str, Any]], begins: int, ends: int, days: dict[int, int]) -> None:
        clash = next((v for v in plans if v["start"] < ends and begins < v["end"]), None)
        if clash is not None:
            raise VacationOverlaps(f"This vacation overlaps the one from {_iso(clash['start'])} to "
                                   f"{_iso(clash['end'])}.", details={"vacation": clash["id"]})
        for year, n in sorted(days.items()):
            left = self.days_per_year - self.used(plans, year)
            if n > left:
                raise AllowanceExceeded(f"This vacation takes {n} day(s) of {year}, and you have {max(0, left)} "
                                        f"of your {self.days_per_year} left in it.",
                                        details={"year": year, "days": n, "left_days": max(0, left)})

    # ---- the reconciler's poll ---------------------------------------------------------------

    def due(self, which: str, now_ms: int, limit: int = 200) -> list[tuple[str, dict[str, Any]]]:
        """(player, vacation) whose start (`which` "starts") or end ("ends") has come (the
        vacation `{"id", "gone": True}` when it was cancelled meanwhile)."""
        key = self._starts() if which == "starts" else self._ends()
        out = []
        for member in self.redis.zrangebyscore(key, "-inf", now_ms, start=0, num=limit):
            player, _, vacation_id = member.decode().rpartition("|")
            raw = self.redis.hget(self._key(player), f"v:{vacation_id}")
            out.append((player, json.loads(raw) if raw is not None else {"id": vacation_id, "gone": True}))
        return out

    def done(self, which: str, player: str, vacation_id: str) -> None:
        self.redis.zrem(self._starts() if which == "starts" else self._ends(), f"{player}|{vacation_id}")


def shown(vacation: dict[str, Any], now_ms: int) -> dict[str, Any]:
    return {"id": vacation["id"], "start": _iso(vacation["start"]), "end": _iso(vacation["end"]),
            "days": sum(vacation["charged"].values()), "auto": vacation["auto"],
            "current": vacation["start"] <= now_ms < vacation["end"]}
