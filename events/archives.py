"""Open the archive a URL names: the adapters' choice, kept out of the port (events/archive.py),
which the adapters import."""
from __future__ import annotations

import os

from .archive import ArchiveStore
from .archive_sqlite import SqliteArchive


def open_archive(url: str = "", data_dir: str | None = None, namespace: str = "") -> ArchiveStore:
    """The archive `url` names: `postgresql://...`, `sqlite:///<path>`, or "" (a SQLite file
    `archive.sqlite3` under DATA_DIR, default ./var/redis, as the local Redis's); of the
    deployment `namespace` (its KEY_PREFIX: several may share one database)."""
    if url.startswith(("postgresql://", "postgres://")):
        from .archive_postgres import PostgresArchive  # psycopg loaded only where it is used
        return PostgresArchive(url, namespace=namespace)
    if url.startswith("sqlite:///"):
        return SqliteArchive(url[len("sqlite:///"):], namespace)
    if url:
        raise ValueError(f"ARCHIVE_URL {url!r}: use postgresql://... or sqlite:///<path>")
    directory = data_dir or os.environ.get("DATA_DIR") or os.path.join(".", "var", "redis")
    return SqliteArchive(os.path.join(directory, "archive.sqlite3"), namespace)
