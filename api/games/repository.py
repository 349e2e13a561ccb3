"""Games as rebuilt from their events: loading, a per-process cache of states, snapshots.

The events are the truth; everything here is a cache that can be thrown away. A process keeps
the newest state of the games it served and reads only the events appended since; a cold
process starts from the newest snapshot (one every SNAPSHOT_EVERY events, pickled with the code
version that made it: a snapshot from other code is never used).
"""
from __future__ import annotations

import json
import os
import pickle
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from api.errors import ApiError, Code, GameExpired, UnknownGame, ValidationFailed
from api.input_rules import is_game_id
from api.platform import events as platform_events
from domain import registry
from domain.contract import GameDef, Viewer
from domain.copies import Replaceable
from events.archive import Expired
from events.store import EventStore

CREATED = platform_events.CREATED  # the server's own first event: type, seats, options, seed
SNAPSHOT_EVERY = 100
CACHE_SIZE = 2000
# Past states (`at_version`): a version's fold never changes, so the folds read are kept (the
# newest PAST_CACHE_SIZE of them) and a read within PAST_WINDOW versions after one replays from
# it, with no snapshot read and a short replay (a replayer stepping through a game, many viewers
# of one version).
PAST_CACHE_SIZE = 256
PAST_WINDOW = 16
# Past answers: the encoded bytes of a read that never changes (a past state, a history page
# of versions already written), keyed by the game and everything the bytes are a function of
# (the version or page, the viewer, the words' language and names: api/http/games.py), so a
# read made again answers without folding, presenting or encoding. The newest of them, up to
# PAST_ANSWERS_BYTES in all.
PAST_ANSWERS_BYTES = 4 * 1024 * 1024
# Bump when the shape of pickled states changes for reasons the games' rules_version misses.
SNAPSHOT_FORMAT = "5"  # 2: (game state, platform state); 3: the platform state holds the seats; 4: clocks;
# 5: each seat's own decisions (the ratings' threshold)


@dataclass
class Game(Replaceable):  # with_: every move's fold makes one (issue 57)
    """A game as rebuilt at one version."""

    id: str
    definition: GameDef
    meta: dict[str, Any]
    seed: Any
    version: int
    state: Any  # None until the setup events
    snapshot_version: int = 0  # the version of the newest snapshot saved of this game
    last_at: int | None = None  # when the newest event was appended (ms), if this process read it
    platform: platform_events.Platform = platform_events.START  # what the platform events say

    @property
    def finished(self) -> bool:
        """Over: by the game's rules, or ended by the platform (abandoned)."""
        return self.platform.ended is not None or (
            self.dealt and self.definition.result(self.state) is not None)

    @property
    def dealt(self) -> bool:
        """The setup's events are all in: not waiting for people, nor a past version inside the
        setup a last claim started (its state is half dealt: no game's rules read one)."""
        return self.state is not None and self.version >= (self.platform.setup_version or 0)

    @property
    def status(self) -> str:
        return platform_events.status(self.platform, self._game_result())

    @property
    def result(self) -> dict[str, Any] | None:
        return platform_events.result(self.platform, self._game_result())

    @property
    def seats(self) -> tuple[Any, ...]:
        """Each seat's state (platform_events._seat): who sits there, bot, open, invite..."""
        return self.platform.seats

    @property
    def started(self) -> bool:
        return self.platform.started

    @property
    def setup_version(self) -> int | None:
        """The version after the server's setup events; None while the game waits for people."""
        if not self.platform.started:
            return None
        if self.platform.setup_version is not None:
            return self.platform.setup_version
        return int(self.meta["setup_version"])

    def seat_of_player(self, player_id: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s["player"] == player_id), None)

    def table_seats(self) -> list[int]:
        """The seats the creator's table token holds: those the creator named itself."""
        return [i for i, s in enumerate(self.seats) if s["creator"] and s["bot"] is None]

    def _game_result(self) -> dict[str, Any] | None:
        return self.definition.result(self.state) if self.dealt else None

    def actors(self) -> list[Any]:
        if not self.dealt or self.platform.ended is not None:
            return []
        return self.definition.actors(self.state)

    def bot_level(self, seat: int) -> str | None:
        """The bot level playing the seat: its own, or one that took it over (a person timed
        out or resigned); None when a person plays it."""
        s = self.seats[seat]
        level: str | None = s["bot"] or s.get("takeover")
        return level


def _span(seconds: float | None) -> str:
    if seconds is None:
        return "for a time"
    days = seconds / 86400
    return f"{days:g} days" if days >= 1 else f"{seconds:g} seconds"


def snapshot_code(definition: GameDef) -> str:
    return f"{definition.name}|{definition.rules_version}|{SNAPSHOT_FORMAT}"


class GameRepository:
    def __init__(self, store: EventStore, snapshot_every: int | None = None, retention_s: float | None = None):
        self.store = store
        # ARCHIVE_RETENTION_S: a finished game is gone this long after its end, for every
        # reader of every process at once (judged by the clock from its end, here and in the
        # archive's reads: events/archived_store.py), whatever a cache holds.
        self.retention_s = retention_s if retention_s is not None else getattr(store, "retention_s", None)
        self._ended: dict[str, int] = {}  # game -> when it ended (ms), for the games this process saw end
        # A snapshot every this many events (SNAPSHOT_EVERY, api/settings.py): any version of a
        # live game is at most this many events of replay from one.
        self.snapshot_every = snapshot_every or SNAPSHOT_EVERY
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._past: OrderedDict[tuple[str, int], tuple[Any, platform_events.Platform]] = OrderedDict()
        self._answers: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()  # (game id, ...) -> bytes
        self._answers_bytes = 0
        self.past_answers_bytes = PAST_ANSWERS_BYTES  # 0: none kept (bench/past_reads.py's "before")
        self._answers_lock = threading.Lock()
        self._meta: dict[str, tuple[Any, ...]] = {}
        self._credentials: dict[str, dict[str, Any]] = {}
        # warm: the games held are advanced by the appends other processes make (a web
        # process's, app.py: WARM_GAMES), by a listener started with the first game held
        # (events/redis_announcements.py) on a thread of its own, hence the lock on the cache.
        self.warm = False
        self._lock = threading.Lock()
        self._listener: Any = None
        self._listening_pid: int | None = None

    def meta(self, game_id: str, whatever_its_age: bool = False) -> tuple[Any, ...]:
        """(meta, definition, seats as created, seed) of a game: immutable once created, so cached.
        GameExpired past the retention, unless `whatever_its_age` (the archiver's own read)."""
        cached = self._meta.get(game_id)
        if cached:
            if not whatever_its_age:
                self.check_kept(game_id, self._ended.get(game_id))
            return cached
        if not is_game_id(game_id):  # before any key is built from it
            raise UnknownGame(f"There is no game '{game_id[:64]}'.")
        try:
            meta = self.store.meta(game_id)
        except Expired as e:
            self.check_kept(game_id, e.finished_at, force=True)
            raise
        if meta is None:
            raise UnknownGame(f"There is no game '{game_id}'.")
        return self._keep_meta(game_id, meta)

    def _keep_meta(self, game_id: str, meta: dict[str, Any]) -> tuple[Any, ...]:
        definition = registry.get(meta["type"])
        if definition is None:
            raise ApiError(f"Game '{game_id}' is of type '{meta['type']}', which this server no longer hosts.",
                           code=Code.GAME_TYPE_UNAVAILABLE, status=503)
        entry = self._meta[game_id] = (meta, definition, json.loads(meta["seats"]), json.loads(meta["seed"]))
        return entry

    def load(self, game_id: str, whatever_its_age: bool = False) -> Game:
        """The game at its current version: cached state + the events since, or snapshot +
        tail, or a full replay; a snapshot is saved once the tail grows long. GameExpired past
        the retention, unless `whatever_its_age`."""
        meta, definition, _, seed = self.meta(game_id, whatever_its_age)
        cached = self._cache.get(game_id)
        if cached is None:
            cached = self._cold_start(game_id, definition, meta, seed)
        tail = self.store.read(game_id, after=cached.version)
        if tail:
            state, platform, marks = self._replay(definition, tail, cached.state, cached.platform, cached.version)
            cached = replace(cached, version=tail[-1].version, state=state, platform=platform,
                             last_at=tail[-1].at)
            # Only a long replay's (a cold start far from a snapshot): a short tail's mark would
            # double the snapshots the appends' own (snapshot_if_due) already keep.
            if len(tail) >= self.snapshot_every and self._keep_marks(cached, marks):
                cached.snapshot_version = max(cached.snapshot_version, marks[-1][0])
        if cached.finished and cached.last_at and self.retention_s is not None:
            self._ended[game_id] = cached.last_at
            if not whatever_its_age:
                self.check_kept(game_id, cached.last_at)
        self.remember(cached)
        return cached

    def caught_up(self, game: Game, tail: list[Any] | None) -> Game | None:
        """`game` advanced by `tail` (stored events right after its version, as a refused
        append answers them: events/store.py's Conflict.events), kept as a load would keep it;
        None when there is no such tail (the caller loads)."""
        if not tail or tail[0].version != game.version + 1 or tail[-1].version != game.version + len(tail):
            return None
        state, platform, _ = self._replay(game.definition, tail, game.state, game.platform, game.version)
        caught = replace(game, version=tail[-1].version, state=state, platform=platform, last_at=tail[-1].at)
        if caught.finished and caught.last_at and self.retention_s is not None:
            self._ended[game.id] = caught.last_at
        self.remember(caught, snapshot=False)
        return caught

    def check_kept(self, game_id: str, ended_at: int | None, force: bool = False) -> None:
        """GameExpired for a game that ended (at `ended_at`, ms) longer ago than the retention
        (`force`: the store said so); for a state held elsewhere (a live feed) too."""
        retention = self.retention_s
        if ended_at is None or (retention is None and not force):
            return
        if force or (retention is not None and time.time() * 1000 >= ended_at + retention * 1000):
            self._meta.pop(game_id, None)
            self._cache.pop(game_id, None)
            ended = time.strftime("%Y-%m-%d", time.gmtime(ended_at / 1000))
            raise GameExpired(f"Game '{game_id}' ended on {ended} (UTC); finished games are kept "
                              f"{_span(self.retention_s)} after their end, and it is no longer kept.")

    def _replay(self, definition: GameDef, events: list[Any], state: Any, platform: platform_events.Platform,
                start: int) -> tuple[Any, platform_events.Platform, list[tuple[Any, ...]]]:
        """Folds `events` (versions start+1 on) as fold_stored does, noting (version, state,
        platform) at each multiple of snapshot_every passed before the last event: a history
        that has no snapshots there (grown by appends no process snapshotted, or by an older
        server) gets them from its first replay, so the next read of any version is short."""
        every, marks, version, i = self.snapshot_every, [], start, 0
        while i < len(events):
            segment = events[i:i + (version // every + 1) * every - version]
            state, platform = platform_events.fold_stored(definition, segment, state, platform)
            version, i = version + len(segment), i + len(segment)
            if i < len(events) and version % every == 0 and state is not None:
                marks.append((version, state, platform))
        return state, platform, marks

    def _keep_marks(self, now: Game, marks: list[tuple[Any, ...]]) -> bool:
        """Saves the states a replay noted, if `now` (the game as it is) is live and unclocked:
        a finished game's snapshots are dropped at its end, and a mark may fall inside one
        append's events, where a clocked game's clock step is not yet taken."""
        if not marks or now.finished or now.platform.clock is not None:
            return False
        self.store.save_snapshots(now.id, snapshot_code(now.definition), [
            (version, pickle.dumps((state, platform), protocol=pickle.HIGHEST_PROTOCOL))
            for version, state, platform in marks if platform.clock is None])
        return True

    def created(self, game_id: str, meta: dict[str, Any], credentials: dict[str, Any], events: list[Any],
                at: int | None = None) -> Game:
        """Caches a game this process has just created (its events: NewEvent), as a load would
        find it, without reading back what it wrote (a new game's first requests usually come
        to its creator's process: that saves them four round trips)."""
        _, definition, _, seed = self._keep_meta(game_id, meta)
        self._credentials[game_id] = dict(credentials)
        game = advanced(Game(game_id, definition, meta, seed, 0, None), events, at)
        self.remember(game)
        return game

    def _cold_start(self, game_id: str, definition: GameDef, meta: dict[str, Any], seed: Any) -> Game:
        snapshot = self.store.load_snapshot(game_id, snapshot_code(definition))
        if snapshot is not None:
            version, blob = snapshot
            state, platform = pickle.loads(blob)
            return Game(game_id, definition, meta, seed, version, state, snapshot_version=version, platform=platform)
        return Game(game_id, definition, meta, seed, 0, None)

    def remember(self, game: Game, snapshot: bool = True) -> None:
        """Keeps a game's newest state (and snapshots it every SNAPSHOT_EVERY versions, unless
        the caller will: `snapshot_if_due`)."""
        with self._lock:  # the check and the replacement at once: never a newer version lost
            cached = self._cache.get(game.id)
            if cached is not None and cached.version > game.version:
                return  # another request of this process already saw a newer version
            if cached is not None and cached.snapshot_version > game.snapshot_version:
                game.snapshot_version = cached.snapshot_version  # saved after `game` was folded from it
            self._cache[game.id] = game
            self._cache.move_to_end(game.id)
            while len(self._cache) > CACHE_SIZE:
                evicted, _ = self._cache.popitem(last=False)
                # Meta and credentials go with the state, so no cache of a process grows unbounded.
                self._meta.pop(evicted, None)
                self._credentials.pop(evicted, None)
        if self.warm and self._listening_pid != os.getpid():
            self._listen()
        if snapshot:
            self.snapshot_if_due(game)

    def _listen(self) -> None:
        """Starts this process's listener to the appends (once per process: a forked child
        starts its own). It holds the repository weakly: a dropped repository (a test's app)
        ends it."""
        with self._lock:
            if self._listening_pid == os.getpid():
                return
            self._listening_pid = os.getpid()
        listen = getattr(self.store, "listen_appends", None)  # the Redis stores' (not the memory twin's)
        if listen is None:
            return
        me = weakref.ref(self)

        def wanted(game_id: str, first: int) -> bool:
            repository = me()
            held = repository._cache.get(game_id) if repository is not None else None
            return held is not None and held.version == first - 1

        def deliver(game_id: str, events: list[Any]) -> None:
            repository = me()
            if repository is not None:
                repository.warmed(game_id, events)

        self._listener = listen(wanted, deliver, lambda: me() is not None)

    def warmed(self, game_id: str, events: list[Any]) -> Game | None:
        """Advances the game held by `events` (an append another process made) when they come
        right after its version; a gap leaves it as it is (the next request reads what it lacks)."""
        held = self._cache.get(game_id)
        return self.caught_up(held, events) if held is not None else None

    def stop_warming(self) -> None:
        """Stops the listener (tests: the appends told no more; the cache falls behind)."""
        if self._listener is not None:
            self._listener.stop()

    def listening(self) -> bool:
        """Whether the listener is subscribed now (tests wait for it)."""
        return self._listener is not None and self._listener.subscribed.is_set()

    def snapshot_if_due(self, game: Game) -> None:
        held = self._cache.get(game.id)  # newer, maybe, and marked by a snapshot that ended after `game` was held
        marked = max(game.snapshot_version, held.snapshot_version if held is not None else 0)
        if game.state is not None and game.version - marked >= self.snapshot_every and not game.finished:
            self.snapshot(game)

    def snapshot(self, game: Game) -> None:
        """Saves a game's state as a cache (never for a finished game: its snapshots are dropped
        when it ends, and its rare reads replay it)."""
        if game.state is None or game.finished:
            return
        self.store.save_snapshot(game.id, game.version, snapshot_code(game.definition),
                                 pickle.dumps((game.state, game.platform), protocol=pickle.HIGHEST_PROTOCOL))
        self._saved(game)

    def _saved(self, game: Game) -> None:
        """Marks the snapshot of `game` on it and on the game held now, when that is newer. The
        step runs after the move's answer (api/games/deferred.py), often while the next move of the
        game is already folded from `game`: a mark on `game` alone came too late for that next
        state, whose snapshot then fell due again at once, and a moving game was snapshotted at
        every move past the first SNAPSHOT_EVERY (a pickle and a round trip each; issue 57).
        `remember` carries the mark forward from the game it replaces."""
        game.snapshot_version = max(game.snapshot_version, game.version)
        with self._lock:
            held = self._cache.get(game.id)
            if held is not None and held.version >= game.version and held.snapshot_version < game.version:
                held.snapshot_version = game.version

    def forget(self, game_id: str) -> None:
        """Drops the process cache of a game (tests and benchmarks of cold reads), its past folds
        and past answers too."""
        self._cache.pop(game_id, None)
        for key in [k for k in self._past if k[0] == game_id]:
            self._past.pop(key, None)
        with self._answers_lock:
            for key in [k for k in self._answers if k[0] == game_id]:
                self._answers_bytes -= len(self._answers.pop(key))

    def past_answer(self, game_id: str, viewer: Viewer, *what: Hashable) -> bytes | None:
        """The bytes kept for the game's read `what` as `viewer` saw it, if any
        (PAST_ANSWERS_BYTES). The viewer is a required part of every key (here, not in each
        route), so a read kept for one viewer is never answered to another."""
        key = (game_id, viewer, *what)
        with self._answers_lock:
            found = self._answers.get(key)
            if found is not None:
                self._answers.move_to_end(key)
            return found

    def keep_past_answer(self, body: bytes, game_id: str, viewer: Viewer, *what: Hashable) -> None:
        """Keeps the bytes of a read that never changes, under the game, its viewer and `what`:
        everything else the bytes are a function of (the version or page, the seat, a language)."""
        if len(body) > self.past_answers_bytes // 8:
            return
        key = (game_id, viewer, *what)
        with self._answers_lock:
            old = self._answers.pop(key, None)
            self._answers_bytes += len(body) - (len(old) if old is not None else 0)
            self._answers[key] = body
            while self._answers_bytes > self.past_answers_bytes:
                self._answers_bytes -= len(self._answers.popitem(last=False)[1])

    def check_version(self, current: Game, version: int) -> None:
        """404 (version_out_of_range) unless `version` is in the game's history."""
        # A game that waited for people has no deal before its setup: its earlier versions
        # still exist (who sat where), with no view.
        setup_version = current.setup_version
        if setup_version is None or current.platform.setup_version is not None:
            setup_version = 1  # it waited (or waits) for people
        if not setup_version <= version <= current.version:
            raise ValidationFailed(
                f"Version {version} is outside this game's history ({setup_version} to {current.version}).",
                code=Code.VERSION_OUT_OF_RANGE, status=404, version=current.version)

    def at_version(self, game_id: str, version: int, current: Game | None = None) -> Game:
        """The game as it was at `version` (a replay of the events up to it); `current`: the
        game as just loaded, if the caller has it (saves reading its tail again)."""
        current = current if current is not None and current.id == game_id else self.load(game_id)
        self.check_version(current, version)
        if version == current.version:
            return current
        near = self._near_past(game_id, version)
        if near is not None:
            start, (state, platform) = near
            if start < version:
                events = self.store.read(game_id, after=start, limit=version - start)
                state, platform = platform_events.fold_stored(current.definition, events, state, platform)
                self._keep_past(game_id, version, state, platform)
            return replace(current, version=version, state=state, platform=platform)
        # From the newest snapshot at or before `version` (one every snapshot_every events),
        # so reading any point of a long live game costs at most snapshot_every events of replay.
        state, platform, start = None, platform_events.START, 0
        snapshot = self.store.load_snapshot(game_id, snapshot_code(current.definition), at_most=version)
        if snapshot is not None:
            start, (state, platform) = snapshot[0], pickle.loads(snapshot[1])
        events = self.store.read(game_id, after=start, limit=version - start)
        # The multiples of snapshot_every passed are kept (not for a finished or clocked game):
        # the next read near here replays less than snapshot_every events.
        state, platform, marks = self._replay(current.definition, events, state, platform, start)
        if not self._keep_marks(current, marks):
            # A finished game keeps no snapshots (an archived one has none at all): the marks its
            # replay passed are kept here, so a later read of another far version of it replays
            # from the nearest one (at most snapshot_every events), not from its start.
            for mark, mark_state, mark_platform in marks:
                self._keep_past(game_id, mark, mark_state, mark_platform)
        self._keep_past(game_id, version, state, platform)
        return replace(current, version=version, state=state, snapshot_version=start, platform=platform)

    def _near_past(self, game_id: str, version: int) -> tuple[int, tuple[Any, platform_events.Platform]] | None:
        """The newest fold kept at `version` or up to PAST_WINDOW versions before it, else at the
        multiple of snapshot_every below it (a mark a finished game's replay kept: at_version)."""
        mark = version // self.snapshot_every * self.snapshot_every
        nearest = range(version, max(0, version - PAST_WINDOW) - 1, -1)
        for v in (*nearest, mark) if mark > 0 and mark < version - PAST_WINDOW else nearest:
            found = self._past.get((game_id, v))
            if found is not None:
                try:
                    self._past.move_to_end((game_id, v))
                except KeyError:  # evicted by another request meanwhile: still a good fold
                    pass
                return v, found
        return None

    def _keep_past(self, game_id: str, version: int, state: Any, platform: platform_events.Platform) -> None:
        self._past[(game_id, version)] = (state, platform)
        while len(self._past) > PAST_CACHE_SIZE:
            self._past.popitem(last=False)

    def cached(self, game_id: str) -> Game | None:
        """The newest state this process has seen of a game (it may be behind the store)."""
        return self._cache.get(game_id)

    def credentials(self, game_id: str) -> dict[str, Any]:
        """The token hashes given at creation (the creator's seats, its table token): immutable,
        so cached. Claimed seats' hashes are in the game's platform state (Seats)."""
        creds = self._credentials.get(game_id)
        if creds is None:
            self.meta(game_id)
            creds = self._credentials[game_id] = self.store.credentials(game_id)
        return creds


class _Stored:
    """A NewEvent as fold_stored reads it."""

    __slots__ = ("type", "data", "actor", "at")

    def __init__(self, type_: str, data: dict[str, Any], actor: object = None, at: int | None = None) -> None:
        self.type, self.data, self.actor, self.at = type_, data, actor, at


def advanced(game: Game, events: list[Any], at: int | None = None) -> Game:
    """The game after `events` (NewEvent or StoredEvent: .type and .data), game and platform
    events alike, as a load would fold them after they are appended."""
    if not events:
        return game
    state, platform = platform_events.fold_stored(
        game.definition, [_Stored(e.type, e.data, e.actor, getattr(e, "at", None) or at) for e in events],
        game.state, game.platform)
    return game.with_(version=game.version + len(events), state=state, platform=platform,
                      last_at=at if at is not None else game.last_at)
