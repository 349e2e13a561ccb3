"""Scopes (issue 51): what each operation needs, read from openapi.yaml when the app is made,
and the before-route step that holds a personal access token to it.

openapi.yaml is the one table: the `playerKey` security scheme lists the scopes (`x-scopes`,
each with what it allows), and each operation's `security` names the scopes it needs (the same
for each of its schemes). A credential without one of an operation's scopes is answered
`403 insufficient_scope` before the route runs, with `details.missing` and RFC 6750's
`WWW-Authenticate: Bearer error="insufficient_scope", scope="<the operation's scopes>"`.

Who holds what: a player's device key and an identity token hold every scope; a seat's or a
game's table token holds `game:read`, `game:play` and `webhooks` for its game, which is all
that any operation taking one needs; a personal access token (api/players/tokens.py, `pk.pat_…`)
holds the scopes it was given. So only a personal access token is looked up here: any other
request passes with a look at its `Authorization` header and no Redis round trip. An operation
missing from the table (none: a test holds every route to the spec) needs every scope.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from flask import current_app, request

from api.errors import ApiError, Code
from api.http import current
from api.http.auth import parse_bearer
from api.http.problems import REALM
from api.openapi import load_yaml, pruned
from api.players.tokens import TOKEN_PREFIX, is_token

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = ("get", "put", "post", "delete", "patch")
SCHEME = "playerKey"  # the security scheme whose `x-scopes` lists the scopes
# What of the spec the table is made from (api/openapi's pruned: the rest is never parsed here)
KEYS = (("paths", "*", METHODS, ("security", "operationId")), ("components", "securitySchemes", SCHEME, "x-scopes"))
_FLASK_VARIABLE = re.compile(r"<[^<>]+>")
_SPEC_VARIABLE = re.compile(r"\{[^{}]+\}")


class InsufficientScope(ApiError):
    status, code = 403, Code.INSUFFICIENT_SCOPE


def insufficient(missing: Iterable[str], needed: Iterable[str]) -> InsufficientScope:
    """The refusal of a credential without `missing` (of the operation's `needed`)."""
    lacking, wanted = sorted(missing), sorted(needed)
    said = ", ".join(f"'{s}'" for s in lacking)
    return InsufficientScope(
        f"This credential lacks the scope{'s' if len(lacking) > 1 else ''} {said} that this operation needs "
        "(a personal access token does what its scopes allow: docs/scopes.md).",
        details={"missing": lacking, "required": wanted},
        headers={"WWW-Authenticate": f'Bearer realm="{REALM}", error="insufficient_scope", scope="{" ".join(wanted)}"'})


def shape(path: str) -> str:
    """A spec's path or a Flask rule without its variables' names."""
    return _SPEC_VARIABLE.sub("{}", _FLASK_VARIABLE.sub("{}", path))


@dataclass(frozen=True)
class ScopeTable:
    scopes: dict[str, str]  # every scope: what it allows
    needs: dict[tuple[str, str], frozenset[str]]  # (METHOD, path's shape) -> the scopes it needs

    @property
    def every(self) -> frozenset[str]:
        return frozenset(self.scopes)

    def needed(self, method: str, rule: str) -> frozenset[str]:
        found = self.needs.get(("GET" if method == "HEAD" else method, shape(rule)))
        return self.every if found is None else found


def table(spec: dict[str, Any]) -> ScopeTable:
    """The scopes and each operation's, as `spec` names them; an operation without `security`,
    a scope the scheme does not list, or two schemes of one operation asking different scopes
    is refused (the spec is the table: it must say one thing)."""
    scopes = dict(spec["components"]["securitySchemes"][SCHEME]["x-scopes"])
    needs = {}
    for path, item in spec["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            where = f"{method.upper()} {path}"
            if "security" not in operation:
                raise ValueError(f"openapi.yaml: {where} has no `security` (the scopes it needs)")
            asked = {frozenset(names) for requirement in operation["security"] for names in requirement.values()}
            if len(asked) > 1:
                raise ValueError(f"openapi.yaml: {where} asks different scopes of its schemes: {asked}")
            needed = next(iter(asked), frozenset())
            unknown = needed - set(scopes)
            if unknown:
                raise ValueError(f"openapi.yaml: {where} needs unknown scopes {sorted(unknown)}")
            needs[(method.upper(), shape(path))] = needed
    return ScopeTable(scopes, needs)


@cache
def spec_table(spec_path: Path = SPEC) -> ScopeTable:
    """The table of the spec file, read once per process (its lines that say the scopes only:
    the whole spec parsed would cost a web worker 230 ms and ~10 MB of RSS for good)."""
    return table(load_yaml(pruned(spec_path.read_text(), KEYS)))


def checker(found: ScopeTable) -> Callable[[], None]:
    """The before-route step: a personal access token without the operation's scopes is refused."""
    by_rule = cache(found.needed)

    def check() -> None:
        header = current.req().environ.get("HTTP_AUTHORIZATION")  # the environ's: no headers object made
        if header is None or TOKEN_PREFIX not in header:
            return  # no personal access token: every scope its credential can use (the module's doc)
        token = parse_bearer(header)
        rule = request.url_rule
        if not is_token(token) or rule is None or request.method == "OPTIONS":
            return
        needed = by_rule(request.method, rule.rule)
        if not needed:
            return
        assert token is not None
        try:
            player = current_app.extensions["players"].authenticate(token)
        except ApiError:
            return  # an unknown, revoked or expired token: the route answers it (401, or as nobody)
        held = player.scopes if player.scopes is not None else found.every
        if not needed <= held:
            raise insufficient(needed - held, needed)

    return check
