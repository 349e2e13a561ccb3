"""The event store: one Redis stream per game, atomic appends, range reads, live reads and
snapshots. It knows nothing of games: events are opaque dicts with a type."""
from .store import (  # noqa: F401
    AppendResult,
    Conflict,
    DuplicateRequest,
    GameExists,
    StoredEvent,
    StoreUnavailable,
)
