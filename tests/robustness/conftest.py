"""Fixtures of the robustness suite: the session's `python app.py` (tests/conftest.py
`app_server`: gunicorn + gevent, two RQ workers, the reconciler) against the session's Redis,
shared by the modules that need HTTP, and by the other suites' `http_server` tests."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def api(app_server):
    return app_server
