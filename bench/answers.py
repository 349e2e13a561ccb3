"""What bench/witches_answers.py and bench/move_answers.py share: seeded games' answers recorded
through the app's WSGI callable on a private Redis, masked (the game's id and tokens, times in ISO
and epoch ms), hashed, so that two trees' answers compare byte for byte."""
from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.common import private_redis

TIMES = re.compile(rb'"(\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d)?)"')
MILLIS = re.compile(rb"\b\d{13}\b")  # epoch milliseconds ("at")


def keeper(created: dict, answers: list[bytes]) -> Callable[[int, bytes], None]:
    """`keep(status, body)`: the answer appended to `answers`, masked: the created game's id,
    table token and seat tokens (in that order, `<secretN>`), its times."""
    secrets = [created["id"].encode(), created["table_token"].encode(),
               *(s["token"].encode() for s in created["seats"])]

    def keep(status: int, out: bytes) -> None:
        for i, secret in enumerate(secrets):
            out = out.replace(secret, b"<secret%d>" % i)
        answers.append(b"%d " % status + MILLIS.sub(b"<ms>", TIMES.sub(b'"<time>"', out)))

    return keep


@contextmanager
def recording_app() -> Iterator[tuple[Any, Any]]:
    """The app (no rate limit, client seeds allowed, the after-append work done before the answer)
    and its game service, on a private Redis."""
    with private_redis() as url:
        os.environ["REDIS_URL"] = url
        from app import create_app

        app = create_app({"REDIS_URL": url, "RATE_LIMIT": 10 ** 9, "ALLOW_CLIENT_SEEDS": True,
                          "DEFER_AFTER_APPEND": False})
        yield app, app.extensions["games"]


def report(answers: list[bytes], what: str, out: str | None) -> None:
    """Prints how many answers and bytes, and their sha256; writes them to `out`, one a line."""
    digest = hashlib.sha256(b"\n".join(answers)).hexdigest()
    print(f"{what}, {len(answers)} answers, {sum(map(len, answers)):,} bytes, sha256 {digest}")
    if out:
        with open(out, "wb") as f:
            f.write(b"\n".join(answers) + b"\n")
