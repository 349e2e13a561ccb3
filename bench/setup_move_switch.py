"""SetUp's compact move in-process, an older `domain/setup_game` and this one switched request by
request in one process, so both halves see the same positions and the same machine load.

    git -C /work/main archive <commit> | tar -x -C /tmp/old   # the code to compare against
    python -m bench.setup_move_switch --old /tmp/old [--games 60]

The older package is copied beside `domain` as `domain.setup_game_old`; before each request the
registered SetUp GameDef's `legal_page`, `summary`, `decide`, `evolve` and `legal_moves` are set
to one side's. The client is bench/wrk_moves.lua's table client with compact answers: create,
`GET /moves?seat=0&labels=false`, POSTs with `include=next_moves&labels=false` (a move drawn from
the answer) until no person is to act, then `GET /games/{id}`. Games alternate which side makes
their first request; the POSTs alternate within a game. Figures are process CPU time
(time.process_time), as bench/request_cost.py's.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.common import private_redis
from bench.request_cost import call, environ

FIELDS = ("legal_page", "summary", "decide", "evolve", "legal_moves")


class Switch:
    def __init__(self, old_root: Path, scratch: Path) -> None:
        import domain
        from domain import registry

        shutil.copytree(old_root / "domain" / "setup_game", scratch / "setup_game_old",
                        ignore=shutil.ignore_patterns("__pycache__"))
        domain.__path__.append(str(scratch))
        old = importlib.import_module("domain.setup_game_old").GAME
        self.game = registry.get("setup")
        self.impl = {"new": {f: getattr(self.game, f) for f in FIELDS}, "old": {f: getattr(old, f) for f in FIELDS}}
        self.cpu = {side: Counter() for side in self.impl}
        self.n = {side: Counter() for side in self.impl}

    def __call__(self, side: str, label: str, app, env: dict) -> tuple[int, bytes]:
        for name, value in self.impl[side].items():
            object.__setattr__(self.game, name, value)  # a frozen dataclass: swapped for the bench only
        start = time.process_time()
        out = call(app, env)
        self.cpu[side][label] += time.process_time() - start
        self.n[side][label] += 1
        return out

    def clear(self) -> None:
        for side in self.impl:
            self.cpu[side].clear()
            self.n[side].clear()


def play(app, timed: Switch, rng: random.Random, key: list, g: int) -> None:
    body = json.dumps({"type": "setup", "seats": [{"name": "p0"}, {"name": "p1"}]}).encode()
    sides = ("old", "new") if g % 2 else ("new", "old")
    created = json.loads(timed(sides[0], "create", app, environ("POST", "/games", body))[1])
    gid, auth = created["id"], {"Authorization": f"Bearer {created['table_token']}"}
    page = json.loads(timed(sides[0], "get_moves", app, environ(
        "GET", f"/games/{gid}/moves", headers=auth, query="seat=0&labels=false"))[1])
    i = 0
    while page and page.get("moves"):
        key[0] += 1
        i += 1
        move = json.dumps({"expected_version": page["version"], "move": rng.choice(page["moves"])}).encode()
        status, out = timed(sides[i % 2], "post", app, environ(
            "POST", f"/games/{gid}/moves", move, {**auth, "Idempotency-Key": f"s{key[0]}"},
            query=f"include=next_moves&seat={page['seat']}&labels=false"))
        assert status == 201, out
        page = json.loads(out)["next_moves"]
    timed(sides[0], "wait", app, environ("GET", f"/games/{gid}", headers=auth))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path, required=True, help="the root of an older copy of the repository")
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    with private_redis() as url, tempfile.TemporaryDirectory() as scratch:
        os.environ["REDIS_URL"] = url
        from app import create_app

        app = create_app({"REDIS_URL": url, "RATE_LIMIT": 10 ** 9})
        timed, key = Switch(args.old, Path(scratch)), [0]
        for g in range(4):  # warm
            play(app, timed, random.Random(9), key, g)
        timed.clear()
        rng = random.Random(1)
        for g in range(args.games):
            play(app, timed, rng, key, g)
        moves_a_game = sum(timed.n[s]["post"] for s in timed.n) / sum(timed.n[s]["create"] for s in timed.n)
        for side in ("old", "new"):
            ms = {label: 1000 * timed.cpu[side][label] / timed.n[side][label] for label in timed.n[side]}
            share = ms["post"] + (ms["create"] + ms["get_moves"] + ms["wait"]) / moves_a_game
            print(f"{side}: POST {ms['post']:.3f} ms ({timed.n[side]['post']}); once a game: create "
                  f"{ms['create']:.3f}, GET /moves {ms['get_moves']:.3f}, final GET {ms['wait']:.3f}; "
                  f"a move with its game's share {share:.3f} ms ({moves_a_game:.1f} moves a game)")


if __name__ == "__main__":
    main()
