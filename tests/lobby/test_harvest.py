"""The harvest: `GET /games/ended?since=<cursor>` gives every ended game once, in the
order it ended, with a cursor to resume from, in JSON pages or one NDJSON answer; games that end
during the crawl are met later in it, never missed, never repeated."""
from __future__ import annotations

import json
import uuid

import pytest

from api.games import harvest
from api.platform.events import ABANDONED, abandoned_event
from events.store import NewEvent
from tests.api.helpers import create
from tests.conftest import wait_for

NDJSON = "application/x-ndjson"


@pytest.fixture(scope="module")
def app(redis_url):
    """An app of its own key prefix: its finished log holds this module's games only."""
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"harvest{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "TESTING": True, "RATE_LIMIT": 1_000_000, "ALLOW_CLIENT_SEEDS": True})
    app.test_client_class = SpecCheckingClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def _end(app, client, type_="splendor") -> str:
    """A new game, ended (abandoned) through the service as the abandonment pass ends one."""
    service = app.extensions["games"]
    gid = create(client, type_, [{"name": "Ann"}, {"name": "Bob"}])["id"]
    service.append_platform(service.load(gid), [NewEvent(ABANDONED, abandoned_event(1), None)])
    wait_for(lambda: service.store.finished_log_marks([gid])[0])  # the outbox logged it
    return gid


def _crawl(client, url, seen):
    """Follows `next` until a page comes back short (the end, for now); returns the next URL."""
    while True:
        page = client.get(url).get_json()
        seen += [g["id"] for g in page["games"]]
        url = page["next"]
        if len(page["games"]) < int(url.split("limit=")[1].split("&")[0]):
            return url


def test_every_ended_game_once_in_order_even_those_ending_during_the_crawl(app, client):
    ended = [_end(app, client) for _ in range(5)]
    seen = []
    first = client.get("/games/ended?since=0&limit=2").get_json()
    seen += [g["id"] for g in first["games"]]
    assert seen == ended[:2] and first["next"].startswith("/games/ended?since=")
    item = first["games"][0]
    assert item["status"] == "abandoned" and item["result"]["outcome"] == "abandoned" and item["cursor"]
    assert item["type"] == "splendor" and item["version"] >= 2 and [s["seat"] for s in item["seats"]] == [0, 1]
    ended += [_end(app, client) for _ in range(2)]  # these end while the crawler is on page 1
    later = _crawl(client, first["next"], seen)
    assert seen == ended
    assert client.get(later).get_json()["games"] == []  # caught up: the same cursor waits for more
    ended.append(_end(app, client))
    assert [g["id"] for g in client.get(later).get_json()["games"]] == ended[-1:]


def test_the_ndjson_harvest_is_the_pages_in_one_answer(app, client):
    for _ in range(3):
        _end(app, client)
    whole = client.get("/games/ended?since=0", headers={"Accept": NDJSON})
    assert whole.status_code == 200 and whole.mimetype == NDJSON and whole.is_streamed
    lines = [json.loads(line) for line in whole.get_data(as_text=True).splitlines()]
    pages = []
    _crawl(client, "/games/ended?since=0&limit=3", pages)
    assert [g["id"] for g in lines] == pages and len(set(pages)) == len(pages) >= 3
    resumed = client.get(f"/games/ended?since={lines[1]['cursor']}&format=ndjson")
    assert [json.loads(line)["id"] for line in resumed.get_data(as_text=True).splitlines()] == pages[2:]


def test_a_game_logged_twice_is_harvested_once(app, client):
    gid = _end(app, client)
    service = app.extensions["games"]
    harvest.log(service.store, service.load(gid))  # the reconciler's repair, after the outbox did it
    mark = service.store.finished_log_marks([gid])[0]
    service.store.redis.hdel(service.store.keys.meta(gid), "finished_log")
    harvest.log(service.store, service.load(gid))  # as if two writers raced: a second entry
    service.store.redis.hset(service.store.keys.meta(gid), "finished_log", mark)  # the first named it
    seen = []
    _crawl(client, "/games/ended?since=0&limit=100", seen)
    assert seen.count(gid) == 1


def test_a_page_ends_before_a_game_being_logged(app, client):
    service = app.extensions["games"]
    store = service.store
    before = _end(app, client)
    cursor = store.finished_log_marks([before])[0]
    gid = create(client, "splendor", [{"name": "Ann"}, {"name": "Bob"}])["id"]
    game = service.append_platform(service.load(gid), [NewEvent(ABANDONED, abandoned_event(1), None)])
    wait_for(lambda: store.finished_log_marks([gid])[0])
    # Its entry appended but not yet named in its meta: the moment between the two writes.
    store.redis.hdel(store.keys.meta(gid), "finished_log")
    after = _end(app, client)
    assert harvest.page(store, cursor, None, 10)[0] == []  # not past it
    store.redis.hset(store.keys.meta(gid), "finished_log", _entry_of(store, gid))
    assert [g["id"] for g in harvest.page(store, cursor, None, 10)[0]] == [gid, after]
    # An entry left unnamed for UNSETTLED_S (its writer died) is passed; the repair logs it again.
    store.redis.hdel(store.keys.meta(gid), "finished_log")
    late = harvest.page(store, cursor, None, 10, now_ms=_ms_of(store, gid) + harvest.UNSETTLED_S * 1000 + 1)
    assert [g["id"] for g in late[0]] == [after]
    harvest.log(store, game)
    assert [g["id"] for g in harvest.page(store, late[1], None, 10)[0]] == [gid]


def _entry_of(store, gid):
    # Page by page: the first pages may be the archive's (the session's games archived so far).
    after = "0"
    while page := store.read_finished_log(after, 10_000):
        found = [i for i, g, _ in page if g == gid]
        if found:
            return found[0]
        after = page[-1][0]
    raise AssertionError(f"{gid} is not in the finished log")


def _ms_of(store, gid):
    return int(_entry_of(store, gid).split("-")[0])


def test_the_harvest_by_type_and_its_refusals(app, client):
    splendor, high_card = _end(app, client), _end(app, client, "high-card")
    seen = []
    _crawl(client, "/games/ended?since=0&type=high-card&limit=5", seen)
    assert high_card in seen and splendor not in seen
    for g in client.get("/games/ended?since=0&type=high-card&limit=100").get_json()["games"]:
        assert g["type"] == "high-card"
    for bad in ("/games/ended?since=x", "/games/ended?since=0&cursor=1.abc", "/games/ended?format=xml",
                "/games/ended?limit=0", "/games?format=ndjson"):
        answer = client.get(bad)
        assert answer.status_code == 400 and answer.mimetype == "application/problem+json", bad
    assert client.get("/games/ended").get_json() == client.get("/games/ended?since=0").get_json()  # the default


def test_the_harvest_s_former_address_still_answers_and_names_its_successor(app):
    """`GET /games?status=finished&since=` was the harvest before it had its own operation: integrations
    written against it still get the same pages, told the operation is deprecated and where it went."""
    from flask.testing import FlaskClient
    client = FlaskClient(app)
    gid = _end(app, client)
    old = client.get("/games?status=finished&since=0&limit=100")
    assert old.status_code == 200 and old.headers["Deprecation"] == "@1796083200"  # RFC 9745: 2026-12-01
    assert old.headers["Link"] == '</games/ended>; rel="successor-version"'
    assert gid in [g["id"] for g in old.get_json()["games"]]
    assert old.get_json()["games"] == client.get("/games/ended?since=0&limit=100").get_json()["games"]
    for bad in ("/games?since=0", "/games?status=active&since=0", "/games?status=finished&since=0&cursor=1.abc"):
        assert client.get(bad).status_code == 400, bad


def test_a_game_whose_logging_was_lost_is_logged_by_the_repair(app, client):
    from workers.abandon import abandon_idle

    service = app.extensions["games"]
    gid = create(client, "splendor", [{"name": "Ann"}, {"name": "Bob"}])["id"]
    game = service.load(gid)
    # Ended, and the process died before its outbox ran: not logged, still among the idle games.
    service.store.append(gid, game.version, [NewEvent(ABANDONED, abandoned_event(1), None)])
    service.forget(gid)
    assert service.store.finished_log_marks([gid]) == [None]
    abandon_idle(service, 0)
    assert service.store.finished_log_marks([gid])[0]
    seen = []
    _crawl(client, "/games/ended?since=0&limit=100", seen)
    assert seen.count(gid) == 1


def test_a_private_game_is_never_harvested(app, client):
    service = app.extensions["games"]
    public = _end(app, client)
    hidden = create(client, "splendor", [{"name": "Ann"}, {"name": "Bob"}], private=True)["id"]
    ended = service.append_platform(service.load(hidden), [NewEvent(ABANDONED, abandoned_event(1), None)])
    service.finish(ended)
    assert ended.finished and ended.platform.private
    seen = []
    _crawl(client, "/games/ended?since=0&limit=100", seen)
    assert public in seen and hidden not in seen
