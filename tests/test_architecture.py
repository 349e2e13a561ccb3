"""The direction of imports is the architecture: domain imports nothing of the rest, events
knows nothing of games, api and workers use both (and jobs never import the Flask app)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "domain": {"api", "events", "workers", "app", "flask", "redis", "rq", "marshmallow", "time", "os", "socket"},
    "events": {"domain", "api", "workers", "app", "flask", "marshmallow"},
    "workers": {"app", "flask"},
}


def _imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_imports_point_inwards():
    for package, forbidden in FORBIDDEN.items():
        for path in (ROOT / package).rglob("*.py"):
            bad = set(_imports(path)) & forbidden
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_what_workers_share_with_the_api_has_no_flask():
    for module in ("games/service.py", "games/repository.py", "games/presenting.py", "games/options.py", "errors.py",
                   "games/callers.py", "platform/events.py", "players/accounts.py", "seating/claims.py",
                   "lobby/index.py", "players/feed.py"):
        assert "flask" not in set(_imports(ROOT / "api" / module)), module


def test_the_live_hub_has_no_flask():
    for path in (ROOT / "api" / "live").rglob("*.py"):
        assert "flask" not in set(_imports(path)), path.name
