"""The ratings of every identity per game type, kept in Redis, fed from the ended games' log.

Keys (each game type under a hash tag of its own, `{ratings:<type>}`, so that a Redis Cluster
spreads the types over its primaries while one transaction still writes everything a game of
that type touches; a game only moves its own type's ratings):
- `ratings:{ratings:<type>}:cursor`: the finished log's entry id of the last game of the type
  counted (each type reads the log on its own, `harvest.page`'s type filter);
- `ratings:{ratings:<type>}:<type>` hash: identity -> its rating (mu, sigma, games, wins, last);
- `ratings:{ratings:<type>}:<type>:board` sorted set: identity -> displayed rating (the leaderboard);
- `ratings:{ratings:<type>}:<type>:history:<identity>` list: one point per rated game (newest
  last, the last HISTORY_KEPT);
- `ratings:{ratings:<type>}:<type>:season:<YYYY-MM>` hash and its boards: a season's table (issue
  52, api/ratings/seasons.py), kept as a type's is, rated from an empty start over the games whose
  last move fell in that UTC month, in the same transaction; `ratings:{ratings:<type>}:<type>:seasons`
  the type's seasons with a rated game. Never cleared: a void's `replace` rewrites them with the rest;
- `ratings:{ratings:<type>}:game:<id>`: each seat's rating before and after that game (and `kept`:
  its full ratings before it, overall and the season's, where a void's `recompute_from` starts; the
  API and the webhooks never show it: `public`), until the game
  is archived: the archiver waits until the game is counted (`counted`), carries this record
  into the archive's summary of the game (`ratings`), and deletes it from Redis once the archive
  was read back holding it (workers/archiver.py); `game_changes` then reads the archive's.
  Counting is guarded by the cursor alone (below), never by this record: moving it cannot
  count a game twice nor lose a count. A reader that knows the game's type names it; one that
  does not looks in every type's slot (one pipelined GET per type).
`catch_up` reads, per type, the games after the type's cursor (through the harvest's reader,
which shows each ended game once), rates them in order and writes the new ratings with the
cursor in one MULTI, watched on the cursor: two processes catching up at once count each game
once (the loser's transaction fails and it reads again), and a crash before EXEC writes nothing.
Deterministic: a rebuild (the keys deleted, caught up from "0") gives the same numbers.
Deployments that kept every type under the one tag `{ratings}` (before 2026-12) are moved by
`migrate` (`python -m tools.ratings migrate`, or the first count: api/ratings/migration.py).

Voided players (issue 50, api/moderation/): `moderation:{ratings:<type>}:voided` (outside the
keys a rebuild deletes, in the type's hash slot: the moderation stream's fold, applied to each
type by api/moderation/service.py) is the set of the players whose games stop counting. A
game where one of them sits is passed over by the counting, the rebuild and `recompute`, which
rates every game again in memory without them (such a game's record says no change: `[]`, so
that what waits for its count, a webhook's `game.rated`, does not wait for good); `replace`
writes that result in place of every
rating key in one transaction (a void: api/moderation/service.py), so the numbers are exactly a
rebuild's without those games. `recompute_from` and `replace_from` do the same from the first
game of the player voided or restored on (the earlier games are unchanged: each later game's
identities start from the ratings its record kept), touching only the ratings, charts and
records of the games from there; where that cannot be exact they say so and `recompute` runs.
The records either writes of archived games are noted
(`ratings:{ratings:<type>}:to-file`) and filed into the archive right after (workers/archiver.py's
file_ratings; its sweep files what a crash left), Redis keeping no record of an archived game;
a record is deleted from Redis only while it is the one filed (`forget_game`'s `expected`).
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from openskill.models import PlackettLuce

from api.games import harvest
from api.ratings.migration import migrate
from api.ratings.standings import Standing, standings
from domain import registry
from events import codec
from events.keys import glob_escaped
from events.store import EventStore

BATCH = 200  # games rated per transaction
KEPT = "kept"  # in a game's record, each seat's ratings before it (overall, then the season's): `rerate`'s start
HISTORY_KEPT = 500  # points of the rating chart kept per identity and game type
PROVISIONAL_SIGMA = 5.0  # above it the rating is shown provisional (it starts at 25/3)
MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3


def displayed(mu: float, sigma: float) -> int:
    """The rating people see: the conservative estimate mu - 3 sigma, on a 1500-based scale
    (a newcomer shows 1500 and rises as the estimate firms up)."""
    return int(round(1500 + 40 * (mu - 3 * sigma)))


@dataclass
class Rating:
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    last: int = 0  # ms of the last rated game

    def shown(self) -> dict[str, Any]:
        return {"rating": displayed(self.mu, self.sigma), "mu": self.mu, "sigma": self.sigma,
                "provisional": self.sigma > PROVISIONAL_SIGMA, "games": self.games, "wins": self.wins,
                "last_played": self.last}


class Ledger:
    def __init__(self, connection: Any, prefix: str = "", told: Callable[[dict[str, Any], list[dict[str, Any]]],
                 None] | None = None, archived: Callable[[str], list[dict[str, Any]] | None] | None = None,
                 game_types: Callable[[], list[str]] | None = None):
        self.redis: Any = connection  # a Redis or a RedisCluster (events/connection.py)
        # archived(game id): the game's record as the archive keeps it (its summary's `ratings`),
        # read once Redis's has moved there with its game.
        self.archived = archived
        # told(the game's entry, each seat's change): after the count is written (a crash in
        # between loses the telling, never the count); the players' feed tells its players.
        self.told = told
        self.prefix = prefix
        # Every key starts with `base` (`<p>ratings:{ratings`), then `:<type>}`: `{base}:*` matches
        # every type's keys, and nothing else (the old single-slot keys were `<p>ratings:{ratings}:`).
        self.base = f"{prefix}ratings:{{ratings"
        self.game_types = game_types or _hosted_types  # the types counted, and looked through
        self.migrated = False  # this process saw no key of the old single-slot layout (migration.py)

    # ---- keys --------------------------------------------------------------------------
    def tag(self, type_: str) -> str:
        """The keys' head for one game type: its own hash tag (`{ratings:<type>}`), so its slot."""
        return f"{self.base}:{type_}}}"

    def _cursor(self, type_: str) -> str:
        return f"{self.tag(type_)}:cursor"

    def _table(self, kept: str) -> str:
        """A type's table (`kept` the type) or a season's (`<type>:season:<YYYY-MM>`), in the type's slot."""
        return f"{self.tag(kept.partition(':')[0])}:{kept}"

    def _board(self, kept: str, provisional: bool = True) -> str:
        """The leaderboard of everyone rated, or (provisional=False) of those established only."""
        return f"{self._table(kept)}:board" if provisional else f"{self._table(kept)}:established"

    def _history(self, type_: str, who: str) -> str:
        return f"{self._table(type_)}:history:{who}"

    def _seasons(self, type_: str) -> str:
        """The sorted set of the type's seasons that have a rated game (all scored 0: by name)."""
        return f"{self._table(type_)}:seasons"

    def _game(self, type_: str, game_id: str) -> str:
        return f"{self.tag(type_)}:game:{game_id}"

    def _moderation(self, type_: str) -> str:
        return f"{self.prefix}moderation:{{ratings:{type_}}}"

    def excluded_key(self, type_: str) -> str:
        """The set of the voided players' identities (`player:<id>`) as applied to the type: their
        games are not counted. Outside `base` (a rebuild keeps it), in the type's hash slot (one
        transaction writes both)."""
        return f"{self._moderation(type_)}:voided"

    def applied_key(self, type_: str) -> str:
        """The moderation stream's last entry id whose voided set the type's ratings follow
        (api/moderation/service.py compares it with the stream's to find a void not applied yet)."""
        return f"{self._moderation(type_)}:applied"

    def outbox_key(self, type_: str) -> str:
        """List: the re-ratings a void wrote into the type, each to be logged in its players'
        re-rating logs (in the moderation stream's slot) once, then removed (api/moderation/)."""
        return f"{self._moderation(type_)}:outbox"

    def cursor_key(self, type_: str) -> str:
        return self._cursor(type_)

    def paused_key(self, type_: str) -> str:
        """Set (with a time to live) while a void recomputes the type's ratings: its counting waits
        for it rather than making it compute again and again (api/moderation/service.py)."""
        return f"{self._moderation(type_)}:recomputing"

    # ---- reading -----------------------------------------------------------------------
    def rating(self, type_: str, who: str) -> Rating | None:
        raw = self.redis.hget(self._table(type_), who)
        return Rating(**codec.loads(raw)) if raw is not None else None

    def ratings(self, type_: str, identities: list[str]) -> dict[str, Rating]:
        raws = self.redis.hmget(self._table(type_), identities) if identities else []
        return {w: Rating(**codec.loads(r)) for w, r in zip(identities, raws) if r is not None}

    def board(self, type_: str, offset: int, count: int, provisional: bool = True) -> list[tuple[str, int]]:
        found = self.redis.zrevrange(self._board(type_, provisional), offset, offset + count - 1, withscores=True)
        return [(w.decode(), int(s)) for w, s in found]

    def board_rank(self, type_: str, who: str, provisional: bool = True) -> int | None:
        rank = self.redis.zrevrank(self._board(type_, provisional), who)
        return int(rank) if rank is not None else None

    def seasons(self, type_: str) -> list[str]:
        """The type's seasons that have a rated game, oldest first."""
        return [s.decode() for s in self.redis.zrange(self._seasons(type_), 0, -1)]

    def season_sizes(self, type_: str, seasons: list[str]) -> list[int]:
        """How many are rated in each of `seasons` of the type."""
        pipe = self.redis.pipeline(transaction=False)
        for season in seasons:
            pipe.zcard(self._board(season_board(type_, season)))
        return [int(n) for n in pipe.execute()]

    def seasons_of(self, who: str, types: list[str]) -> dict[str, list[tuple[str, Rating, int]]]:
        """Per type, (season, the identity's season rating, its rank from 0 among everyone rated
        in that season) of each season it played, oldest first. Read per type (each its own
        slot), in one pipeline that is no transaction."""
        pipe = self.redis.pipeline(transaction=False)
        for type_ in types:
            pipe.zrange(self._seasons(type_), 0, -1)
        every = [(t, s.decode()) for t, found in zip(types, pipe.execute()) for s in found]
        for type_, season in every:
            pipe.hget(self._table(season_board(type_, season)), who)
            pipe.zrevrank(self._board(season_board(type_, season)), who)
        read = pipe.execute()
        found: dict[str, list[tuple[str, Rating, int]]] = {}
        for i, (type_, season) in enumerate(every):
            raw, rank = read[2 * i], read[2 * i + 1]
            if raw is not None and rank is not None:
                found.setdefault(type_, []).append((season, Rating(**codec.loads(raw)), int(rank)))
        return found

    def history(self, type_: str, who: str) -> list[dict[str, Any]]:
        return [codec.loads(p) for p in self.redis.lrange(self._history(type_, who), 0, -1)]

    def game_changes(self, game_id: str, type_: str | None = None) -> list[dict[str, Any]] | None:
        """Each seat's rating before and after the game; None while it is not counted (or for a
        game never rated). Redis's record, else (the game archived) the archive's."""
        found = self.recorded(game_id, type_)
        if found is None and self.archived is not None:
            found = self.archived(game_id)
        return public(found)

    def recorded(self, game_id: str, type_: str | None = None) -> list[dict[str, Any]] | None:
        """The game's record as Redis holds it (None once it moved to the archive)."""
        key = self._game_key(game_id, type_)
        raw = self.redis.get(key) if key is not None else None
        return codec.loads(raw) if raw is not None else None

    def _game_key(self, game_id: str, type_: str | None) -> str | None:
        """The key of the game's record: in its type's slot; the type unknown, the type whose
        slot holds one (None: none does)."""
        if type_ is not None:
            return self._game(type_, game_id)
        types = self.game_types()
        pipe = self.redis.pipeline(transaction=False)
        for t in types:
            pipe.exists(self._game(t, game_id))
        return next((self._game(t, game_id) for t, n in zip(types, pipe.execute()) if n), None)

    def counted(self, log_entry: str, type_: str | None = None) -> bool:
        """Whether the game of this finished-log entry was counted (its type's cursor is past it;
        the type unknown, every type's)."""
        types = [type_] if type_ is not None else self.game_types()
        pipe = self.redis.pipeline(transaction=False)
        for t in types:
            pipe.get(self._cursor(t))
        return all(_log_key(log_entry) <= _log_key((c or b"0").decode()) for c in pipe.execute())

    def forget_game(self, game_id: str, expected: list[dict[str, Any]] | None = None,
                    type_: str | None = None) -> bool:
        """Redis's record of the game deleted (the archive holds it: workers/archiver.py); with
        `expected`, only if it is still that record (a void may have written another since: then
        False, and the caller files the new one)."""
        key = self._game_key(game_id, type_)
        if key is None:
            return True  # no record left: nothing to delete
        if expected is None:
            self.redis.delete(key)
            return True
        with self.redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(key)
                raw = pipe.get(key)
                if raw is not None and codec.loads(raw) != expected:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.delete(key)
                pipe.execute()
                return True
            except redis.WatchError:
                return False

    def filing_key(self, type_: str) -> str:
        """Set: the archived games of the type whose record a void wrote into Redis (in its
        transaction), to be filed into the archive (`to_file`, `filed`: api/moderation/service.py
        right after the void, the archiver's sweep after a crash)."""
        return f"{self.tag(type_)}:to-file"

    def to_file(self, count: int = 100) -> list[str]:
        """Up to `count` of every type's games to file."""
        pipe = self.redis.pipeline(transaction=False)
        for t in self.game_types():
            pipe.srandmember(self.filing_key(t), count)
        return [g.decode() for found in pipe.execute() for g in found][:count]

    def filed(self, game_ids: list[str]) -> None:
        if game_ids:
            pipe = self.redis.pipeline(transaction=False)
            for t in self.game_types():
                pipe.srem(self.filing_key(t), *game_ids)
            pipe.execute()

    def types_of(self, who: str, types: list[str]) -> dict[str, Rating]:
        """The identity's rating in each of `types` it has one in (one read per type's slot)."""
        pipe = self.redis.pipeline(transaction=False)
        for type_ in types:
            pipe.hget(self._table(type_), who)
        return {t: Rating(**codec.loads(r)) for t, r in zip(types, pipe.execute()) if r is not None}

    # ---- counting games ----------------------------------------------------------------
    def catch_up(self, store: EventStore, limit: int = 10_000, tell: bool = True) -> int:
        """Rates the games ended since each type's cursor (at most `limit` read per type); returns
        how many were read. `tell` False (a rebuild): the players are not told again. Keys of the
        old single-slot layout still there are moved first (api/ratings/migration.py)."""
        if not self.migrated:
            migrate(self, store)
        read = 0
        for type_ in self.game_types():
            done = 0
            while done < limit:
                n = self._one_batch(store, type_, tell)
                if n < 0:
                    break
                done += n
            read += done
        return read

    def _one_batch(self, store: EventStore, type_: str, tell: bool) -> int:
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(self._cursor(type_), self.excluded_key(type_), self.paused_key(type_))
                    if pipe.exists(self.paused_key(type_)):
                        return -1  # a void is recomputing the type's ratings: counted on the next pass
                    cursor = (pipe.get(self._cursor(type_)) or b"0").decode()
                    found, after = harvest.page(store, cursor, type_, BATCH)
                    if after == cursor:
                        return -1  # nothing after the cursor
                    changed = self._rate(pipe, found, self.excluded(pipe, type_))
                    pipe.multi()
                    self._write(pipe, type_, changed)
                    pipe.set(self._cursor(type_), after)
                    pipe.execute()
                    if tell:
                        self._tell(found, {g: public(c) for g, c in changed["games"].items()})
                    return len(found)  # the type's games read (none: the others' entries passed)
                except redis.WatchError:
                    continue  # another process counted these games first: read again

    def _tell(self, entries: list[dict[str, Any]], games: dict[str, Any]) -> None:
        if self.told is None:
            return
        for entry in entries:
            if entry["id"] in games:
                self.told(entry, games[entry["id"]])

    def excluded(self, reader: Any, type_: str) -> frozenset[str]:
        """The voided players' identities as the type applies them (read through `reader`: the
        watching pipeline)."""
        return frozenset(w.decode() for w in reader.smembers(self.excluded_key(type_)))

    def _rate(self, reader: Any, entries: list[dict[str, Any]], excluded: frozenset[str] = frozenset(),
              table: dict[tuple[str, str], Rating] | None = None) -> dict[str, Any]:
        """The new ratings after each rated game of `entries`, in order (read through `reader`,
        the watching pipeline; nothing written). A game where an `excluded` identity sits is not
        counted. `table`: the ratings known so far (a recompute's; the others are read)."""
        table = {} if table is None else table
        points: list[tuple[str, str, dict[str, Any]]] = []
        games: dict[str, list[dict[str, Any]]] = {}
        seasons: set[tuple[str, str]] = set()
        for entry in entries:
            sides = standings(entry)
            if sides is None:
                continue
            if excluded and any(w in excluded for side in sides for w in side.identities):
                games[entry["id"]] = []  # a voided player's game (api/moderation/): counted, moving nobody
                continue
            type_ = entry["type"]
            season = season_of(entry)
            board = season_board(type_, season)
            who = [w for side in sides for w in side.identities]
            for kept in (type_, board):  # the overall table, and the season's (which starts empty)
                missing = [w for w in who if (kept, w) not in table]
                if missing:
                    raws = reader.hmget(self._table(kept), missing)
                    for w, raw in zip(missing, raws):
                        table[(kept, w)] = Rating(**codec.loads(raw)) if raw is not None else _newcomer()
            at = entry.get("last_move_at") or 0
            prior = {w: _kept(table[(type_, w)]) + _kept(table[(board, w)]) for w in who}
            changes = _rate_game(table, type_, sides, at, points, entry["id"])
            _rate_game(table, board, sides, at, [], entry["id"])  # the season's: no chart of its own
            for change in changes:  # what a void's re-rating from this game on starts from (`rerate`)
                change[KEPT] = prior[change["identity"]]
            games[entry["id"]] = changes
            seasons.add((type_, season))
        return {"table": table, "points": points, "games": games, "seasons": seasons}

    def _write(self, pipe: Any, game_type: str, changed: dict[str, Any]) -> None:
        """Queues the writes of `changed` (all of `game_type`: its slot alone)."""
        for (type_, who), rating in changed["table"].items():
            pipe.hset(self._table(type_), who, codec.dumps_bytes(rating.__dict__))
            shown = displayed(rating.mu, rating.sigma)
            pipe.zadd(self._board(type_), {who: shown})
            if rating.sigma > PROVISIONAL_SIGMA:
                pipe.zrem(self._board(type_, provisional=False), who)
            else:
                pipe.zadd(self._board(type_, provisional=False), {who: shown})
        for type_, who, point in changed["points"]:
            pipe.rpush(self._history(type_, who), codec.dumps_bytes(point))
            pipe.ltrim(self._history(type_, who), -HISTORY_KEPT, -1)
        for game_id, seats in changed["games"].items():
            pipe.set(self._game(game_type, game_id), codec.dumps_bytes(seats))
        for type_, season in sorted(changed.get("seasons", ())):
            pipe.zadd(self._seasons(type_), {season: 0})

    # ---- recomputing without the voided players' games (api/moderation/) -----------------------
    def recompute(self, store: EventStore, type_: str, excluded: frozenset[str]) -> tuple[dict[str, Any], str]:
        """(every rating of the type as a rebuild without the `excluded` players' games gives it,
        the cursor after the last game read): every ended game of the type rated again in order,
        in memory, nothing read of the ratings kept nor written. What `replace` writes."""
        table: dict[tuple[str, str], Rating] = {}
        points: list[tuple[str, str, dict[str, Any]]] = []
        games: dict[str, list[dict[str, Any]]] = {}
        seasons: set[tuple[str, str]] = set()
        cursor = "0"
        while True:
            found, after = harvest.page(store, cursor, type_, BATCH)
            if after == cursor:
                return {"table": table, "points": points, "games": games, "seasons": seasons}, cursor
            changed = self._rate(_NothingKept(), found, excluded, table)
            points += changed["points"]
            games.update(changed["games"])
            seasons |= changed["seasons"]
            cursor = after

    def recompute_from(self, store: EventStore, type_: str, excluded: frozenset[str],
                       changed: frozenset[str]) -> dict[str, Any] | None:
        """The type's re-rating a change of the voided set (`changed`: the identities voided or restored;
        `excluded` the new set) makes, computed from the first game of a `changed` identity on
        (or the first game not counted yet, if earlier): what `replace_from` writes, which leaves
        the ledger exactly as `recompute` and `replace` would (tests/ratings/test_rerating.py).
        The games before that one are not rated again: each identity of the later games starts
        from the ratings its first counted game there kept in its record (`kept`: they are what
        the earlier games, unchanged, made), or from its rating now if it has none. None when
        that cannot be exact (a record of a counted game without `kept`: counted before it was
        kept, or unreadable; a rating chart that would lose points to its cap): recompute all.
        Read outside the caller's transaction, which watches the cursor and the voided set."""
        cursor = (self.redis.get(self._cursor(type_)) or b"0").decode()
        entries, after = _every_entry(store, type_)
        first = next((i for i, e in enumerate(entries)
                      if _log_key(e["cursor"]) > _log_key(cursor)
                      or any(w in changed for side in standings(e) or [] for w in side.identities)), None)
        tail = [e for e in entries[first:] if standings(e) is not None] if first is not None else []
        counted = [e for e in tail if _log_key(e["cursor"]) <= _log_key(cursor)]
        records: dict[str, list[dict[str, Any]]] = {}
        for game_id, record in self._records(type_, [e["id"] for e in counted]).items():
            if record is None or any(KEPT not in seat for seat in record):
                return None
            records[game_id] = record
        table: dict[tuple[str, str], Rating] = {}
        old_points: dict[tuple[str, str], int] = {}  # each chart's points made by the games re-rated
        for entry in counted:  # each identity's start: what its first counted game of the tail kept
            board = season_board(entry["type"], season_of(entry))
            for seat in records[entry["id"]]:
                who = seat["identity"]
                table.setdefault((entry["type"], who), Rating(*seat[KEPT][:5]))
                table.setdefault((board, who), Rating(*seat[KEPT][5:]))
            for who in {seat["identity"] for seat in records[entry["id"]]}:
                old_points[(entry["type"], who)] = old_points.get((entry["type"], who), 0) + 1
        needed: dict[str, list[str]] = {}  # the others: their ratings now (nothing moved them since)
        for entry in tail:
            board = season_board(entry["type"], season_of(entry))
            for who in {w for side in standings(entry) or [] for w in side.identities}:
                for kept in (entry["type"], board):
                    if (kept, who) not in table and who not in needed.setdefault(kept, []):
                        needed[kept].append(who)
        for kept, who in needed.items():
            raws = self.redis.hmget(self._table(kept), who) if who else []
            for w, raw in zip(who, raws):
                table[(kept, w)] = Rating(**codec.loads(raw)) if raw is not None else Rating(MODEL.mu, MODEL.sigma)
        started = {k: Rating(**r.__dict__) for k, r in table.items()}
        rated = self._rate(_NothingKept(), tail, excluded, table)
        new_points: dict[tuple[str, str], int] = {}
        for type_, who, _ in rated["points"]:
            new_points[(type_, who)] = new_points.get((type_, who), 0) + 1
        for key, dropped in old_points.items():  # each chart keeps its last HISTORY_KEPT points
            before = started[key].games  # the points the earlier games made, of which it holds...
            held = max(0, min(before + dropped, HISTORY_KEPT) - dropped)  # ...these, once the re-rated go
            if held < min(before, HISTORY_KEPT - new_points.get(key, 0)):
                return None  # capped: points older than it holds would show again
        return {**rated, "dropped": old_points, "cursor": after if after != "0" else cursor,
                "boards": sorted({k for k, _ in table if ":season:" in k})}

    def _records(self, type_: str, game_ids: list[str]) -> dict[str, list[dict[str, Any]] | None]:
        """The games' records as kept (Redis's, else the archive's), `kept` included."""
        found: dict[str, list[dict[str, Any]] | None] = {}
        for i in range(0, len(game_ids), 500):
            pipe = self.redis.pipeline(transaction=False)
            for game_id in game_ids[i:i + 500]:
                pipe.get(self._game(type_, game_id))
            for game_id, raw in zip(game_ids[i:i + 500], pipe.execute()):
                found[game_id] = codec.loads(raw) if raw is not None else (
                    self.archived(game_id) if self.archived is not None else None)
        return found

    def replace_from(self, pipe: Any, type_: str, rerated: dict[str, Any], members: dict[str, set[str]],
                     archived: frozenset[str] = frozenset()) -> None:
        """Queues (in `pipe`'s MULTI) a `recompute_from`'s writes: each rating it computed (or
        its removal where no game counts any more), each chart's points of the re-rated games
        replaced, their records, the seasons left without a game taken off the list, the cursor.
        `members`: each season board's identities now (`season_members`, read while watching);
        `archived`: as `replace`'s (their records noted to be filed into the archive)."""
        table = rerated["table"]
        for (kept, who), rating in list(table.items()):
            if rating.games == 0:
                pipe.hdel(self._table(kept), who)
                pipe.zrem(self._board(kept), who)
                pipe.zrem(self._board(kept, provisional=False), who)
        for (kept, who), dropped in rerated["dropped"].items():
            pipe.ltrim(self._history(kept, who), 0, -dropped - 1)
        self._write(pipe, type_, {**rerated, "table": {k: r for k, r in table.items() if r.games > 0}})
        for board in rerated["boards"]:
            left = (members.get(board, set()) - {w for (k, w), r in table.items() if k == board and r.games == 0}) \
                | {w for (k, w), r in table.items() if k == board and r.games > 0}
            if not left:
                _, _, season = board.partition(":season:")
                pipe.zrem(self._seasons(type_), season)
        pipe.set(self._cursor(type_), rerated["cursor"])
        self._note_filing(pipe, type_, rerated, archived)

    def season_members(self, reader: Any, boards: list[str]) -> dict[str, set[str]]:
        """Who is rated in each of the season `boards` now (read through `reader`)."""
        return {b: {w.decode() for w in reader.zrange(self._board(b), 0, -1)} for b in boards}

    def every_key(self, reader: Any, type_: str) -> list[Any]:
        """Every rating key of the type (not its voided set)."""
        return list(reader.scan_iter(match=f"{glob_escaped(self.tag(type_))}:*", count=1000))

    def every_rating(self, reader: Any, types: list[str]) -> dict[tuple[str, str], Rating]:
        """Every identity's rating in each of `types` (read through `reader`)."""
        found: dict[tuple[str, str], Rating] = {}
        for type_ in types:
            for who, raw in reader.hgetall(self._table(type_)).items():
                found[(type_, who.decode())] = Rating(**codec.loads(raw))
        return found

    def replace(self, pipe: Any, type_: str, old_keys: list[Any], changed: dict[str, Any], cursor: str,
                archived: frozenset[str] = frozenset()) -> None:
        """Queues (in `pipe`'s MULTI) the deletion of `old_keys` (every rating key of the type,
        read while watching its cursor) and the writing of a recompute's ratings and cursor in their place.
        `archived`: the games of `changed` archived already, whose records are noted to be filed
        into the archive (`filing_key`) as soon as the transaction is written."""
        for i in range(0, len(old_keys), 500):
            pipe.delete(*old_keys[i:i + 500])
        self._write(pipe, type_, changed)
        if cursor != "0":
            pipe.set(self._cursor(type_), cursor)
        self._note_filing(pipe, type_, changed, archived)

    def _note_filing(self, pipe: Any, type_: str, changed: dict[str, Any], archived: frozenset[str]) -> None:
        """The archived games among those `changed` rewrote, noted (in the MULTI) to be filed."""
        noted = sorted(g for g in changed["games"] if g in archived)
        for i in range(0, len(noted), 500):
            pipe.sadd(self.filing_key(type_), *noted[i:i + 500])

    def recorded_games(self) -> list[str]:
        """The ids of the games whose record Redis holds (a SCAN per type)."""
        found = []
        for type_ in self.game_types():
            head = f"{self.tag(type_)}:game:"
            found += [k.decode()[len(head):] for k in self.redis.scan_iter(match=f"{glob_escaped(head)}*", count=1000)]
        return found

    def forget_everything(self) -> int:
        """Deletes every rating key of every type (before a rebuild); returns how many."""
        deleted = 0
        for type_ in self.game_types():
            keys = self.every_key(self.redis, type_)
            for i in range(0, len(keys), 500):
                self.redis.delete(*keys[i:i + 500])
            deleted += len(keys)
        return deleted


def _every_entry(store: EventStore, type_: str) -> tuple[list[dict[str, Any]], str]:
    """Every entry of the type in the finished log, in order, and the cursor after the last."""
    entries: list[dict[str, Any]] = []
    cursor = "0"
    while True:
        found, after = harvest.page(store, cursor, type_, harvest.BATCH)
        entries += found
        if after == cursor:
            return entries, cursor
        cursor = after


def _hosted_types() -> list[str]:
    """The names of the hosted game types (the registry's), when the ledger is given none."""
    return [g.name for g in registry.all_games()]


class _NothingKept:
    """A reader of a ledger that holds nothing yet (a recompute starts from zero)."""

    def hmget(self, key: str, fields: list[str]) -> list[None]:
        return [None] * len(fields)


def _kept(rating: Rating) -> list[Any]:
    return [rating.mu, rating.sigma, rating.games, rating.wins, rating.last]


def public(record: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """A game's record as the API and the webhooks show it: without what only a re-rating reads."""
    if record is None:
        return None
    return [{k: v for k, v in seat.items() if k != KEPT} for seat in record]


def _newcomer() -> Rating:
    return Rating(MODEL.mu, MODEL.sigma)


def season_of(entry: dict[str, Any]) -> str:
    """The season (`YYYY-MM`, the UTC month) of an ended game: the month of its last move, else
    (an entry without one) of its logging."""
    at = entry.get("last_move_at") or _log_key(entry.get("cursor") or "0")[0]
    return time.strftime("%Y-%m", time.gmtime(at / 1000))


def season_board(type_: str, season: str) -> str:
    """The name the season's table is kept under, beside the type's own (`<type>:season:<YYYY-MM>`:
    no game type's name holds a colon)."""
    return f"{type_}:season:{season}"


def _log_key(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def _rate_game(table: dict[tuple[str, str], Rating], type_: str, sides: list[Standing], at: int, points: list[Any],
               game_id: str) -> list[dict[str, Any]]:
    """Rates one game into `table`; returns each seat's rating before and after. An identity
    that sits several times at one table (bots of one level) takes the mean of its seats'
    updates, and counts the game once (a win when any of its seats finished first)."""
    teams = [[MODEL.rating(table[(type_, w)].mu, table[(type_, w)].sigma) for w in side.identities] for side in sides]
    rated = MODEL.rate(teams, ranks=[side.rank for side in sides])
    updates: dict[str, list[Any]] = {}
    for side, after in zip(sides, rated):
        for w, new in zip(side.identities, after):
            updates.setdefault(w, []).append((new.mu, new.sigma, side.rank))
    before = {w: displayed(table[(type_, w)].mu, table[(type_, w)].sigma) for w in updates}
    for w, seats in updates.items():
        mu, sigma = sum(u[0] for u in seats) / len(seats), sum(u[1] for u in seats) / len(seats)
        if not (math.isfinite(mu) and math.isfinite(sigma)):
            continue
        old = table[(type_, w)]
        best = min(u[2] for u in seats)
        table[(type_, w)] = Rating(mu, sigma, old.games + 1, old.wins + (best == 0), at)
        points.append((type_, w, {"game": game_id, "at": at, "rating": displayed(mu, sigma), "rank": best}))
    changes = [{"seat": seat, "identity": w, "before": before[w],
                "after": displayed(table[(type_, w)].mu, table[(type_, w)].sigma), "rank": side.rank}
               for side in sides for seat, w in zip(side.seats, side.identities)]
    return sorted(changes, key=lambda c: c["seat"])
