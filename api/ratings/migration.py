"""Moving the ratings from the single hash tag `{ratings}` to one per game type (issue 50).

Before 2026-12 every rating key shared one hash slot (`<p>ratings:{ratings}:...`), which a Redis
Cluster cannot spread. The ledger now keeps each type under `{ratings:<type>}`
(api/ratings/ledger.py). `migrate` moves an old deployment's keys, run by
`python -m tools.ratings migrate` or by the first count of any process (the ledger's
`catch_up`), idempotent and safe to stop anywhere:

1. every old key is copied (DUMP, RESTORE ... REPLACE) to its new name in its type's slot; a
   game's record goes to its game's type (read from the finished log, else the game's meta);
   each batch is one transaction watched on the type's new cursor and written only while that
   cursor does not exist, so a type that finished moving (and counts again) is never overwritten
   by a second process still copying;
2. per type, one transaction writes the new cursor (the old one: every type was counted up to
   it), the voided set and the archived games' records still to file: from then on the type is
   moved and counts on its own;
3. once every type is, the old keys are deleted, the old cursor last: while it exists the
   migration is not done, and a run (again) finishes it.
A record whose game's type cannot be found (its game gone from the log and the store) stays under
its old name, reported. The moderation stream and the players' re-rating logs keep their names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import redis

from api.games import harvest
from events.keys import glob_escaped
from events.store import EventStore

if TYPE_CHECKING:
    from api.ratings.ledger import Ledger

BATCH = 200  # keys copied per transaction


def old_base(ledger: Ledger) -> str:
    return f"{ledger.prefix}ratings:{{ratings}}"


def pending(ledger: Ledger) -> bool:
    """Whether keys of the old layout wait to be moved (its cursor is deleted last)."""
    return bool(ledger.redis.exists(f"{old_base(ledger)}:cursor"))


def migrate(ledger: Ledger, store: EventStore) -> dict[str, int]:
    """Moves the old single-slot keys to their types' slots; what it did, counted ({} when there
    was nothing to move). Sets `ledger.migrated` once nothing old is left."""
    r = ledger.redis
    cursor = r.get(f"{old_base(ledger)}:cursor")
    if cursor is None:
        ledger.migrated = True
        return {}
    head = f"{old_base(ledger)}:"
    keys = [k.decode() for k in r.scan_iter(match=f"{glob_escaped(head)}*", count=1000)]
    records = [k for k in keys if k[len(head) :].startswith("game:")]
    type_of = _types_of(store, [k[len(head) + 5 :] for k in records])
    moves: dict[str, list[tuple[str, str]]] = {t: [] for t in ledger.game_types()}
    kept: list[str] = []
    for key in keys:
        rest = key[len(head) :]
        if rest in ("cursor", "to-file"):
            continue
        if rest.startswith("game:"):
            found = type_of.get(rest[5:])
            if found is None:
                kept.append(key)
                continue
            moves.setdefault(found, []).append((key, ledger._game(found, rest[5:])))
        else:  # `<type>`, `<type>:board`, `<type>:season:...`, `<type>:history:...`: the kept name's type
            moves.setdefault(rest.partition(":")[0], []).append((key, f"{ledger.tag(rest.partition(':')[0])}:{rest}"))
    voided = sorted(r.smembers(f"{ledger.prefix}moderation:{{ratings}}:voided"))
    to_file = [g.decode() for g in r.smembers(f"{head}to-file")]
    done = {"types": 0, "keys": 0, "records": 0, "left": len(kept)}
    for type_, pairs in sorted(moves.items()):
        filing = [g for g in to_file if type_of.get(g) == type_]
        if _move_type(ledger, type_, pairs, cursor, voided, filing):
            done["types"] += 1
            done["keys"] += len(pairs)
            done["records"] += sum(1 for old, _ in pairs if old[len(head) :].startswith("game:"))
    old = [k for k in keys if k not in kept and k != f"{head}cursor"]
    old += [f"{ledger.prefix}moderation:{{ratings}}:voided", f"{ledger.prefix}moderation:{{ratings}}:recomputing"]
    for i in range(0, len(old), 500):
        r.delete(*old[i : i + 500])
    r.delete(f"{head}cursor")  # last: the migration is done
    ledger.migrated = True
    return done


def _types_of(store: EventStore, game_ids: list[str]) -> dict[str, str]:
    """Each game's type: from the finished log (every counted game is in it), else its meta."""
    wanted = set(game_ids)
    found: dict[str, str] = {}
    cursor = "0"
    while wanted - found.keys():
        page, after = harvest.page(store, cursor, None, harvest.BATCH)
        for entry in page:
            if entry["id"] in wanted:
                found[entry["id"]] = entry["type"]
        if after == cursor:
            break
        cursor = after
    for game_id in sorted(wanted - found.keys()):
        meta = store.meta(game_id)
        if meta and meta.get("type"):
            found[game_id] = meta["type"]
    return found


def _move_type(
    ledger: Ledger, type_: str, pairs: list[tuple[str, str]], cursor: bytes, voided: list[bytes], filing: list[str]
) -> bool:
    """Copies the type's keys then writes its cursor, each batch only while the type's new cursor
    does not exist; False when another process finished the type first."""
    r = ledger.redis
    for i in range(0, len(pairs), BATCH):
        batch = pairs[i : i + BATCH]
        dumped = r.pipeline(transaction=False)
        for old, _ in batch:
            dumped.dump(old)
        values = dumped.execute()
        restored = [(new, v) for (_, new), v in zip(batch, values) if v is not None]  # None: deleted meanwhile
        if not _written(
            ledger, type_, lambda pipe, kept=restored: [pipe.restore(k, 0, v, replace=True) for k, v in kept]
        ):
            return False

    def finish(pipe: Any) -> None:
        pipe.delete(ledger.excluded_key(type_))
        if voided:
            pipe.sadd(ledger.excluded_key(type_), *voided)
        if filing:
            pipe.sadd(ledger.filing_key(type_), *filing)
        pipe.set(ledger.cursor_key(type_), cursor)

    return _written(ledger, type_, finish)


def _written(ledger: Ledger, type_: str, queue: Any) -> bool:
    """`queue(pipe)`'s writes in one transaction, only while the type's new cursor is absent."""
    with ledger.redis.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(ledger.cursor_key(type_))
                if pipe.exists(ledger.cursor_key(type_)):
                    pipe.unwatch()
                    return False
                pipe.multi()
                queue(pipe)
                pipe.execute()
                return True
            except redis.WatchError:
                continue
