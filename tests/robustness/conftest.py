"""Fixtures of the robustness suite: one real `python app.py` (gunicorn + gevent, two RQ
workers, the reconciler) against the session's Redis, shared by the modules that need HTTP."""
from __future__ import annotations

import uuid

import pytest

from tests.robustness.servers import ApiServer


@pytest.fixture(scope="session")
def api(redis_url, tmp_path_factory):
    prefix = f"rob{uuid.uuid4().hex[:6]}:"
    server = ApiServer(redis_url, prefix, tmp_path_factory.mktemp("api-logs"))
    server.start()
    yield server
    server.stop()
