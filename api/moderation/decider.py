"""Moderation as a decider, like a game's rules: `decide(state, command)` says what happens (the
events) or refuses; `evolve(state, event)` folds an event into the state. The moderation stream
(api/moderation/service.py) keeps the events; the state is their fold.

Events (each with `player`, `by`, `reason`, `at` in ms):
- `moderator_granted` / `moderator_revoked`: the operator's (`by` "operator": tools/moderators.py),
  never the API's;
- `player_voided` / `player_unvoided`: a moderator's (`by` the moderator's player id): the voided
  player's rated games stop counting, and count again after the undo.

Pure: no I/O, no clock (the command carries its time).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from api.errors import ApiError, Code

GRANTED = "moderator_granted"
REVOKED = "moderator_revoked"
VOIDED = "player_voided"
UNVOIDED = "player_unvoided"
EVENTS = (GRANTED, REVOKED, VOIDED, UNVOIDED)
OPERATOR = "operator"  # who grants and revokes the role


class AlreadyVoided(ApiError):
    status, code = 409, Code.ALREADY_VOIDED


class NotVoided(ApiError):
    status, code = 409, Code.NOT_VOIDED


@dataclass(frozen=True)
class State:
    moderators: frozenset[str] = frozenset()  # granted by the operator's command
    voided: Mapping[str, dict[str, Any]] = field(default_factory=dict)  # player id -> its void event


@dataclass(frozen=True)
class Command:
    kind: str  # "grant", "revoke", "void", "unvoid"
    player: str
    by: str
    reason: str
    at: int


def decide(state: State, command: Command) -> list[dict[str, Any]]:
    """The events of `command` (none when it changes nothing: a grant of a moderator), or a
    refusal (ApiError)."""
    event = {"player": command.player, "by": command.by, "reason": command.reason, "at": command.at}
    if command.kind == "grant":
        return [] if command.player in state.moderators else [{"type": GRANTED, **event}]
    if command.kind == "revoke":
        return [{"type": REVOKED, **event}] if command.player in state.moderators else []
    if command.kind == "void":
        if command.player in state.voided:
            raise AlreadyVoided("This player's games are voided already (POST .../unvoid undoes it).")
        return [{"type": VOIDED, **event}]
    if command.kind == "unvoid":
        if command.player not in state.voided:
            raise NotVoided("This player's games are not voided.")
        return [{"type": UNVOIDED, **event}]
    raise ValueError(f"no moderation command {command.kind!r}")


def evolve(state: State, event: Mapping[str, Any]) -> State:
    kind, player = event["type"], event["player"]
    if kind == GRANTED:
        return replace(state, moderators=state.moderators | {player})
    if kind == REVOKED:
        return replace(state, moderators=state.moderators - {player})
    if kind == VOIDED:
        return replace(state, voided={**state.voided, player: dict(event)})
    if kind == UNVOIDED:
        return replace(state, voided={p: e for p, e in state.voided.items() if p != player})
    return state  # an event of a later version: passed over


def fold(events: Iterable[Mapping[str, Any]], state: State | None = None) -> State:
    state = state or State()
    for event in events:
        state = evolve(state, event)
    return state


def excluded(state: State) -> frozenset[str]:
    """The identities whose rated games do not count (api/ratings/ledger.py)."""
    return frozenset(f"player:{p}" for p in state.voided)
