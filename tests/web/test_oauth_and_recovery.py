"""In Chromium (issue 51): a new player made by the lobby is shown its first recovery code once,
until it says the code is written down; and a person gives an OAuth app its consent through the
server's consent page with the player its browser holds, and the browser goes back to the app
with a code the app exchanges."""
from __future__ import annotations

import base64
import hashlib
import http.server
import secrets
import threading
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.conftest import page_errors
from tests.web.helpers import create_in_lobby, shown_version, text_of, wait


def _fresh(driver, base):
    driver.get(base + "/web/style.css")  # the origin's storage, without a page's script running
    driver.execute_script("localStorage.clear(); sessionStorage.clear();")


@pytest.fixture(autouse=True)
def _leave_no_state(web_server, browser):
    """The session's browser goes to the next test with this module's player, language and
    pending recovery code gone."""
    yield
    _fresh(browser, web_server.base)


def test_a_new_player_is_shown_its_first_recovery_code_once(web_server, browser):
    base = web_server.base
    _fresh(browser, base)
    page_errors(browser)
    create_in_lobby(browser, base, "splendor", ["me", "open"])
    notice = wait(browser, lambda: browser.find_elements(By.ID, "recovery-notice"), message="the code is shown")[0]
    code = text_of(browser, "#recovery-notice-code")
    assert code and "recovery code" in notice.text.lower()
    # the code is the player's: it recovers the player on another device
    name = browser.execute_script("return JSON.parse(localStorage.getItem('gameserver.player')).name")
    r = requests.post(f"{base}/recover", json={"code": code, "name": "phone"}, timeout=10)
    assert r.status_code == 201 and r.json()["name"] == name, r.text
    browser.refresh()  # shown until written down, across the tab's pages
    wait(browser, lambda: browser.find_elements(By.ID, "recovery-notice-done"))[0].click()
    assert not browser.find_elements(By.ID, "recovery-notice")
    browser.refresh()
    wait(browser, lambda: shown_version(browser) > 0, message="the board again")
    assert not browser.find_elements(By.ID, "recovery-notice")
    assert page_errors(browser) == []


class _Callback(http.server.BaseHTTPRequestHandler):
    got: list[str] = []

    def do_GET(self):
        _Callback.got.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"back at the app")

    def log_message(self, *args):
        pass


def test_a_person_consents_through_the_page_and_the_app_gets_a_code(web_server, browser):
    base = web_server.base
    _fresh(browser, base)
    game_id = create_in_lobby(browser, base, "splendor", ["me", "open"])  # the browser holds a player now
    developer = requests.post(f"{base}/players", json={"name": "Dev"}, timeout=10).json()["key"]
    # A thread per connection: chromium leaves a second connection to the app open and idle, and
    # a one-thread server blocked reading it made `shutdown()` wait until chromium closed it
    # (about 60 s in one run of two: issue 48).
    listener = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Callback)
    listener.daemon_threads = True
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    redirect = f"http://127.0.0.1:{listener.server_port}/callback"
    try:
        app = requests.post(f"{base}/players/me/apps", headers={"Authorization": f"Bearer {developer}"}, timeout=10,
                            json={"name": "Coach tool", "redirect_uris": [redirect], "scopes": ["game:read"]}).json()
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        query = {"response_type": "code", "client_id": app["client_id"], "redirect_uri": redirect,
                 "scope": "game:read", "state": "s1", "code_challenge": challenge, "code_challenge_method": "S256"}
        page_errors(browser)
        browser.get(f"{base}/oauth/authorize?{urlencode(query)}")
        wait(browser, lambda: text_of(browser, "#app-name") == "Coach tool")
        assert "game:read" in text_of(browser, "#scopes")
        assert [m for m in page_errors(browser) if "Content Security Policy" in m or "Refused" in m] == []
        browser.execute_script("localStorage.setItem('gameserver.lang', 'ko'); location.reload();")
        wait(browser, lambda: "lang=ko" in browser.current_url and text_of(browser, "#approve") == "허용",
             message="the page in the language chosen in the web client")
        browser.find_element(By.ID, "approve").click()
        wait(browser, lambda: browser.current_url.startswith(redirect), message="the browser goes back to the app")
        back = parse_qs(urlsplit(browser.current_url).query)
        assert back["state"] == ["s1"]
        r = requests.post(f"{base}/oauth/token", timeout=10, data={
            "grant_type": "authorization_code", "code": back["code"][0], "redirect_uri": redirect,
            "code_verifier": verifier, "client_id": app["client_id"]})
        assert r.status_code == 200, r.text
        games = requests.get(f"{base}/players/me/games", timeout=10,
                             headers={"Authorization": f"Bearer {r.json()['access_token']}"})
        assert games.status_code == 200 and [g["id"] for g in games.json()["games"]] == [game_id], games.text
    finally:
        listener.shutdown()
        listener.server_close()


def test_the_example_app_signs_a_player_in_through_chromium(web_server, browser, monkeypatch):
    """examples/oauth_app.py against `python app.py`: the person consents on the page in Chromium
    (with the player the lobby made in it), Chromium brings the code back to the app's loopback
    listener, and the app reads the player's games."""
    import importlib.util
    import socket
    from pathlib import Path

    base = web_server.base
    spec = importlib.util.spec_from_file_location("oauth_app", Path(__file__).parents[2] / "examples" / "oauth_app.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(example, "PORT", port)
    monkeypatch.setattr(example, "REDIRECT", f"http://127.0.0.1:{port}/callback")
    monkeypatch.setattr(example, "WAIT_S", 60)  # a failed consent fails the test, not hangs it
    _fresh(browser, base)
    game_id = create_in_lobby(browser, base, "splendor", ["me", "open"])
    developer = requests.post(f"{base}/players", json={"name": "Dev"}, timeout=10).json()["key"]
    client_id = example.register(base, developer)

    def consent_in_chromium(url):
        def run():
            browser.get(url)
            wait(browser, lambda: text_of(browser, "#app-name") == "Example stats app")
            browser.find_element(By.ID, "approve").click()
        threading.Thread(target=run, daemon=True).start()

    games = example.run(base, client_id, consent_in_chromium)
    assert [g["id"] for g in games] == [game_id]
    wait(browser, lambda: browser.current_url.startswith(f"http://127.0.0.1:{port}/callback"))
    assert "Signed in" in browser.find_element(By.TAG_NAME, "body").text
