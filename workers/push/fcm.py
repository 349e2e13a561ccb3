"""Firebase Cloud Messaging's transport: the HTTP v1 API (`POST
{FCM_URL}/v1/projects/{project}/messages:send`), authorised by an OAuth2 access token that
google-auth gets for the operator's service account (scope `firebase.messaging`, the JWT bearer
grant at the account's `token_uri`) and renews before it expires. The message (api/push/
messages.py `fcm_message`): a notification, the PushMessage as `data`, the game's collapse key
(`android.collapse_key`, `apns-collapse-id`), priority and time to live.

What FCM answers (its `error.details[].errorCode`, else `error.status`):
- `UNREGISTERED` (404): the app was uninstalled or the token expired: removed, `gone`;
- `INVALID_ARGUMENT` (400) about the token (its message names the registration token, or a field
  violation `message.token`): the token is not one: removed, `bad_token`; about anything else
  (a payload FCM refuses: our bug, which must not remove every registration) a refusal;
- `UNAUTHENTICATED` (401): our access token was refused: renewed, retried after the back-off;
- `QUOTA_EXCEEDED` (429), `UNAVAILABLE` (503), `INTERNAL` (500): retried after the back-off
  (or FCM's `Retry-After`, if longer);
- another 4xx (`SENDER_ID_MISMATCH`, `THIRD_PARTY_AUTH_ERROR`): refused, that entry passed over.

google-auth rather than firebase-admin: the same token for this one call, with 2 small packages
(google-auth, pyasn1-modules) where firebase-admin brings grpcio, protobuf and the Cloud
clients (docs/apps.md, "Why these libraries")."""
from __future__ import annotations

import json
import threading
import time
from typing import Any

import google.auth.transport
import httpx
from google.oauth2 import service_account

from api.push import messages
from api.push.subscriptions import PushSubscription
from api.webhooks.sender import retry_after_s

from .transport import Answer, LazyClient

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
GONE = {"UNREGISTERED": "gone", "INVALID_ARGUMENT": "bad_token"}


class _Response(google.auth.transport.Response):
    def __init__(self, answer: httpx.Response):
        self._answer = answer

    @property
    def status(self) -> int:
        return self._answer.status_code

    @property
    def headers(self) -> Any:
        return self._answer.headers

    @property
    def data(self) -> bytes:
        return self._answer.content


class _Request(google.auth.transport.Request):
    """google-auth's transport over our httpx client (its token requests bounded as our sends)."""

    def __init__(self, client: httpx.Client):
        self.client = client

    def __call__(self, url: str, method: str = "GET", body: Any = None, headers: Any = None,
                 timeout: Any = None, **kwargs: Any) -> _Response:
        try:
            return _Response(self.client.request(method, url, content=body, headers=headers))
        except httpx.HTTPError as e:
            raise google.auth.exceptions.TransportError(str(e)) from e


def load_credentials(raw: str) -> dict[str, Any]:
    """A service account's JSON key (what the Firebase console downloads)."""
    info = json.loads(raw)
    missing = [k for k in ("client_email", "private_key", "token_uri") if not info.get(k)]
    if info.get("type") != "service_account" or missing:
        raise ValueError(f"FCM credentials are not a service account's JSON key (missing {missing or ['type']})")
    return info


class Fcm:
    kind = "fcm"

    def __init__(self, info: dict[str, Any], project_id: str, base_url: str, ttl_s: int, timeout_s: float):
        self.credentials = service_account.Credentials.from_service_account_info(info, scopes=[SCOPE])
        self.project_id = project_id or info.get("project_id", "")
        if not self.project_id:
            raise ValueError("FCM_PROJECT_ID is unset and the service account's JSON names no project_id")
        self.base_url = base_url.rstrip("/")
        self.url = f"{self.base_url}/v1/projects/{self.project_id}/messages:send"
        self.ttl_s = ttl_s
        self._client = LazyClient(lambda: httpx.Client(timeout=timeout_s))
        self._lock = threading.Lock()
        self._renew = False

    @property
    def client(self) -> httpx.Client:
        return self._client.get()

    def destination(self, sub: PushSubscription) -> str:
        return self.url

    def access_token(self) -> str:
        """The service account's access token, renewed when google-auth finds it (nearly) expired."""
        with self._lock:
            if self._renew or not self.credentials.valid:
                self.credentials.refresh(_Request(self.client))
                self._renew = False
            return str(self.credentials.token)

    def send(self, sub: PushSubscription, entry: dict[str, Any]) -> Answer:
        body = messages.fcm_message(entry, sub.token, sub.lang, self.ttl_s, time.time())
        headers = {"Authorization": f"Bearer {self.access_token()}"}
        try:
            answer = self.client.post(self.url, json=body, headers=headers)
        except httpx.HTTPError as e:
            return Answer(False, None, f"{type(e).__name__}: {e}")
        if 200 <= answer.status_code < 300:
            return Answer(True, answer.status_code)
        word = error_code(answer)
        gone = GONE.get(word)
        if word == "INVALID_ARGUMENT" and not about_token(answer):
            gone = None
        if answer.status_code == 401:
            with self._lock:
                self._renew = True
            return Answer(False, 401, word, transient=True)
        return Answer(False, answer.status_code, word, gone,
                      retry_after_s(answer.headers.get("Retry-After"), time.time()))


def error_code(answer: httpx.Response) -> str:
    """FCM's word for an error: the FcmError's `errorCode`, else the Google API `status`."""
    try:
        error = answer.json().get("error", {})
    except ValueError:
        return f"status {answer.status_code}"
    for detail in error.get("details") or []:
        if isinstance(detail, dict) and detail.get("errorCode"):
            return str(detail["errorCode"])
    return str(error.get("status") or f"status {answer.status_code}")


def about_token(answer: httpx.Response) -> bool:
    """Whether an INVALID_ARGUMENT is the token's (FCM: "The registration token is not a valid FCM
    registration token", or a BadRequest field violation of `message.token`)."""
    try:
        error = answer.json().get("error", {})
    except ValueError:
        return False
    if "registration token" in str(error.get("message", "")).lower():
        return True
    return any(isinstance(v, dict) and v.get("field") == "message.token"
               for d in error.get("details") or [] if isinstance(d, dict)
               for v in d.get("fieldViolations") or [])
