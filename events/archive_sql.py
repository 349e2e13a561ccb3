"""What the two SQL adapters of the archive share: the record's columns, the versioned
migrations, and the reads and writes in SQL both engines speak (events/archive_sqlite.py,
events/archive_postgres.py give the connection, the placeholders and the engine's own DDL)."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import zstandard

from . import codec
from .archive import DAMAGED_ENTRY, TRAIN_ON, ArchivedGame, Damaged, digest, pack, plain, raw_size, train, unpack

COLUMNS = ("game_id", "type", "status", "version", "private", "created_at", "finished_at", "summary", "payload",
           "raw_bytes", "archived_at", "log_ms", "log_seq", "dictionary", "namespace", "summary_sha256",
           "payload_sha256")


def log_position(entry_id: str | None) -> tuple[int | None, int | None]:
    """A finished-log entry id "<ms>-<n>" as the two numbers it sorts by (None, None: none)."""
    if not entry_id:
        return None, None
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def backfill_log_positions(cursor: Any, mark: str) -> None:
    """Migration 2's data step: the log positions of the games archived before it."""
    cursor.execute("SELECT game_id, summary FROM archived_games WHERE log_ms IS NULL")
    for game_id, summary in cursor.fetchall():
        ms, seq = log_position(codec.loads(summary).get("finished_log"))
        if ms is not None:
            cursor.execute(f"UPDATE archived_games SET log_ms = {mark}, log_seq = {mark} WHERE game_id = {mark}",
                           (ms, seq, game_id))


class SqlArchive:
    """An archive on a DB-API connection. `migrations`: the engine's DDL, migration N at index
    N-1 (applied once each, in order, recorded in archive_migrations); `mark`: its placeholder.
    `namespace`: the deployment's key prefix (KEY_PREFIX): deployments sharing one database
    each see their own games only (a game, the finished listing, the harvest)."""

    mark = "?"
    migrations: Sequence[Sequence[str | Callable[[Any, str], None]]] = ()

    def __init__(self, namespace: str = "") -> None:
        self.namespace = namespace
        self._lock = threading.Lock()  # one connection per process, one statement at a time
        self._connection: Any = None
        self._dictionaries: dict[int, bytes] = {}  # id -> dictionary: never changed once made
        self._of_type: dict[str, int] = {}  # game type -> its dictionary's id, once it has one

    # ---- the engine's ------------------------------------------------------------------------

    def _connect(self) -> Any:
        raise NotImplementedError

    def _guard(self, work: Callable[[Any], Any]) -> Any:
        """Runs work(connection) in a transaction; the engine's errors become StoreUnavailable."""
        raise NotImplementedError

    def _lock_migrations(self, cursor: Any) -> None:
        """Holds off another process's migration until this transaction ends."""

    def _reset(self) -> None:
        """Drops the connection (after a damaged read): the next call opens one afresh."""

    # ---- migrations ----------------------------------------------------------------------------

    def _migrate(self, connection: Any) -> None:
        cursor = connection.cursor()
        self._lock_migrations(cursor)
        cursor.execute("CREATE TABLE IF NOT EXISTS archive_migrations (version INTEGER PRIMARY KEY, "
                       "applied_at BIGINT NOT NULL)")
        cursor.execute("SELECT COALESCE(MAX(version), 0) FROM archive_migrations")
        done = int(cursor.fetchone()[0])
        for version, statements in enumerate(self.migrations[done:], start=done + 1):
            for statement in statements:
                if callable(statement):  # a data step, in the same transaction
                    statement(cursor, self.mark)
                else:
                    cursor.execute(statement)
            cursor.execute(f"INSERT INTO archive_migrations (version, applied_at) VALUES ({self.mark}, {self.mark})",
                           (version, int(time.time() * 1000)))

    def schema_version(self) -> int:
        return int(self._guard(lambda c: _one(c, "SELECT MAX(version) FROM archive_migrations")))

    # ---- the port --------------------------------------------------------------------------------

    def put(self, game: ArchivedGame) -> None:
        s = game.summary
        type_ = s.get("type", game.meta.get("type", ""))
        dictionary, payload = self._of_type.get(type_), pack(game)
        if dictionary is not None:  # the smaller of the two (a long game may do better on its own)
            with_it = pack(game, self._dictionary(dictionary))
            dictionary, payload = (dictionary, with_it) if len(with_it) < len(payload) else (None, payload)
        summary = codec.dumps(s)
        row = (game.game_id, type_, s.get("status", ""), game.version, bool(s.get("private")), s.get("created_at"),
               s.get("finished_at"), summary, payload, raw_size(game), int(time.time() * 1000),
               *log_position(s.get("finished_log") if s.get("harvest") else None), dictionary, self.namespace,
               digest(summary.encode()), digest(payload))
        marks = ", ".join([self.mark] * len(COLUMNS))
        updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[1:])
        sql = (f"INSERT INTO archived_games ({', '.join(COLUMNS)}) VALUES ({marks}) "
               f"ON CONFLICT (game_id) DO UPDATE SET {updates}")
        self._guard(lambda c: c.cursor().execute(sql, row))

    def get(self, game_id: str) -> ArchivedGame | None:
        def read(connection: Any) -> Any:
            cursor = connection.cursor()
            cursor.execute("SELECT payload, summary, dictionary, summary_sha256, payload_sha256 FROM archived_games "
                           f"WHERE game_id = {self.mark} AND namespace = {self.mark}", (game_id, self.namespace))
            return cursor.fetchone()
        found = self._guard(read)
        if found is None:
            return None
        try:
            return self._decoded(game_id, *found)
        except Damaged:
            self._reset()  # a connection that read a damaged page is not trusted with the repaired one
            raise

    def _decoded(self, game_id: str, payload: Any, summary: Any, dictionary: int | None, summary_sha256: str | None,
                 payload_sha256: str | None) -> ArchivedGame:
        """The record of a row; Damaged if a checksum does not match (a row written before the
        checksums were kept has none: only its decoding tells) or it cannot be decoded."""
        shown = _summary(game_id, summary, summary_sha256)
        payload = bytes(payload)
        if payload_sha256 is not None and digest(payload) != payload_sha256:
            raise Damaged(game_id, "its payload does not match its checksum", shown)
        if not payload:  # purged: its summary only (a tombstone)
            return ArchivedGame(game_id, {}, {}, (), shown)
        try:
            kept = self._dictionary(dictionary) if dictionary is not None else None
            return unpack(game_id, payload, shown, kept)
        except (LookupError, ValueError, TypeError, zstandard.ZstdError) as e:  # ZstdError, JSON, a missing key
            raise Damaged(game_id, f"its payload cannot be decoded ({type(e).__name__}: {e})", shown) from e

    def summary(self, game_id: str) -> dict[str, Any] | None:
        sql = (f"SELECT summary, summary_sha256 FROM archived_games WHERE game_id = {self.mark} "
               f"AND namespace = {self.mark}")
        found = self._guard(lambda c: _all(c, sql, (game_id, self.namespace)))
        return _summary(game_id, *found[0]) if found else None

    def put_analysis(self, game_id: str, document: bytes) -> None:
        sql = (f"INSERT INTO archived_analyses (game_id, namespace, document, document_sha256, archived_at) "
               f"VALUES ({self.mark}, {self.mark}, {self.mark}, {self.mark}, {self.mark}) ON CONFLICT (game_id) "
               "DO UPDATE SET namespace = excluded.namespace, document = excluded.document, "
               "document_sha256 = excluded.document_sha256, archived_at = excluded.archived_at")
        row = (game_id, self.namespace, document, digest(document), int(time.time() * 1000))
        self._guard(lambda c: c.cursor().execute(sql, row))

    def analysis(self, game_id: str) -> bytes | None:
        sql = (f"SELECT document, document_sha256 FROM archived_analyses WHERE game_id = {self.mark} "
               f"AND namespace = {self.mark}")
        found = self._guard(lambda c: _all(c, sql, (game_id, self.namespace)))
        if not found:
            return None
        document, sha256 = bytes(found[0][0]), found[0][1]
        if digest(document) != sha256:
            raise Damaged(game_id, "its analysis does not match its checksum")
        return document

    def has(self, game_id: str) -> bool:
        sql = f"SELECT 1 FROM archived_games WHERE game_id = {self.mark} AND namespace = {self.mark}"
        return self._guard(lambda c: _one(c, sql, (game_id, self.namespace), missing=None)) is not None

    def _sound(self, game_id: str) -> ArchivedGame | None:
        """The record, None if it is damaged (a dictionary is made from the sound ones)."""
        try:
            return self.get(game_id)
        except Damaged:
            return None

    def _dictionary(self, id_: int) -> bytes:
        kept = self._dictionaries.get(id_)
        if kept is None:
            sql = f"SELECT dictionary FROM archive_dictionaries WHERE id = {self.mark}"
            kept = self._dictionaries[id_] = bytes(self._guard(lambda c: _one(c, sql, (id_,))))
        return kept

    def train_dictionary(self, type_: str) -> bool:
        if type_ in self._of_type:
            return True
        known = self._guard(lambda c: _one(c, f"SELECT id FROM archive_dictionaries WHERE type = {self.mark}",
                                           (type_,), missing=None))
        if known is None:
            sql = (f"SELECT game_id FROM archived_games WHERE type = {self.mark} AND dictionary IS NULL "
                   f"AND namespace = {self.mark} ORDER BY position LIMIT {self.mark}")
            ids = [r[0] for r in self._guard(lambda c: _all(c, sql, (type_, self.namespace, TRAIN_ON)))]
            if len(ids) < TRAIN_ON:
                return False
            samples = [plain(g) for g in map(self._sound, ids) if g is not None]
            made = train(samples)
            insert = (f"INSERT INTO archive_dictionaries (type, dictionary, trained_on, created_at) VALUES "
                      f"({self.mark}, {self.mark}, {self.mark}, {self.mark}) ON CONFLICT (type) DO NOTHING")
            self._guard(lambda c: c.cursor().execute(insert, (type_, made, len(samples), int(time.time() * 1000))))
            known = self._guard(lambda c: _one(c, f"SELECT id FROM archive_dictionaries WHERE type = {self.mark}",
                                               (type_,)))  # ours, or another process's that won
        self._of_type[type_] = int(known)
        return True

    def finished(self, after: int, count: int, type_: str | None = None) -> list[tuple[int, dict[str, Any]]]:
        where = f"position > {self.mark} AND NOT private AND namespace = {self.mark}"
        args: list[Any] = [after, self.namespace]
        if type_ is not None:
            where, args = where + f" AND type = {self.mark}", [*args, type_]
        sql = f"SELECT position, summary FROM archived_games WHERE {where} ORDER BY position LIMIT {self.mark}"

        def read(connection: Any) -> Any:
            cursor = connection.cursor()
            cursor.execute(sql, (*args, count))
            return cursor.fetchall()
        return [(int(p), _listed(s)) for p, s in self._guard(read)]

    def finished_log(self, after: str, count: int) -> list[tuple[str, str, bytes]]:
        ms, seq = log_position(after) if after != "0" else (-1, -1)
        sql = (f"SELECT game_id, summary, summary_sha256, log_ms, log_seq FROM archived_games "
               f"WHERE namespace = {self.mark} AND log_ms IS NOT NULL "
               f"AND (log_ms > {self.mark} OR (log_ms = {self.mark} AND log_seq > {self.mark})) "
               f"ORDER BY log_ms, log_seq LIMIT {self.mark}")

        def read(connection: Any) -> Any:
            cursor = connection.cursor()
            cursor.execute(sql, (self.namespace, ms, ms, seq, count))
            return cursor.fetchall()
        listed: list[tuple[str, str, bytes]] = []
        for game_id, summary, summary_sha256, log_ms, log_seq in self._guard(read):
            try:
                s = _summary(game_id, summary, summary_sha256)
            except Damaged:  # its place in the log is its columns': the harvest passes it, saying so
                listed.append((f"{log_ms}-{log_seq}", game_id, DAMAGED_ENTRY))
                continue
            if s.get("harvest"):
                listed.append((s["finished_log"], game_id, s["harvest"].encode()))
        return listed

    def check(self, after: int, count: int) -> list[tuple[int, str, str | None]]:
        sql = ("SELECT position, game_id, payload, summary, dictionary, summary_sha256, payload_sha256 "
               f"FROM archived_games WHERE position > {self.mark} ORDER BY position LIMIT {self.mark}")
        found: list[tuple[int, str, str | None]] = []
        for position, game_id, *row in self._guard(lambda c: _all(c, sql, (after, count))):
            try:
                self._decoded(game_id, *row)
                found.append((int(position), game_id, None))
            except Damaged as e:
                found.append((int(position), game_id, e.reason))
        return found

    def purge(self, finished_before_ms: int, limit: int) -> int:
        pick = (f"SELECT game_id FROM archived_games WHERE namespace = {self.mark} AND finished_at < {self.mark} "
                f"AND LENGTH(payload) > 0 LIMIT {self.mark}")
        empty = b""

        def work(connection: Any) -> int:
            ids = [r[0] for r in _all(connection, pick, (self.namespace, finished_before_ms, limit))]
            cursor = connection.cursor()
            for game_id in ids:
                cursor.execute(f"UPDATE archived_games SET payload = {self.mark}, dictionary = NULL, "
                               f"payload_sha256 = {self.mark} WHERE game_id = {self.mark}",
                               (empty, digest(empty), game_id))
                cursor.execute(f"DELETE FROM archived_analyses WHERE game_id = {self.mark}", (game_id,))
            return len(ids)
        return int(self._guard(work))

    def stats(self) -> tuple[int, int, int]:
        sql = ("SELECT COUNT(*), COALESCE(SUM(raw_bytes), 0), COALESCE(SUM(LENGTH(payload)), 0) "
               f"FROM archived_games WHERE namespace = {self.mark}")

        def read(connection: Any) -> Any:
            cursor = connection.cursor()
            cursor.execute(sql, (self.namespace,))
            return cursor.fetchone()
        games, raw, kept = self._guard(read)
        return int(games), int(raw), int(kept)

    def ping(self) -> bool:
        return bool(self._guard(lambda c: _one(c, "SELECT 1")) == 1)

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None


def _summary(game_id: str, summary: Any, summary_sha256: str | None) -> dict[str, Any]:
    """A row's summary; Damaged if it does not match its checksum or is not a JSON object."""
    text = summary if isinstance(summary, str) else bytes(summary).decode("utf-8", "replace")
    if summary_sha256 is not None and digest(text.encode()) != summary_sha256:
        raise Damaged(game_id, "its summary does not match its checksum")
    try:
        found = codec.loads(text)
    except ValueError as e:
        raise Damaged(game_id, f"its summary is not JSON ({e})") from e
    if not isinstance(found, dict):
        raise Damaged(game_id, "its summary is not a JSON object")
    return found


def _listed(summary: Any) -> dict[str, Any]:
    """A summary as the finished list shows it: a damaged one as {"damaged": true}."""
    try:
        found = codec.loads(summary)
    except ValueError:
        return {"damaged": True}
    return found if isinstance(found, dict) else {"damaged": True}


def _one(connection: Any, sql: str, args: tuple[Any, ...] = (), missing: Any = LookupError) -> Any:
    cursor = connection.cursor()
    cursor.execute(sql, args)
    found = cursor.fetchone()
    if found is None:
        if missing is LookupError:
            raise LookupError(sql)
        return missing
    return found[0]


def _all(connection: Any, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    cursor = connection.cursor()
    cursor.execute(sql, args)
    return list(cursor.fetchall())
