"""The social relations as a decider, like a game's rules and moderation's (api/moderation/
decider.py): `decide(state, command)` says what happens (the events) or refuses; `evolve(state,
event)` folds an event into the state; `fold` folds many. The social stream (api/social/
relations.py) keeps the events; the relations are their fold (kept as a projection beside the
stream, written in the same transaction).

Events (each with `player` (who acted), `target` where it has one, and `at` in ms):
- `followed` / `unfollowed` (`reason` "block" when a block ended the follow);
- `blocked` / `unblocked`;
- `privacy_set` (`settings`: the fields changed: `follow`, `challenge`, `message`, each
  `everyone`, `friends` or `nobody`).

Friends are two players who follow each other. Who may follow a player: its `follow` setting
(`friends`: only those it follows already, so the follow makes them friends). Who may challenge
or message it: `challenge` / `message` (`friends`: mutual follows only). A block (either way)
refuses all of them, and every path that puts two players at one table asks `blocked` too
(api/social/blocks.py is the one check point that reads it from the projection).

Pure: no I/O, no clock (the command carries its time). A state may be partial: the relations of
the players a command names are all `decide` reads.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from api.errors import ApiError, Code

FOLLOWED = "followed"
UNFOLLOWED = "unfollowed"
BLOCKED = "blocked"
UNBLOCKED = "unblocked"
PRIVACY_SET = "privacy_set"
EVENTS = (FOLLOWED, UNFOLLOWED, BLOCKED, UNBLOCKED, PRIVACY_SET)

SETTINGS = ("follow", "challenge", "message")
LEVELS = ("everyone", "friends", "nobody")
DEFAULT_PRIVACY: Mapping[str, str] = {"follow": "everyone", "challenge": "everyone", "message": "friends"}


class SelfRelation(ApiError):
    status, code = 422, Code.SELF_RELATION


class NotAllowedByPlayer(ApiError):
    """The other player's settings refuse it, or it blocked the caller: said alike, so that a
    block is never told to the player blocked."""
    status, code = 403, Code.NOT_ALLOWED_BY_PLAYER


class YouBlocked(ApiError):
    status, code = 409, Code.YOU_BLOCKED


@dataclass(frozen=True)
class State:
    follows: frozenset[tuple[str, str]] = frozenset()  # (follower, followed)
    blocks: frozenset[tuple[str, str]] = frozenset()  # (blocker, blocked)
    privacy: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # player -> its settings changed


@dataclass(frozen=True)
class Command:
    kind: str  # "follow", "unfollow", "block", "unblock", "privacy"
    player: str  # who acts
    at: int
    target: str | None = None
    settings: Mapping[str, str] | None = None  # "privacy": the fields to set


def privacy(state: State, player: str) -> dict[str, str]:
    """The player's settings, each field's default where it never set one."""
    return {**DEFAULT_PRIVACY, **state.privacy.get(player, {})}


def blocked(state: State, a: str, b: str) -> bool:
    """Whether a block stands between the two players, either way: the one rule."""
    return (a, b) in state.blocks or (b, a) in state.blocks


def friends(state: State, a: str, b: str) -> bool:
    return (a, b) in state.follows and (b, a) in state.follows


def allows(state: State, owner: str, setting: str, other: str) -> bool:
    """Whether `owner`'s `setting` lets `other` do it (no block between them)."""
    if blocked(state, owner, other):
        return False
    level = privacy(state, owner)[setting]
    if level == "everyone":
        return True
    if level == "nobody":
        return False
    if setting == "follow":  # its follow would make them friends
        return (owner, other) in state.follows
    return friends(state, owner, other)


def decide(state: State, command: Command) -> list[dict[str, Any]]:
    """The events of `command` ([] when it changes nothing: a second follow), or a refusal."""
    me, other, at = command.player, command.target, command.at
    if command.kind == "privacy":
        current = privacy(state, me)
        changed = {k: v for k, v in (command.settings or {}).items() if current.get(k) != v}
        for k, v in changed.items():
            if k not in SETTINGS or v not in LEVELS:
                raise ValueError(f"no privacy setting {k}={v}")
        return [{"type": PRIVACY_SET, "player": me, "settings": changed, "at": at}] if changed else []
    if other is None:
        raise ValueError(f"{command.kind} names no other player")
    if other == me:
        raise SelfRelation(f"You cannot {command.kind} yourself.")
    event = {"player": me, "target": other, "at": at}
    if command.kind == "follow":
        if (me, other) in state.blocks:
            raise YouBlocked("You blocked this player: unblock them first (DELETE /players/{id}/block).")
        if (me, other) in state.follows:
            return []
        if not allows(state, other, "follow", me):
            raise NotAllowedByPlayer("This player's settings do not let you follow them.")
        return [{"type": FOLLOWED, **event}]
    if command.kind == "unfollow":
        return [{"type": UNFOLLOWED, **event}] if (me, other) in state.follows else []
    if command.kind == "block":
        if (me, other) in state.blocks:
            return []
        ended = [{"type": UNFOLLOWED, "player": a, "target": b, "at": at, "reason": "block"}
                 for a, b in ((me, other), (other, me)) if (a, b) in state.follows]
        return [*ended, {"type": BLOCKED, **event}]
    if command.kind == "unblock":
        return [{"type": UNBLOCKED, **event}] if (me, other) in state.blocks else []
    raise ValueError(f"no social command {command.kind!r}")


def evolve(state: State, event: Mapping[str, Any]) -> State:
    kind, player = event["type"], event["player"]
    pair = (player, event.get("target", ""))
    if kind == FOLLOWED:
        return replace(state, follows=state.follows | {pair})
    if kind == UNFOLLOWED:
        return replace(state, follows=state.follows - {pair})
    if kind == BLOCKED:
        return replace(state, blocks=state.blocks | {pair})
    if kind == UNBLOCKED:
        return replace(state, blocks=state.blocks - {pair})
    if kind == PRIVACY_SET:
        return replace(state, privacy={**state.privacy, player: {**state.privacy.get(player, {}), **event["settings"]}})
    return state  # an event of a later version: passed over


def fold(events: Iterable[Mapping[str, Any]], state: State | None = None) -> State:
    state = state or State()
    for event in events:
        state = evolve(state, event)
    return state
