"""The floor for moves over HTTP: a minimal Flask app that does nothing but the server's own
atomic Lua append (events/scripts.APPEND: idempotency check, version check, XADD, remembered
answer) to a Redis stream, served the way `python app.py` serves the API (bench/http_moves.py
runs it with app.py's own gunicorn command line).

    POST /floor/<stream>/moves  {"expected_version": N, "move": {...}}  (Idempotency-Key header)
         -> 201 {"version": N + 1, "events": [move]} | 409 {"code": "version_conflict", "version"}
    GET  /floor/<stream>/moves  -> {"version": N, "moves": [...]}: a fixed list of moves the size
         of Splendor's first legal moves, with the stream's version (one XLEN): the floor of a
         client's read-then-move loop.
    GET  /floor/bytes/<name>  -> the bytes stored at `floor:bytes:<name>` (one GET), as JSON: the
         floor of a read answering given bytes (bench/past_reads.py stores the API's own answers).
    GET  /health

`?extra=N` on the POST adds N read round trips before the append, the reads the API's move path
makes (HGETALL of the seat credentials, HMGET of the idempotency record, XRANGE of the tail):
the price of a round trip (bench/experiments.py).
"""
from __future__ import annotations

import json
import os
import time

import redis
from flask import Flask, Response, request

from events.scripts import APPEND

MOVES = [{"type": "take_gems", "colors": [a, b, c]}
         for i, a in enumerate(("white", "blue", "green", "red", "black"))
         for j, b in enumerate(("white", "blue", "green", "red", "black")) if j > i
         for c in ("white", "blue", "green", "red", "black")[j + 1:]] * 3


def create_app() -> Flask:
    app = Flask(__name__)
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    append = client.register_script(APPEND)

    def events_key(stream: str) -> str:
        return f"floor:{{{stream}}}:events"

    @app.get("/health")
    def health():
        return {"status": "ok"}

    @app.get("/floor/bytes/<name>")
    def given_bytes(name):
        return Response(client.get(f"floor:bytes:{name}"), mimetype="application/json")

    @app.get("/floor/<stream>/moves")
    def moves(stream):
        return {"version": client.xlen(events_key(stream)), "moves": MOVES}

    @app.post("/floor/<stream>/moves")
    def move(stream):
        body = request.get_json(force=True)
        key = request.headers.get("Idempotency-Key")
        event = body["move"]
        extra = int(request.args.get("extra", 0))
        for i in range(extra):
            if i % 3 == 0:
                client.hgetall(f"floor:{{{stream}}}:credentials")
            elif i % 3 == 1:
                client.hmget(f"floor:{{{stream}}}:idem:{key or '-'}", "fingerprint", "response")
            else:
                client.xrange(events_key(stream), min=f"0-{body['expected_version'] + 1}", max="+")
        version = body["expected_version"] + 1
        response = {"version": version, "events": [event]}
        entry = {"t": event.get("type", "move"), "d": event, "a": 0, "at": int(time.time() * 1000)}
        args = [body["expected_version"], 1 if key else 0, key or "", f"{version}:{version}",
                24 * 3600, 1, json.dumps(entry, separators=(",", ":"))]
        keys = [events_key(stream), f"floor:{{{stream}}}:idem:{key or '-'}"]
        reply = append(keys=keys, args=args)
        if reply[0] == b"missing":  # a new stream: its first event, then the move
            client.xadd(keys[0], {"e": '{"t":"created","d":{},"a":null,"at":0}'}, id="0-1")
            return {"code": "version_conflict", "version": 1}, 409
        if reply[0] == b"conflict":
            return {"code": "version_conflict", "version": int(reply[1])}, 409
        if reply[0] == b"duplicate":
            return {"version": int(reply[2].split(b":")[1]), "events": [event]}, 201
        return response, 201

    return app
