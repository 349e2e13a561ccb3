"""The moves' answers of seeded Witches games, recorded so that two trees can be compared byte for
byte (issue 57, witches57: the page of pass choices made lazily must answer what the whole list
did).

    python -m bench.witches_answers [--games 24] [--out answers.jsonl]

In one process on a private Redis, through the app's WSGI callable, each game (3 to 6 seats,
seeded, two rounds) is played to its end: every person to act reads `GET /games/{id}/moves` with
its own token (labels on or off, English or Korean, a page size and sometimes an offset drawn
from the game's rng, and the page's `next` cursor followed once or twice), then sends a move
drawn from what it read with the table token, `include=next_moves` (labels on or off, a
language); the system's scoring is played in-process (workers.jobs.play_chain). Every answer's
status and body are kept with the game's id, tokens and times (ISO and epoch ms) masked; the run prints how many
answers and bytes, and their sha256. Run it in each tree (`cd <tree> && python -m ...`): the
same seeds give the same games, so equal hashes mean equal answers.
"""
from __future__ import annotations

import argparse
import json
import random
from urllib.parse import urlsplit

from bench.answers import keeper, recording_app, report
from bench.request_cost import call, environ

SEATS = (3, 3, 4, 5, 6, 3, 4, 3)


def record(app, service, seed: int, answers: list[bytes]) -> None:
    from domain.contract import SYSTEM
    from workers.jobs import play_chain

    rng = random.Random(seed)
    n = SEATS[seed % len(SEATS)]
    options = {"rounds": 2} if seed % 3 else {"rounds": 2, "pygmy_queen_points": 5}
    body = json.dumps({"type": "witches", "seats": [{"name": f"p{i}"} for i in range(n)],
                       "options": options, "seed": f"answers-{seed}"}).encode()
    status, out = call(app, environ("POST", "/games", body))
    created = json.loads(out)
    gid, tokens, table = created["id"], [s["token"] for s in created["seats"]], created["table_token"]
    keep = keeper(created, answers)

    key = 0
    for _ in range(2000):
        status, out = call(app, environ("GET", f"/games/{gid}", headers={"Authorization": f"Bearer {table}"}))
        shown = json.loads(out)
        if shown.get("status") == "finished" or shown.get("finished"):
            keep(status, out)
            return
        to_act = shown["to_act"]
        if to_act == [SYSTEM] or to_act == ["system"]:
            play_chain(service, gid, shown["version"], SYSTEM)
            continue
        seat = rng.choice([s for s in to_act if isinstance(s, int)])
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        lang = rng.choice(("en", "ko"))
        labels = rng.choice(("true", "false"))
        limit = rng.choice((1, 7, 64, 500))
        offset = rng.choice((0, 0, 0, 3, 60, 499, 4000))
        query = f"lang={lang}&labels={labels}&limit={limit}" + (f"&offset={offset}" if offset else "")
        status, out = call(app, environ("GET", f"/games/{gid}/moves", headers=auth, query=query))
        keep(status, out)
        page = json.loads(out)
        moves = list(page["moves"])
        for _ in range(rng.choice((0, 1, 2))):  # the cursor, followed
            if not page.get("next"):
                break
            link = urlsplit(page["next"])
            status, out = call(app, environ("GET", link.path, headers=auth, query=link.query))
            keep(status, out)
            page = json.loads(out)
            moves += page["moves"]
        if not moves:
            status, out = call(app, environ("GET", f"/games/{gid}/moves", headers=auth, query=f"lang={lang}"))
            keep(status, out)
            moves = json.loads(out)["moves"]
        key += 1
        move = json.dumps({"expected_version": shown["version"], "move": rng.choice(moves)}).encode()
        query = f"include=next_moves&seat={seat}&lang={rng.choice(('en', 'ko'))}&labels={rng.choice(('true', 'false'))}"
        status, out = call(app, environ("POST", f"/games/{gid}/moves", move,
                                        {"Authorization": f"Bearer {table}", "Idempotency-Key": f"a{seed}-{key}"},
                                        query=query))
        keep(status, out)
    raise RuntimeError(f"game {seed} did not end")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--out", default=None, help="write the masked answers here, one a line")
    args = parser.parse_args()
    answers: list[bytes] = []
    with recording_app() as (app, service):
        for seed in range(args.games):
            record(app, service, seed, answers)
    report(answers, f"{args.games} games", args.out)


if __name__ == "__main__":
    main()
