"""Tournaments from the command line: `python -m tools.tournaments verify <id>` recomputes every
round of a tournament from its history (the inputs from the events before it, the tables from the
inputs: api/tournaments/verify.py) and says which agree; `verify -` reads the history as NDJSON on
standard input instead (GET /tournaments/{id}/events, from any server). Exit status 1 when a round
disagrees. The server's settings say where (REDIS_URL, KEY_PREFIX, ...)."""
from __future__ import annotations

import sys

import orjson

from api.tournaments.verify import verify


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "verify":
        print("usage: python -m tools.tournaments verify <id> | verify - (NDJSON on standard input)", file=sys.stderr)
        return 2
    if argv[1] == "-":
        events = [orjson.loads(line) for line in sys.stdin.buffer if line.strip()]
    else:
        from api.settings import of_process
        from wiring import bootstrap

        events = bootstrap(of_process()).tournaments.events(argv[1])
    if not events:
        print(f"no tournament {argv[1]!r}", file=sys.stderr)
        return 1
    rounds = verify(events)
    for r in rounds:
        print(f"round {r['round']}: inputs {'ok' if r['inputs'] else 'DIFFER'}, "
              f"tables {'ok' if r['tables'] else 'DIFFER'}")
    bad = [r for r in rounds if not (r["inputs"] and r["tables"])]
    print(f"{len(rounds)} rounds, {len(bad)} disagree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
