"""Retries: the same move sent again with the same Idempotency-Key, after the client timed out
(it never read the answer), after a success, and concurrently with itself (32 copies at once),
appends one event and answers the same each time."""
from __future__ import annotations

import json
import socket
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

from tests.conftest import wait_for
from tests.robustness.helpers import auth, create, history, is_problem, post_move, read, session, tokens


def _splendor(api, seed):
    created = create(api.base, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=seed)
    return created["id"], tokens(created)


def _first_move(api, gid, token):
    listed = session().get(f"{api.base}/games/{gid}/moves", headers=auth(token)).json()
    return listed["moves"][0], listed["version"]


def _send_and_hang_up(api, gid, token, move, version, key):
    """Sends the whole request on a raw socket and closes it without reading the answer: the
    client's view of a timeout."""
    body = json.dumps({"expected_version": version, "move": move}).encode()
    head = (f"POST /games/{gid}/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {token}\r\nIdempotency-Key: {key}\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", api.port), timeout=5) as s:
        s.sendall(head + body)


def test_a_retry_after_a_timeout_answers_the_first_answer_and_appends_nothing(api):
    gid, t = _splendor(api, 1)
    move, version = _first_move(api, gid, t[0])
    key = uuid.uuid4().hex
    _send_and_hang_up(api, gid, t[0], move, version, key)
    wait_for(lambda: read(api.base, gid)["version"] == version + 1)
    first = post_move(api.base, gid, t[0], move, version, key)
    again = post_move(api.base, gid, t[0], move, version, key)
    assert first.status_code == again.status_code == 201, first.text
    assert first.json() == again.json()
    assert first.json()["version"] == version + 1
    assert len(history(api.base, gid, t[0])) == version + 1


def test_a_retry_after_a_success_answers_the_same_even_once_the_game_moved_on(api):
    gid, t = _splendor(api, 2)
    move, version = _first_move(api, gid, t[0])
    key = uuid.uuid4().hex
    first = post_move(api.base, gid, t[0], move, version, key)
    assert first.status_code == 201, first.text
    assert post_move(api.base, gid, t[0], move, version, key).json() == first.json()
    # Bob moves: the game is at a later version; Ann's retry is still her first answer, not a conflict.
    bob_move, bob_version = _first_move(api, gid, t[1])
    assert post_move(api.base, gid, t[1], bob_move, bob_version).status_code == 201
    late = post_move(api.base, gid, t[0], move, version, key)
    assert late.status_code == 201 and late.json() == first.json()
    assert len(history(api.base, gid, t[0])) == version + 2


def test_32_copies_of_one_request_at_once_append_one_event_and_answer_alike(api):
    """Copies that arrive while the first is being appended must answer its answer too (not
    409: the game is at a later version by the time they are judged)."""
    gid, t = _splendor(api, 3)
    barrier = threading.Barrier(32, timeout=30)
    for turn in range(6):  # six times: the window between the checks is narrow
        seat = turn % 2
        move, version = _first_move(api, gid, t[seat])
        key = uuid.uuid4().hex

        def send(_):
            barrier.wait()
            r = post_move(api.base, gid, t[seat], move, version, key)
            return r.status_code, r.json()

        with ThreadPoolExecutor(32) as pool:
            results = list(pool.map(send, range(32)))
        statuses = sorted({s for s, _ in results})
        assert statuses == [201], [b for s, b in results if s != 201][:3]
        assert len({json.dumps(b, sort_keys=True) for _, b in results}) == 1
        assert len(history(api.base, gid, t[0])) == version + 1


def test_a_key_reused_for_another_request_or_by_another_seat_is_refused_and_tells_nothing(api):
    gid, t = _splendor(api, 4)
    move, version = _first_move(api, gid, t[0])
    key = uuid.uuid4().hex
    first = post_move(api.base, gid, t[0], move, version, key)
    assert first.status_code == 201
    bob_move, bob_version = _first_move(api, gid, t[1])
    for token, m, v in ((t[0], bob_move, bob_version), (t[1], move, version), (t[1], bob_move, bob_version)):
        r = post_move(api.base, gid, token, m, v, key)
        assert r.status_code == 422 and is_problem(r), r.text
        assert r.json()["code"] == "idempotency_key_reused"
        assert json.dumps(first.json()["events"]) not in r.text
    assert read(api.base, gid)["version"] == version + 1
    # Keys are per game: the same key in another game is a new request.
    other, ot = _splendor(api, 5)
    m, v = _first_move(api, other, ot[0])
    assert post_move(api.base, other, ot[0], m, v, key).status_code == 201
