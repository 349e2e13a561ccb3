"""The moves' answers of seeded games of every game type, recorded so that two trees can be
compared byte for byte (issue 57: the per-move cuts must answer what main does).

    python -m bench.move_answers [--games 6] [--moves 50] [--out answers.jsonl]

bench/witches_answers.py's walk, for Splendor, SetUp, Small World, Witches (3 seats) and Fairy
Tile: in one process on a private Redis, through the app's WSGI callable, each seeded game is
played for up to `--moves` moves (or to its end). Each person to act reads `GET
/games/{id}/moves` with its own token (labels on or off, English or Korean, a page size and an
offset drawn from the game's rng), then sends a move drawn from it, with the table token
(`include=next_moves&seat=S`) or its own (sometimes `include=next_moves`), labels on or off, a
language; now and then the same POST again with the same Idempotency-Key (a retry), and a stale
one (an old expected version). The system's turns are played in-process
(workers.jobs.play_chain); the game's `GET /games/{id}` is kept at the end. Every answer's status
and body are kept with the game's id, tokens and times masked; the run prints how many answers
and bytes, and their sha256. Run it in each tree (`cd <tree> && python -m bench.move_answers`,
or with this file and bench/answers.py copied into an older tree): equal hashes mean equal answers.
"""
from __future__ import annotations

import argparse
import json
import random

from bench.answers import keeper, recording_app, report
from bench.request_cost import call, environ

GAMES = (("splendor", 2), ("setup", 2), ("smallworld-of-warcraft", 2), ("witches", 3), ("fairy-tile", 2))


def record(app, service, kind: str, seats: int, seed: int, n_moves: int, answers: list[bytes]) -> int:
    from domain.contract import SYSTEM
    from workers.jobs import play_chain

    rng = random.Random(f"{kind}-{seed}")
    body = {"type": kind, "seats": [{"name": f"p{i}"} for i in range(seats)], "seed": f"answers-{kind}-{seed}"}
    if kind == "witches":
        body["options"] = {"rounds": 1}
    status, out = call(app, environ("POST", "/games", json.dumps(body).encode()))
    created = json.loads(out)
    gid, tokens, table = created["id"], [s["token"] for s in created["seats"]], created["table_token"]
    keep = keeper(created, answers)

    key = moves = 0
    for _ in range(4 * n_moves + 50):
        status, out = call(app, environ("GET", f"/games/{gid}", headers={"Authorization": f"Bearer {table}"}))
        shown = json.loads(out)
        if shown.get("status") == "finished" or shown.get("finished") or moves >= n_moves:
            keep(status, out)
            return moves
        to_act = shown["to_act"]
        if to_act == [SYSTEM] or to_act == ["system"]:
            play_chain(service, gid, shown["version"], SYSTEM)
            continue
        seat = rng.choice([s for s in to_act if isinstance(s, int)])
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        lang = rng.choice(("en", "ko"))
        query = f"lang={lang}&labels={rng.choice(('true', 'false'))}&limit={rng.choice((1, 7, 64, 500))}"
        offset = rng.choice((0, 0, 0, 3, 60))
        status, out = call(app, environ("GET", f"/games/{gid}/moves", headers=auth,
                                        query=query + (f"&offset={offset}" if offset else "")))
        keep(status, out)
        listed = json.loads(out)["moves"]
        if not listed:
            status, out = call(app, environ("GET", f"/games/{gid}/moves", headers=auth, query=f"lang={lang}"))
            keep(status, out)
            listed = json.loads(out)["moves"]
        key += 1
        move = json.dumps({"expected_version": shown["version"], "move": rng.choice(listed)}).encode()
        labels = rng.choice(("true", "false"))
        language = rng.choice(("en", "ko"))
        if rng.random() < 0.7:
            headers = {"Authorization": f"Bearer {table}", "Idempotency-Key": f"a{seed}-{key}"}
            query = f"include=next_moves&seat={seat}&lang={language}&labels={labels}"
        else:
            headers = {**auth, "Idempotency-Key": f"a{seed}-{key}"}
            query = f"lang={language}" + (f"&include=next_moves&labels={labels}" if rng.random() < 0.5 else "")
        request = ("POST", f"/games/{gid}/moves", move, headers)
        status, out = call(app, environ(*request, query=query))
        keep(status, out)
        moves += status == 201
        if rng.random() < 0.15:  # a retry: the same request, the same key
            status, out = call(app, environ(*request, query=query))
            keep(status, out)
        if rng.random() < 0.05 and shown["version"] > 2:  # stale: another key, an old version
            stale = json.dumps({"expected_version": shown["version"] - 1, "move": json.loads(move)["move"]}).encode()
            status, out = call(app, environ("POST", f"/games/{gid}/moves", stale,
                                            {**headers, "Idempotency-Key": f"s{seed}-{key}"}, query=query))
            keep(status, out)
    raise RuntimeError(f"{kind} game {seed} did not end")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6, help="games of each type")
    parser.add_argument("--moves", type=int, default=50, help="at most this many moves a game")
    parser.add_argument("--out", default=None, help="write the masked answers here, one a line")
    args = parser.parse_args()
    answers: list[bytes] = []
    moves = 0
    with recording_app() as (app, service):
        for kind, seats in GAMES:
            for seed in range(args.games):
                moves += record(app, service, kind, seats, seed, args.moves, answers)
    report(answers, f"{len(GAMES)} x {args.games} games, {moves} moves", args.out)


if __name__ == "__main__":
    main()
