"""The few names this package takes from the shared contract (one import point)."""
from ..contract import (
    EVERY_TYPE,
    EVERYONE,
    SPECTATOR,
    SYSTEM,
    Actor,
    AllBut,
    Event,
    GameDef,
    InvalidOptions,
    Move,
    MoveRejected,
    Option,
    Viewer,
    is_seat,
)

__all__ = ["EVERY_TYPE", "AllBut", "EVERYONE", "SPECTATOR", "SYSTEM", "Actor", "Event", "GameDef", "InvalidOptions",
           "Move", "MoveRejected", "Option", "Viewer", "is_seat"]
