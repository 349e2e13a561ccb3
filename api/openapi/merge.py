"""Merges each game's OpenAPI fragment (api/openapi/<game>.yaml) into openapi.yaml.

    python api/openapi/merge.py

Everything in openapi.yaml after the GAME SCHEMAS marker is rewritten: each fragment's
schemas (their text as written, comments and all) and the `x-games` map that names each
game's five schemas. A test fails when openapi.yaml is out of date with the fragments.
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
SPEC = HERE.parent.parent / "openapi.yaml"
MARKER = "    # ---- GAME SCHEMAS: generated from api/openapi/*.yaml by api/openapi/merge.py ----\n"
PARTS = ("options", "move", "view", "event", "result")


def fragments() -> list[tuple[str, str, str]]:
    """(game name, schema prefix, schemas text) for each fragment, sorted by game name."""
    found = []
    for path in sorted(HERE.glob("*.yaml")):
        text = path.read_text()
        schemas = yaml.safe_load(text)["components"]["schemas"]
        prefix = next(n[: -len("Options")] for n in schemas if n.endswith("Options"))
        body = text.split("\n  schemas:\n", 1)[1]
        found.append((path.stem, prefix, body.rstrip() + "\n"))
    return found


def merged_text() -> str:
    head = SPEC.read_text().split(MARKER, 1)[0]
    out = [head, MARKER]
    games = []
    for name, prefix, body in fragments():
        out.append(f"    # -- {name} --\n")
        out.append(body)
        games.append((name, prefix))
    out.append("# Each game's schemas by part; the tests check every response of a game against them.\n")
    out.append("x-games:\n")
    for name, prefix in games:
        parts = ", ".join(f"{part}: {prefix}{part.capitalize()}" for part in PARTS)
        out.append(f"  {name}: {{{parts}}}\n")
    return "".join(out)


if __name__ == "__main__":
    text = merged_text()
    if "--check" in sys.argv:
        sys.exit(0 if text == SPEC.read_text() else "openapi.yaml is out of date: run python api/openapi/merge.py")
    SPEC.write_text(text)
