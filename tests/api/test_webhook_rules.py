"""The pure rules of webhooks: Standard Webhooks signatures, which addresses may be called,
the back-off, message ids."""
from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import random
import socket
from email.utils import formatdate

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from api.webhooks import messages
from api.webhooks.addresses import AddressRefused, Policy, check_url, resolve
from api.webhooks.sender import retry_after_s
from api.webhooks.signing import headers, new_secret, secret_problem
from workers.deliveries import Settings


def test_signatures_follow_the_standard():
    secret = new_secret()
    body = '{"type":"game.move","data":{}}'
    signed = headers(secret, "g.5.move", body, 1_700_000_000.7)
    assert signed["webhook-id"] == "g.5.move" and signed["webhook-timestamp"] == "1700000000"
    key = base64.b64decode(secret.removeprefix("whsec_"))
    mac = hmac.new(key, f"g.5.move.1700000000.{body}".encode(), hashlib.sha256).digest()
    assert signed["webhook-signature"] == "v1," + base64.b64encode(mac).decode()
    # and a receiver using the reference package accepts a fresh one, and refuses a changed body
    fresh = headers(secret, "g.6.move", body, __import__("time").time())
    assert Webhook(secret).verify(body, fresh) == {"type": "game.move", "data": {}}
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body + " ", fresh)


def test_client_secrets_are_checked():
    assert secret_problem(new_secret()) is None
    assert secret_problem("whsec_" + base64.b64encode(b"x" * 8).decode())
    assert secret_problem("s3cret")
    assert secret_problem("whsec_not base64!")


def _lookup(*addresses):
    def lookup(host, port, type=None):
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in addresses]
    return lookup


def test_only_https_to_public_addresses_by_default():
    strict = Policy()
    assert resolve("https://hooks.example.com/x?y=1", strict, _lookup("93.184.216.34")).path == "/x?y=1"
    for url in ("http://hooks.example.com/", "ftp://hooks.example.com/", "https://u:p@hooks.example.com/",
                "https:///nohost", "https://hooks.example.com/#frag", "x" * 3000):
        with pytest.raises(AddressRefused):
            check_url(url, strict)
    for private in ("10.0.0.5", "192.168.1.1", "172.16.0.1", "169.254.169.254", "127.0.0.1", "::1", "fe80::1",
                    "100.64.0.1", "0.0.0.0", "224.0.0.1", "fd00::1", "::ffff:10.0.0.1"):
        with pytest.raises(AddressRefused):
            resolve("https://hooks.example.com/", strict, _lookup(private))
    # a name resolving to a public and a private address connects to the public one only
    assert resolve("https://h.example.com/", strict, _lookup("10.0.0.1", "93.184.216.34")).address == "93.184.216.34"


# Every spelling of an internal address tried from outside (issue 29): the first six embed a
# refused IPv4 address in IPv6 and were accepted before the embedded address was checked.
REFUSED_HOSTS = [
    "[::127.0.0.1]", "[::ffff:0:7f00:1]", "[64:ff9b::a00:1]", "[64:ff9b::a9fe:a9fe]", "[2002:7f00:1::]", "[fec0::1]",
    # IPv4, and the shorthand, decimal, hex and octal spellings the resolver reads
    "127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0x7f.0.0.1", "0177.0.0.1", "017700000001",
    "127.255.255.254", "localhost", "0", "0.0.0.0", "10.0.0.5", "10.255.255.255", "192.168.1.1", "172.16.0.1",
    "172.31.255.255", "169.254.169.254", "100.64.0.1", "100.127.255.254", "192.0.0.1", "192.0.2.1", "198.18.0.1",
    "198.51.100.1", "203.0.113.1", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
    # IPv6: loopback, unspecified, link- and site-local, unique local, multicast, discard, documentation
    "[::1]", "[::]", "[0:0:0:0:0:0:0:1]", "[fe80::1]", "[febf::1]", "[fec0::127.0.0.1]", "[feff::1]", "[fd00::1]",
    "[fc00::1]", "[ff02::1]", "[100::1]", "[2001:db8::1]",
    # IPv4-mapped (::ffff:0:0/96), -compatible (::/96), -translated (::ffff:0:0:0/96)
    "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::ffff:10.0.0.1]", "[::ffff:169.254.169.254]", "[::10.0.0.1]",
    "[::a9fe:a9fe]", "[::ffff:0:a00:1]", "[::ffff:0:a9fe:a9fe]",
    # NAT64 (64:ff9b::/96; the local-use 64:ff9b:1::/48 outright), 6to4 (2002::/16)
    "[64:ff9b::127.0.0.1]", "[64:ff9b::100.64.0.1]", "[64:ff9b:1::1]", "[64:ff9b:1:a00:1::]", "[2002:a00:1::1]",
    "[2002:a9fe:a9fe::]", "[2002:c0a8:101::1]",
    # Teredo (2001::/32): server 127.0.0.1; a client 10.0.0.1 (the last 32 bits inverted)
    "[2001:0:7f00:1::]", "[2001:0:4136:e378:8000:63bf:f5ff:fffe]",
]


@pytest.mark.parametrize("host", REFUSED_HOSTS)
def test_every_internal_address_form_is_refused(host):
    """Resolved by the system's resolver (numeric forms need no DNS), as a delivery would be."""
    with pytest.raises(AddressRefused):
        resolve(f"https://{host}/hook", Policy())


def test_an_embedded_ipv4_address_is_judged_as_itself():
    strict = Policy()
    for public in ("93.184.216.34", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2606:4700::1111"):
        assert strict.address_allowed(ipaddress.ip_address(public)), public
    office = Policy.from_env({"WEBHOOK_ALLOWED_NETWORKS": "10.1.0.0/16"})
    assert office.address_allowed(ipaddress.ip_address("64:ff9b::10.1.2.3"))  # the office, through NAT64
    assert not office.address_allowed(ipaddress.ip_address("64:ff9b::10.2.0.1"))
    assert not Policy(allow_loopback=True).address_allowed(ipaddress.ip_address("2002:a00:1::"))


def test_loopback_and_networks_are_allowed_only_when_configured():
    loopback = Policy.from_env({"WEBHOOK_ALLOW_LOOPBACK": "1"})
    assert resolve("http://127.0.0.1:9/hook", loopback).address == "127.0.0.1"
    with pytest.raises(AddressRefused):
        check_url("http://hooks.example.com/", loopback)  # plain http only to loopback
    with pytest.raises(AddressRefused):
        resolve("https://internal.example/", loopback, _lookup("10.1.2.3"))
    office = Policy.from_env({"WEBHOOK_ALLOWED_NETWORKS": "10.1.0.0/16, fd00::/8"})
    assert resolve("https://internal.example/", office, _lookup("10.1.2.3")).address == "10.1.2.3"
    assert office.address_allowed(ipaddress.ip_address("fd00::5"))
    with pytest.raises(AddressRefused):
        resolve("https://internal.example/", office, _lookup("10.2.0.1"))


class _Highest:
    """An rng whose every draw is the highest allowed: the back-off's ceilings."""

    def uniform(self, low, high):
        return high


def test_back_off_doubles_to_an_hour_with_full_jitter_and_lasts_about_a_day():
    ceilings = [Settings(rng=_Highest()).backoff_s(n) for n in range(1, 40)]
    assert ceilings[:4] == [10, 20, 40, 80] and max(ceilings) == 3600
    s = Settings(rng=random.Random(29))
    waits = [s.backoff_s(n) for n in range(1, 40)]
    assert all(0 <= w <= c for w, c in zip(waits, ceilings)) and len(set(waits)) == len(waits)
    again = Settings(rng=random.Random(29))
    assert waits == [again.backoff_s(n) for n in range(1, 40)]  # the rng decides: tests are deterministic
    # Subscriptions failing together retry spread out: their second waits lie all over 0-20 s.
    seconds = sorted(Settings(rng=random.Random(seed)).backoff_s(2) for seed in range(100))
    assert seconds[10] < 5 and seconds[-10] > 15
    total, n = 0.0, 0
    while total < s.disable_after_s:
        n += 1
        total += s.backoff_s(n)
    assert 40 <= n <= 75  # about fifty-five attempts before a day has passed


def test_retry_after_is_read_as_seconds_or_an_http_date_and_bounded():
    now = 1_700_000_000.0
    assert retry_after_s("120", now) == 120
    assert retry_after_s(" 7 ", now) == 7
    assert retry_after_s(formatdate(now + 30, usegmt=True), now) == 30
    assert retry_after_s(formatdate(now - 30, usegmt=True), now) == 0  # a date passed: at once
    for unreadable in (None, "", "soon", "-5", "1.5e3"):
        assert retry_after_s(unreadable, now) is None
    s = Settings(retry_max_s=3600)
    assert [s.asked_wait_s(w) for w in (0, 7, 120, 365 * 86400)] == [1, 7, 120, 3600]


def test_message_ids_name_the_game_version_and_kind():
    assert messages.message_id("a-b_c", 12, "game.your_turn") == "a-b_c.12.your_turn"
    assert messages.parse_message_id("a-b_c.12.your_turn") == ("a-b_c", 12, "game.your_turn")
    for bad in ("a.12.exploded", "a.x.move", "nothing", "a..move"):
        assert messages.parse_message_id(bad) is None
    news = messages.Message("~news.pA_b", 3, 0, "chat.direct_message", 0, "{}").id
    assert news == "~news.pA_b.3.chat.direct_message"
    assert messages.parse_news_id(news) == ("~news.pA_b", 3, "chat.direct_message")
    assert messages.parse_message_id(news) is None
    for bad in ("~news.p.0.challenge.received", "~news..1.challenge.received", "~news.p.1.chat.boom",
                "~news.a.b.1.tournament.started", "p.1.tournament.started", "~news.p.x.tournament.started"):
        assert messages.parse_news_id(bad) is None, bad


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_delivery_connection_does_not_wait_for_delayed_acks():
    """http.client writes a request's headers and body apart: without TCP_NODELAY the body
    waits for the receiver's delayed ACK on a kept-alive connection (measured 20 ms a delivery;
    bench/README.md). The pinned connections replace http.client's connect(), which sets it."""
    from api.webhooks.sender import Budget, _PinnedHTTP
    from tests.api.webhook_receiver import Receiver

    receiver = Receiver()
    host, port = receiver.server.server_address
    conn = _PinnedHTTP("localhost", port, host, Budget(5))
    try:
        conn.connect()
        assert conn.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        conn.close()
        receiver.close()


@pytest.mark.redis  # a receiver on a thread: sockets, no process (tests/tiers.py)
def test_a_kept_connection_the_receiver_closed_is_replaced_without_a_failed_attempt():
    """A receiver that answers keep-alive, then closes the idle connection (as servers do after
    their idle timeout): the next delivery goes on a new connection, and succeeds."""
    import threading

    from api.webhooks.sender import Connections

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted = []

    def serve():
        for _ in range(2):
            conn, _ = listener.accept()
            accepted.append(conn)
            data = b""
            while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < 2:
                data += conn.recv(65536)
            conn.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
            conn.close()  # idle timeout: closed without saying so

    threading.Thread(target=serve, daemon=True).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    connections = Connections(Policy(allow_loopback=True), 5)
    try:
        first = connections.post(url, b"{}", {})
        assert first.ok and len(connections._open) == 1
        second = connections.post(url, b"{}", {})
        assert second.ok, second
        assert len(accepted) == 2
    finally:
        connections.close()
        listener.close()


def test_the_global_webhook_sets_are_sharded_into_buckets(redis_client):
    """On a cluster (KEY_BUCKETS > 1) the subscribed games and the retries waiting live in
    their game's hash-tag bucket, and the sweep still sees every due retry, longest due first."""
    import uuid

    from api.webhooks.subscriptions import SubscriptionStore
    from events.keys import bucket_of

    prefix = f"t{uuid.uuid4().hex[:8]}:"
    store = SubscriptionStore(redis_client, prefix, buckets=4)
    games = [f"g{i}" for i in range(12)]
    assert len({bucket_of(g, 4) for g in games}) > 1
    for i, game in enumerate(games):
        store.retry_at("s1", game, 1000 + i)
        redis_client.zadd(store.games_key(game), {game: i})
    retry_keys = {k.decode() for k in redis_client.scan_iter(f"{prefix}webhooks:retry*")}
    assert retry_keys == {f"{prefix}webhooks:retry:{{b{b}}}" for b in {bucket_of(g, 4) for g in games}}
    assert store.due_retries(1005, limit=4) == [("s1", g) for g in games[:4]]
    assert store.due_retries(5000) == [("s1", g) for g in games] and store.retries_waiting() == 12
    assert sorted(store.subscribed_games()) == sorted(games) and store.subscribed("g7")
    store.retry_taken("s1", "g0")
    assert store.retries_waiting() == 11
    one = SubscriptionStore(redis_client, prefix + "one:", buckets=1)  # one Redis: the first names
    assert one.retry_key("g1") == f"{prefix}one:webhooks:retry" and one.games_key() == f"{prefix}one:webhooks:games"
