"""The few names this package takes from the shared contract (one import point)."""
from ..contract import EVERYONE, SPECTATOR, SYSTEM, GameDef, InvalidOptions, MoveRejected, Option, is_seat

__all__ = ["EVERYONE", "SPECTATOR", "SYSTEM", "GameDef", "InvalidOptions", "MoveRejected", "Option", "is_seat"]
