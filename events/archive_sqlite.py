"""The archive's embedded adapter: one SQLite file (the default: `archive.sqlite3` under
DATA_DIR), so `python app.py` needs no server. WAL mode: the web processes read while the
reconciler writes; each write is committed (synchronous=FULL) before it is acknowledged."""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .archive import ArchiveUnavailable
from .archive_sql import SqlArchive, backfill_log_positions

MIGRATIONS = (
    ("CREATE TABLE archived_games (position INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL UNIQUE, "
     "type TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL, private BOOLEAN NOT NULL, "
     "created_at BIGINT, finished_at BIGINT, summary TEXT NOT NULL, payload BLOB NOT NULL, "
     "raw_bytes BIGINT NOT NULL, archived_at BIGINT NOT NULL)",
     "CREATE INDEX archived_games_by_type ON archived_games (type, position)"),
    # 2: the harvest reads the archive in the finished log's order (the entries Redis trimmed)
    ("ALTER TABLE archived_games ADD COLUMN log_ms BIGINT", "ALTER TABLE archived_games ADD COLUMN log_seq BIGINT",
     backfill_log_positions, "CREATE INDEX archived_games_by_log ON archived_games (log_ms, log_seq)"),
    # 3: a zstd dictionary per game type (events/archive.py: train)
    ("CREATE TABLE archive_dictionaries (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL UNIQUE, "
     "dictionary BLOB NOT NULL, trained_on INTEGER NOT NULL, created_at BIGINT NOT NULL)",
     "ALTER TABLE archived_games ADD COLUMN dictionary BIGINT"),
    # 4: each deployment's games (KEY_PREFIX) apart, when several share one database
    ("ALTER TABLE archived_games ADD COLUMN namespace TEXT NOT NULL DEFAULT ''",
     "CREATE INDEX archived_games_by_namespace ON archived_games (namespace, log_ms, log_seq)",
     "CREATE INDEX archived_games_by_namespace_position ON archived_games (namespace, type, position)",
     "CREATE INDEX archived_games_by_namespace_end ON archived_games (namespace, finished_at)"),
    # 5: each record's checksums (SHA-256, hex) kept with it: a damaged row is told (events/archive.py: Damaged)
    ("ALTER TABLE archived_games ADD COLUMN summary_sha256 TEXT",
     "ALTER TABLE archived_games ADD COLUMN payload_sha256 TEXT"),
    # 6: a game's analysis kept with it (api/analysis/analyses.py: the JSON document Redis held)
    ("CREATE TABLE archived_analyses (game_id TEXT PRIMARY KEY, namespace TEXT NOT NULL, document BLOB NOT NULL, "
     "document_sha256 TEXT NOT NULL, archived_at BIGINT NOT NULL)",),
)


class SqliteArchive(SqlArchive):
    mark = "?"
    migrations = MIGRATIONS

    def __init__(self, path: str, namespace: str = ""):
        super().__init__(namespace)
        self.path = path
        self._identity: tuple[int, int] | None = None  # the file the connection opened (_identity)

    def _connect(self) -> sqlite3.Connection:
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        self._transaction(connection, self._migrate)
        return connection

    def _lock_migrations(self, cursor: Any) -> None:
        pass  # BEGIN IMMEDIATE (_transaction) already holds the file's write lock

    @staticmethod
    def _transaction(connection: sqlite3.Connection, work: Callable[[Any], Any]) -> Any:
        connection.execute("BEGIN IMMEDIATE")
        try:
            result = work(connection)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        return result

    def _guard(self, work: Callable[[Any], Any]) -> Any:
        """Runs work(connection) in a transaction. A connection is not kept past an error of the
        engine (a transaction left open by a failed COMMIT, a file that went bad then was made
        good), nor past its file being replaced (a repair that puts a mended copy in place): a
        kept one would answer from the old file, or fail, for as long as the process lives."""
        with self._lock:
            try:
                if self._connection is not None and self._identity != _identity(self.path):
                    self._drop()  # the file was replaced (or removed): open the one there now
                if self._connection is None:
                    self._connection = self._connect()
                    self._identity = _identity(self.path)
                return self._transaction(self._connection, work)
            except (sqlite3.Error, OSError) as e:  # OSError: its directory cannot be made
                self._drop()
                raise ArchiveUnavailable(f"archive {self.path}: {e}") from e

    def _reset(self) -> None:
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except sqlite3.Error:
                pass


def _identity(path: str) -> tuple[int, int] | None:
    """The file at `path` (device, inode); None if there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


if TYPE_CHECKING:
    from .archive import ArchiveStore
    _: type[ArchiveStore] = SqliteArchive  # mypy checks the adapter against the port
