"""`/` answers JSON to API clients and the lobby to browsers; the pages and their files are
served as they are in web/."""
from __future__ import annotations

import requests


def test_root_negotiates_json_or_the_lobby(web_server):
    base = web_server.base
    for accept in (None, "application/json", "*/*"):
        r = requests.get(base + "/", headers={"Accept": accept} if accept else {})
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/json"), accept
        assert r.json()["game_types"] == "/game-types"
        assert "Accept" in r.headers["Vary"]
    browser_accept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"
    r = requests.get(base + "/", headers={"Accept": browser_accept})
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html")
    assert '<script type="module" src="/web/lobby.js">' in r.text
    assert "Accept" in r.headers["Vary"]


def test_pages_and_files(web_server):
    base = web_server.base
    for path, marker in (("/play/abc_DEF-1", "/web/play.js"), ("/replay/abc_DEF-1", "/web/replay.js")):
        r = requests.get(base + path)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html") and marker in r.text
    js = requests.get(base + "/web/play.js")
    assert js.status_code == 200 and js.headers["Content-Type"].startswith("text/javascript")
    assert js.headers["Cache-Control"] == "no-cache"
    for path in ("/web/missing.js", "/web/../app.py", "/web/%2e%2e/app.py", "/play/not%20an%20id"):
        r = requests.get(base + path)
        assert r.status_code == 404, path
        assert r.headers["Content-Type"] == "application/problem+json", path
