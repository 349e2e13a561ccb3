"""The pure rules of webhooks: Standard Webhooks signatures, which addresses may be called,
the back-off, message ids."""
from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import socket

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from api.webhooks import messages
from api.webhooks.addresses import AddressRefused, Policy, check_url, resolve
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


def test_back_off_doubles_to_an_hour_and_lasts_about_a_day():
    s = Settings()
    waits = [s.backoff_s(n) for n in range(1, 40)]
    assert waits[:4] == [10, 20, 40, 80] and max(waits) == 3600
    total, n = 0.0, 0
    while total < s.disable_after_s:
        n += 1
        total += s.backoff_s(n)
    assert 25 <= n <= 35  # about thirty attempts before a day has passed


def test_message_ids_name_the_game_version_and_kind():
    assert messages.message_id("a-b_c", 12, "game.your_turn") == "a-b_c.12.your_turn"
    assert messages.parse_message_id("a-b_c.12.your_turn") == ("a-b_c", 12, "game.your_turn")
    for bad in ("a.12.exploded", "a.x.move", "nothing", "a..move"):
        assert messages.parse_message_id(bad) is None


def test_a_delivery_connection_does_not_wait_for_delayed_acks():
    """http.client writes a request's headers and body apart: without TCP_NODELAY the body
    waits for the receiver's delayed ACK on a kept-alive connection (measured 20 ms a delivery;
    bench/README.md). The pinned connections replace http.client's connect(), which sets it."""
    from api.webhooks.sender import _PinnedHTTP
    from tests.api.webhook_receiver import Receiver

    receiver = Receiver()
    host, port = receiver.server.server_address
    conn = _PinnedHTTP("localhost", port, host, 5)
    try:
        conn.connect()
        assert conn.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        conn.close()
        receiver.close()


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
