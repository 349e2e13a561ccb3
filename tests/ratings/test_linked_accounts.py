"""Linked accounts (issue 50): accounts seen at one address (within ADDRESS_RETENTION_DAYS) are
never paired by matchmaking, whichever API process each seeks through; one pair of players meets
at most RATED_PAIRS_PER_DAY times a day in rated matchmaking; a rated lobby game refuses a seat
to an account linked to a seated player (`409 linked_accounts`), a casual one seats it.

Every test client comes from 127.0.0.1, which links nobody by default (LINK_LOOPBACK): these
tests give each request an address of the documentation ranges of their own."""
from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import redis

from tests.api.helpers import auth
from tests.apps import redis_app


def _app(redis_url, prefix, **settings):
    return redis_app(redis_url, prefix, **settings)


def _client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class)


def _at(address):
    return {"environ_base": {"REMOTE_ADDR": address}}


def _player(client, name, address):
    r = client.post("/players", json={"name": name}, **_at(address))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _seek(client, who, address, rated=True):
    r = client.post("/matchmaking", json={"type": "splendor", "seats": 2, "rated": rated},
                    headers=auth(who["key"]), **_at(address))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def assert_households_kept_apart(clients, seekers, home, at_least):
    """The outcome of a matchmaking run of households (`home`: account -> household): at least
    `at_least` games, each seating its matched two (read through the other app), never one
    household's two at a table; and those left waiting are one household's (else two of them
    would have paired)."""
    games: dict[str, list[str]] = {}
    waiting = []
    for who in seekers:
        status = clients[0].get("/matchmaking", headers=auth(who["key"])).get_json()
        if status["status"] == "matched":
            games.setdefault(status["game_id"], []).append(who["id"])
        else:
            assert status["status"] == "searching", status
            waiting.append(who["id"])
    assert len(games) >= at_least, games
    for gid, members in games.items():
        seated = [s["player"] for s in clients[1].get(f"/games/{gid}").get_json()["seats"]]
        assert sorted(seated) == sorted(members)
        assert len({home[p] for p in seated}) == 2, (gid, seated)
    assert len({home[p] for p in waiting}) <= 1, waiting


def test_linked_accounts_are_never_matched_across_two_api_processes(redis_url):
    """12 households of two accounts each, every account seeking at once through one of two app
    instances on one Redis (a household's two through different ones): 8 households share an
    address; in 4 the second account was made, from another address, by a request carrying the
    first's key (one device's lineage). No game seats a household's two accounts, and once a
    pass has paired what it can, those left waiting are one household's."""
    prefix = f"link{uuid.uuid4().hex[:6]}:"
    apps = [_app(redis_url, prefix), _app(redis_url, prefix)]
    clients = [_client(a) for a in apps]
    households, where = {}, {}  # household -> its two accounts; account -> its address
    for h in range(12):
        first = _player(clients[0], f"H{h}a", f"203.0.113.{10 + h}")
        second_at = f"203.0.113.{10 + h}" if h < 8 else f"198.51.100.{10 + h}"
        r = clients[1].post("/players", json={"name": f"H{h}b"}, **_at(second_at),
                            headers=auth(first["key"]) if h >= 8 else {})
        assert r.status_code == 201, r.get_json()
        households[h] = [first, r.get_json()]
        where.update({first["id"]: f"203.0.113.{10 + h}", r.get_json()["id"]: second_at})
    home = {p["id"]: h for h, people in households.items() for p in people}
    seekers = [(i, where[p["id"]], p) for people in households.values() for i, p in enumerate(people)]
    barrier = threading.Barrier(8)

    def seek(job):
        n, (i, address, who) = job
        if n < 8:
            barrier.wait()
        client = _client(apps[i])  # a client per thread; the household's two through two apps
        return _seek(client, who, address)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(seek, enumerate(seekers)))
    assert apps[0].extensions["matchmaker"].pair_all() >= 0  # the reconciler's pass: whatever could pair has
    assert_households_kept_apart(clients, [who for _, _, who in seekers], home, at_least=10)


def test_one_pair_meets_at_most_rated_pairs_per_day_in_rated_play(redis_url):
    prefix = f"link{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, prefix, RATED_PAIRS_PER_DAY=2)
    client = _client(app)
    ann, bob = _player(client, "Ann", "198.51.100.1"), _player(client, "Bob", "198.51.100.2")
    for _ in range(2):
        _seek(client, ann, "198.51.100.1")
        assert _seek(client, bob, "198.51.100.2")["status"] == "matched"
    _seek(client, ann, "198.51.100.1")
    assert _seek(client, bob, "198.51.100.2")["status"] == "searching"  # a third rated game today: no
    cy = _player(client, "Cy", "198.51.100.3")
    game = _seek(client, cy, "198.51.100.3")
    assert game["status"] == "matched"  # Cy meets one of them
    seated = {s["player"] for s in client.get(f"/games/{game['game_id']}").get_json()["seats"]}
    assert cy["id"] in seated and len(seated & {ann["id"], bob["id"]}) == 1
    for who in (ann, bob):  # whoever is left goes
        client.delete("/matchmaking", headers=auth(who["key"]))
    _seek(client, ann, "198.51.100.1", rated=False)
    assert _seek(client, bob, "198.51.100.2", rated=False)["status"] == "matched"  # casual play: no cap
    connection = redis.Redis.from_url(redis_url)
    counts = list(connection.scan_iter(f"{prefix}mm:{{mm}}:rated-pairs:*"))
    assert len(counts) == 1 and 0 < connection.pttl(counts[0]) <= 2 * 86_400_000  # kept two days
    pair = "|".join(sorted([ann["id"], bob["id"]]))
    assert connection.hget(counts[0], pair) == b"2"


def test_a_rated_game_refuses_a_seat_to_an_account_linked_to_a_seated_player(redis_url):
    prefix = f"link{uuid.uuid4().hex[:6]}:"
    client = _client(_app(redis_url, prefix))
    home, away = "192.0.2.7", "192.0.2.99"
    ann, alt = _player(client, "Ann", home), _player(client, "Alt", home)
    bob, roamer = _player(client, "Bob", away), _player(client, "Roamer", "192.0.2.150")

    def game(rated):
        r = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}], "rated": rated},
                        headers=auth(ann["key"]), **_at(home))
        assert r.status_code == 201, r.get_json()
        return r.get_json()["id"]

    rated = game(True)
    r = client.post(f"/games/{rated}/seats/1/claim", headers={**auth(alt["key"]), "Accept-Language": "ko"},
                    **_at(away))
    assert (r.status_code, r.get_json()["code"]) == (409, "linked_accounts"), r.get_json()
    assert "레이팅" in r.get_json()["detail"] and r.get_json()["details"]["linked_seats"] == [0]
    r = client.post(f"/games/{rated}/seats/1/claim", headers=auth(alt["key"]), **_at(away))
    assert "linked" in r.get_json()["detail"]
    # Seen at Ann's address by this very claim, an account made elsewhere is linked as well.
    r = client.post(f"/games/{rated}/seats/1/claim", headers=auth(roamer["key"]), **_at(home))
    assert (r.status_code, r.get_json()["code"]) == (409, "linked_accounts")
    assert client.get(f"/games/{rated}").get_json()["status"] == "waiting"
    assert client.post(f"/games/{rated}/seats/1/claim", headers=auth(bob["key"]), **_at(away)).status_code == 201
    casual = game(False)  # a casual game stays open to them
    assert client.post(f"/games/{casual}/seats/1/claim", headers=auth(alt["key"]), **_at(home)).status_code == 201


def test_a_loopback_address_links_nobody_unless_asked(redis_url):
    """127.0.0.1 (every client of a local proxy not in TRUSTED_PROXIES) links nobody by default;
    with LINK_LOOPBACK it does, as any address."""
    for loopback, expected in ((False, 201), (True, 409)):
        client = _client(_app(redis_url, f"link{uuid.uuid4().hex[:6]}:", LINK_LOOPBACK=loopback))
        ann, alt = _player(client, "Ann", "127.0.0.1"), _player(client, "Alt", "127.0.0.1")
        r = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                        headers=auth(ann["key"]))
        claimed = client.post(f"/games/{r.get_json()['id']}/seats/1/claim", headers=auth(alt["key"]))
        assert claimed.status_code == expected, claimed.get_json()


def test_a_moderator_sees_each_key_lineage_among_the_flags(redis_url):
    prefix = f"link{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, prefix)
    client = _client(app)
    root = _player(client, "Root", "192.0.2.1")
    child = client.post("/players", json={"name": "Child"}, headers=auth(root["key"]), **_at("192.0.2.2")).get_json()
    grandchild = client.post("/players", json={"name": "Grandchild"}, headers=auth(child["key"]),
                             **_at("192.0.2.3")).get_json()
    # a key that is not one (unknown, or an identity token) makes a player unlinked, never refused
    assert client.post("/players", json={"name": "Odd"}, headers=auth("pk.nope"), **_at("192.0.2.4")).status_code == 201
    moderator = _player(client, "Mod", "192.0.2.9")
    app.extensions["moderation"].act("grant", moderator["id"], "operator", "trusted")
    flags = client.get("/moderation/flags", headers=auth(moderator["key"])).get_json()["flags"]
    lineages = {f["figures"]["made_by"]: f for f in flags if f["signal"] == "key_lineage"}
    assert set(lineages) == {root["id"], child["id"]}
    assert {p["id"] for p in lineages[root["id"]]["players"]} == {root["id"], child["id"], grandchild["id"]}
    assert lineages[root["id"]]["figures"]["accounts"] == 3 and lineages[root["id"]]["level"] == "warning"
    # the grandchild is linked to the root, through the child
    assert app.extensions["moderation"].addresses.linked_to(grandchild["id"], [root["id"]]) == [root["id"]]


def test_the_day_s_count_names_a_pair_as_python_orders_it_and_is_given_back(redis_url):
    """The script orders a pair byte by byte (Lua's `<` follows the server's collation, where `pa`
    may sort before `pB`; the tests' Redis collates as C, so this holds the contract rather than
    catching the locale): the count it writes is the one unpair takes back."""
    from api.matchmaking.seeks import Seeks

    connection = redis.Redis.from_url(redis_url)
    seeks = Seeks(connection, f"link{uuid.uuid4().hex[:6]}:")
    wishes = {"type": "splendor", "seats": 2, "rated": True}
    for who in ("pa", "pB"):
        seeks.join(who, {"pool": wishes}, wishes, 1500, now=0)
    assert sorted(seeks.pair("pool", 2, 1_000, (100.0, 25.0, 1000.0), 600_000, ["pa", "pB"], {}, 1)) == ["pB", "pa"]
    day = seeks._rated_pairs(1_000)
    assert connection.hgetall(day) == {b"pB|pa": b"1"}
    seeks.unpair(["pa", "pB"], 1_000)
    assert connection.hget(day, "pB|pa") == b"0"
    # linked seekers (one mark shared) are never grouped; the one unlinked is
    for who in ("pa", "pB", "pc"):
        seeks.join(who, {"pool": wishes}, wishes, 1500, now=0)
    marks = {"pa": ["h1"], "pB": ["h1"]}
    group = seeks.pair("pool", 2, 1_000, (100.0, 25.0, 1000.0), 600_000, ["pa", "pB", "pc"], marks, 0)
    assert "pc" in group and len(group) == 2
    assert seeks.pair("pool", 2, 1_000, (100.0, 25.0, 1000.0), 600_000, ["pa", "pB", "pc"], marks, 0) == []


def test_accounts_that_held_one_identity_subject_are_never_matched(redis_url):
    """Ann's account held an identity provider's subject (signed in, then unlinked); Alt, from
    another address, holds it now: they are linked (a keyed hash of the subject, never the
    subject), never paired, and the moderators see it (`shared_identity`). Bob is paired."""
    prefix = f"link{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, prefix)
    client = _client(app)
    ann, alt = _player(client, "Ann", "198.51.100.21"), _player(client, "Alt", "203.0.113.21")
    identities = app.extensions["players"].identities
    claims = {"iss": "https://idp.example", "sub": "person-1"}
    identities.link(ann["id"], claims)
    identities.unlink(ann["id"], identities.listing(ann["id"])[0]["id"])
    identities.link(alt["id"], claims)
    assert _seek(client, ann, "198.51.100.21")["status"] == "searching"
    assert _seek(client, alt, "203.0.113.21")["status"] == "searching"  # linked: not paired
    bob = _player(client, "Bob", "192.0.2.21")
    matched = _seek(client, bob, "192.0.2.21")
    assert matched["status"] == "matched"
    seated = {s["player"] for s in client.get(f"/games/{matched['game_id']}").get_json()["seats"]}
    assert bob["id"] in seated and len(seated & {ann["id"], alt["id"]}) == 1
    flags = app.extensions["moderation"].flags()
    shared = [f for f in flags if f["signal"] == "shared_identity"]
    assert [sorted(p["id"] for p in f["players"]) for f in shared] == [sorted([ann["id"], alt["id"]])]
    assert "person-1" not in str(shared) and shared[0]["figures"]["accounts"] == 2
