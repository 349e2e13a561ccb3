"""Web Push's transport (RFC 8030, 8291, 8292): the entry's payload encrypted to the browser's keys
(aes128gcm, through pywebpush), signed with the server's VAPID key, posted to the subscription's
endpoint through the webhooks' bounded connections (the address its host resolves to checked
against the webhooks' policy at each sending). 404 and 410: gone."""
from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from api.push import messages
from api.push.subscriptions import WEB_PUSH, PushSubscription
from api.webhooks.addresses import Policy
from api.webhooks.sender import Connections

from .transport import Answer

if TYPE_CHECKING:
    from py_vapid import Vapid  # the key only: py_vapid and its cryptography load with it (api/push/vapid.py)

JWT_LIFETIME_S = 12 * 3600  # RFC 8292: at most 24 hours


class WebPush:
    kind = WEB_PUSH

    def __init__(self, vapid: Vapid, subject: str, ttl_s: int, policy: Policy, timeout_s: float, deadline_s: float):
        self.vapid, self.subject, self.ttl_s = vapid, subject, ttl_s
        self.policy, self.timeout_s, self.deadline_s = policy, timeout_s, deadline_s
        self._local = threading.local()

    @classmethod
    def of(cls, vapid: Vapid, settings: Any) -> WebPush:
        """From the sender's PushSettings (sending.py)."""
        return cls(vapid, settings.subject, settings.ttl_s, settings.policy, settings.timeout_s, settings.deadline_s)

    def _connections(self) -> Connections:
        held = getattr(self._local, "connections", None)
        if held is None:
            held = self._local.connections = Connections(self.policy, self.timeout_s, self.deadline_s)
        return held

    def destination(self, sub: PushSubscription) -> str:
        return sub.endpoint

    def send(self, sub: PushSubscription, entry: dict[str, Any]) -> Answer:
        from pywebpush import WebPusher  # here: 22 MB of a web worker's memory that only a sender needs

        body = WebPusher(sub.info()).encode(messages.payload(entry, sub.lang), "aes128gcm")["body"]
        headers = {**messages.headers(entry, self.ttl_s), **self._authorization(sub.endpoint),
                   "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream"}
        outcome = self._connections().post(sub.endpoint, body, headers)
        if outcome.ok:
            return Answer(True, outcome.status)
        gone = "gone" if outcome.status in (404, 410) else None
        return Answer(False, outcome.status, outcome.error or outcome.excerpt or f"status {outcome.status}", gone,
                      outcome.retry_after_s)

    def _authorization(self, endpoint: str) -> dict:
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": self.subject,
                  "exp": int(time.time()) + JWT_LIFETIME_S}
        return self.vapid.sign(claims)
