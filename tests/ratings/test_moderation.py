"""Moderation (issue 50): the decider, the sandbagging and boosting windows, and the farming
scenario through the API: flagged, voided (every rating recomputed to exactly a rebuild's numbers
without the farmer's games, everyone told), undone, and a void racing a game's end counted once."""
from __future__ import annotations

import threading
import uuid

import pytest
import redis
from openskill.models import PlackettLuce

from api.errors import ApiError
from api.moderation import decider, signals
from api.moderation.addresses import Addresses, normalised
from api.moderation.decider import Command
from tests.api.helpers import auth
from tests.conftest import wait_for
from tests.lobby.helpers import claim, open_game, player

# ---- the decider (unit) ----------------------------------------------------------------------


def test_the_decider_grants_once_voids_once_and_undoes():
    state = decider.State()
    granted = decider.decide(state, Command("grant", "m", "operator", "trusted", 1))
    assert [e["type"] for e in granted] == ["moderator_granted"] and granted[0]["by"] == "operator"
    state = decider.fold(granted, state)
    assert decider.decide(state, Command("grant", "m", "operator", "again", 2)) == []  # nothing changes
    voided = decider.decide(state, Command("void", "f", "m", "farming", 3))
    assert voided == [{"type": "player_voided", "player": "f", "by": "m", "reason": "farming", "at": 3}]
    state = decider.fold(voided, state)
    assert decider.excluded(state) == {"player:f"}
    with pytest.raises(ApiError) as refused:
        decider.decide(state, Command("void", "f", "m", "twice", 4))
    assert (refused.value.status, refused.value.code) == (409, "already_voided")
    state = decider.fold(decider.decide(state, Command("unvoid", "f", "m", "appeal upheld", 5)), state)
    assert decider.excluded(state) == frozenset() and state.moderators == {"m"}
    with pytest.raises(ApiError) as refused:
        decider.decide(state, Command("unvoid", "f", "m", "again", 6))
    assert refused.value.code == "not_voided"
    revoked = decider.decide(state, Command("revoke", "m", "operator", "left", 7))
    assert decider.fold(revoked, state).moderators == frozenset()


# ---- the signals (unit) ----------------------------------------------------------------------

def _game(i, winner, loser, loser_decisions=1, seconds=600.0):
    return signals.RatedGame(f"g{i}", "splendor", 1000 * i, {winner: 0, loser: 1},
                             {winner: 1, loser: loser_decisions}, seconds)


def test_fast_losses_warn_at_3_and_flag_at_4_in_a_window_of_7():
    three = [_game(i, "player:f", f"player:t{i}") for i in range(3)]
    found = signals.flags(three)
    assert [(f["signal"], f["level"], f["identities"]) for f in found] == [("boosting", "warning", ["player:f"])]
    four = three + [_game(3, "player:f", "player:t3")]
    boosting = [f for f in signals.flags(four) if f["signal"] == "boosting"]
    assert boosting[0]["level"] == "flag" and boosting[0]["games"] == ["g0", "g1", "g2", "g3"]
    assert boosting[0]["figures"]["fast_results"] == 4
    assert boosting[0]["figures"]["per_game"][0] == {"game": "g0", "type": "splendor", "at": 0, "seconds": 600.0,
                                                     "decisions": {"player:f": 1, "player:t0": 1},
                                                     "ranks": {"player:f": 0, "player:t0": 1}}
    # slow, long games are not fast; the window keeps the last 7 results only
    slow = [_game(10 + i, "player:f", "player:x", loser_decisions=30) for i in range(7)]
    assert signals.flags(four + slow) == []


def test_the_same_loser_again_and_again_is_a_same_opponent_flag_and_a_sandbagger():
    games = [_game(i, "player:w", "player:l") for i in range(4)]
    found = {(f["signal"], tuple(f["identities"])): f for f in signals.flags(games)}
    assert found[("same_opponent", ("player:w", "player:l"))]["level"] == "flag"
    assert found[("sandbagging", ("player:l",))]["level"] == "flag"
    assert found[("boosting", ("player:w",))]["games"] == ["g0", "g1", "g2", "g3"]


def test_addresses_are_normalised_before_their_keyed_hash():
    assert normalised("203.0.113.9") == "203.0.113.9"
    assert normalised("::ffff:203.0.113.9") == "203.0.113.9"
    assert normalised("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"


def test_the_rerated_notice_is_said_in_korean_and_english():
    from api.words.notices import said

    notice = {"type": "rerated", "game_type": "splendor", "before": 1620, "after": 1490, "reason": "player_voided"}
    assert said(notice, "en")["text"] == \
        "Splendor: after a moderator's decision your rating was recomputed, from 1620 to 1490."
    assert "모더레이터" in said(notice, "ko")["text"] and "1490" in said(notice, "ko")["text"]
    gone = said({**notice, "after": None}, "ko")["text"]
    assert gone.endswith("다시 계산되었습니다.")


# ---- the farming scenario, through the API (redis) -------------------------------------------

@pytest.fixture(scope="module")
def prefix():
    return f"mod{uuid.uuid4().hex[:6]}:"


@pytest.fixture(scope="module")
def app(redis_url, prefix):
    from app import create_app

    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "RATE_LIMIT": 1_000_000, "MODERATORS": ("set-by-the-operator",)})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)


def _decide_once(client, gid, token):
    """The seat's first legal move, when it is to act; whether it moved."""
    legal = client.get(f"/games/{gid}/moves", headers=auth(token)).get_json()
    if not legal.get("moves"):
        return False
    r = client.post(f"/games/{gid}/moves", json={"expected_version": legal["version"], "move": legal["moves"][0]},
                    headers={**auth(token), "Idempotency-Key": uuid.uuid4().hex})
    assert r.status_code == 201, r.get_json()
    return True


def _play(app, client, winner, loser) -> str:
    """A rated game where each seat makes one real decision, then the loser resigns."""
    gid = open_game(client, winner["key"])["id"]
    claim(client, gid, 1, loser["key"])
    moved = set()
    for _ in range(6):
        for seat, who in ((0, winner), (1, loser)):
            if seat not in moved and _decide_once(client, gid, who["key"]):
                moved.add(seat)
        if moved == {0, 1}:
            break
    assert moved == {0, 1}
    assert client.post(f"/games/{gid}/resign", headers=auth(loser["key"])).status_code == 200
    store = app.extensions["games"].store
    wait_for(lambda: store.finished_log_marks([gid])[0])
    return gid


def _numbers(connection, ledger):
    """Every rating key's values (hashes, sorted sets, lists, strings), to compare exactly."""
    found = {}
    for key in connection.scan_iter(match=f"{ledger.base}:*"):
        kind = connection.type(key)
        found[key] = (connection.hgetall(key) if kind == b"hash" else
                      connection.zrange(key, 0, -1, withscores=True) if kind == b"zset" else
                      connection.lrange(key, 0, -1) if kind == b"list" else connection.get(key))
    return found


def test_farming_is_flagged_voided_exactly_told_and_undone(app, client, redis_url):
    services = app.extensions["services"]
    moderation, ledger, store = services.moderation, services.ledger, services.store
    assert moderation.is_moderator("set-by-the-operator")  # MODERATORS
    ann, bob, farmer, mod = (player(client, n) for n in ("Ann", "Bob", "Farmer", "Mia"))
    throwaways = [player(client, f"Alt{i}") for i in range(5)]
    # Nobody is a moderator through the API: a player asking is refused, in its language.
    r = client.get("/moderation/flags", headers={**auth(mod["key"]), "Accept-Language": "ko"})
    assert (r.status_code, r.get_json()["code"]) == (403, "moderator_required")
    assert "모더레이터" in r.get_json()["detail"]
    r = client.post(f"/moderation/players/{farmer['id']}/void", json={"reason": "x"}, headers=auth(mod["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "moderator_required")
    moderation.act("grant", mod["id"], decider.OPERATOR, "trusted")  # what tools/moderators.py does

    honest = [(ann, bob)]
    farmed = [(farmer, t) for t in throwaways] + [(farmer, ann)]
    later = [(bob, ann)]
    order = honest + farmed + later
    games = [_play(app, client, w, lost) for w, lost in order]
    ledger.catch_up(store)
    before_void = _numbers(redis.Redis.from_url(redis_url), ledger)
    boosted = ledger.rating("splendor", f"player:{farmer['id']}")
    assert boosted.games == 6 and boosted.wins == 6

    # Flagged: the farmer's fast wins (one real decision each) in the window, with the evidence.
    flags = client.get("/moderation/flags", headers=auth(mod["key"])).get_json()["flags"]
    boosting = [f for f in flags if f["signal"] == "boosting" and f["players"][0]["id"] == farmer["id"]]
    assert boosting and boosting[0]["level"] == "flag"
    assert set(boosting[0]["games"]) <= set(games[1:7]) and len(boosting[0]["games"]) >= signals.FLAG_AT
    evidence = boosting[0]["figures"]["per_game"][0]
    assert evidence["decisions"] == {f"player:{farmer['id']}": 1, f"player:{throwaways[0]['id']}": 1}
    shared = [f for f in flags if f["signal"] == "shared_address"]
    assert shared and {farmer["id"], throwaways[0]["id"]} <= {p["id"] for p in shared[0]["players"]}
    assert len(shared[0]["figures"]["address"]) == 32 and "127.0.0.1" not in str(shared)  # only its keyed hash

    # The void: every rating recomputed without the farmer's games...
    r = client.post(f"/moderation/players/{farmer['id']}/void", json={"reason": "farming with alts"},
                    headers=auth(mod["key"]))
    assert r.status_code == 200, r.get_json()
    assert moderation.last_rerating == "from 7 games"  # the farmer's first game on, not the honest one before
    rerated = {c["identity"]: c for c in r.get_json()["rerated"]}
    assert rerated[f"player:{farmer['id']}"]["after"] is None
    assert {f"player:{ann['id']}", f"player:{bob['id']}", f"player:{throwaways[0]['id']}"} <= set(rerated)
    # ...to openskill's own numbers over the games left, in order (exactly, not within a tolerance)
    model = PlackettLuce()
    left = {p["id"]: model.rating() for p in (ann, bob)}
    for w, lost in honest + later:
        (left[w["id"]],), (left[lost["id"]],) = model.rate([[left[w["id"]]], [left[lost["id"]]]], ranks=[0, 1])
    for p in (ann, bob):
        got = ledger.rating("splendor", f"player:{p['id']}")
        assert (got.mu, got.sigma, got.games) == (left[p["id"]].mu, left[p["id"]].sigma, 2)
    assert ledger.rating("splendor", f"player:{farmer['id']}") is None
    assert ledger.game_changes(games[1]) == [] and ledger.game_changes(games[0])  # counted, moving nobody
    assert ledger.rating("splendor", f"player:{throwaways[0]['id']}") is None  # their only game was voided
    # ...and to what `python -m tools.ratings rebuild` gives (its steps), to the same values
    connection = redis.Redis.from_url(redis_url)
    after_void = _numbers(connection, ledger)
    ledger.forget_everything()
    ledger.catch_up(store, tell=False)
    assert _numbers(connection, ledger) == after_void
    # Leaderboards and profiles follow; each affected player is told, before and after.
    board = client.get("/leaderboards/splendor?provisional=include").get_json()["players"]
    assert farmer["id"] not in {e["player"]["id"] for e in board}
    profile = client.get(f"/players/{ann['id']}").get_json()["ratings"]["splendor"]
    assert profile["games"] == 2 and [p["game"] for p in profile["history"]] == [games[0], games[-1]]
    told = [e for _, e in app.extensions["players"].inbox_after(ann["id"], "0-0") if e["type"] == "rerated"]
    assert [(e["before"], e["after"], e["reason"]) for e in told] == [
        (rerated[f"player:{ann['id']}"]["before"], profile["rating"], "player_voided")]
    # Every moderator action is an event with who and why; a second void is refused.
    events = client.get("/moderation/events", headers=auth(mod["key"])).get_json()["events"]
    assert [(e["type"], e["player"], e["by"]) for e in events] == [
        ("moderator_granted", mod["id"], "operator"), ("player_voided", farmer["id"], mod["id"])]
    assert events[-1]["reason"] == "farming with alts"
    r = client.post(f"/moderation/players/{farmer['id']}/void", json={"reason": "again"}, headers=auth(mod["key"]))
    assert (r.status_code, r.get_json()["code"]) == (409, "already_voided")
    # The game histories hold no moderation event.
    assert all(not e.type.startswith(("player_", "moderator_")) for g in games for e in store.read(g))

    # Undone: every number back as it was before the void.
    r = client.post(f"/moderation/players/{farmer['id']}/unvoid", json={"reason": "appeal upheld"},
                    headers=auth(mod["key"]))
    assert r.status_code == 200 and r.get_json()["voided"] is False
    assert _numbers(connection, ledger) == before_void
    assert ledger.game_changes(games[1])[0]["identity"] == f"player:{farmer['id']}"


def test_a_void_racing_a_game_s_end_counts_it_once(app, client, redis_url):
    services = app.extensions["services"]
    moderation, ledger, store = services.moderation, services.ledger, services.store
    a, b, c, mod = (player(client, n) for n in ("Ada", "Ben", "Cat", "Mo"))
    moderation.act("grant", mod["id"], decider.OPERATOR, "trusted")
    for w, lost in ((a, b), (c, a)):
        _play(app, client, w, lost)
    ledger.catch_up(store)
    raced_games = [_play(app, client, w, lost) for w, lost in ((a, c), (b, a), (c, b))]  # ended, not counted:
    # the reconciler and the void race
    barrier = threading.Barrier(3)

    def counting():
        barrier.wait()
        for _ in range(3):
            ledger.catch_up(store)

    def voiding():
        barrier.wait()
        moderation.act("void", b["id"], mod["id"], "racing")

    threads = [threading.Thread(target=counting), threading.Thread(target=counting), threading.Thread(target=voiding)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    ledger.catch_up(store)
    connection = redis.Redis.from_url(redis_url)
    raced = _numbers(connection, ledger)
    ledger.forget_everything()
    ledger.catch_up(store, tell=False)
    assert _numbers(connection, ledger) == raced
    assert ledger.rating("splendor", f"player:{b['id']}") is None
    assert ledger.game_changes(raced_games[1]) == [] and ledger.game_changes(raced_games[0])
    # c's games: c beat a (counted), a beat c; b's games are not counted
    assert ledger.rating("splendor", f"player:{c['id']}").games == 2
    moderation.act("unvoid", b["id"], mod["id"], "done")


def test_addresses_keep_a_keyed_hash_and_forget_after_the_retention(redis_url):
    addresses = Addresses(redis.Redis.from_url(redis_url), f"adr{uuid.uuid4().hex[:6]}:", "k1", retention_days=1)
    addresses.seen("p1", "198.51.100.7", now_ms=1_000)
    assert addresses.shared(now_ms=1_000) == []
    addresses.seen("p2", "198.51.100.7", now_ms=2_000)
    addresses.seen("p3", "198.51.100.8", now_ms=2_000)
    found = addresses.shared(now_ms=3_000)
    assert found == [{"address": addresses.hashed("198.51.100.7"), "accounts": 2,
                      "players": {"p1": 1_000, "p2": 2_000}}]
    other_key = Addresses(addresses.redis, "x:", "k2", 1)
    assert other_key.hashed("198.51.100.7") != found[0]["address"]  # keyed: not a plain hash of the address
    assert addresses.shared(now_ms=2_000 + 86_400_000) == []  # past the retention


def test_the_counting_waits_while_a_void_recomputes(app, client):
    services = app.extensions["services"]
    ledger, store = services.ledger, services.store
    a, b = player(client, "Pia"), player(client, "Quin")
    services.connections.store.set(ledger.paused_key("splendor"), "m", px=60_000)
    try:
        gid = _play(app, client, a, b)
        assert ledger.catch_up(store) == 0 and ledger.game_changes(gid) is None
    finally:
        services.connections.store.delete(ledger.paused_key("splendor"))
    assert ledger.catch_up(store) >= 1 and ledger.game_changes(gid) is not None


def test_the_operator_s_command_grants_and_revokes_the_role(app, client, redis_url, prefix, monkeypatch, capsys):
    from api import settings
    from tools import moderators

    someone = player(client, "Rae")
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("KEY_PREFIX", prefix)
    settings.of_process.cache_clear()
    try:
        assert moderators.main(["grant", someone["id"], "trusted helper"]) == 0
        assert app.extensions["moderation"].is_moderator(someone["id"])
        assert client.get("/moderation/flags", headers=auth(someone["key"])).status_code == 200
        assert moderators.main(["list"]) == 0 and someone["id"] in capsys.readouterr().out
        assert moderators.main(["revoke", someone["id"]]) == 0
        r = client.get("/moderation/flags", headers=auth(someone["key"]))
        assert (r.status_code, r.get_json()["code"]) == (403, "moderator_required")
        assert moderators.main(["grant", "nobody-has-this-id"]) == 1
        assert moderators.main(["promote"]) == 2
    finally:
        settings.of_process.cache_clear()


class Stopped(Exception):
    """The process stopped here (a test's stand-in for a kill)."""


def test_a_void_stopped_between_its_steps_is_finished_by_the_reconciler_and_logged_once(app, client):
    """Each game type is re-rated in a transaction of its own slot after the void's event: a
    process stopped after the event (no type re-rated), or after the re-rating (its outbox not
    logged yet), is finished by the reconciler's next pass (`settle`), and each player's
    re-rating log holds the re-rating once however often the pass runs."""
    from unittest import mock

    services = app.extensions["services"]
    moderation, ledger, store = services.moderation, services.ledger, services.store
    cheat, victim, mod = player(client, "Ola"), player(client, "Per"), player(client, "Mod")
    moderation.act("grant", mod["id"], decider.OPERATOR, "trusted")
    _play(app, client, victim, cheat)
    _play(app, client, cheat, victim)
    ledger.catch_up(store)
    before = ledger.rating("splendor", f"player:{victim['id']}")
    assert before.games == 2
    with mock.patch.object(moderation, "apply", side_effect=Stopped), pytest.raises(Stopped):
        moderation.act("void", cheat["id"], mod["id"], "farming")  # the event written, no type re-rated
    assert ledger.rating("splendor", f"player:{victim['id']}") == before
    with mock.patch.object(moderation, "deliver", side_effect=Stopped), pytest.raises(Stopped):
        services.rate_ended_games()  # re-rated, and stopped before its players' logs were written
    assert ledger.rating("splendor", f"player:{victim['id']}") is None  # both its games were the cheat's
    assert moderation.rating_log(victim["id"], 1) == []
    for _ in range(2):
        services.rate_ended_games()
    log = moderation.rating_log(victim["id"], 1)
    assert len(log) == 1 and log[0]["changes"][0]["game_type"] == "splendor", log
    assert log[0]["changes"][0]["after"] is None and log[0]["reason"] == "player_voided"
    assert moderation.settle() == 0  # every type follows the stream now


def test_one_identity_subject_held_by_two_accounts_links_them_for_the_retention():
    """In memory (fakeredis): the subject is kept only as a keyed hash; its two holders share a
    mark (what matchmaking and rated games read) until the retention ends; the setting off
    links nobody, and the identities' link and unlink tell whoever holds the subject."""
    import fakeredis

    from api.players.identities import Identities

    connection = fakeredis.FakeRedis()
    addresses = Addresses(connection, "i:", "k1", retention_days=1)
    identities = Identities(connection, "i:")
    identities.held.append(lambda p, iss, sub: addresses.identity_seen(p, iss, sub, now_ms=1000))
    claims = {"iss": "https://idp.example", "sub": "s-1"}
    identities.link("ann", claims)
    identities.unlink("ann", identities.listing("ann")[0]["id"])
    identities.link("alt", claims)
    assert addresses.linked_to("ann", ["alt", "bob"], now_ms=2000) == ["alt"]
    shared = addresses.shared_identities(now_ms=2000)
    assert [(s["accounts"], sorted(s["players"])) for s in shared] == [(2, ["alt", "ann"])]
    kept = connection.keys("i:moderation:*")  # the moderation's keys: never the subject itself
    assert kept and all(b"s-1" not in k and b"s-1" not in (connection.dump(k) or b"") for k in kept)
    assert addresses.linked_to("ann", ["alt"], now_ms=1000 + 86_400_001) == []  # past the retention
    addresses.link_identity = False
    assert addresses.linked_to("ann", ["alt"], now_ms=2000) == []
