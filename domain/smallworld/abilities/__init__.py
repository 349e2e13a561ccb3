"""The hooks of the races, powers and markers; importing this package registers them all
(in the registry of `hooks`, which the package's modules import and the engine reads)."""
from __future__ import annotations

from ..hooks import MARKERS, POWERS, RACES, Ability, Ctx, hook, hooks_for
from . import markers, powers, races  # noqa: F401  (registration by import)

__all__ = ["Ability", "Ctx", "MARKERS", "POWERS", "RACES", "hook", "hooks_for"]
