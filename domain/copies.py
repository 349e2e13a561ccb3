"""`with_`: dataclasses.replace without the class's __init__ (the fields copied, the changes set),
for the values a hot path copies with a field or two changed. A dataclass's generated __init__
(and a frozen one's object.__setattr__ per field) costs several times the copy: Platform 3.0 ->
0.6 us, Game 1.1 -> 0.5 us (issue 57). No __post_init__ runs, so a class with one must not use it."""
from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any, Self


class Replaceable:
    """A dataclass's `with_(**changes)`: the same value as `dataclasses.replace(self, **changes)`,
    an unknown field a TypeError as there."""

    __slots__ = ()

    def with_(self, **changes: Any) -> Self:
        kind: type = type(self)
        names = _field_names(kind)
        if not names.issuperset(changes):
            raise TypeError(f"{kind.__name__} has no field {sorted(set(changes) - names)}")
        new: Self = object.__new__(kind)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new


@functools.cache
def _field_names(kind: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(kind))
