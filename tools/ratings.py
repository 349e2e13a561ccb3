"""Rebuilds the ratings from zero: `python -m tools.ratings rebuild`.

Ratings are a projection of the ended games in the order they ended (api/ratings/): after a
rules fix, or a cheater's games removed, delete them and count every game of the finished log
again, to the same numbers as the incremental counting would give. The server's settings say
where (REDIS_URL, KEY_PREFIX, ...). A reconciler running meanwhile counts along, each game once.
`python -m tools.ratings catch-up` only counts the games ended since the last count.
"""
from __future__ import annotations

import sys

from api.settings import of_process
from wiring import bootstrap
from workers.archiver import file_ratings


def main(argv: list[str]) -> int:
    if argv not in (["rebuild"], ["catch-up"]):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: python -m tools.ratings rebuild | catch-up", file=sys.stderr)
        return 2
    services = bootstrap(of_process())
    ledger = services.ratings.ledger
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
