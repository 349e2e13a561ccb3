"""A third-party app: signs a player in by OAuth 2.0 (the authorization code flow with PKCE S256)
and reads their games (docs/integrators.md, "Third-party apps"). It listens on a loopback port
for the answer, opens the server's consent page in the browser, exchanges the code, reads the
player and their games, refreshes once and signs out (revokes the grant).

    # once: register the app with your own player's key (a public app, this redirect URI)
    python examples/oauth_app.py --server http://localhost:8000 --register --key pk.…
    # then, for each person who uses it
    python examples/oauth_app.py --server http://localhost:8000 --client-id app_…
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import http.server
import secrets
import webbrowser
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import requests

PORT = 8765
REDIRECT = f"http://127.0.0.1:{PORT}/callback"
SCOPES = "game:read profile:read"
WAIT_S = 300  # for the person to consent


def register(server: str, key: str) -> str:
    r = requests.post(f"{server}/players/me/apps", headers={"Authorization": f"Bearer {key}"}, timeout=10,
                      json={"name": "Example stats app", "redirect_uris": [REDIRECT], "scopes": SCOPES.split()})
    r.raise_for_status()
    return str(r.json()["client_id"])


def wait_for_answer(listener: http.server.HTTPServer) -> dict[str, str]:
    """The query the browser brings back to the redirect URI (one request)."""
    answer: dict[str, str] = {}

    class Callback(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            answer.update({k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()})
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"Signed in: you can close this tab.")

        def log_message(self, *args: Any) -> None:
            pass

    listener.RequestHandlerClass = Callback
    listener.timeout = WAIT_S
    listener.handle_request()  # or nothing after WAIT_S
    return answer


def sign_in(server: str, client_id: str, open_page: Callable[[str], object] = webbrowser.open) -> dict[str, Any]:
    """The token answer for the person who consents in the browser `open_page` opens."""
    meta = requests.get(f"{server}/.well-known/oauth-authorization-server", timeout=10).json()
    verifier, state = secrets.token_urlsafe(48), secrets.token_urlsafe(16)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "scope": SCOPES,
             "state": state, "code_challenge": challenge, "code_challenge_method": "S256"}
    with http.server.HTTPServer(("127.0.0.1", PORT), http.server.BaseHTTPRequestHandler) as listener:
        open_page(f"{meta['authorization_endpoint']}?{urlencode(query)}")
        answer = wait_for_answer(listener)
    if answer.get("state") != state or "code" not in answer:
        raise SystemExit(f"not signed in: {answer.get('error', 'no answer, or a wrong state')}")
    r = requests.post(meta["token_endpoint"], timeout=10, data={
        "grant_type": "authorization_code", "code": answer["code"], "redirect_uri": REDIRECT,
        "code_verifier": verifier, "client_id": client_id})
    r.raise_for_status()
    return dict(r.json())


def run(server: str, client_id: str, open_page: Callable[[str], object] = webbrowser.open) -> list[Any]:
    tokens = sign_in(server, client_id, open_page)
    me = requests.get(f"{server}/players/me", headers={"Authorization": f"Bearer {tokens['access_token']}"},
                      timeout=10).json()
    games = requests.get(f"{server}/players/me/games", timeout=10,
                         headers={"Authorization": f"Bearer {tokens['access_token']}"}).json()["games"]
    print(f"{me['name']} ({tokens['scope']}): {len(games)} games")
    refreshed = requests.post(f"{server}/oauth/token", timeout=10, data={
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": client_id}).json()
    requests.post(f"{server}/oauth/revoke", timeout=10,
                  data={"token": refreshed["refresh_token"], "client_id": client_id}).raise_for_status()
    return list(games)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://localhost:8000")
    parser.add_argument("--client-id")
    parser.add_argument("--register", action="store_true", help="register the app with --key and print its id")
    parser.add_argument("--key", help="your own player's key (pk.…), to register the app")
    args = parser.parse_args()
    if args.register:
        print(register(args.server, args.key))
    else:
        run(args.server, args.client_id)
