"""The spec of a server that hosts games besides the five (EXTRA_GAME_MODULES).

openapi.yaml's unions of the games' schemas (`Game`, `GameMove`, `GameEventData`) hold the five
games only: a variant whose `type` is any string (`ExtraGameMove`) would stop every TypeScript
client narrowing a union on `type` (`move.type === 'take_gems'` would still leave the extra
variant), so clients generated from the file would all need casts. A server that hosts more
games serves its spec (`GET /openapi.yaml`) with each union's extra variant appended, which is
then true of its answers; the schemas themselves are in openapi.yaml either way.
"""
from __future__ import annotations

import re

# Each union the operations reference: the variant a game without a schema here answers in.
EXTRA_VARIANTS = {"Game": "ExtraGame", "GameMove": "ExtraGameMove", "GameEventData": "ExtraGameEvent"}


def with_extra_games(text: str) -> str:
    """openapi.yaml's text (as api/openapi/merge.py writes it) with each union's extra variant
    appended to its list of variants (the union's last key, a block list), and without the
    union's `discriminator`."""
    for union, variant in EXTRA_VARIANTS.items():
        start = text.index(f"\n    {union}:\n") + 1
        end = re.compile(r"^ {0,4}\S", re.M).search(text, text.index("\n", start) + 1)
        cut = end.start() if end else len(text)
        if not text[:cut].endswith("'}\n"):
            raise ValueError(f"openapi.yaml: {union} does not end with its list of variants")
        # Its `discriminator` (`Game`'s) goes: OpenAPI 3.1 cannot map a type no mapping names.
        block = re.sub(r"^      discriminator:\n(?: {8,}.*\n)*", "", text[start:cut], flags=re.M)
        text = f"{text[:start]}{block}      - {{$ref: '#/components/schemas/{variant}'}}\n{text[cut:]}"
    return text


def served(text: str, hosted: list[str]) -> str:
    """The spec a server hosting the games named `hosted` serves: openapi.yaml's text, with the
    extra variants when one of them is not among the games it documents (`x-games`)."""
    documented = re.findall(r"^  ([a-z0-9-]+): \{options: ", text.split("\nx-games:\n", 1)[1], re.M)
    return with_extra_games(text) if set(hosted) - set(documented) else text
