"""The client's address behind proxies: X-Forwarded-For is believed only from TRUSTED_PROXIES."""
from api.http.client_address import resolve


def test_without_trusted_proxies_the_peer_is_the_client():
    assert resolve("203.0.113.9", "1.2.3.4", "") == "203.0.113.9"


def test_an_untrusted_peer_cannot_name_another_address():
    assert resolve("203.0.113.9", "1.2.3.4", "127.0.0.1") == "203.0.113.9"


def test_a_trusted_proxy_names_the_client():
    assert resolve("127.0.0.1", "198.51.100.7", "127.0.0.1") == "198.51.100.7"


def test_hops_added_by_trusted_proxies_are_skipped_from_the_right():
    # The client forged "6.6.6.6"; the edge proxy (10.0.0.2) appended the real peer.
    assert resolve("10.0.0.1", "6.6.6.6, 198.51.100.7, 10.0.0.2", "10.0.0.0/8") == "198.51.100.7"


def test_garbage_in_the_header_falls_back_to_the_peer():
    assert resolve("127.0.0.1", "not-an-ip", "127.0.0.1") == "127.0.0.1"
