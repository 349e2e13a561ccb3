"""Deprecation and sunset notices on the answers of the operations openapi.yaml retires.

An operation is retired in the spec alone (docs/api-policy.md):

    deprecated: true
    x-deprecated-at: 2027-01-15   # the day (UTC) it is deprecated from
    x-sunset: 2027-07-15          # the day (UTC) after which it may stop answering (optional)

and every answer of it then carries the RFC 9745 `Deprecation` header (a structured date,
`@<unix seconds>`), the RFC 8594 `Sunset` header (an HTTP-date) when a sunset is set, and a
`Link` to its documentation with `rel="deprecation"`. The spec is read once, when the app is
made; a spec that retires nothing adds no step to any request.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from email.utils import format_datetime
from functools import cache
from pathlib import Path
from typing import Any

from flask import Response, request

from api.openapi import load_yaml, pruned

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = ("get", "head", "post", "put", "patch", "delete")
# A path's shape, its variables' names left out: the routes name some as the spec does not
# (`<game_id>` for `{id}`), and OpenAPI allows no two paths of one shape.
# What of the spec the notices are made from (api/openapi's pruned: the rest is never parsed here)
KEYS = (("paths", "*", METHODS, ("deprecated", "x-deprecated-at", "x-sunset", "x-deprecation-link", "tags",
                                 "operationId")),)
_FLASK_VARIABLE = re.compile(r"<[^<>]+>")
_SPEC_VARIABLE = re.compile(r"\{[^{}]+\}")


@dataclass(frozen=True)
class Notice:
    """What an answer of a retired operation says about it."""
    deprecated_at: datetime
    sunset: datetime | None
    link: str

    def headers(self) -> dict[str, str]:
        found = {"Deprecation": deprecation_value(self.deprecated_at),
                 "Link": f'<{self.link}>; rel="deprecation"; type="text/html"'}
        if self.sunset is not None:
            found["Sunset"] = format_datetime(self.sunset, usegmt=True)
        return found


def deprecation_value(moment: datetime | date) -> str:
    """RFC 9745's structured date: `@` and the Unix time in seconds (a date: its midnight UTC)."""
    return f"@{int(_utc(moment).timestamp())}"


def _utc(moment: str | date) -> datetime:
    """A spec's date (YAML reads `2027-01-15` as a date; quoted, it stays a string) at UTC."""
    read = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    at = read if isinstance(read, datetime) else datetime(read.year, read.month, read.day)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def notices(spec: dict[str, Any]) -> dict[tuple[str, str], Notice]:
    """(METHOD, path's shape) -> its notice, for every operation marked deprecated.
    A deprecated operation without `x-deprecated-at` is refused: its answers could not say when."""
    found = {}
    for path, item in spec.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method) or {}
            if not operation.get("deprecated"):
                continue
            if "x-deprecated-at" not in operation:
                raise ValueError(f"openapi.yaml: {method.upper()} {path} is deprecated without x-deprecated-at")
            tag = (operation.get("tags") or ["default"])[0]
            link = operation.get("x-deprecation-link") or f"/docs#/{tag}/{operation.get('operationId', '')}"
            sunset = operation.get("x-sunset")
            found[(method.upper(), shape(path))] = Notice(_utc(operation["x-deprecated-at"]),
                                                   _utc(sunset) if sunset is not None else None, link)
    return found


@cache
def spec_notices(spec_path: Path = SPEC) -> dict[tuple[str, str], Notice]:
    """The notices of the spec file, parsed once per process (and only when it retires something)."""
    text = spec_path.read_text()
    if not re.search(r"^\s+deprecated: true\s*$", text, re.M):
        return {}
    return notices(load_yaml(pruned(text, KEYS)))


def shape(path: str) -> str:
    """A spec's path or a Flask rule without its variables' names: `/games/{id}/seats/{seat}` and
    `/games/<game_id>/seats/<int:seat>` are both `/games/{}/seats/{}`."""
    return _SPEC_VARIABLE.sub("{}", _FLASK_VARIABLE.sub("{}", path))


def marker(found: dict[tuple[str, str], Notice]) -> Callable[[Response], Response] | None:
    """The after-request step that marks the answers of the operations in `found` (None: none)."""
    if not found:
        return None
    by_rule = cache(lambda method, rule: found.get((method, shape(rule))))

    def mark(response: Response) -> Response:
        rule = request.url_rule
        if rule is None:
            return response
        method = request.method
        notice = by_rule(method, rule.rule) or (by_rule("GET", rule.rule) if method == "HEAD" else None)
        if notice is not None:
            for name, value in notice.headers().items():
                if name == "Link":
                    response.headers.add(name, value)  # beside any Link of the route's own
                else:
                    response.headers[name] = value
        return response

    return mark
