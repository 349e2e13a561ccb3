"""JSON in and out of the server, fast: orjson (about ten times the standard library's speed on
the move path's payloads), with the standard library's json for what orjson refuses (integers
beyond 64 bits). Output is compact and UTF-8; keys keep their order."""
from __future__ import annotations

import json
import re
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # {1: ...} becomes {"1": ...}, as json.dumps does

JSONDecodeError = orjson.JSONDecodeError  # a ValueError, as json's is


def dumps_bytes(value: Any) -> bytes:
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, or a type json knows
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def dumps(value: Any) -> str:
    return dumps_bytes(value).decode()


def history_line(version: int, type_: str, actor: Any, at: Any, data: Any) -> bytes:
    """One event in the shape of a history page's element (and an NDJSON export's line, with
    its newline): the keys in this order, as the API presents them."""
    return dumps_bytes({"version": version, "type": type_, "actor": actor, "at": at, "data": data}) + b"\n"


# What orjson writes otherwise than json.dumps does, so canonical() leaves it to json: a
# digit before a `.` or an exponent (a float: 1e-05 is orjson's 0.00001), and a byte json escapes
# (DEL, and every non-ASCII character: `\u00e9` in json, UTF-8 in orjson).
_NOT_LIKE_JSON = re.compile(rb"\d[.eE]|[\x7f-\xff]")


def canonical(value: Any) -> str:
    """`json.dumps(value, sort_keys=True, separators=(",", ":"))`, byte for byte (a fingerprint
    of it is stored: idempotency records, pools), through orjson where its output is the same:
    string keys, integers within 64 bits, ASCII text, no float."""
    try:
        out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # a key not a string, an integer beyond 64 bits
        out = None
    if out is None or _NOT_LIKE_JSON.search(out):
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    return out.decode()


def loads(data: bytes | str) -> Any:
    """Parses JSON; raises JSONDecodeError (a ValueError) on bad input, including nesting deeper
    than 1,024 levels and the NaN/Infinity that are not JSON."""
    return orjson.loads(data)
