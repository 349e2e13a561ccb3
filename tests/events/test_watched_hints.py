"""events/redis_base.py WatchedHints: what an append learnt of the game's webhook subscriptions,
answered for its version and the versions before it (their after-append steps often run after
the next append: issue 57), never for a version this process has not appended."""
from __future__ import annotations

from events.redis_base import WatchedHints


def test_a_version_is_answered_by_its_own_append_or_a_later_one():
    hints = WatchedHints()
    assert hints.at("g", 3) is None
    hints.note("g", 3, False)
    assert hints.at("g", 3) is False
    hints.note("g", 5, True)  # the next append, made before version 3's step ran
    assert hints.at("g", 3) is True and hints.at("g", 5) is True
    assert hints.at("g", 6) is None and hints.at("other", 3) is None
