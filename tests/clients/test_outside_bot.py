"""examples/outside_bot.py, an outside program on the generated Python client, signs up as a bot
account, takes the free seat of a person's Splendor game and plays it to the end through
`python app.py`; the table shows its seat as a bot account's."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import requests

from tests.clients.conftest import TOOLS
from tests.conftest import ROOT, wait_for


def test_an_outside_bot_plays_a_whole_game(python_client, http_server):
    ann = requests.post(f"{http_server}/players", json={"name": "Ann"}, timeout=10).json()
    assert ann["bot"] is False
    me = {"Authorization": f"Bearer {ann['key']}"}
    created = requests.post(f"{http_server}/games", headers=me, timeout=10, json={
        "type": "splendor", "seats": [{"me": True}, {"open": True}]}).json()
    gid = created["id"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TOOLS / "python"), str(ROOT)])}
    bot = subprocess.Popen([sys.executable, "examples/outside_bot.py", "--server", http_server, "--type", "splendor",
                            "--name", "Outside bot", "--seconds", "240"], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        seats = wait_for(lambda: (s := requests.get(f"{http_server}/games/{gid}", timeout=10).json()["seats"])[1]["name"]
                         and s, timeout=60)
        assert seats[1]["name"] == "Outside bot" and seats[1]["bot_account"] is True and "bot_account" not in seats[0]
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            game = requests.get(f"{http_server}/games/{gid}", headers=me, timeout=10).json()
            if game["status"] != "active":
                break
            if 0 not in game["to_act"]:
                time.sleep(0.05)
                continue
            listed = requests.get(f"{http_server}/games/{gid}/moves", headers=me, timeout=10).json()
            buys = [mv for mv in listed["moves"] if mv["type"] == "buy"] or listed["moves"]
            requests.post(f"{http_server}/games/{gid}/moves", headers={**me, "Idempotency-Key": uuid.uuid4().hex},
                          json={"expected_version": listed["version"], "move": buys[0]}, timeout=10)
        assert game["status"] == "finished", game["status"]
        out, _ = bot.communicate(timeout=60)
        assert bot.returncode == 0, out[-2000:]  # it saw its game end and stopped
    finally:
        if bot.poll() is None:
            bot.kill()
            print(bot.communicate()[0][-3000:])  # what it said, for a failure's report


def test_the_outside_bot_waits_out_a_429_for_its_retry_after(python_client):
    """Issue 49 (13): a 429 (the server's rate limit) crashed it; it waits for `Retry-After` and
    asks again."""
    import importlib.util
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    answers = [(429, {"Retry-After": "1"}, {"type": "about:blank", "title": "Rate limited", "status": 429,
                                             "code": "rate_limited", "detail": "Too many. Retry in 1 s."}),
               (201, {}, {"id": "p1", "name": "Outside bot", "bot": True, "key": "pk.made", "recovery_code": "rc.x"})]
    asked = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            asked.append((self.path, time.monotonic()))
            status, headers, body = answers.pop(0)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json" if status < 400 else "application/problem+json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # shutdown: 50 ms, not 0.5 s (serve_forever's poll)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        spec = importlib.util.spec_from_file_location("outside_bot", ROOT / "examples" / "outside_bot.py")
        bot = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bot)
        assert bot.sign_up(f"http://127.0.0.1:{server.server_address[1]}", "Outside bot") == "pk.made"
    finally:
        server.shutdown()
        server.server_close()
    assert [path for path, _ in asked] == ["/players", "/players"]
    assert asked[1][1] - asked[0][1] >= 1.0  # it waited the Retry-After before asking again
