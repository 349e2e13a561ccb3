"""Apple Push Notification service of the tests' own on 127.0.0.1, over HTTP/2 (h2, cleartext
with prior knowledge: the real service is the same protocol over TLS), written from Apple's public
documentation ("Sending notification requests to APNs", "Establishing a token-based connection",
"Handling notification responses from APNs"), as strict as it is about what it is sent:

- `POST /3/device/<device token>` only, over HTTP/2;
- `authorization: bearer <JWT>`: ES256, header `kid` the key's id, claims `iss` the team's id and
  `iat` within the last hour (else 403 `ExpiredProviderToken`; a bad signature or kid 403
  `InvalidProviderToken`);
- `apns-topic` the app's bundle id (else 400 `DeviceTokenNotForTopic`), `apns-push-type` `alert`
  or `background`, `apns-priority` 10 or 5 (10 needs an alert), `apns-expiration` a UNIX time,
  `apns-collapse-id` at most 64 bytes, the body a JSON object with `aps` of at most 4 KB.
  What fails a check is answered 400 `BadRequest`-like reasons and recorded in `problems`.

Each device answers as its `mode` (or, first, its `script`) says: "ok" (200 with `apns-id`),
"unregistered" (410 `Unregistered` with its `timestamp`), "bad" (400 `BadDeviceToken`),
"throttled" (429 `TooManyRequests`), "unavailable" (503 `ServiceUnavailable`), "error" (500
`InternalServerError`). A token it never made: 400 `BadDeviceToken`.

A device `offline` is kept only its newest notification, as APNs' store-and-forward does
("only one notification per app"); `online()` hands it over."""
from __future__ import annotations

import json
import secrets
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.events
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

STATUS = {"ok": (200, ""), "unregistered": (410, "Unregistered"), "bad": (400, "BadDeviceToken"),
          "throttled": (429, "TooManyRequests"), "unavailable": (503, "ServiceUnavailable"),
          "error": (500, "InternalServerError")}


@dataclass
class Device:
    token: str
    mode: str = "ok"
    script: list = field(default_factory=list)
    offline: bool = False
    received: list = field(default_factory=list)  # (monotonic s, headers, body dict)
    answered: list = field(default_factory=list)
    stored: tuple | None = None

    def online(self) -> None:
        self.offline = False
        if self.stored is not None:
            self.received.append(self.stored)
            self.stored = None

    def payloads(self, kind: str | None = None, game_id: str | None = None) -> list[dict]:
        return [b["message"] for _, _, b in self.received if (kind is None or b["message"]["type"] == kind)
                and (game_id is None or b["message"]["game_id"] == game_id)]


class ApnsService:
    def __init__(self, bundle_id: str = "org.example.games", team_id: str = "TEAM123456", key_id: str = "KEY1234567"):
        self.bundle_id, self.team_id, self.key_id = bundle_id, team_id, key_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.devices: dict[str, Device] = {}
        self.problems: list[str] = []
        self.sends = 0
        self.connections = 0
        self._lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.origin = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def key_pem(self) -> str:
        """The operator's .p8 auth key (PKCS#8 PEM), as Apple's developer site gives it."""
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()).decode()

    def device(self, mode: str = "ok") -> Device:
        token = secrets.token_hex(32)
        found = self.devices[token] = Device(token, mode)
        return found

    def close(self) -> None:
        self._closed = True
        self.sock.close()

    # ---- HTTP/2 -------------------------------------------------------------------------------
    def _accept(self) -> None:
        while not self._closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        h2conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        h2conn.initiate_connection()
        conn.sendall(h2conn.data_to_send())
        streams: dict[int, dict] = {}
        try:
            while True:
                data = conn.recv(65536)
                if not data:
                    return
                for event in h2conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        streams[event.stream_id] = {"headers": dict(event.headers), "body": b""}
                    elif isinstance(event, h2.events.DataReceived):
                        streams[event.stream_id]["body"] += event.data
                        h2conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        request = streams.pop(event.stream_id)
                        status, reason, extra = self.handle(request["headers"], request["body"])
                        body = json.dumps({"reason": reason, **extra}).encode() if reason else b""
                        headers = [(":status", str(status)), ("apns-id", str(uuid.uuid4()).upper()),
                                   ("content-length", str(len(body)))]
                        if body:
                            headers.append(("content-type", "application/json"))
                        h2conn.send_headers(event.stream_id, headers, end_stream=not body)
                        if body:
                            h2conn.send_data(event.stream_id, body, end_stream=True)
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        return
                conn.sendall(h2conn.data_to_send())
        except OSError:
            return
        finally:
            conn.close()

    # ---- a request --------------------------------------------------------------------------
    def handle(self, headers: dict, body: bytes) -> tuple[int, str, dict]:
        with self._lock:
            self.sends += 1
        path = headers.get(":path", "")
        if headers.get(":method") != "POST":
            return 405, "MethodNotAllowed", {}
        if not path.startswith("/3/device/"):
            return 404, "BadPath", {}
        scheme, _, token = headers.get("authorization", "").partition(" ")
        try:
            head = jwt.get_unverified_header(token)
            assert scheme == "bearer" and head.get("alg") == "ES256" and head.get("kid") == self.key_id
            claims = jwt.decode(token, self.key.public_key(), algorithms=["ES256"], options={"verify_iat": False})
            assert claims["iss"] == self.team_id
        except Exception as e:
            self._problem(f"provider token: {type(e).__name__}: {e}")
            return 403, "InvalidProviderToken", {}
        if not time.time() - 3600 <= claims["iat"] <= time.time() + 60:
            return 403, "ExpiredProviderToken", {}
        if headers.get("apns-topic") != self.bundle_id:
            return 400, "DeviceTokenNotForTopic", {}
        try:
            assert headers.get("apns-push-type") in ("alert", "background"), "apns-push-type"
            assert headers.get("apns-priority", "10") in ("10", "5"), "apns-priority"
            assert headers.get("apns-expiration", "0").isdigit(), "apns-expiration"
            assert len(headers.get("apns-collapse-id", "").encode()) <= 64, "apns-collapse-id over 64 bytes"
            assert len(body) <= 4096, "payload over 4 KB"
            payload = json.loads(body)
            assert isinstance(payload.get("aps"), dict), "aps"
            if headers.get("apns-priority", "10") == "10":
                assert payload["aps"].get("alert"), "priority 10 needs an alert"
        except Exception as e:
            self._problem(f"request: {type(e).__name__}: {e}")
            return 400, "BadRequest", {}
        device = self.devices.get(path.removeprefix("/3/device/"))
        if device is None:
            return 400, "BadDeviceToken", {}
        mode = device.script.pop(0) if device.script else device.mode
        status, reason = STATUS[mode]
        device.answered.append(status)
        if status == 200:
            held = (time.monotonic(), headers, payload)
            if device.offline:
                device.stored = held
            else:
                device.received.append(held)
        return status, reason, ({"timestamp": int(time.time() * 1000)} if status == 410 else {})

    def _problem(self, text: str) -> None:
        with self._lock:
            self.problems.append(text)
