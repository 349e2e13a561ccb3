"""A push service of the tests' own (RFC 8030) on 127.0.0.1, as strict as a browser vendor's
about what it is sent: every request must carry a VAPID JWT (RFC 8292) signed ES256 by the key
in its `k`, that key the server's published one, `aud` this service's origin, `exp` within a
day; its body must decrypt (RFC 8291 aes128gcm, http_ece) with the subscription's private key,
which the test made (cryptography) and only this service holds. What fails a check is answered
400 and recorded in `problems`; what passes is kept in `received` (decrypted, with its headers).

Each subscription answers as its `mode` says: "ok" (201), "gone" (410), "missing" (404),
"error" (500: a push service failing), "throttled" (429 with `Retry-After`), "unavailable" (503)
or "hang" (no answer until the service closes: a push service that stalls); its `script`, while
it holds modes, says the next answers first (one mode each).

A device `offline` is held its messages as a push service holds them (RFC 8030 5.4: a message
with the `Topic` of one it still holds replaces it); `online()` hands them over."""
from __future__ import annotations

import base64
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Device:
    """A browser's side of one subscription: its keys, and what reached it."""
    token: str
    endpoint: str
    mode: str
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    received: list = field(default_factory=list)  # (monotonic s, payload dict, headers dict)
    answered: list = field(default_factory=list)  # the statuses this service answered
    answered_at: list = field(default_factory=list)  # and when (monotonic s)
    script: list = field(default_factory=list)  # the next answers' modes, before `mode`
    offline: bool = False
    held: dict = field(default_factory=dict)  # Topic (or a message's own key) -> (payload, headers)

    def online(self) -> None:
        self.offline = False
        for payload, headers in self.held.values():
            self.received.append((time.monotonic(), payload, headers))
        self.held.clear()

    def subscription(self) -> dict:
        """What `PushSubscription.toJSON()` gives a page."""
        point = self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                            serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64e(point), "auth": b64e(self.auth)}}

    def payloads(self, kind: str | None = None, game_id: str | None = None) -> list[dict]:
        return [p for _, p, _ in self.received if (kind is None or p["type"] == kind)
                and (game_id is None or p["game_id"] == game_id)]


class PushService:
    def __init__(self):
        self.devices: dict[str, Device] = {}
        self.problems: list[str] = []
        self.server_key: str | None = None  # the VAPID public key every JWT must be signed with
        self.released = threading.Event()
        self.hanging = 0
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                service.handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        # asked every 50 ms whether to stop (the default 0.5 s made each close() wait up to that)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def device(self, mode: str = "ok") -> Device:
        token = secrets.token_urlsafe(12)
        found = self.devices[token] = Device(token, f"{self.origin}/push/{token}", mode)
        return found

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    # ---- a request --------------------------------------------------------------------------
    def handle(self, request: BaseHTTPRequestHandler) -> None:
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        device = self.devices.get(request.path.rsplit("/", 1)[-1])
        if device is None:
            return self._answer(request, None, 404)
        try:
            self._check_vapid(request.headers.get("Authorization", ""))
            payload = self._decrypt(device, body, request.headers)
        except Exception as e:  # any failed check is a problem to report
            with self._lock:
                self.problems.append(f"{type(e).__name__}: {e}")
            return self._answer(request, device, 400)
        mode = device.script.pop(0) if device.script else device.mode
        if mode == "hang":
            with self._lock:
                self.hanging += 1
            self.released.wait(120)
            return
        if mode == "ok":
            headers = {k: request.headers[k] for k in request.headers}
            if device.offline:
                device.held[headers.get("Topic") or secrets.token_hex(8)] = (payload, headers)
            else:
                device.received.append((time.monotonic(), payload, headers))
        status = {"ok": 201, "gone": 410, "missing": 404, "error": 500, "throttled": 429, "unavailable": 503}[mode]
        self._answer(request, device, status, {"Retry-After": "1"} if status == 429 else {})

    def _answer(self, request: BaseHTTPRequestHandler, device: Device | None, status: int,
                headers: dict | None = None) -> None:
        if device is not None:
            device.answered.append(status)
            device.answered_at.append(time.monotonic())
        request.send_response(status)
        for name, value in (headers or {}).items():
            request.send_header(name, value)
        request.send_header("Content-Length", "0")
        request.end_headers()

    def _check_vapid(self, authorization: str) -> None:
        scheme, _, params = authorization.partition(" ")
        assert scheme == "vapid", f"Authorization scheme {scheme!r}, not vapid"
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        token, key = parts["t"], parts["k"]
        assert self.server_key is None or key == self.server_key, "signed with a key the server did not publish"
        head, claims, signature = token.split(".")
        assert json.loads(b64d(head))["alg"] == "ES256"
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(key))
        raw = b64d(signature)
        assert len(raw) == 64, "an ES256 JWS signature is r || s, 64 bytes"
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # InvalidSignature if not
        said = json.loads(b64d(claims))
        assert said["aud"] == self.origin, f"aud {said['aud']!r} is not {self.origin!r}"
        assert time.time() < said["exp"] <= time.time() + 86400, f"exp {said['exp']} not within a day"
        assert str(said.get("sub", "")).startswith(("mailto:", "https:")), "sub is a contact"

    @staticmethod
    def _decrypt(device: Device, body: bytes, headers) -> dict:
        assert headers.get("Content-Encoding") == "aes128gcm", headers.get("Content-Encoding")
        assert headers.get("TTL", "").isdigit(), "TTL is required (RFC 8030 5.2)"
        plain = http_ece.decrypt(body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm")
        return json.loads(plain)
