"""Merges each game's OpenAPI fragment (api/openapi/<game>.yaml) into openapi.yaml.

    python api/openapi/merge.py

Everything in openapi.yaml after the GAME SCHEMAS marker is rewritten: each fragment's
schemas (their text as written, comments and all), `CreateGame` with one variant per game (its
seat counts and bot levels from the registry, its Options schema, the seed rule, and the
fragment's own `x-create` constraints), and the `x-games` map that names each game's five
schemas. A test fails when openapi.yaml is out of date with the fragments or the registry.
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
SPEC = HERE.parent.parent / "openapi.yaml"
if str(SPEC.parent) not in sys.path:  # run as a script: the registry is imported from the root
    sys.path.insert(0, str(SPEC.parent))
MARKER = "    # ---- GAME SCHEMAS: generated from api/openapi/*.yaml by api/openapi/merge.py ----\n"
PARTS = ("options", "move", "view", "event", "result")


def fragments() -> list[tuple[str, str, str, list]]:
    """(game name, schema prefix, schemas text, x-create constraints) for each fragment, sorted
    by game name."""
    found = []
    for path in sorted(HERE.glob("*.yaml")):
        text = path.read_text()
        loaded = yaml.safe_load(text)
        schemas = loaded["components"]["schemas"]
        prefix = next(n[: -len("Options")] for n in schemas if n.endswith("Options"))
        body = text.split("\n  schemas:\n", 1)[1]
        found.append((path.stem, prefix, body.rstrip() + "\n", loaded.get("x-create", [])))
    return found


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def create_variant(name: str, prefix: str, extra: list) -> dict:
    """What creating a game of this type takes: the request the server accepts, exactly."""
    from domain import registry

    game = registry.get(name)
    bot = {"type": "object", "required": ["bot"], "additionalProperties": False,
           "properties": {"bot": {"enum": list(game.bots)}}}
    seats = {"type": "array", "minItems": game.min_seats, "maxItems": game.max_seats,
             "items": {"oneOf": [_ref("PersonSeat"), bot, _ref("FreeSeat")]},
             # one seat at most is the creating player's own
             "contains": {"type": "object", "required": ["me"]}, "minContains": 0, "maxContains": 1}
    # A seed chosen by the client: only when every seat is a bot (the server's default).
    seed_rule = {"if": {"required": ["seed"], "properties": {"seed": {"not": {"type": "null"}}}},
                 "then": {"properties": {"seats": {"items": dict(bot)}}}}
    return {"type": "object", "description": f"Create a {game.title} game.", "required": ["type", "seats"],
            "additionalProperties": False,
            "properties": {"type": {"const": name}, "seats": seats, "options": _ref(f"{prefix}Options"),
                           "seed": _ref("ClientSeed"),
                           "private": {"type": "boolean", "description": "Not listed in the lobby."}},
            "allOf": [seed_rule, *extra]}


def _yaml(name: str, schema: dict) -> str:
    class NoAliases(yaml.SafeDumper):
        def ignore_aliases(self, data):
            return True

    text = yaml.dump({name: schema}, Dumper=NoAliases, default_flow_style=None, sort_keys=False, width=110)
    return "".join(f"    {line}\n" for line in text.splitlines())


def merged_text() -> str:
    head = SPEC.read_text().split(MARKER, 1)[0]
    out = [head, MARKER]
    games = []
    variants = []
    for name, prefix, body, extra in fragments():
        out.append(f"    # -- {name} --\n")
        out.append(body)
        games.append((name, prefix))
        variants.append((f"{prefix}CreateGame", create_variant(name, prefix, extra)))
    out.append("    # -- creating a game: one variant per game type --\n")
    out.append(_yaml("CreateGame", {"description": "A game to create; one variant per game type.",
                                    "oneOf": [_ref(n) for n, _ in variants]}))
    for variant_name, variant in variants:
        out.append(_yaml(variant_name, variant))
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
