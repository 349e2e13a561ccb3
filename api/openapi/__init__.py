"""The API's contract: openapi.yaml at the top and each game's fragment here (<game>.yaml)."""
from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

import yaml

# libyaml's parser with PyYAML's safe constructor: the same values as yaml.safe_load, parsed
# about 8 times faster (openapi.yaml, 356 KB: 1.76 s of CPU pure Python, 0.23 s with libyaml).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """A YAML document's value, as yaml.safe_load gives it."""
    return yaml.load(text, Loader=_LOADER)


# A block mapping's key line: its indent and key (plain, or quoted); what follows is its value.
_KEY = re.compile(r"""( *)("[^"]*"|'[^']*'|[^\s#"'-][^:#]*?|-[^\s:#][^:#]*?):(?=\s|$)""")
Keys = Sequence[str | Collection[str]]  # a path of keys from the top: a key, a set of them, or "*" (any)


def pruned(text: str, wanted: Sequence[Keys]) -> str:
    """The lines of a YAML document that hold the keys `wanted` names, with the keys above them
    (their other keys left out): parsed, the same values at those keys as the whole document's.
    Why: a web process keeps a few small tables from openapi.yaml (api/http/scopes.py's,
    deprecation.py's); the whole spec parsed fills ~15 MB for a moment and 230 ms of CPU, and
    leaves ~10 MB of a worker's RSS behind for good (measured, issue 57), where its pruned
    lines take a few hundred KB and milliseconds. A key above the wanted ones whose value is on its
    own line (a flow mapping) is kept whole. tests/signin/test_scopes.py and test_deprecation.py
    hold the tables made from the pruned lines to the whole spec's."""
    kept: list[str] = []
    above: list[tuple[int, str]] = []  # (indent, key) of the keys the line is under
    whole_below = left_out_below = None  # a kept key's indent (its lines all kept) / a key's left out
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            if whole_below is not None:
                kept.append(line)  # a blank line may belong to a kept block scalar
            continue
        indent = len(line) - len(stripped)
        if _under(whole_below, indent, stripped):
            kept.append(line)
            continue
        if _under(left_out_below, indent, stripped):
            continue
        whole_below = left_out_below = None
        match = _KEY.match(line)
        if match is None:
            continue  # a value at a level above the wanted keys (a list's item): not wanted
        while above and above[-1][0] >= indent:
            above.pop()
        key = match[2].strip("\"'") if match[2][0] in "\"'" else match[2]
        above.append((indent, key))
        found = _wanted([k for _, k in above], wanted)
        inline = line[match.end():].strip()
        if found == "above" and inline and not inline.startswith("#"):
            found = "whole"  # its value written on its line (a flow mapping): kept whole, more than is wanted
        if found == "whole":
            kept.append(line)
            whole_below = indent
        elif found == "above":
            kept.append(line[:match.end()])
        else:
            left_out_below = indent
    return "\n".join(kept) + "\n"


def _under(bound: int | None, indent: int, stripped: str) -> bool:
    """Whether a line of that indent is in the value of the key at indent `bound` (a list's
    items may stand at the key's own indent)."""
    return bound is not None and (indent > bound or (indent == bound and stripped[0] == "-"))


def _wanted(keys: list[str], wanted: Sequence[Keys]) -> str | None:
    """"whole": a wanted key; "above": a key with a wanted one below it; None: neither."""
    found = None
    for path in wanted:
        if len(keys) <= len(path) and all(p == "*" or (k == p if isinstance(p, str) else k in p)
                                          for k, p in zip(keys, path)):
            if len(keys) == len(path):
                return "whole"
            found = "above"
    return found
