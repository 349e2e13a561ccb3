"""Apple Push Notification service's transport: token-based authentication (an ES256 JWT signed
by the operator's `.p8` key through PyJWT: `kid` the key's id, `iss` the team, `iat` now; made
again every TOKEN_FOR_S, as Apple asks: not more than once in 20 minutes, not older than an
hour) over HTTP/2 (httpx with h2), `POST {APNS_URL}/3/device/<device token>`; headers and body:
api/push/messages.py `apns_request` (`apns-topic` the app's bundle id, `apns-push-type: alert`,
`apns-priority` 10 or 5, `apns-expiration`, `apns-collapse-id` one per game).

What APNs answers (its JSON `reason`):
- 200: taken;
- 410 (`Unregistered`, `ExpiredToken`): the app is gone from the device: removed, `gone`;
- 400 `BadDeviceToken` (or `DeviceTokenNotForTopic`: another app's): removed, `bad_token`;
- 403 `ExpiredProviderToken` / `InvalidProviderToken`: our JWT is made again, retried after the
  back-off;
- 429 (`TooManyRequests`), 500, 503: retried after the back-off;
- another 4xx: refused, that entry passed over.

httpx[http2] rather than aioapns: the sender's threads are synchronous (aioapns needs an
asyncio loop of its own per thread); httpx is already the project's HTTP client."""
from __future__ import annotations

import socket
import threading
import time
from typing import Any

import httpx
import jwt

from api.push import messages
from api.push.subscriptions import PushSubscription
from api.webhooks.sender import retry_after_s

from .transport import Answer, LazyClient

TOKEN_FOR_S = 40 * 60
NO_DELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
GONE = {"BadDeviceToken": "bad_token", "DeviceTokenNotForTopic": "bad_token"}
RENEW = ("ExpiredProviderToken", "InvalidProviderToken")


def _client(timeout_s: float) -> httpx.Client:
    # HTTP/2 only (APNs speaks nothing else): over TLS by ALPN, over http:// (a local fake) by
    # prior knowledge.
    # TCP_NODELAY: a request is a HEADERS and a DATA frame written apart; without it the second
    # waits for the first's (delayed) ACK (measured: 95 pushes/s without, bench/README.md).
    transport = httpx.HTTPTransport(http1=False, http2=True, socket_options=NO_DELAY)
    return httpx.Client(transport=transport, timeout=timeout_s)


class Apns:
    kind = "apns"

    def __init__(self, key_pem: str, key_id: str, team_id: str, bundle_id: str, base_url: str, ttl_s: int,
                 timeout_s: float):
        self.key_pem, self.key_id, self.team_id, self.bundle_id = key_pem, key_id, team_id, bundle_id
        self.base_url = base_url.rstrip("/")
        self.ttl_s = ttl_s
        self._client = LazyClient(lambda: _client(timeout_s))
        self._lock = threading.Lock()
        self._token: tuple[float, str] | None = None
        jwt.encode({"iss": team_id, "iat": 0}, key_pem, algorithm="ES256")  # a key that cannot sign: now

    @property
    def client(self) -> httpx.Client:
        return self._client.get()

    def destination(self, sub: PushSubscription) -> str:
        return self.base_url

    def provider_token(self) -> str:
        with self._lock:
            now = time.time()
            if self._token is None or now - self._token[0] >= TOKEN_FOR_S:
                made = jwt.encode({"iss": self.team_id, "iat": int(now)}, self.key_pem, algorithm="ES256",
                                  headers={"kid": self.key_id})
                self._token = (now, made)
            return self._token[1]

    def send(self, sub: PushSubscription, entry: dict[str, Any]) -> Answer:
        headers, body = messages.apns_request(entry, sub.lang, self.ttl_s, self.bundle_id)
        headers["authorization"] = f"bearer {self.provider_token()}"
        try:
            answer = self.client.post(f"{self.base_url}/3/device/{sub.token}", content=body, headers=headers)
        except httpx.HTTPError as e:
            return Answer(False, None, f"{type(e).__name__}: {e}")
        if answer.status_code == 200:
            return Answer(True, 200)
        try:
            reason = str(answer.json().get("reason") or "")
        except ValueError:
            reason = ""
        word = reason or f"status {answer.status_code}"
        if answer.status_code == 403 and reason in RENEW:
            with self._lock:
                self._token = None
            return Answer(False, 403, word, transient=True)
        gone = "gone" if answer.status_code == 410 else GONE.get(reason) if answer.status_code == 400 else None
        return Answer(False, answer.status_code, word, gone, retry_after_s(answer.headers.get("Retry-After"),
                                                                          time.time()))
