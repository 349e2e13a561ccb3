"""The shapes of what a client may send, checked before anything reaches Redis or a game.

Ids, seats, versions and `Last-Event-ID` are ASCII by pattern: `str.isdigit` also accepts
"²" and "٣" (which `int()` then refuses or reads), and a game id holding `}` or `:` could name
another key of the store (`<id>}:meta` is an idempotency record's key). JSON bodies are
bounded in depth (a move nested a thousand levels deep exhausts recursion in whoever walks it
next). Names are NFC-normalised and refuse control and bidi-override characters, which would
let one seat's name rewrite how the others' render.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from api.errors import ValidationFailed

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
DIGITS = re.compile(r"[0-9]{1,10}")
MAX_DEPTH = 32

# Bidi embeddings, overrides and isolates, and the marks that reorder text around them.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_game_id(raw: str) -> bool:
    return GAME_ID.fullmatch(raw) is not None


def digits(raw: str, name: str) -> int:
    """A non-negative integer written in ASCII digits (at most 10 of them)."""
    if DIGITS.fullmatch(raw) is None:
        raise ValidationFailed(f"`{name}` is a number written in the digits 0-9.",
                               details={"fields": {name: ["Not a number in ASCII digits."]}})
    return int(raw)


def depth_within(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON `value` nests at most `limit` arrays/objects deep (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return False
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def name_problem(name: str) -> str | None:
    """Why a person's name is refused, or None (the name checked is already NFC)."""
    for ch in name:
        if ch in BIDI_CONTROLS:
            return "A name may not hold bidirectional-override characters."
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            return "A name may not hold control characters or line breaks."
    if not name.strip():
        return "A name needs a visible character."
    return None


def normal_name(name: str) -> str:
    return unicodedata.normalize("NFC", name)
