"""Web Push's rules without a server (issue 49, item 2): an endpoint is checked when it is
subscribed as a webhook URL is (its form; no IPv6 literal, which no VAPID `aud` can name; no
private, link-local or loopback address unless allowed), and a failing push waits longer each
time, up to a ceiling."""
from __future__ import annotations

import pytest

from api.push.subscriptions import PushEndpointRefused, check_endpoint
from api.webhooks.addresses import Policy
from workers.push.sending import PushSettings

pytestmark = pytest.mark.unit

REFUSED = [
    "https://[::1]/push/x",  # the issue's: accepted, then every send failed while signing
    "https://[2606:4700:4700::1111]/push/x",  # public, but an IPv6 literal all the same
    "https://[::ffff:10.0.0.1]/push/x",
    "https://10.0.0.1/push/x",
    "https://192.168.1.20/push/x",
    "https://169.254.169.254/latest/meta-data",
    "https://127.0.0.1/push/x",  # loopback: only when allowed
    "https://0.0.0.0/push/x",
    "http://push.example.com/x",
    "https://user:pw@push.example.com/x",
    "https://push.example.com/x#fragment",
    "ftp://push.example.com/x",
    "https://:443/x",
]


@pytest.mark.parametrize("endpoint", REFUSED)
def test_an_endpoint_is_refused_as_a_webhook_url_would_be(endpoint):
    with pytest.raises(PushEndpointRefused):
        check_endpoint(endpoint, False, Policy())


def test_a_public_address_is_accepted_and_loopback_only_when_allowed():
    check_endpoint("https://8.8.8.8/push/x", False, Policy())
    check_endpoint("http://127.0.0.1:8000/push/x", True, Policy())
    with pytest.raises(PushEndpointRefused):
        check_endpoint("http://127.0.0.1:8000/push/x", False, Policy())
    with pytest.raises(PushEndpointRefused):
        check_endpoint("https://[::1]:8000/push/x", True, Policy())  # no IPv6 literal, even allowed
    check_endpoint("https://10.1.2.3/push/x", False, Policy(allowed_networks=(__import__("ipaddress").ip_network(
        "10.0.0.0/8"),)))  # an operator's own network, allowed as for webhooks


def test_a_failing_push_waits_twice_as_long_each_time_up_to_its_ceiling():
    settings = PushSettings(retry_base_s=5, retry_max_s=3600, max_attempts=12)
    waits = [settings.backoff_s(n) for n in range(1, 13)]
    assert waits[:5] == [5, 10, 20, 40, 80]
    assert waits[-1] == 3600 and all(a <= b for a, b in zip(waits, waits[1:]))
    assert 2 * 3600 < sum(waits[:11]) < 3 * 3600, "removed after about two and a half hours of failures"


def test_a_native_kind_is_sent_only_when_its_credentials_are_all_set():
    from api.push.subscriptions import check_token
    from api.settings import Settings
    from wiring import native_push

    assert native_push(Settings()) == {}
    with pytest.raises(ValueError, match="APNS_KEY, APNS_TEAM_ID, APNS_BUNDLE_ID"):
        native_push(Settings(apns_key_id="KEY1234567"))
    assert check_token("apns", "AB" * 32) == "ab" * 32
    for token in ("zz" * 32, "ab" * 8, "a" * 65):
        with pytest.raises(Exception, match="token is not an APNs device token"):
            check_token("apns", token)
