"""The archive's backends for the tests: a SQLite file of the test's own, and a database of its
own on the real PostgreSQL server (POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432:
created for the session, dropped after it). Without a server the PostgreSQL tests are skipped,
saying so; with REQUIRE_POSTGRES=1 (CI: .ci/run) they fail instead."""
from __future__ import annotations

import os
import uuid

import pytest

from events.archives import open_archive

SERVER = os.environ.get("POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432")


@pytest.fixture(scope="session")
def postgres_url():
    import psycopg

    name = f"archive_test_{uuid.uuid4().hex[:10]}"
    try:
        admin = psycopg.connect(f"{SERVER}/postgres", autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        message = f"no PostgreSQL at {SERVER} ({e}): the archive's PostgreSQL adapter is not tested"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{SERVER}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # ours only: made above
        admin.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.process)])
def archive_url(request, tmp_path):
    """An empty archive's URL, of each engine (PostgreSQL: a schema of the test's own; the
    `process` tier, as `postgres_url` is in tests/tiers.py: asked for here only when needed)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/archive.sqlite3"
    base = request.getfixturevalue("postgres_url")
    schema = f"t{uuid.uuid4().hex[:10]}"
    import psycopg

    with psycopg.connect(base, autocommit=True) as c:
        c.execute(f"CREATE SCHEMA {schema}")
    return f"{base}?options=-csearch_path%3D{schema}"


@pytest.fixture
def archive(archive_url):
    found = open_archive(archive_url)
    yield found
    found.close()
