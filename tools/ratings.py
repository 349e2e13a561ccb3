"""Rebuilds the ratings from zero: `python -m tools.ratings rebuild`.

Ratings are a projection of the ended games in the order they ended (api/ratings/): after a
rules fix, or a cheater's games removed, delete them and count every game of the finished log
again, to the same numbers as the incremental counting would give. The server's settings say
where (REDIS_URL, KEY_PREFIX, ...). A reconciler running meanwhile counts along, each game once.
`python -m tools.ratings catch-up` only counts the games ended since the last count.
`python -m tools.ratings migrate` moves the keys of a deployment from before 2026-12 (every type
under one hash tag, `{ratings}`) to a hash tag per game type (api/ratings/migration.py); the
first count of any process does the same, and a second run finds nothing to do.
"""
from __future__ import annotations

import sys

from api.ratings.migration import migrate
from api.settings import of_process
from wiring import bootstrap
from workers.archiver import file_ratings


def main(argv: list[str]) -> int:
    if argv not in (["rebuild"], ["catch-up"], ["migrate"]):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: python -m tools.ratings rebuild | catch-up | migrate", file=sys.stderr)
        return 2
    services = bootstrap(of_process())
    ledger = services.ratings.ledger
    if argv == ["migrate"]:
        done = migrate(ledger, services.store)
        print(f"moved {done.get('keys', 0)} rating keys of {done.get('types', 0)} game types"
              f" ({done.get('records', 0)} games' records)" if done else "nothing to move: every type has its own slot")
        if done.get("left"):
            print(f"{done['left']} games' records left under the old name: their games are gone")
        return 0
    if argv == ["rebuild"]:
        print(f"deleted {ledger.forget_everything()} rating keys")
    counted = ledger.catch_up(services.store, limit=10**12, tell=argv != ["rebuild"])  # told once already
    print(f"counted {counted} ended games")
    # The archived games' records go back to the archive (a rebuild wrote them to Redis again).
    moved = file_ratings(services.redis_store(), ledger, ledger.recorded_games())
    if moved:
        print(f"moved {moved} archived games' rating records to the archive")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
