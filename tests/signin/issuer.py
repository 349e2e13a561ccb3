"""An identity provider of the tests' own: RSA and EC keys they generate, a JWKS and an OpenID
discovery document served over HTTP on 127.0.0.1 (counting each fetch), and tokens signed with
those keys (PyJWT), valid unless a test says otherwise. `trickle_s` makes it a slow one: every
answer, its status line first, written one byte every `trickle_s` seconds (`trickling` counts the
answers still being written)."""
from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

AUDIENCE = "game-server-tests"


def new_key(alg: str):
    return ec.generate_private_key(ec.SECP256R1()) if alg.startswith("ES") else rsa.generate_private_key(65537, 2048)


def public_jwk(private, kid: str, alg: str) -> dict:
    algorithm = ECAlgorithm if alg.startswith("ES") else RSAAlgorithm
    jwk = json.loads(algorithm.to_jwk(private.public_key()))
    return {**jwk, "kid": kid, "alg": alg, "use": "sig"}


class IdentityProvider:
    """Serves `/jwks.json` and `/.well-known/openid-configuration`; `issuer` is its base URL."""

    def __init__(self, alg: str = "RS256"):
        self.alg = alg
        self.keys: dict[str, object] = {}  # kid -> private key, each published
        self.fetches = {"jwks": 0, "discovery": 0}
        self.down = False
        self.trickle_s: float | None = None
        self.trickling = 0
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if provider.down:
                    self.send_error(503)
                    return
                if self.path == "/jwks.json":
                    provider.fetches["jwks"] += 1
                    body = provider.jwks()
                elif self.path == "/.well-known/openid-configuration":
                    provider.fetches["discovery"] += 1
                    body = {"issuer": provider.issuer, "jwks_uri": f"{provider.issuer}/jwks.json"}
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                if provider.trickle_s is not None:
                    self.trickle(data, provider.trickle_s)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def trickle(self, data: bytes, every_s: float):
                self.close_connection = True
                answer = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(data)) + data
                provider.trickling += 1
                try:
                    for i in range(len(answer)):
                        self.wfile.write(answer[i:i + 1])
                        time.sleep(every_s)
                except OSError:
                    pass  # the client went away
                finally:
                    provider.trickling -= 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        # its close: 50 ms, not 0.5 s (serve_forever's poll)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.rotate()

    def rotate(self) -> str:
        """Publishes a new key (the old ones stay published); its kid signs from now on."""
        self.kid = "k-" + uuid.uuid4().hex[:8]
        self.keys[self.kid] = new_key(self.alg)
        return self.kid

    def jwks(self) -> dict:
        return {"keys": [public_jwk(k, kid, self.alg) for kid, k in self.keys.items()]}

    def config(self, **extra) -> dict:
        return {"issuer": self.issuer, "audience": AUDIENCE, **extra}

    def token(self, sub: str | None = "", key=None, kid: str | None = None, alg: str | None = None,
              headers: dict | None = None, **claims) -> str:
        now = int(time.time())
        payload = {"iss": self.issuer, "sub": uuid.uuid4().hex if sub == "" else sub, "aud": AUDIENCE, "iat": now,
                   "exp": now + 600, **claims}
        payload = {k: v for k, v in payload.items() if v is not None}  # a claim given as None is left out
        kid = kid or self.kid
        return jwt.encode(payload, key if key is not None else self.keys[kid], algorithm=alg or self.alg,
                          headers={"kid": kid, **(headers or {})})

    def close(self):
        self.server.shutdown()
        self.server.server_close()
