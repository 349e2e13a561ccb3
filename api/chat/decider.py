"""Chat's mutes, reports and moderators' actions as a decider, like moderation's (api/moderation/
decider.py): `decide(state, command)` says what happens (the events) or refuses; `evolve` folds
an event; `fold` folds many. The chat's event stream (api/chat/service.py) keeps the events; the
state is their fold (a projection of the hot parts, mutes, hidden messages and suspensions, is
written beside them in the same transaction).

Events (each with `by` (who acted), `at` in ms, and its own fields):
- `muted` / `unmuted` (`player` muted by `by`): a player's own, hiding the other's messages
  from it everywhere;
- `reported` (`report`: its id, `subject` {kind: message|player|game, ...}, `reason`, `context`:
  the surrounding messages and the game);
- `message_hidden` (`action`, `message`: "<channel>/<id>", `reason`), a moderator's;
- `player_suspended` (`action`, `player`, `scope`: chat|play, `until` ms, `reason`), a
  moderator's: it ends on time (`suspended` compares `until` with the command's clock);
- `action_undone` (`action`: the hide or suspension undone, `reason`), a moderator's;
- `report_resolved` (`report`, `outcome`, `actions`, `reason`), a moderator's: the reporter is
  told.

Pure: no I/O, no clock (the command carries its time and any new id)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from api.errors import ApiError, Code

MUTED = "muted"
UNMUTED = "unmuted"
REPORTED = "reported"
HIDDEN = "message_hidden"
SUSPENDED = "player_suspended"
UNDONE = "action_undone"
RESOLVED = "report_resolved"
EVENTS = (MUTED, UNMUTED, REPORTED, HIDDEN, SUSPENDED, UNDONE, RESOLVED)
SCOPES = ("chat", "play")
OUTCOMES = ("actioned", "dismissed")
ACTIONS = (HIDDEN, SUSPENDED)  # what an undo can undo


class SelfMute(ApiError):
    status, code = 422, Code.SELF_RELATION


class UnknownReport(ApiError):
    status, code = 404, Code.UNKNOWN_REPORT


class UnknownAction(ApiError):
    status, code = 404, Code.UNKNOWN_ACTION


class AlreadyDone(ApiError):
    """An undone action undone again, a resolved report resolved again."""
    status, code = 409, Code.ALREADY_DONE


@dataclass(frozen=True)
class State:
    mutes: frozenset[tuple[str, str]] = frozenset()  # (muter, muted)
    reports: Mapping[str, dict[str, Any]] = field(default_factory=dict)  # id -> the report (and its resolution)
    actions: Mapping[str, dict[str, Any]] = field(default_factory=dict)  # id -> the hide or suspension event
    undone: frozenset[str] = frozenset()  # the actions undone


@dataclass(frozen=True)
class Command:
    kind: str  # mute, unmute, report, hide, suspend, undo, resolve
    by: str  # who acts
    at: int
    player: str | None = None  # mute, unmute, suspend
    reason: str = ""
    id: str | None = None  # the new report's or action's id; or the action undone, the report resolved
    subject: Mapping[str, Any] | None = None  # report
    context: Mapping[str, Any] | None = None  # report
    message: str | None = None  # hide: "<channel>/<id>"
    scope: str | None = None  # suspend
    until: int | None = None  # suspend
    outcome: str | None = None  # resolve
    actions: tuple[str, ...] = ()  # resolve: the actions taken


def decide(state: State, c: Command) -> list[dict[str, Any]]:
    """The events of `c` ([] when it changes nothing: a second mute), or a refusal."""
    base = {"by": c.by, "at": c.at}
    if c.kind in ("mute", "unmute"):
        if c.player is None:
            raise ValueError("a mute names its player")
        if c.player == c.by:
            raise SelfMute("You cannot mute yourself.")
        muting = (c.by, c.player) in state.mutes
        if c.kind == "mute":
            return [] if muting else [{"type": MUTED, "player": c.player, **base}]
        return [{"type": UNMUTED, "player": c.player, **base}] if muting else []
    if c.kind == "report":
        return [{"type": REPORTED, "report": c.id, "subject": dict(c.subject or {}), "reason": c.reason,
                 "context": dict(c.context or {}), **base}]
    if c.kind == "hide":
        return [{"type": HIDDEN, "action": c.id, "message": c.message, "reason": c.reason, **base}]
    if c.kind == "suspend":
        if c.scope not in SCOPES or c.until is None or c.until <= c.at or c.player is None:
            raise ValueError("a suspension names its player, a scope and an end in the future")
        return [{"type": SUSPENDED, "action": c.id, "player": c.player, "scope": c.scope, "until": c.until,
                 "reason": c.reason, **base}]
    return _moderators(state, c, base)


def _moderators(state: State, c: Command, base: dict[str, Any]) -> list[dict[str, Any]]:
    if c.kind == "undo":
        if c.id not in state.actions:
            raise UnknownAction("No moderator's action has this id.")
        if c.id in state.undone:
            raise AlreadyDone("This action was undone already.")
        return [{"type": UNDONE, "action": c.id, "reason": c.reason, **base}]
    if c.kind == "resolve":
        report = state.reports.get(c.id or "")
        if report is None:
            raise UnknownReport("No report has this id.")
        if "resolution" in report:
            raise AlreadyDone("This report was resolved already.")
        unknown = [a for a in c.actions if a not in state.actions]
        if unknown:
            raise UnknownAction("No moderator's action has this id.")
        if c.outcome not in OUTCOMES:
            raise ValueError(f"no outcome {c.outcome!r}")
        return [{"type": RESOLVED, "report": c.id, "outcome": c.outcome, "actions": list(c.actions),
                 "reason": c.reason, **base}]
    raise ValueError(f"no chat command {c.kind!r}")


def evolve(state: State, event: Mapping[str, Any]) -> State:
    kind = event["type"]
    if kind == MUTED:
        return replace(state, mutes=state.mutes | {(event["by"], event["player"])})
    if kind == UNMUTED:
        return replace(state, mutes=state.mutes - {(event["by"], event["player"])})
    if kind == REPORTED:
        return replace(state, reports={**state.reports, event["report"]: dict(event)})
    if kind in ACTIONS:
        return replace(state, actions={**state.actions, event["action"]: dict(event)})
    if kind == UNDONE:
        return replace(state, undone=state.undone | {event["action"]})
    if kind == RESOLVED:
        report = state.reports.get(event["report"])
        if report is None:
            return state
        return replace(state, reports={**state.reports, event["report"]: {**report, "resolution": dict(event)}})
    return state  # an event of a later version: passed over


def fold(events: Iterable[Mapping[str, Any]], state: State | None = None) -> State:
    state = state or State()
    for event in events:
        state = evolve(state, event)
    return state


def snapshot(state: State) -> dict[str, Any]:
    """The state as plain JSON (api/chat/service.py keeps one beside the stream, so that a new
    process folds only what came after it): `restored(snapshot(s)) == s`."""
    return {"mutes": sorted(list(m) for m in state.mutes), "reports": dict(state.reports),
            "actions": dict(state.actions), "undone": sorted(state.undone)}


def restored(data: Mapping[str, Any]) -> State:
    return State(mutes=frozenset((a, b) for a, b in data["mutes"]), reports=dict(data["reports"]),
                 actions=dict(data["actions"]), undone=frozenset(data["undone"]))


def suspension(state: State, player: str, scope: str, now_ms: int) -> dict[str, Any] | None:
    """The suspension keeping the player from `scope` at `now_ms` (the one ending last), if any:
    it ends on time, and an undone one keeps nobody."""
    found = [a for i, a in state.actions.items()
             if a["type"] == SUSPENDED and a["player"] == player and a["scope"] == scope
             and i not in state.undone and a["until"] > now_ms]
    return max(found, key=lambda a: a["until"]) if found else None


def hidden(state: State) -> frozenset[str]:
    """The messages ("<channel>/<id>") hidden by a moderator and not restored."""
    return frozenset(a["message"] for i, a in state.actions.items() if a["type"] == HIDDEN and i not in state.undone)
