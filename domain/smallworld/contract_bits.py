"""The few names this package takes from the shared contract (one import point)."""
from ..contract import (
    EVERY_TYPE,
    EVERYONE,
    SPECTATOR,
    SYSTEM,
    AllBut,
    GameDef,
    InvalidOptions,
    MoveRejected,
    Option,
    is_seat,
)

__all__ = ["EVERY_TYPE", "AllBut", "EVERYONE", "SPECTATOR", "SYSTEM", "GameDef", "InvalidOptions", "MoveRejected",
           "Option", "is_seat"]
