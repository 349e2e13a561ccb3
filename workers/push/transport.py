"""The push port: one transport per kind of registration (Web Push, FCM, APNs), each sending one
inbox entry to one registration and saying what its service answered, in the sender's terms
(sending.py decides what follows: the cursor moves, a retry after the back-off, a removal).

- `ok`: the service took it.
- `gone`: the service says the registration is no more; its value is the reason it is removed
  with (`gone`: Web Push 404/410, FCM `UNREGISTERED`, APNs 410 `Unregistered`; `bad_token`: FCM
  `INVALID_ARGUMENT`, APNs 400 `BadDeviceToken`).
- `status`, `error`: the service's answer (None: no answer) and its word or the network's error.
  429 and 5xx (and no answer) are retried after the back-off (PUSH_RETRY_BASE_S doubled, or the
  service's `Retry-After` if longer); another 4xx is a refusal (that entry passed over).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from api.push.subscriptions import PushSubscription

if TYPE_CHECKING:
    # only the FCM and APNs transports' clients are httpx's, and only the push workers that
    # send make one: every other process of the server (and each test process) skips its
    # import, about 50 ms of CPU with its command line's rich and click (issue 48)
    import httpx


class LazyClient:
    """A transport's HTTP client, made at the first send (`get`), not with the transport: every
    process's graph builds the transports (wiring.py) and only the push workers send; a client's
    TLS context loads the CA bundle (30-70 ms of CPU)."""

    def __init__(self, make: Callable[[], httpx.Client]):
        self._make, self._lock = make, threading.Lock()
        self._client: httpx.Client | None = None

    def get(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = self._make()
            return self._client


@dataclass(frozen=True)
class Answer:
    ok: bool
    status: int | None = None
    error: str = ""
    gone: str | None = None  # the removal's reason (api/push/subscriptions.py REASONS)
    retry_after_s: float | None = None
    transient: bool = False  # retried after the back-off whatever the status (a credential to renew)


class Transport(Protocol):
    kind: str

    def send(self, sub: PushSubscription, entry: dict[str, Any]) -> Answer:
        """One entry to one registration, within the attempt's deadline; never raises for what
        the service or the network did (an error before sending may raise)."""

    def destination(self, sub: PushSubscription) -> str:
        """The URL whose host and port name the service (the dispatcher's queue per service)."""

