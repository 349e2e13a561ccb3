"""Done when: two independent clients, each with its own player key, find each other through the
lobby and play a Splendor game to the end over HTTP against `python app.py`, each holding only
its own credentials, with the player stream and `my_turn` telling each when to move.

Each client runs in its own thread with its own HTTP session and knows nothing of the other but
the host's name shown in the lobby. It moves only when its stream has said `your_turn` and
`GET /players/me/games?my_turn=true` lists the game; it plays a simple policy (buy a card when
it can, else take gems).
"""
from __future__ import annotations

import json
import queue
import threading
import time
import uuid

import requests

PREFERENCE = ("buy", "take_gems", "take_two", "choose_noble", "return_tokens", "reserve", "reserve_blind", "pass")


class Client:
    def __init__(self, base: str, name: str):
        self.base, self.name = base, name
        self.http = requests.Session()
        me = self.http.post(f"{base}/players", json={"name": name}, timeout=15)
        assert me.status_code == 201, me.text
        self.me = me.json()
        self.http.headers["Authorization"] = f"Bearer {self.me['key']}"  # its only credential
        self.events: queue.Queue = queue.Queue()
        self.moves = 0
        self.stream = self.http.get(f"{base}/players/me/stream", stream=True, timeout=(10, 30))
        assert self.stream.status_code == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = ""
        try:
            # As the bytes arrive (iter_lines would wait for 512 of them).
            for chunk in self.stream.iter_content(chunk_size=None, decode_unicode=True):
                buffer += chunk
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line
                                  and not line.startswith(":"))
                    if "event" in fields:
                        self.events.put((fields["event"], json.loads(fields["data"])))
        except Exception:
            pass

    def wait_for(self, kinds, game_id, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                kind, data = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if kind in kinds and data["game_id"] == game_id:
                return kind, data
        raise AssertionError(f"{self.name}: no {kinds} for {game_id} within {timeout} s")

    def my_turn_games(self):
        r = self.http.get(f"{self.base}/players/me/games?status=active&my_turn=true", timeout=15)
        assert r.status_code == 200, r.text
        return {g["id"]: g for g in r.json()["games"]}

    def play(self, game_id):
        """Moves whenever told to, until told the game is finished; returns the result."""
        while True:
            kind, data = self.wait_for({"your_turn", "game_finished"}, game_id, timeout=60)
            if kind == "game_finished":
                return data
            listed = self.my_turn_games().get(game_id)
            if listed is None or listed["version"] != data["version"]:
                continue  # an old notice: the game has moved on since
            moves = self.http.get(f"{self.base}/games/{game_id}/moves?limit=5000", timeout=15).json()
            chosen = min(moves["moves"], key=lambda m: PREFERENCE.index(m["type"])
                         if m["type"] in PREFERENCE else len(PREFERENCE))
            r = self.http.post(f"{self.base}/games/{game_id}/moves", timeout=15,
                               json={"expected_version": moves["version"], "move": chosen},
                               headers={"Idempotency-Key": uuid.uuid4().hex})
            assert r.status_code == 201, r.text
            self.moves += 1

    def close(self):
        self.stream.close()


def test_two_clients_find_each_other_in_the_lobby_and_play_splendor_to_the_end(http_server):
    host_name = f"Ann-{uuid.uuid4().hex[:6]}"
    results, errors = {}, []
    found = threading.Event()

    def ann():
        me = Client(http_server, host_name)
        try:
            created = me.http.post(f"{http_server}/games", timeout=15, json={
                "type": "splendor", "seats": [{"me": True}, {"open": True}]}).json()
            assert set(created["seats"][1]) >= {"token"} and created["seats"][1]["token"] is None
            game_id = created["id"]
            assert me.wait_for({"seat_claimed"}, game_id)[1]["seat"] == 1  # somebody sat down
            me.wait_for({"game_started"}, game_id)
            found.set()
            results["ann"] = (game_id, me.play(game_id), me.moves)
        except BaseException as e:
            errors.append(("ann", e))
        finally:
            me.close()

    def bob():
        me = Client(http_server, "Bob")
        try:
            game_id = None
            deadline = time.monotonic() + 60
            while game_id is None and time.monotonic() < deadline:
                url = f"{http_server}/games?status=waiting&type=splendor&limit=20"
                while url and game_id is None:
                    page = me.http.get(url if url.startswith("http") else http_server + url, timeout=15).json()
                    for g in page["games"]:
                        if g["seats"][0]["name"] == host_name and g["seats"][1].get("open"):
                            game_id = g["id"]
                    url = page["next"]
                time.sleep(0.05)
            assert game_id, "Bob never found Ann's game in the lobby"
            r = me.http.post(f"{http_server}/games/{game_id}/seats/1/claim", timeout=15)
            assert r.status_code == 201, r.text
            assert r.json()["status"] == "active"
            results["bob"] = (game_id, me.play(game_id), me.moves)
        except BaseException as e:
            errors.append(("bob", e))
        finally:
            me.close()

    started = time.monotonic()
    threads = [threading.Thread(target=ann), threading.Thread(target=bob)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert found.is_set()
    (gid_a, end_a, moves_a), (gid_b, end_b, moves_b) = results["ann"], results["bob"]
    assert gid_a == gid_b and end_a["status"] == end_b["status"] == "finished"
    print(f"\nSplendor over HTTP: {moves_a} + {moves_b} moves in {time.monotonic() - started:.1f} s")
    assert end_a["result"] == end_b["result"] and end_a["result"]["winners"]
    game = requests.get(f"{http_server}/games/{gid_a}", timeout=15).json()
    assert game["status"] == "finished" and moves_a > 5 and moves_b > 5
    people = [e for e in requests.get(f"{http_server}/games/{gid_a}/events?limit=1000", timeout=15).json()["events"]
              if e["actor"] in (0, 1) and e["type"] not in ("seat_claimed",)]
    assert {e["actor"] for e in people} == {0, 1}
