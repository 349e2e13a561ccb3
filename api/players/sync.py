"""A sync after a gap (issue 54): what a device missed while backgrounded or offline, in one read,
with a cursor for the next. An app that lost pushes (FCM discards a device's 100 held messages
past that; APNs keeps one) calls it when it wakes, rather than reading each game.

The notices are the player's inbox after the cursor, exactly as the player's stream resumed from
that `Last-Event-ID` sends them (api/live/fanout.py: the same entries, each with its sentence in
the caller's language, a `your_turn` its game has moved past left out); the cursor is an inbox
entry id, the stream's event id, so a device may pass one to the other. `reset` says the inbox no
longer reaches back to the cursor (it keeps the newest 1,000 notices of the last week): some
notices are lost, and the device should read its games afresh (`my_turn`, `waiting` are whole)."""
from __future__ import annotations

import time
from typing import Any

from api.players.accounts import INBOX_KEPT_S, Players
from api.words import notices as notice_words


def entry_key(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def notices_since(players: Players, player_id: str, since: str | None, lang: str, limit: int) -> dict[str, Any]:
    """{"notices", "cursor", "more", "reset"}: the notices after `since` ("0": all kept; None: none,
    only the cursor to start from), at most `limit` entries read (`more`: call again from `cursor`)."""
    last = players.inbox_last_id(player_id)
    if since is None:
        return {"notices": [], "cursor": last, "more": False, "reset": False}
    after = "0-0" if since == "0" else since
    entries = players.inbox_after(player_id, after, limit)
    stale = players.stale_turns(player_id, entries)
    shown = [{"id": entry_id, **notice_words.said(entry, lang)} for entry_id, entry in entries if entry_id not in stale]
    cursor = entries[-1][0] if entries else (after if entry_key(after) > entry_key(last) else last)
    more = len(entries) == limit and entry_key(cursor) < entry_key(last)
    return {"notices": shown, "cursor": cursor, "more": more,
            "reset": since != "0" and not _reaches(players, player_id, after)}


def _reaches(players: Players, player_id: str, after: str) -> bool:
    """Whether the inbox still holds every notice after `after` (its oldest kept is not newer)."""
    first = players.redis.xrange(players.inbox_key(player_id), "-", "+", count=1)
    if first:
        return entry_key(first[0][0].decode()) <= entry_key(after)
    return entry_key(after)[0] >= int(time.time() * 1000) - INBOX_KEPT_S * 1000  # empty: nothing trimmed since
