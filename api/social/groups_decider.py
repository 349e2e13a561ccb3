"""A group (issue 53) as a decider: `decide(state, command)` says what happens (the events) or
refuses; `evolve` folds an event into the group's state; `fold` folds its history. Pure: no I/O,
no clock (the command carries its time). api/social/groups.py keeps each group's events in a
stream of its own.

Events (each with `player` (who acted) and `at` in ms):
- `group_created` (`name`, `description`, `visibility`: `public` or `invitation`): its creator
  is its owner;
- `group_invited` (`target`): by an owner or an admin; `group_joined`: a public group joined, or
  an invitation accepted; `group_left` (the last member leaving ends the group: `dissolved`);
- `group_role_set` (`target`, `role`: `owner`, `admin` or `member`): by the owner; a new owner
  makes the old one an admin.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from api.errors import ApiError, Code

CREATED = "group_created"
INVITED = "group_invited"
JOINED = "group_joined"
LEFT = "group_left"
ROLE_SET = "group_role_set"
VISIBILITIES = ("public", "invitation")
ROLES = ("owner", "admin", "member")


class UnknownGroup(ApiError):
    status, code = 404, Code.UNKNOWN_GROUP


class GroupRefused(ApiError):
    """A group command its state refuses (403 or 409): each refusal names its own code."""
    status = 403

    def __init__(self, message: str, *, code: Code, status: int = 403, **kwargs: Any):
        super().__init__(message, code=code, status=status, **kwargs)


@dataclass(frozen=True)
class State:
    name: str | None = None  # None: no such group (yet)
    description: str = ""
    visibility: str = "public"
    created: int = 0
    members: Mapping[str, str] = field(default_factory=dict)  # player -> role
    invited: frozenset[str] = frozenset()
    dissolved: bool = False

    @property
    def exists(self) -> bool:
        return self.name is not None and not self.dissolved


@dataclass(frozen=True)
class Command:
    kind: str  # "create", "invite", "join", "leave", "role"
    player: str
    at: int
    target: str | None = None
    role: str | None = None
    name: str = ""
    description: str = ""
    visibility: str = "public"


def decide(state: State, command: Command) -> list[dict[str, Any]]:
    me, at = command.player, command.at
    if command.kind == "create":
        if state.name is not None:
            raise ValueError("this group exists already")
        return [{"type": CREATED, "player": me, "at": at, "name": command.name, "description": command.description,
                 "visibility": command.visibility}]
    if not state.exists:
        raise UnknownGroup("No group has this id.")
    role = state.members.get(me)
    if command.kind == "join":
        return _join(state, me, role, at)
    if role is None:
        raise GroupRefused("You are not a member of this group.", code=Code.NOT_GROUP_MEMBER)
    if command.kind == "leave":
        if role == "owner" and len(state.members) > 1:
            raise GroupRefused("The owner leaves once another member owns the group (PUT .../members/{player}/role "
                               "with role owner).", code=Code.OWNER_CANNOT_LEAVE, status=409)
        return [{"type": LEFT, "player": me, "at": at}]
    if command.kind == "invite":
        return _invite(state, me, role, command.target or "", at)
    if command.kind == "role":
        return _role(state, me, role, command.target or "", command.role, at)
    raise ValueError(f"no group command {command.kind!r}")


def _join(state: State, me: str, role: str | None, at: int) -> list[dict[str, Any]]:
    if role is not None:
        return []
    if state.visibility == "invitation" and me not in state.invited:
        raise GroupRefused("This group is by invitation: a member who runs it must invite you first.",
                           code=Code.NOT_INVITED)
    return [{"type": JOINED, "player": me, "at": at}]


def _invite(state: State, me: str, role: str, target: str, at: int) -> list[dict[str, Any]]:
    if role not in ("owner", "admin"):
        raise GroupRefused("Only the group's owner and admins invite.", code=Code.GROUP_ROLE_REQUIRED)
    if target in state.members or target in state.invited:
        return []
    return [{"type": INVITED, "player": me, "target": target, "at": at}]


def _role(state: State, me: str, role: str, target: str, given: str | None, at: int) -> list[dict[str, Any]]:
    if role != "owner":
        raise GroupRefused("Only the group's owner gives roles.", code=Code.GROUP_ROLE_REQUIRED)
    if target not in state.members:
        raise GroupRefused("This player is not a member of the group.", code=Code.NOT_GROUP_MEMBER)
    if given not in ROLES:
        raise ValueError(f"no role {given!r}")
    if target == me and given != "owner":
        raise GroupRefused("The owner hands the group to another member (role owner) before taking another "
                           "role.", code=Code.OWNER_CANNOT_LEAVE, status=409)
    if state.members[target] == given:
        return []
    return [{"type": ROLE_SET, "player": me, "target": target, "role": given, "at": at}]


def evolve(state: State, event: Mapping[str, Any]) -> State:
    kind, player = event["type"], event["player"]
    if kind == CREATED:
        return State(event["name"], event.get("description", ""), event["visibility"], event["at"], {player: "owner"})
    if kind == INVITED:
        return replace(state, invited=state.invited | {event["target"]})
    if kind == JOINED:
        return replace(state, members={**state.members, player: "member"}, invited=state.invited - {player})
    if kind == LEFT:
        members = {p: r for p, r in state.members.items() if p != player}
        return replace(state, members=members, dissolved=not members)
    if kind == ROLE_SET:
        members = dict(state.members)
        if event["role"] == "owner":
            members = {p: ("admin" if r == "owner" else r) for p, r in members.items()}
        members[event["target"]] = event["role"]
        return replace(state, members=members)
    return state


def fold(events: Iterable[Mapping[str, Any]], state: State | None = None) -> State:
    state = state or State()
    for event in events:
        state = evolve(state, event)
    return state


def shown(group_id: str, state: State) -> dict[str, Any]:
    return {"id": group_id, "name": state.name, "description": state.description, "visibility": state.visibility,
            "created": state.created, "members": len(state.members)}
