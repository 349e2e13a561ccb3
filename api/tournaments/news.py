"""What a tournament's events tell its players' webhooks (api/webhooks/news.py), pure: from the
state before an append, the events appended and the state after them.

- `tournament.started`: its first round paired (an arena's first pairing);
- `tournament.round_paired`: once every table of a round has its game (the round's last
  `game_linked`): the round, its tables (`entrants` in seat order, `game_id`) and byes. No token:
  a player reaches its game with its own key (a seat's token is never in a tournament's record);
- `tournament.player_withdrawn`: an entrant withdrawn (`reason`: `player` or `no_show`);
- `tournament.finished`: the final standings.

Told to every player who entered (withdrawn ones included: they are told of their own
withdrawal and the final table) and to the creator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.tournaments.state import FINISHED, LINKED, PAIRED, WITHDRAWN, State

News = tuple[list[str], str, dict[str, Any]]  # (player ids, kind, data)


def audience(state: State) -> list[str]:
    """The players told: every player entrant, and the creator."""
    found = {e.partition(":")[2] for e in state.entrants if e.startswith("player:")}
    if state.by:
        found.add(state.by)
    return sorted(found)


def _head(state: State) -> dict[str, Any]:
    rules = state.rules
    assert rules is not None
    return {"tournament_id": state.id, "game_type": rules.game_type, "format": rules.format}


def round_shown(state: State, number: int) -> dict[str, Any]:
    r = state.rounds[number - 1]
    return {
        "round": number,
        "tables": [{"table": k, "entrants": list(t.seats), "game_id": t.game_id} for k, t in enumerate(r.tables, 1)],
        "byes": [{"entrant": e, "points": p} for e, p in r.byes.items()],
    }


def _ready(state: State, number: int) -> bool:
    """Every table of the round has its game (or was settled without one)."""
    return all(t.game_id is not None or t.places is not None or t.void for t in state.rounds[number - 1].tables)


def news(before: State, events: Sequence[Mapping[str, Any]], after: State) -> list[News]:
    if after.rules is None:
        return []
    told: list[News] = []
    who = audience(after)
    head = _head(after)
    for event in events:
        kind, at = event["type"], int(event["at"])
        if kind == PAIRED and int(event["round"]) == 1:
            told.append((who, "tournament.started", {**head, "entrants": len(after.active()), "at": at}))
        number = int(event.get("round", 0))
        if kind == LINKED and _ready(after, number) and not (len(before.rounds) >= number and _ready(before, number)):
            told.append((who, "tournament.round_paired", {**head, **round_shown(after, number), "at": at}))
        if kind == WITHDRAWN:
            entrant = event["entrant"]
            told.append(
                (
                    who,
                    "tournament.player_withdrawn",
                    {
                        **head,
                        "entrant": entrant,
                        "name": after.entrants[entrant].name,
                        "reason": event.get("reason", "player"),
                        "at": at,
                    },
                )
            )
        if kind == FINISHED:
            told.append((who, "tournament.finished", {**head, "standings": event["standings"], "at": at}))
    return told
