"""CPU per request, route by route, beside the floor's: the server's own cost without the HTTP
server, the network or the load generator, so small changes show.

    python -m bench.request_cost [--moves 2000] [--game splendor] [--labels false]

`--labels false`: the compact answers (`labels=false` on every GET of the moves and every
`include=next_moves`), as the HTTP bench's BENCH_LABELS=false.

Both apps are called through their WSGI callable (as gunicorn calls them) with plain environ
dicts, on one private Redis, playing what bench/wrk_moves.lua plays: real games, both seats
from one client (GET legal moves with the token of the seat to act, POST one of them with its
expected version and an Idempotency-Key). The floor (bench/floor_app.py) runs its GET-then-POST
loop. Figures are process CPU time (time.process_time) per request, so Redis's own CPU is not in
them, but every round trip's client side is.
"""
from __future__ import annotations

import argparse
import io
import json
import random
import sys
import time

from bench.common import private_redis, table


def environ(method: str, path: str, body: bytes = b"", headers: dict | None = None, query: str = "") -> dict:
    env = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "bench",
        "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.version": (1, 0),
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "bench",
    }
    if body:
        env["CONTENT_LENGTH"] = str(len(body))
        env["CONTENT_TYPE"] = "application/json"
    for key, value in (headers or {}).items():
        env["HTTP_" + key.upper().replace("-", "_")] = value
    return env


def call(app, env: dict) -> tuple[int, bytes]:
    status = []
    chunks = app(env, lambda s, h, exc_info=None: status.append(int(s.split()[0])))
    try:
        body = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return status[0], body


class Meter:
    def __init__(self):
        self.cpu: dict[str, float] = {}
        self.n: dict[str, int] = {}

    def __call__(self, label: str, app, env: dict) -> tuple[int, bytes]:
        start = time.process_time()
        out = call(app, env)
        self.cpu[label] = self.cpu.get(label, 0.0) + time.process_time() - start
        self.n[label] = self.n.get(label, 0) + 1
        return out

    def ms(self, label: str) -> float:
        return 1000 * self.cpu[label] / self.n[label]


LABELS = ""  # "&labels=false" under --labels false (main)


def play_api(app, meter: Meter, n_moves: int, game: str, seats: int, rng: random.Random) -> None:
    moves = key = 0
    while moves < n_moves:
        body = json.dumps({"type": game, "seats": [{"name": f"p{i}"} for i in range(seats)]}).encode()
        status, out = call(app, environ("POST", "/games", body))
        created = json.loads(out)
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        seat = 0
        misses = 0
        while moves < n_moves and misses < len(tokens):
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            status, out = meter("GET /games/{id}/moves", app, environ("GET", f"/games/{gid}/moves", headers=auth,
                                                                                 query=LABELS.lstrip("&")))
            page = json.loads(out)
            if not page["moves"]:
                seat, misses = (seat + 1) % len(tokens), misses + 1
                continue
            misses = 0
            key += 1
            move = json.dumps({"expected_version": page["version"], "move": rng.choice(page["moves"])}).encode()
            status, out = meter("POST /games/{id}/moves", app, environ(
                "POST", f"/games/{gid}/moves", move, {**auth, "Idempotency-Key": f"k{key}"}))
            if status == 201:
                moves += 1
            if status == 201:
                people = [a for a in json.loads(out)["to_act"] if isinstance(a, int)]
                if not people:
                    break  # the last move: the scoring is the worker's
                seat = people[0]


def play_table(app, meter: Meter, n_moves: int, game: str, seats: int, rng: random.Random) -> None:
    """One request per move: the table token, the next move from the answer's next_moves."""
    moves = key = 0
    while moves < n_moves:
        body = json.dumps({"type": game, "seats": [{"name": f"p{i}"} for i in range(seats)]}).encode()
        created = json.loads(call(app, environ("POST", "/games", body))[1])
        gid, auth = created["id"], {"Authorization": f"Bearer {created['table_token']}"}
        page = json.loads(call(app, environ("GET", f"/games/{gid}/moves", headers=auth, query=LABELS.lstrip("&")))[1])
        if page.get("code") == "seat_required":  # several seats to act at once (Witches' passing): the first
            page = json.loads(call(app, environ("GET", f"/games/{gid}/moves", headers=auth,
                                                query=f"seat={page['details']['to_act'][0]}{LABELS}"))[1])
        while page and moves < n_moves:
            key += 1
            move = json.dumps({"expected_version": page["version"], "move": rng.choice(page["moves"])}).encode()
            status, out = meter("POST ...?include=next_moves (table)", app, environ(
                "POST", f"/games/{gid}/moves", move, {**auth, "Idempotency-Key": f"t{key}"},
                query=f"include=next_moves&seat={page['seat']}{LABELS}"))
            moves += status == 201
            page = json.loads(out)["next_moves"] if status == 201 else None


def play_floor(app, meter: Meter, n_moves: int) -> None:
    version, key = 1, 0
    stream = f"cost-{random.getrandbits(32)}"
    for _ in range(n_moves):
        status, out = meter("floor GET", app, environ("GET", f"/floor/{stream}/moves"))
        page = json.loads(out)
        key += 1
        move = json.dumps({"expected_version": version, "move": page["moves"][0]}).encode()
        status, out = meter("floor POST", app, environ("POST", f"/floor/{stream}/moves", move,
                                                       {"Idempotency-Key": f"f{key}"}))
        version = json.loads(out)["version"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--game", default="splendor")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--labels", choices=("true", "false"), default="true")
    args = parser.parse_args()
    global LABELS
    LABELS = "&labels=false" if args.labels == "false" else ""
    import os

    with private_redis() as url:
        os.environ["REDIS_URL"] = url
        from app import create_app
        from bench.floor_app import create_app as create_floor

        api = create_app({"REDIS_URL": url, "RATE_LIMIT": 10 ** 9})
        floor = create_floor()
        warm = Meter()
        play_api(api, warm, 200, args.game, args.seats, random.Random(0))
        play_table(api, warm, 200, args.game, args.seats, random.Random(0))
        play_floor(floor, warm, 200)
        meter = Meter()
        rng = random.Random(1)
        for _ in range(10):  # interleaved, so drifting machine load falls on both alike
            play_floor(floor, meter, args.moves // 10)
            play_api(api, meter, args.moves // 10, args.game, args.seats, rng)
            play_table(api, meter, args.moves // 10, args.game, args.seats, rng)
        floor_move = meter.ms("floor GET") + meter.ms("floor POST")
        gets_per_move = meter.n["GET /games/{id}/moves"] / meter.n["POST /games/{id}/moves"]
        api_move = meter.ms("GET /games/{id}/moves") * gets_per_move + meter.ms("POST /games/{id}/moves")
        rows = [(label, meter.n[label], f"{meter.ms(label):.3f}") for label in meter.cpu]
        rows.append(("floor loop: one move (GET + POST)", "", f"{floor_move:.3f}"))
        rows.append((f"API: one move ({gets_per_move:.2f} GET + POST)", "", f"{api_move:.3f}"))
        rows.append(("API move / floor loop move", "", f"{api_move / floor_move:.2f}x"))
        rows.append(("API move / floor POST", "", f"{api_move / meter.ms('floor POST'):.2f}x"))
        table_move = meter.ms("POST ...?include=next_moves (table)")
        rows.append(("API one-request move / floor POST", "", f"{table_move / meter.ms('floor POST'):.2f}x"))
        print(f"CPU per request in-process ({args.game}, {args.seats} seats, {args.moves} moves, labels={args.labels})")
        print(table(rows, ("request", "n", "CPU ms")))


if __name__ == "__main__":
    main()
