"""Firebase Cloud Messaging of the tests' own on 127.0.0.1, written from Google's public
documentation of the HTTP v1 API (no real service is reachable here), as strict as it is about
what it is sent:

- `POST /token`: the OAuth2 JWT bearer grant (RFC 7523) a service account's `token_uri` takes:
  `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, `assertion` a JWT signed RS256 by the
  account's key (`iss` its `client_email`, `aud` Google's token endpoint, which google-auth names
  whatever the `token_uri` it posts to, `scope` holding
  `https://www.googleapis.com/auth/firebase.messaging`, `exp` at most an hour after `iat`);
  answers `{"access_token", "expires_in": 3600, "token_type": "Bearer"}`.
- `POST /v1/projects/<project>/messages:send` with `Authorization: Bearer <an access token it
  gave>` (else 401 `UNAUTHENTICATED`) and `{"message": {...}}`: `token`; `data` a map of strings;
  `android.priority` `HIGH` or `NORMAL`, `android.ttl` a duration (`"3600s"`),
  `android.collapse_key`; `apns.headers` strings. What fails a check is answered 400
  `INVALID_ARGUMENT` and recorded in `problems`.

Each device answers as its `mode` (or, first, its `script`) says: "ok" (200 `{"name"}`),
"unregistered" (404 `UNREGISTERED`, the app uninstalled), "invalid" (400 `INVALID_ARGUMENT`, the
token's), "malformed" (400 `INVALID_ARGUMENT`, a message's value),
"throttled" (429 `QUOTA_EXCEEDED` with `Retry-After`), "unavailable" (503 `UNAVAILABLE`),
"error" (500 `INTERNAL`). A token it never made is answered 400 `INVALID_ARGUMENT`.

A device `offline` holds its messages as FCM documents: a collapsible message replaces the one
of its collapse key, at most 4 collapse keys kept (the oldest dropped); at most 100
non-collapsible messages, past which all are discarded and one `deleted_messages` is recorded
(the app's cue to sync). `online()` hands them over."""
from __future__ import annotations

import functools
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
STATUS = {"ok": (200, ""), "unregistered": (404, "UNREGISTERED"), "invalid": (400, "INVALID_ARGUMENT"),
          "malformed": (400, "INVALID_ARGUMENT"),
          "throttled": (429, "QUOTA_EXCEEDED"), "unavailable": (503, "UNAVAILABLE"), "error": (500, "INTERNAL")}
GOOGLE_STATUS = {404: "NOT_FOUND", 400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE",
                 500: "INTERNAL", 401: "UNAUTHENTICATED"}
MAX_COLLAPSE_KEYS, MAX_HELD = 4, 100
TOKEN_INVALID = "The registration token is not a valid FCM registration token"
MALFORMED = "Invalid value at 'message.data[0].value' (TYPE_STRING)"


@dataclass
class Device:
    token: str
    mode: str = "ok"
    script: list = field(default_factory=list)
    offline: bool = False
    received: list = field(default_factory=list)  # (monotonic s, message dict)
    answered: list = field(default_factory=list)
    collapsed: dict = field(default_factory=dict)  # collapse key -> message (insertion order: oldest first)
    held: list = field(default_factory=list)  # non-collapsible messages
    deleted_messages: int = 0

    def online(self) -> None:
        self.offline = False
        for message in [*self.collapsed.values(), *self.held]:
            self.received.append((time.monotonic(), message))
        self.collapsed.clear()
        self.held.clear()

    def payloads(self, kind: str | None = None, game_id: str | None = None) -> list[dict]:
        """The PushMessages received (FCM's `data`, its strings read back)."""
        found = []
        for _, message in self.received:
            data = dict(message["data"])
            data["version"] = int(data["version"]) if data.get("version") else None
            data["at"] = int(data["at"]) if data.get("at") else None
            data = {k: (None if v == "" and k in ("game_id", "game_type") else v) for k, v in data.items()}
            if (kind is None or data["type"] == kind) and (game_id is None or data["game_id"] == game_id):
                found.append(data)
        return found


@functools.cache
def _service_account_key() -> rsa.RSAPrivateKey:
    """The service account's RSA key, made once a process (0.15-0.3 CPU-s each: each test's
    FcmService made its own, issue 48). Each FcmService still gives its own access tokens."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


class FcmService:
    def __init__(self, project_id: str = "demo-project"):
        self.project_id = project_id
        self.devices: dict[str, Device] = {}
        self.problems: list[str] = []
        self.tokens: set[str] = set()  # access tokens given
        self.grants = 0
        self.sends = 0
        self._lock = threading.Lock()
        self.key = _service_account_key()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as Google's front ends
            disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall

            def log_message(self, *args):
                pass

            def do_POST(self):
                service.handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        # asked every 50 ms whether to stop (the default 0.5 s made each close() wait up to that)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def credentials(self) -> dict:
        """A service account's JSON key, as the Firebase console downloads it (this service's token_uri)."""
        pem = self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode()
        return {"type": "service_account", "project_id": self.project_id, "private_key_id": "k1",
                "private_key": pem, "client_email": f"push@{self.project_id}.iam.gserviceaccount.com",
                "client_id": "1", "token_uri": f"{self.origin}/token"}

    def device(self, mode: str = "ok") -> Device:
        token = f"{secrets.token_urlsafe(11)}:APA91b{secrets.token_urlsafe(100)}"
        found = self.devices[token] = Device(token, mode)
        return found

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # ---- a request --------------------------------------------------------------------------
    def handle(self, request: BaseHTTPRequestHandler) -> None:
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        if request.path == "/token":
            return self._token(request, body)
        if request.path != f"/v1/projects/{self.project_id}/messages:send":
            return self._error(request, 404, "NOT_FOUND", "")
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer" or token not in self.tokens:
            return self._error(request, 401, "UNAUTHENTICATED", "")
        with self._lock:
            self.sends += 1
        try:
            message = json.loads(body)["message"]
            self._check(message)
        except Exception as e:
            with self._lock:
                self.problems.append(f"{type(e).__name__}: {e}")
            return self._error(request, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", message=f"Invalid value: {e}")
        device = self.devices.get(message["token"])
        if device is None:
            return self._error(request, 400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", message=TOKEN_INVALID)
        mode = device.script.pop(0) if device.script else device.mode
        status, code = STATUS[mode]
        device.answered.append(status)
        if status != 200:
            return self._error(request, status, GOOGLE_STATUS[status], code,
                               {"Retry-After": "1"} if status == 429 else {},
                               {"invalid": TOKEN_INVALID, "malformed": MALFORMED}.get(mode, ""))
        self._deliver(device, message)
        self._json(request, 200, {"name": f"projects/{self.project_id}/messages/{secrets.token_hex(8)}"})

    def _deliver(self, device: Device, message: dict) -> None:
        if not device.offline:
            device.received.append((time.monotonic(), message))
            return
        key = message.get("android", {}).get("collapse_key")
        if key:
            device.collapsed.pop(key, None)
            device.collapsed[key] = message
            while len(device.collapsed) > MAX_COLLAPSE_KEYS:
                device.collapsed.pop(next(iter(device.collapsed)))
        elif len(device.held) >= MAX_HELD:
            device.held.clear()
            device.deleted_messages += 1
        else:
            device.held.append(message)

    @staticmethod
    def _check(message: dict) -> None:
        assert isinstance(message.get("token"), str) and message["token"], "message.token"
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in message.get("data", {}).items()), \
            "data values are strings"
        assert not {"from", "notification", "message_type"} & set(message.get("data", {})), "a reserved data key"
        android = message.get("android", {})
        assert android.get("priority", "NORMAL") in ("HIGH", "NORMAL"), android.get("priority")
        assert re.fullmatch(r"\d+(\.\d{1,9})?s", android.get("ttl", "0s")), android.get("ttl")
        headers = message.get("apns", {}).get("headers", {})
        assert all(isinstance(v, str) for v in headers.values()), "apns headers are strings"
        assert len(headers.get("apns-collapse-id", "").encode()) <= 64, "apns-collapse-id at most 64 bytes"

    def _token(self, request: BaseHTTPRequestHandler, body: bytes) -> None:
        form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
        try:
            assert form.get("grant_type") == GRANT, form.get("grant_type")
            claims = jwt.decode(form["assertion"], self.key.public_key(), algorithms=["RS256"],
                                audience="https://oauth2.googleapis.com/token")
            assert claims["iss"] == self.credentials()["client_email"], claims["iss"]
            assert SCOPE in claims["scope"].split(), claims["scope"]
            assert claims["exp"] - claims["iat"] <= 3600, "an assertion lives at most an hour"
        except Exception as e:
            with self._lock:
                self.problems.append(f"token: {type(e).__name__}: {e}")
            return self._json(request, 400, {"error": "invalid_grant"})
        token = f"ya29.{secrets.token_urlsafe(24)}"
        with self._lock:
            self.tokens.add(token)
            self.grants += 1
        self._json(request, 200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"})

    def _error(self, request, status: int, google_status: str, code: str, headers: dict | None = None,
               message: str = "") -> None:
        details = [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}] if code else []
        self._json(request, status, {"error": {"code": status, "message": message or google_status.lower(),
                                               "status": google_status, "details": details}}, headers)

    @staticmethod
    def _json(request, status: int, body: dict, headers: dict | None = None) -> None:
        raw = json.dumps(body).encode()
        request.send_response(status)
        for name, value in (headers or {}).items():
            request.send_header(name, value)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(raw)))
        request.end_headers()
        request.wfile.write(raw)
