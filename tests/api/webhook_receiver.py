"""A webhook receiver on 127.0.0.1 for the tests: a real HTTP server (a thread per request)
that verifies every delivery's signature with the `standardwebhooks` package and records
what came. Per path it behaves as told: "ok" answers 204, "fail:N" answers 500 to the first
N requests, "slow:S" answers 204 after S seconds, "redirect" answers 302, "hang" holds the request until the test ends."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


class Receiver:
    def __init__(self):
        self.secrets: dict[str, str] = {}  # path -> secret
        self.behaviour: dict[str, str] = {}  # path -> "ok" | "fail:N" | "hang"
        self.received: dict[str, list] = {}  # path -> [(webhook-id, payload)] verified, in arrival order
        self.attempts: dict[str, list] = {}  # path -> [webhook-id] of every request
        self.arrived: dict[str, float] = {}  # webhook-id -> when it first arrived (monotonic s)
        self.bad_signatures: list = []
        self.hanging = 0
        self.release = threading.Event()
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.handle(self, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        # asked every 50 ms whether to stop (the default 0.5 s made each close() wait up to that)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def route(self, path: str, secret: str, behaviour: str = "ok") -> str:
        self.secrets[path] = secret
        self.behaviour[path] = behaviour
        self.received[path] = []
        self.attempts[path] = []
        return self.url + path

    def handle(self, handler, body: bytes) -> None:
        path = handler.path
        headers = {k: v for k, v in handler.headers.items()}
        with self.lock:
            self.attempts.setdefault(path, []).append(headers.get("webhook-id"))
            tries = len(self.attempts[path])
        behaviour = self.behaviour.get(path, "ok")
        if behaviour == "hang":
            with self.lock:
                self.hanging += 1
            self.release.wait(60)
            return
        if behaviour.startswith("slow:"):  # answers after that many seconds
            time.sleep(float(behaviour[5:]))
        if behaviour == "redirect":
            handler.send_response(302)
            handler.send_header("Location", self.url + "/elsewhere")
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        if behaviour.startswith("fail:") and tries <= int(behaviour[5:]):
            handler.send_response(500)
            handler.send_header("Content-Length", "5")
            handler.end_headers()
            handler.wfile.write(b"nope!")
            return
        try:
            payload = Webhook(self.secrets[path]).verify(body, headers)
        except (WebhookVerificationError, KeyError) as e:
            self.bad_signatures.append((path, repr(e)))
            handler.send_response(400)
            handler.end_headers()
            return
        with self.lock:
            self.received[path].append((headers["webhook-id"], payload))
            self.arrived.setdefault(headers["webhook-id"], time.monotonic())
        handler.send_response(204)
        handler.end_headers()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def payloads(received: list, kind: str = None) -> list:
    return [p for _, p in received if kind is None or p["type"] == kind]


def as_json(payload) -> str:
    return json.dumps(payload, sort_keys=True)
