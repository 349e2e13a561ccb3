"""The archive on PostgreSQL (`ARCHIVE_URL=postgresql://...`), through psycopg 3: the engine
people scale and replicate. The schema is made and migrated on first use, under an advisory
lock (several nodes starting at once migrate once). A lost connection is dropped and made again
at the next call: reads answer 503 while the server is down and recover by themselves."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import psycopg

from .archive import ArchiveUnavailable
from .archive_sql import SqlArchive, backfill_log_positions

MIGRATION_LOCK = 31_031  # pg_advisory_xact_lock's key for this schema's migrations
MIGRATIONS = (
    ("CREATE TABLE archived_games (position BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
     "game_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL, "
     "private BOOLEAN NOT NULL, created_at BIGINT, finished_at BIGINT, summary TEXT NOT NULL, "
     "payload BYTEA NOT NULL, raw_bytes BIGINT NOT NULL, archived_at BIGINT NOT NULL)",
     "CREATE INDEX archived_games_by_type ON archived_games (type, position)"),
    # 2: the harvest reads the archive in the finished log's order (the entries Redis trimmed)
    ("ALTER TABLE archived_games ADD COLUMN log_ms BIGINT", "ALTER TABLE archived_games ADD COLUMN log_seq BIGINT",
     backfill_log_positions, "CREATE INDEX archived_games_by_log ON archived_games (log_ms, log_seq)"),
    # 3: a zstd dictionary per game type (events/archive.py: train)
    ("CREATE TABLE archive_dictionaries (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
     "type TEXT NOT NULL UNIQUE, dictionary BYTEA NOT NULL, trained_on INTEGER NOT NULL, created_at BIGINT NOT NULL)",
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
    ("CREATE TABLE archived_analyses (game_id TEXT PRIMARY KEY, namespace TEXT NOT NULL, document BYTEA NOT NULL, "
     "document_sha256 TEXT NOT NULL, archived_at BIGINT NOT NULL)",),
)


class PostgresArchive(SqlArchive):
    mark = "%s"
    migrations = MIGRATIONS

    def __init__(self, url: str, connect_timeout_s: int = 5, namespace: str = ""):
        super().__init__(namespace)
        self.url = url
        self.connect_timeout_s = connect_timeout_s

    def _connect(self) -> psycopg.Connection:
        connection = psycopg.connect(self.url, connect_timeout=self.connect_timeout_s)
        with connection.transaction():
            self._migrate(connection)
        return connection

    def _lock_migrations(self, cursor: Any) -> None:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))

    def _guard(self, work: Callable[[Any], Any]) -> Any:
        with self._lock:
            try:
                if self._connection is None or self._connection.closed:
                    self._connection = self._connect()
                with self._connection.transaction():
                    return work(self._connection)
            except psycopg.OperationalError as e:
                self._drop()
                raise ArchiveUnavailable(f"archive: {e}") from e
            except psycopg.Error:
                self._drop()  # the next call starts from a fresh connection
                raise

    def _drop(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            finally:
                self._connection = None


if TYPE_CHECKING:
    from .archive import ArchiveStore
    _: type[ArchiveStore] = PostgresArchive  # mypy checks the adapter against the port
