"""Webhooks under load (issue 18): `python -m bench.webhooks [--quick]`.

Starts a private Redis and `python app.py` (WEBHOOK_ALLOW_LOOPBACK=1), and a receiver on
127.0.0.1 in this process (a thread per request, answering 204 at once; it does not verify
signatures, the tests do). Then:

1. deliveries: 100 subscriptions (10 Splendor games of two people, 10 subscriptions each, every
   kind of event), the games played over HTTP by 10 clients (the table token, one request per
   move); deliveries per second while the games are played, and the delay from each event's
   `at` (its append) to its arrival at the receiver, p50 and p99.
2. moves/s: the same closed-loop clients for a fixed time on games without subscriptions, then
   on games with one subscription each; the ratio (the issue's target: at least 0.8x).
3. isolation (issue 29): one healthy subscription's delay p50/p99 while 0, 10 or 100 other
   receivers (each on its own port) hang every request until the attempt's deadline, their
   games moving too.
"""
from __future__ import annotations

import argparse
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

from bench.common import percentile, private_redis, running_server, table


class Hanging:
    """A receiver that reads each request and never answers (until closed)."""

    def __init__(self):
        self.release = threading.Event()
        hanging = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                hanging.release.wait(120)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.server.shutdown()


class Receiver:
    def __init__(self):
        self.arrivals: list[tuple[float, dict]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                now = time.time()
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with receiver.lock:
                    receiver.arrivals.append((now, json.loads(body)))

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def event_at(payload: dict) -> float:
    data = payload["data"]
    return (data["event"]["at"] if payload["type"] == "game.move" else data["at"]) / 1000


def new_game(base: str, session: requests.Session) -> dict:
    r = session.post(f"{base}/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]})
    r.raise_for_status()
    return r.json()


def subscribe(base, session, game, url, n):
    for _ in range(n):
        r = session.post(f"{base}/webhooks", headers={"Authorization": f"Bearer {game['table_token']}"},
                         json={"url": url, "events": ["game.started", "game.move", "game.finished", "game.your_turn"]})
        r.raise_for_status()


def play(base: str, game: dict, until: float, moves_done: list, max_moves: int = 10 ** 9,
         session: requests.Session | None = None, pause_s: float = 0.0) -> None:
    """Plays both seats with the table token, one request per move, until the time or the
    number of moves is reached (a game that ends is replaced by a new one)."""
    session = session or requests.Session()
    auth = {"Authorization": f"Bearer {game['table_token']}"}
    nxt = session.get(f"{base}/games/{game['id']}/moves", headers=auth).json()
    nxt["seat"] = nxt.get("seat", 0)
    played = 0
    while time.monotonic() < until and played < max_moves:
        if not nxt or not nxt.get("moves"):
            return
        try:
            r = session.post(f"{base}/games/{game['id']}/moves?seat={nxt['seat']}&include=next_moves",
                             headers={**auth, "Idempotency-Key": uuid.uuid4().hex},
                             json={"expected_version": nxt["version"], "move": nxt["moves"][0]})
        except requests.RequestException:  # the server going away at the end of a part
            return
        if r.status_code != 201:
            return
        played += 1
        moves_done.append(1)
        nxt = r.json().get("next_moves")
        if pause_s:
            time.sleep(pause_s)


def deliveries_part(base: str, receiver: Receiver, quick: bool, pause_s: float) -> dict:
    """`pause_s`: each game's client waits this long between moves (0: as fast as it can)."""
    receiver.arrivals.clear()
    session = requests.Session()
    games = [new_game(base, session) for _ in range(10)]
    for game in games:
        subscribe(base, session, game, receiver.url, 10)
    moves: list = []
    per_game = (15 if quick else 40) if not pause_s else (10 if quick else 30)
    started = time.time()
    threads = [threading.Thread(target=play, args=(base, g, time.monotonic() + 300, moves, per_game, None, pause_s))
               for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Exactly one game.move per event after the setup, to each of a game's 10 subscribers (the
    # system's and the seats' events alike); game.your_turn and game.finished come besides.
    finals = {g["id"]: session.get(f"{base}/games/{g['id']}").json()["version"] for g in games}
    expected = sum(10 * (finals[g["id"]] - g["version"]) for g in games)

    def moved():
        return sum(1 for _, p in list(receiver.arrivals) if p["type"] == "game.move")

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and moved() < expected:
        time.sleep(0.1)
    arrivals = list(receiver.arrivals)
    delays = [now - event_at(p) for now, p in arrivals if p["type"] in ("game.move", "game.your_turn")]
    span = max(now for now, _ in arrivals) - started
    return {"pause_s": pause_s, "subscriptions": 100, "moves": len(moves), "deliveries": len(arrivals),
            "move_deliveries": moved(), "move_deliveries_expected": expected,
            "deliveries_per_s": len(arrivals) / span, "delay_p50_ms": percentile(delays, 0.5) * 1000,
            "delay_p99_ms": percentile(delays, 0.99) * 1000, "span_s": span}


def moves_part(base: str, receiver: Receiver, subscribed: bool, seconds: float, clients: int = 8) -> float:
    session = requests.Session()
    moves: list = []
    until = time.monotonic() + seconds

    def client():
        s = requests.Session()
        while time.monotonic() < until:
            game = new_game(base, s)
            if subscribed:
                subscribe(base, s, game, receiver.url, 1)
            play(base, game, until, moves, session=s)

    session.close()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(moves) / (time.monotonic() - t0)


def isolation_part(base: str, receiver: Receiver, hanging_n: int, quick: bool) -> dict:
    """The healthy subscription's delays while `hanging_n` receivers hang."""
    session = requests.Session()
    hanging = [Hanging() for _ in range(hanging_n)]
    try:
        stop = time.monotonic() + (20 if quick else 40)
        faulty = []
        for h in hanging:
            game = new_game(base, session)
            session.post(f"{base}/webhooks", headers={"Authorization": f"Bearer {game['table_token']}"},
                         json={"url": h.url, "events": ["game.move"]}).raise_for_status()
            faulty.append(game)
        background = [threading.Thread(target=play, args=(base, g, stop, [], 10 ** 9, None, 2.0)) for g in faulty]
        for t in background:
            t.start()
        time.sleep(2)  # the hangs begin
        receiver.arrivals.clear()
        game = new_game(base, session)
        session.post(f"{base}/webhooks", headers={"Authorization": f"Bearer {game['table_token']}"},
                     json={"url": receiver.url, "events": ["game.move"]}).raise_for_status()
        moves: list = []
        play(base, game, stop, moves, 30 if quick else 80, session, 0.2)
        final = session.get(f"{base}/games/{game['id']}").json()["version"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(receiver.arrivals) < final - game["version"]:
            time.sleep(0.1)
        delays = [now - event_at(p) for now, p in list(receiver.arrivals)]
        for t in background:
            t.join()
        return {"hanging": hanging_n, "moves": len(moves), "arrived": len(delays), "expected": final - game["version"],
                "p50_ms": percentile(delays, 0.5) * 1000, "p99_ms": percentile(delays, 0.99) * 1000}
    finally:
        for h in hanging:
            h.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.webhooks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=("deliveries", "isolation"), help="one part only")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved off/on rounds of the moves/s part")
    args = parser.parse_args()
    seconds = 5 if args.quick else 15
    receiver = Receiver()
    try:
        with private_redis() as redis_url, running_server(redis_url, WEBHOOK_ALLOW_LOOPBACK="1",
                                                          WEBHOOK_MAX_PER_OWNER="100") as base:
            if args.only != "deliveries":
                isolation = [isolation_part(base, receiver, n, args.quick) for n in (0, 10, 100)]
                print(table([(d["hanging"], d["moves"], f"{d['arrived']}/{d['expected']}", f"{d['p50_ms']:.0f}",
                              f"{d['p99_ms']:.0f}") for d in isolation],
                            ("receivers hanging", "healthy game's moves", "arrived/expected", "delay p50 ms",
                             "delay p99 ms")))
                print()
            if args.only == "isolation":
                return
            runs = [deliveries_part(base, receiver, args.quick, pause) for pause in (1.0, 0.0)]
            print(table([(f"{d['pause_s']:g} s" if d["pause_s"] else "none (a backlog)", d["subscriptions"], d["moves"],
                          d["deliveries"], f"{d['move_deliveries']}/{d['move_deliveries_expected']}",
                          f"{d['deliveries_per_s']:.0f}", f"{d['delay_p50_ms']:.0f}",
                          f"{d['delay_p99_ms']:.0f}") for d in runs],
                        ("pause between a game's moves", "subscriptions", "moves", "deliveries",
                         "game.move arrived/expected", "deliveries/s", "delay p50 ms", "delay p99 ms")))
            rounds = []
            for _ in range(args.rounds):
                off = moves_part(base, receiver, False, seconds)
                on = moves_part(base, receiver, True, seconds)
                rounds.append((off, on))
            print()
            print(table([(i + 1, f"{off:.0f}", f"{on:.0f}", f"{on / off:.2f}x") for i, (off, on) in enumerate(rounds)],
                        ("round", "moves/s without webhooks", "with (1 subscription a game)", "ratio (target >= 0.8x)")))
    finally:
        receiver.close()


if __name__ == "__main__":
    main()
