"""HTTP helpers shared by the robustness tests (plain `requests`, one session per thread)."""
from __future__ import annotations

import threading
import uuid

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from tests.api.helpers import sse_events  # noqa: F401  (re-exported for the robustness tests)

_local = threading.local()


# A pooled connection the server closes as idle (gunicorn's keep-alive, 2 s) just as a request
# leaves on it is reset: the HTTP keep-alive race every client meets (RFC 9112, 9.3.1). On a
# slow, loaded host the window is wide. A client sends a read again, and a move again under
# the same Idempotency-Key (the server answers a replay as the first): so do these.
_READS_AGAIN = Retry(total=3, connect=3, read=3, status=0, other=0, backoff_factor=0.05,
                     allowed_methods=frozenset({"GET", "HEAD"}), raise_on_status=False)
SENDS = 3  # a move's tries when the connection is reset before an answer


def session() -> requests.Session:
    """A keep-alive session of this thread's own (a Session is not shared between threads)."""
    s = getattr(_local, "session", None)
    if s is None:
        s = _local.session = requests.Session()
        s.mount("http://", HTTPAdapter(max_retries=_READS_AGAIN))
    return s


def auth(token) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(base: str, type_: str, seats: list, **extra) -> dict:
    r = session().post(f"{base}/games", json={"type": type_, "seats": seats, **extra}, timeout=15)
    assert r.status_code == 201, r.text
    return r.json()


def tokens(created: dict) -> dict:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def read(base: str, gid: str, token=None) -> dict:
    r = session().get(f"{base}/games/{gid}", headers=auth(token), timeout=15)
    assert r.status_code == 200, r.text
    return r.json()


def post_move(base: str, gid: str, token, move: dict, version: int, key: str | None = None, timeout=15):
    headers = {**auth(token), "Idempotency-Key": key or uuid.uuid4().hex}

    def send() -> requests.Response:
        return session().post(f"{base}/games/{gid}/moves", json={"expected_version": version, "move": move},
                              headers=headers, timeout=timeout)

    for _ in range(SENDS - 1):
        try:
            return send()
        except requests.exceptions.ConnectionError:  # reset before any answer: the same request again
            pass
    return send()


def history(base: str, gid: str, token=None) -> list:
    """The whole history as `token`'s seat sees it, page by page."""
    events, after = [], 0
    for _ in range(1000):
        r = session().get(f"{base}/games/{gid}/events", params={"after": after, "limit": 1000},
                          headers=auth(token), timeout=15)
        assert r.status_code == 200, r.text
        page = r.json()["events"]
        if not page:
            return events
        events += page
        after = page[-1]["version"]
    raise AssertionError("history did not end")


def is_problem(response) -> bool:
    return response.headers.get("Content-Type", "").startswith("application/problem+json")


def check_history_accounts_for_every_answer(histories: dict, answers: list, people: set) -> None:
    """No gap, no duplicate, and exactly the events of the 201 answers plus the server's own.

    `histories`: seat -> the whole history as that seat sees it (the game still running);
    `answers`: (seat, body) of every 201 answer, body = {"version", "events"} as that seat saw it.
    """
    lengths = {len(h) for h in histories.values()}
    assert len(lengths) == 1, "seats see histories of different lengths"
    for h in histories.values():
        assert [e["version"] for e in h] == list(range(1, len(h) + 1)), "the history has a gap or a duplicate"
    claimed: dict[int, tuple] = {}
    for seat, body in answers:
        shown = body["events"]
        assert [e["version"] for e in shown] == list(range(body["version"] - len(shown) + 1, body["version"] + 1))
        for e in shown:
            assert e["version"] not in claimed, f"two 201 answers claim version {e['version']}"
            claimed[e["version"]] = (seat, e)
    some = next(iter(histories.values()))
    for e in some:
        v = e["version"]
        if v in claimed:
            seat, answered = claimed[v]
            mine = histories[seat][v - 1]
            assert (answered["type"], answered["data"]) == (mine["type"], mine["data"]), \
                f"version {v}: the history holds {mine} but a 201 answered {answered}"
            assert mine["actor"] == seat
        else:
            assert e["actor"] is None or e["actor"] == "system" or e["actor"] not in people, \
                f"version {v} ({e['type']} by seat {e['actor']}) was appended but no 201 answered it"
    assert max(claimed, default=0) <= len(some), "a 201 answered an event that is not in the history"

