"""Checking a game's creation options against what the game declares."""
from __future__ import annotations

from typing import Any

from api.errors import Code, ValidationFailed
from api.words import Wording
from domain.contract import GameDef, MoveRejected, Option


def merged_options(definition: GameDef, options: dict[str, Any], n_seats: int) -> dict[str, Any]:
    """The game's defaults overridden by `options`, each checked; then the game's own checks."""
    declared = {o.name: o for o in definition.options}
    unknown = sorted(set(options) - set(declared))
    if unknown:
        raise ValidationFailed(f"{definition.title} has no option {', '.join(unknown)}.",
                               code=Code.INVALID_OPTIONS, details={"unknown": unknown})
    merged = definition.default_options()
    for name, value in options.items():
        merged[name] = _checked(declared[name], value)
    try:
        definition.check_options(merged, n_seats)
    except MoveRejected as e:
        raise ValidationFailed(e.message, code=e.code, details=e.details,
                               wording=Wording.of(e, definition.name)) from e
    return merged


def _checked(option: Option, value: Any) -> Any:
    kind = option.type
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)  # 37.0 is the integer 37 in JSON (and in the JSON Schema of the options)
    ok = {"integer": isinstance(value, int) and not isinstance(value, bool),
          "boolean": isinstance(value, bool),
          "string": isinstance(value, str)}[kind]
    if not ok:
        raise ValidationFailed(f"Option '{option.name}' must be a {kind}.", code=Code.INVALID_OPTIONS)
    if option.choices is not None and value not in option.choices:
        raise ValidationFailed(
            f"Option '{option.name}' must be one of {', '.join(map(str, option.choices))}.", code=Code.INVALID_OPTIONS)
    if option.minimum is not None and value < option.minimum:
        raise ValidationFailed(f"Option '{option.name}' must be at least {option.minimum}.", code=Code.INVALID_OPTIONS)
    if option.maximum is not None and value > option.maximum:
        raise ValidationFailed(f"Option '{option.name}' must be at most {option.maximum}.", code=Code.INVALID_OPTIONS)
    return value
