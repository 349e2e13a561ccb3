"""A finished game's history as the decisions its people made (what an analysis appraises).

A decision is one append by a seat a person played then (not a bot's, not one a bot took over,
not the system's, no platform event such as a resignation): the events of one append share
their actor and their `at`, so consecutive events with both equal are one decision.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import groupby

from api.games.repository import Game, advanced
from api.platform import events as platform_events
from domain.analysis import Decision
from domain.contract import is_seat
from events.store import StoredEvent


def people_decisions(game: Game, events: list[StoredEvent]) -> Iterator[tuple[Game, Decision]]:
    """Each person's decision in the history of `game` (its events: all of them, in order),
    with the game as it was when the decision was made."""
    now = replace(game, version=0, state=None, platform=platform_events.START, last_at=None, snapshot_version=0)
    # One append's events share their actor and millisecond; a platform event (a resignation, a
    # timeout) is an append of its own, though it may share both with the move before it.
    for (actor, _at, _platform), run in groupby(
            events, key=lambda e: (e.actor, e.at, e.type in platform_events.PLATFORM_EVENTS)):
        appended = list(run)
        then, now = now, advanced(now, appended)
        if _a_persons(then, actor, appended):
            yield then, Decision(then.version, actor, then.state, now.state, [e.data for e in appended])


def _a_persons(then: Game, actor: object, appended: list[StoredEvent]) -> bool:
    return (is_seat(actor) and then.dealt and actor in then.actors() and then.bot_level(actor) is None
            and not any(e.type in platform_events.PLATFORM_EVENTS for e in appended))
