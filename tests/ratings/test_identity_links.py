"""Accounts linked by an identity provider's subject (issue 50, LINK_IDENTITY_SUBJECT): the
accounts that held one subject share a keyed-hash mark, as accounts of one address do, so
matchmaking never pairs them, whichever API process each seeks through, and a rated lobby game
never seats them together. Each account here comes from an address of its own: only the subject
links them."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

from tests.api.helpers import auth
from tests.ratings.test_linked_accounts import _app, _at, _client, _player, _seek, assert_households_kept_apart


def _held_one_identity(app, people, subject):
    """Each of `people` holds (in turn, linking and unlinking) one identity provider's subject."""
    identities = app.extensions["players"].identities
    claims = {"iss": "https://idp.example", "sub": subject}
    for who in people:
        identities.link(who["id"], claims)
        identities.unlink(who["id"], identities.listing(who["id"])[0]["id"])


def test_accounts_of_one_identity_subject_are_never_matched_across_two_api_processes(redis_url):
    """6 households of two accounts, each household's from two addresses of its own and linked only
    by one identity subject (held through the other process than the one it seeks through), all
    seeking at once through two app instances on one Redis: no game seats a household's two, and
    those left waiting are one household's."""
    prefix = f"link{uuid.uuid4().hex[:6]}:"
    apps = [_app(redis_url, prefix), _app(redis_url, prefix)]
    clients = [_client(a) for a in apps]
    households, where = {}, {}
    for h in range(6):
        people = [
            _player(clients[i], f"I{h}{i}", f"{net}.{40 + h}") for i, net in enumerate(("203.0.113", "198.51.100"))
        ]
        _held_one_identity(apps[1 - h % 2], people, f"person-{h}")
        households[h] = people
        where.update({people[0]["id"]: f"203.0.113.{40 + h}", people[1]["id"]: f"198.51.100.{40 + h}"})
    home = {p["id"]: h for h, people in households.items() for p in people}
    seekers = [(i, p) for people in households.values() for i, p in enumerate(people)]
    barrier = threading.Barrier(len(seekers))

    def seek(job):
        i, who = job
        barrier.wait()
        return _seek(_client(apps[i]), who, where[who["id"]])  # a household's two through two apps

    with ThreadPoolExecutor(len(seekers)) as pool:
        list(pool.map(seek, seekers))
    apps[1].extensions["matchmaker"].pair_all()  # the reconciler's pass: whatever could pair has
    assert_households_kept_apart(clients, [who for _, who in seekers], home, at_least=5)


def test_a_rated_game_refuses_a_seat_to_an_account_of_a_seated_player_s_identity_subject(redis_url):
    """Ann and Alt share no address, only an identity subject Ann held: Alt's claim of Ann's rated
    game is refused (`409 linked_accounts`, in Korean and English, naming the sign-in among the
    links, not only an address), nothing is appended, and Bob is seated."""
    prefix = f"link{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, prefix)
    client = _client(app)
    ann, alt = _player(client, "Ann", "198.51.100.61"), _player(client, "Alt", "203.0.113.61")
    bob = _player(client, "Bob", "192.0.2.61")
    _held_one_identity(app, [ann, alt], "person-61")
    made = client.post(
        "/games",
        json={"type": "splendor", "seats": [{"me": True}, {"open": True}], "rated": True},
        headers=auth(ann["key"]),
        **_at("198.51.100.61"),
    )
    assert made.status_code == 201, made.get_json()
    gid, version = made.get_json()["id"], made.get_json()["version"]
    for lang, said in (("ko", "로그인으로 연결"), ("en", "linked to yours (by an address, a key or a sign-in)")):
        r = client.post(
            f"/games/{gid}/seats/1/claim", headers={**auth(alt["key"]), "Accept-Language": lang}, **_at("203.0.113.61")
        )
        problem = r.get_json()
        assert (r.status_code, problem["code"]) == (409, "linked_accounts"), problem
        assert said in problem["detail"] and problem["details"]["linked_seats"] == [0], problem
    shown = client.get(f"/games/{gid}").get_json()
    assert (shown["version"], shown["status"]) == (version, "waiting")  # nothing appended
    assert client.post(f"/games/{gid}/seats/1/claim", headers=auth(bob["key"]), **_at("192.0.2.61")).status_code == 201
