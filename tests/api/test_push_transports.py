"""One contract over the three push transports (issue 54): Web Push (tests/api/push_service.py),
Firebase Cloud Messaging's HTTP v1 API (tests/api/fcm_service.py) and APNs over HTTP/2
(tests/api/apns_service.py), each a fake of the tests' own written from the service's public
documentation. The sender (workers/push/sending.py) is driven as a push job drives it, over the
composition root's graph (tests/fakes.py, the session's Redis: the subscriptions' scripts are
Lua); the fakes are servers on 127.0.0.1.

For each transport:
- delivery: a notice reaches the device once, as a PushMessage in the registration's language;
- collapse: notices of a game sent while the device is offline reach it as one, the game's newest
  (Web Push `Topic`, FCM `android.collapse_key`, APNs `apns-collapse-id`: one key per game);
- removal: the service's "gone" answers remove the registration with their reason, and nothing
  more is sent to it;
- back-off: 429 and 5xx are retried after the back-off (or the service's `Retry-After`), once
  due, and the notice then arrives once;
- a `your_turn` whose game moved on is not sent, nor an older one after a newer;
- reminder etiquette (api/push/reminders.py): at most PUSH_REMINDERS_PER_GAME reminders of a
  game before its timeout, PUSH_REMINDERS_PER_DAY to a player in 24 hours, the same ones on
  every device."""
from __future__ import annotations

import json
import time
import uuid

import jwt
import pytest

from api.push import messages
from events.memory_store import InMemoryEventStore
from tests import fakes
from tests.api.apns_service import ApnsService
from tests.api.fcm_service import FcmService
from tests.api.push_service import PushService
from tests.api.spec import spec, validate_named

RETRY_BASE_S = 0.3


class Rig:
    """One transport's fake and the services that send to it."""

    def __init__(self, kind: str, tmp_path, redis_client, **settings):
        self.kind = kind
        self.fcm, self.apns, self.web = FcmService(), ApnsService(), PushService()
        creds = self.fcm.credentials()
        self.services = fakes.services(
            InMemoryEventStore(), redis=redis_client, key_prefix=f"t{uuid.uuid4().hex[:6]}:", push_allow_loopback=True,
            vapid_key_file=str(tmp_path / "vapid.pem"), push_retry_base_s=RETRY_BASE_S, push_max_attempts=4,
            fcm_credentials=json.dumps(creds), fcm_url=self.fcm.origin,
            apns_key=self.apns.key_pem(), apns_key_id=self.apns.key_id, apns_team_id=self.apns.team_id,
            apns_bundle_id=self.apns.bundle_id, apns_url=self.apns.origin, **settings)
        self.pushes = self.services.pushes
        self.web.server_key = self.pushes.public_key()
        self.fake = {"webpush": self.web, "fcm": self.fcm, "apns": self.apns}[kind]
        self.keeps_one = kind == "apns"  # APNs stores one notification per offline device

    def device(self, mode: str = "ok"):
        return self.fake.device(mode)

    def register(self, player_id: str, device, lang: str = "en"):
        subs = self.pushes.subs
        if self.kind == "webpush":
            info = device.subscription()
            return subs.add(player_id, info["endpoint"], info["keys"]["p256dh"], info["keys"]["auth"], lang)[0]
        return subs.add_native(player_id, self.kind, device.token, lang)[0]

    def notice(self, player_id: str, type_: str, game_id: str, version: int, **extra) -> None:
        entry = {"type": type_, "game_id": game_id, "game_type": "splendor", "version": version,
                 "at": int(time.time() * 1000), **extra}
        players = self.services.players
        players.write_inbox(players.redis, player_id, entry)

    def send(self, player_id: str) -> dict:
        return self.pushes.send_now(player_id)

    def close(self) -> None:
        for fake in (self.fcm, self.apns, self.web):
            fake.close()
        for fake in (self.fcm, self.apns, self.web):
            assert not fake.problems, fake.problems


@pytest.fixture(params=["webpush", "fcm", "apns"])
def rig(request, tmp_path, redis_client):
    made = Rig(request.param, tmp_path, redis_client)
    yield made
    made.close()


def test_a_notice_is_delivered_once_in_the_registrations_language(rig):
    device = rig.device()
    rig.register("p1", device, lang="ko")
    rig.notice("p1", "game_started", "g1", 3, seat=0)
    assert rig.send("p1") == {rig.pushes.subs.of_player("p1")[0].id: "caught_up"}
    assert rig.send("p1")  # again: nothing more
    [said] = device.payloads()
    validate_named("PushMessage", said)
    assert set(said) == set(spec()["components"]["schemas"]["PushMessage"]["required"])
    assert (said["type"], said["game_id"], said["version"], said["lang"]) == ("game_started", "g1", 3, "ko")
    assert said["body"] and said["body"] != "The game started." and said["url"] == "/play/g1"


def test_an_offline_device_is_held_each_games_newest_notice_only(rig):
    device = rig.device()
    rig.register("p1", device)
    device.offline = True
    rig.notice("p1", "game_started", "g1", 1, seat=0)
    rig.notice("p1", "clock_warning", "g1", 2, seat=0)
    rig.notice("p1", "game_finished", "g1", 3, status="finished", result={})
    rig.notice("p1", "game_started", "g2", 1, seat=1)
    rig.send("p1")
    device.online()
    got = {p["game_id"]: (p["type"], p["version"]) for p in device.payloads()}
    assert len(device.payloads()) == len(got), "one per game"
    expected = {"g1": ("game_finished", 3), "g2": ("game_started", 1)}
    assert got == ({"g2": expected["g2"]} if rig.keeps_one else expected)


def test_the_collapse_key_is_the_games_and_fits_every_service():
    entry = {"type": "your_turn", "game_id": "g" * 200, "version": 1, "at": 0}
    key = messages.topic(entry)
    assert len(key.encode()) <= 32 and key == messages.topic({**entry, "type": "game_finished", "version": 9})
    fcm = messages.fcm_message({**entry, "game_type": "splendor", "seat": 0}, "t", "en", 60, 0)["message"]
    assert fcm["android"]["collapse_key"] == fcm["apns"]["headers"]["apns-collapse-id"] == key
    assert fcm["android"]["priority"] == "HIGH" and fcm["apns"]["headers"]["apns-priority"] == "10"
    headers, _ = messages.apns_request({**entry, "type": "game_started", "game_type": "splendor"}, "en", 60, "b")
    assert headers["apns-collapse-id"] == key and headers["apns-priority"] == "5"


GONE = {"webpush": [("gone", 410, "gone"), ("missing", 404, "gone")],
        "fcm": [("unregistered", 404, "gone"), ("invalid", 400, "bad_token")],
        "apns": [("unregistered", 410, "gone"), ("bad", 400, "bad_token")]}


@pytest.mark.parametrize("case", [0, 1])
def test_the_services_gone_answers_remove_the_registration_with_its_reason(rig, case):
    mode, status, reason = GONE[rig.kind][case]
    device, healthy = rig.device(mode), rig.device()
    sub, other = rig.register("p1", device), rig.register("p1", healthy)
    rig.notice("p1", "game_started", "g1", 1, seat=0)
    outcomes = rig.send("p1")
    assert outcomes == {sub.id: "gone", other.id: "caught_up"}
    assert [s.id for s in rig.pushes.subs.of_player("p1")] == [other.id]
    [removed] = rig.pushes.subs.removed("p1")
    assert (removed["id"], removed["kind"], removed["reason"], removed["status"]) == (sub.id, rig.kind, reason, status)
    if rig.kind != "webpush":
        assert removed["detail"] in ("UNREGISTERED", "INVALID_ARGUMENT", "Unregistered", "BadDeviceToken")
    validate_named("RemovedPushSubscription", removed)
    answered = len(device.answered)
    rig.notice("p1", "game_finished", "g1", 2, status="finished", result={})
    rig.send("p1")
    assert len(device.answered) == answered and len(healthy.payloads()) == 2


@pytest.mark.parametrize("mode", ["throttled", "unavailable", "error"])
def test_429_and_5xx_are_retried_after_the_back_off_and_arrive_once(rig, mode):
    device = rig.device()
    device.script = [mode]
    sub = rig.register("p1", device)
    rig.notice("p1", "game_started", "g1", 1, seat=0)
    before = time.time() * 1000
    assert rig.send("p1") == {sub.id: "failed"}
    after = time.time() * 1000
    failure = rig.pushes.subs.failure("p1", sub.id)
    # Web Push's and FCM's 429 say `Retry-After: 1`, longer than the back-off here (APNs' says none)
    floor = 1000 if mode == "throttled" and rig.kind != "apns" else RETRY_BASE_S * 1000
    # the wait counts from the service's answer, which came between `before` and `after` (a
    # loaded host's send can take a second)
    assert before + floor - 50 <= failure["next_at"] <= after + floor + 50, (mode, failure["next_at"] - before, after - before)
    assert rig.send("p1") == {sub.id: "waiting"} and not device.payloads()
    time.sleep(max(0.0, failure["next_at"] - time.time() * 1000) / 1000 + 0.05)
    assert rig.send("p1") == {sub.id: "caught_up"}
    assert [p["type"] for p in device.payloads()] == ["game_started"]
    assert rig.pushes.subs.failure("p1", sub.id) is None


def test_a_your_turn_whose_game_moved_on_is_not_sent(rig):
    device = rig.device()
    rig.register("p1", device)
    rig.notice("p1", "your_turn", "g1", 3, seat=0)
    players = rig.services.players
    players.redis.zadd(players.turn_mark_key("p1", "g1"), {"v": 5})
    rig.notice("p1", "your_turn", "g1", 5, seat=0)
    rig.send("p1")
    assert [(p["type"], p["version"]) for p in device.payloads()] == [("your_turn", 5)]


def test_an_fcm_refusal_of_the_message_not_the_token_keeps_the_registration(tmp_path, redis_client):
    """INVALID_ARGUMENT about a message's value (a payload FCM refuses: the server's bug) must not
    remove every registration: that notice is passed over, the next one sent."""
    made = Rig("fcm", tmp_path, redis_client)
    try:
        device = made.device()
        device.script = ["malformed"]
        sub = made.register("p1", device)
        made.notice("p1", "game_started", "g1", 1, seat=0)
        made.notice("p1", "game_finished", "g1", 2, status="finished", result={})
        assert made.send("p1") == {sub.id: "caught_up"}
        assert [p["type"] for p in device.payloads()] == ["game_finished"] and not made.pushes.subs.removed("p1")
        assert made.pushes.subs.failure("p1", sub.id) is None  # a success since: forgotten
    finally:
        made.close()


@pytest.mark.parametrize("kind", ["fcm", "apns"])
def test_a_credential_the_service_refuses_is_renewed_and_the_push_retried(tmp_path, redis_client, kind):
    """FCM's 401 (the OAuth2 token revoked) and APNs' 403 ExpiredProviderToken: the credential is
    made again and the notice sent after the back-off, never passed over."""
    made = Rig(kind, tmp_path, redis_client)
    try:
        device = made.device()
        sub = made.register("p1", device)
        made.notice("p1", "game_started", "g1", 1, seat=0)
        transport = made.pushes.natives[kind]
        if kind == "fcm":
            transport.access_token()
            made.fcm.tokens.clear()  # every access token given so far revoked
        else:
            stale = jwt.encode({"iss": made.apns.team_id, "iat": int(time.time()) - 4000}, made.apns.key_pem(),
                               algorithm="ES256", headers={"kid": made.apns.key_id})
            transport._token = (time.time(), stale)  # held as fresh, an hour old for APNs
        assert made.send("p1") == {sub.id: "failed"} and not device.payloads()
        time.sleep(RETRY_BASE_S + 0.1)
        assert made.send("p1") == {sub.id: "caught_up"}
        assert [p["type"] for p in device.payloads()] == ["game_started"]
    finally:
        made.close()


def test_a_your_turn_older_than_one_already_sent_is_not_sent(rig):
    """A slower process wrote a move's `your_turn` after the next one's: the device keeps the newer."""
    device = rig.device()
    rig.register("p1", device)
    players = rig.services.players
    players.redis.zadd(players.turn_mark_key("p1", "g1"), {"v": 7})
    rig.notice("p1", "your_turn", "g1", 7, seat=0)
    rig.notice("p1", "your_turn", "g1", 5, seat=0)  # the late one
    rig.send("p1")
    assert [(p["type"], p["version"]) for p in device.payloads()] == [("your_turn", 7)]


def warn(rig, player_id: str, game_id: str, version: int, remaining_ms: int = 3_600_000) -> None:
    rig.notice(player_id, "clock_warning", game_id, version, seat=0, deadline="2030-01-01T00:00:00Z",
               remaining_ms=remaining_ms)


@pytest.mark.parametrize("kind", ["webpush", "fcm", "apns"])
def test_reminders_of_a_game_stop_at_the_per_game_cap_on_every_device(tmp_path, redis_client, kind):
    made = Rig(kind, tmp_path, redis_client, push_reminders_per_game=2, push_reminders_per_day=10)
    try:
        phone, tablet = made.device(), made.device()
        made.register("p1", phone)
        for version in (1, 2, 3):  # three reminders of g1 before its timeout, one of g2
            warn(made, "p1", "g1", version)
            made.send("p1")
        warn(made, "p1", "g2", 1)
        made.register("p1", tablet)  # a second device, registered late, hears no reminder held back
        warn(made, "p1", "g1", 4)
        made.send("p1")
        said = [(p["game_id"], p["version"]) for p in phone.payloads()]
        assert said == [("g1", 1), ("g1", 2), ("g2", 1)]
        assert [p["type"] for p in tablet.payloads()] == []  # g1's fourth: over the cap, on it too
        inbox = made.services.players.inbox_after("p1", "0-0")
        assert len(inbox) == 5, "held back from push only: the inbox (and the stream) keeps them"
    finally:
        made.close()


@pytest.mark.parametrize("kind", ["webpush", "fcm", "apns"])
def test_reminders_to_a_player_stop_at_the_daily_cap_and_count_once_for_two_devices(tmp_path, redis_client, kind):
    made = Rig(kind, tmp_path, redis_client, push_reminders_per_game=5, push_reminders_per_day=2)
    try:
        phone, tablet = made.device(), made.device()
        made.register("p1", phone)
        made.register("p1", tablet)
        for game in ("g1", "g2", "g3"):
            warn(made, "p1", game, 1)
        made.send("p1")
        warn(made, "p2", "g1", 1)  # another player's cap is their own
        other = made.device()
        made.register("p2", other)
        warn(made, "p2", "g1", 2)
        made.send("p2")
        for device in (phone, tablet):
            assert [p["game_id"] for p in device.payloads()] == ["g1", "g2"], "two a day, the same on each device"
        assert [p["version"] for p in other.payloads()] == [2]
        made.notice("p1", "your_turn", "g3", 2, seat=0)  # a turn is not a reminder: never capped
        made.send("p1")
        assert [p["type"] for p in phone.payloads()][-1] == "your_turn"
    finally:
        made.close()


def test_a_reminder_decision_is_kept_a_day_later_counts_drop_out_of_the_window(redis_client):
    """The 24 hours roll: a reminder let through a day ago no longer counts; one held back stays held."""
    from api.players.accounts import Players
    from api.push.reminders import Reminders

    players = Players(redis_client, f"t{uuid.uuid4().hex[:6]}:")
    reminders = Reminders(players, per_game=9, per_day=1)
    day = 86_400_000
    now = int(time.time() * 1000)
    entry = {"type": "clock_warning", "game_id": "g1", "at": now, "remaining_ms": 3 * day}
    assert reminders.allowed("p", "1-0", entry, now)
    assert not reminders.allowed("p", "2-0", {**entry, "game_id": "g2"}, now + 1)
    assert reminders.allowed("p", "1-0", entry, now + 2), "the same entry: the same answer"
    assert reminders.allowed("p", "3-0", {**entry, "game_id": "g3"}, now + day + 1)
    assert not reminders.allowed("p", "2-0", {**entry, "game_id": "g2"}, now + day + 2)
