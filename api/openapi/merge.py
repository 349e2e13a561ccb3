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
from typing import TYPE_CHECKING, Any

import yaml

from api.openapi import load_yaml

if TYPE_CHECKING:
    from domain.contract import GameDef

HERE = Path(__file__).resolve().parent
SPEC = HERE.parent.parent / "openapi.yaml"
if str(SPEC.parent) not in sys.path:  # run as a script: the registry is imported from the root
    sys.path.insert(0, str(SPEC.parent))
MARKER = "    # ---- GAME SCHEMAS: generated from api/openapi/*.yaml by api/openapi/merge.py ----\n"
# The extra variants are kept out of the unions: every generated TypeScript client would lose
# narrowing on `type` to a variant whose `type` is any string.
HOSTED_EXTRA = "EXTRA_GAME_MODULES; its `GET /openapi.yaml` then lists it here"
PARTS = ("options", "move", "view", "event", "result")
# The server's own events (their schemas are in openapi.yaml's head) by schema: their type.
PLATFORM_EVENTS = {"GameCreated": "game_created", "GameAbandoned": "game_abandoned", "SeatClaimed": "seat_claimed",
                   "SeatLeft": "seat_left", "SeatsFilled": "seats_filled", "RematchCreated": "rematch_created",
                   "SeatTimedOut": "seat_timed_out", "SeatTakenByBot": "seat_taken_by_bot",
                   "SeatReturned": "seat_returned", "SeatResigned": "seat_resigned", "GameAborted": "game_aborted",
                   "ClockPaused": "clock_paused", "ClockResumed": "clock_resumed", "PauseAgreed": "pause_agreed",
                   "PauseWithdrawn": "pause_withdrawn"}


def fragments() -> list[tuple[str, str, str, list[Any]]]:
    """(game name, schema prefix, schemas text, x-create constraints) for each fragment, sorted
    by game name."""
    found = []
    for path in sorted(HERE.glob("*.yaml")):
        text = path.read_text()
        loaded = load_yaml(text)
        schemas = loaded["components"]["schemas"]
        prefix = next(n[: -len("Options")] for n in schemas if n.endswith("Options"))
        body = text.split("\n  schemas:\n", 1)[1]
        found.append((path.stem, prefix, body.rstrip() + "\n", loaded.get("x-create", [])))
    return found


def _game(name: str) -> GameDef:
    """The registered game a fragment is named after (api/openapi/<name>.yaml)."""
    from domain import registry

    game = registry.get(name)
    if game is None:
        raise LookupError(f"api/openapi/{name}.yaml: no game named {name!r} is registered")
    return game


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def create_variant(name: str, prefix: str, extra: list[Any]) -> dict[str, Any]:
    """What creating a game of this type takes: the request the server accepts, exactly."""
    game = _game(name)
    bot = _ref(f"{prefix}BotSeat")
    seats = {"type": "array", "minItems": game.min_seats, "maxItems": game.max_seats,
             "items": {"oneOf": [_ref("PersonSeat"), bot, _ref("FreeSeat")]},
             # one seat at most is the creating player's own
             "contains": {"type": "object", "required": ["me"]}, "minContains": 0, "maxContains": 1}
    # A seed chosen by the client: only when every seat is a bot (the server's default).
    seed_rule = {"if": {"required": ["seed"], "properties": {"seed": {"not": {"type": "null"}}}},
                 "then": {"properties": {"seats": {"items": dict(bot)}}}}
    return {"type": "object", "description": f"Create a {game.title} game.", "required": ["type", "seats"],
            "additionalProperties": False,
            "properties": {"type": {"type": "string", "const": name}, "seats": seats,
                           "options": _ref(f"{prefix}Options"),
                           "seed": _ref("ClientSeed"),
                           "private": {"type": "boolean", "description": "Not listed in the lobby."},
                           "rated": {"type": "boolean", "default": True, "description":
                                     "false: a casual game, never rated (a game with an anonymous seat never is)."},
                           "clock": {"description": "A turn clock for the people's decisions (none: untimed).",
                                     "oneOf": [{"type": "null"}, _ref(f"{prefix}Clock")]}},
            "allOf": [seed_rule, *extra]}


def bot_seat(name: str) -> dict[str, Any]:
    """A seat played by one of the game's bots."""
    game = _game(name)
    return {"type": "object", "description": f"A seat played by a {game.title} bot.",
            "required": ["bot"], "additionalProperties": False,
            "properties": {"bot": {"enum": list(game.bots)}}}


def clock_schema(name: str) -> dict[str, Any]:
    """The `clock` a game is created with: `Clock` (openapi.yaml's head), its takeover bot one of
    the game's levels (written out whole: generators take no enum narrowing a string by allOf)."""
    game = _game(name)
    return {"type": "object", "description": f"A turn clock for a {game.title} game (see `Clock`).",
            "additionalProperties": False,
            "properties": {"per_move_s": {"type": "number", "minimum": 1, "maximum": 604800},
                           "days_per_move": {"type": "integer", "minimum": 1, "maximum": 14},
                           "initial_s": {"type": "number", "minimum": 1, "maximum": 604800},
                           "increment_s": {"type": "number", "minimum": 0, "maximum": 3600},
                           "on_timeout": {"enum": ["bot", "forfeit"]},
                           "takeover_bot": {"type": "string", "enum": list(game.bots)}},
            "oneOf": [{"required": ["per_move_s"],
                       "not": {"anyOf": [{"required": ["initial_s"]}, {"required": ["increment_s"]},
                                         {"required": ["days_per_move"]}]}},
                      {"required": ["days_per_move"],
                       "not": {"anyOf": [{"required": ["per_move_s"]}, {"required": ["initial_s"]},
                                         {"required": ["increment_s"]}]}},
                      {"required": ["initial_s"],
                       "not": {"anyOf": [{"required": ["per_move_s"]}, {"required": ["days_per_move"]}]}}]}


def _yaml(name: str, schema: dict[str, Any]) -> str:
    class NoAliases(yaml.SafeDumper):
        def ignore_aliases(self, data: object) -> bool:
            return True

    text = yaml.dump({name: schema}, Dumper=NoAliases, default_flow_style=None, sort_keys=False, width=110)
    return "".join(f"    {line}\n" for line in text.splitlines())


def _union_values(schemas: dict[str, Any], name: str) -> list[str]:
    """Every `type` a game's union holds (its moves' or its events' types)."""
    union = schemas[name]
    if "discriminator" in union:
        return list(union["discriminator"]["mapping"])
    values: list[str] = []
    for branch in union["oneOf"]:
        fixed = schemas[branch["$ref"].rsplit("/", 1)[1]] if "$ref" in branch else branch
        fixed = fixed["properties"]["type"]
        values += [fixed["const"]] if "const" in fixed else fixed["enum"]
    return values


def game_unions(games: list[tuple[str, str]], schemas: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The unions of the games' unions that the operations reference: a game's answer
    (discriminated by its `type`), a move, an event's data. Each ends with a variant for a
    game hosted without a schema here (EXTRA_GAME_MODULES), which excludes every known type so
    that a known one is always held to its game's schema: written beside the union, not in it
    (api/openapi/extra.py: a server hosting such games adds it when it serves the spec)."""
    pick = ("A client knows its game's type (`type` in `GET /games/{id}`, or the one it created) "
            "and reads this as that game's {part} schema: ").replace("{id}", "{{id}}")
    out: list[tuple[str, dict[str, Any]]] = []
    variants = []
    for name, prefix in games:
        variants.append((name, f"{prefix}Game"))
        out.append((f"{prefix}Game", {
            "description": f"A {_game(name).title} game as the caller may see it.",
            "allOf": [_ref("GameCommon"), {
                "type": "object", "required": ["type", "view", "result"],
                "properties": {
                    "type": {"type": "string", "const": name},
                    "view": {"description": "What the caller may see; null while the game waits for people.",
                             "oneOf": [{"type": "null"}, _ref(f"{prefix}View")]},
                    "result": {"description": "Null while the game runs; its result once over (`PlatformResult` "
                                              "when the server ended it).",
                               "oneOf": [{"type": "null"}, _ref(f"{prefix}Result"), _ref("PlatformResult")]}}}]}))
    known_games = [name for name, _ in games]
    out.append(("ExtraGame", {
        "description": "A game of a type hosted with EXTRA_GAME_MODULES, which has no schemas here.",
        "allOf": [_ref("GameCommon"), {
            "type": "object", "required": ["type", "view", "result"],
            "properties": {"type": {"type": "string", "not": {"enum": known_games}},
                           "view": {"oneOf": [_ref("ExtraGameView"), {"type": "null"}]},
                           "result": {"oneOf": [_ref("ExtraGameResult"), {"type": "null"}]}}}]}))
    out.append(("ExtraGameView", {"type": "object", "description": "An extra game's view (its own shape)."}))
    out.append(("ExtraGameResult", {"type": "object", "description": "An extra game's result (its own shape)."}))
    out.insert(0, ("Game", {
        # The discriminator comes before `oneOf`, which stays the union's last key: a server
        # hosting games besides these appends `ExtraGame` to the list and drops the discriminator
        # (api/openapi/extra.py), since OpenAPI 3.1 cannot map a type no mapping names (3.2's
        # `discriminator.defaultMapping` could). Without it here, generators without 3.1's
        # oneOf matching (openapi-generator's kotlin, swift6) merge the five games into one model.
        "description": "The game as the caller may see it, one schema per game type, told apart by `type` (each "
                       "variant's is a const). A server hosting games besides these "
                       f"({HOSTED_EXTRA}) adds `ExtraGame` (any other type) and leaves out the `discriminator`, "
                       "which OpenAPI 3.1 cannot map for it; read `type` and take that game's schema "
                       "(`SplendorGame` for `splendor`, ...).",
        "discriminator": {"propertyName": "type",
                          "mapping": {name: f"#/components/schemas/{v}" for name, v in variants}},
        "oneOf": [_ref(v) for _, v in variants]}))
    moves = sorted({t for _, prefix in games for t in _union_values(schemas, f"{prefix}Move")})
    out.append(("GameMove", {
        "description": pick.format(part="Move") + ", ".join(f"`{p}Move` for `{n}`" for n, p in games)
        + " (each discriminated by `type`). Several games share a move type (`pass`), so a move is "
          f"only told apart by its game. A server hosting games besides these ({HOSTED_EXTRA}) adds "
          "`ExtraGameMove`.",
        "anyOf": [_ref(f"{prefix}Move") for _, prefix in games]}))
    out.append(("ExtraGameMove", {
        "description": "A move of a game hosted with EXTRA_GAME_MODULES (no game here has its type).",
        "type": "object", "required": ["type"],
        "properties": {"type": {"type": "string", "not": {"enum": moves}}}}))
    events = sorted({t for _, prefix in games for t in _union_values(schemas, f"{prefix}Event")}
                    | set(PLATFORM_EVENTS.values()))
    out.append(("GameEventData", {
        "description": "An event as the caller may see it: a platform event ("
                       + "; ".join(f"`{t}`: `{n}`" for n, t in PLATFORM_EVENTS.items())
                       + ") or one of the game's events. "
                       + pick.format(part="Event") + ", ".join(f"`{p}Event` for `{n}`" for n, p in games)
                       + f" (each discriminated by `type`). A server hosting games besides these ({HOSTED_EXTRA}) "
                         "adds `ExtraGameEvent`.",
        "anyOf": [_ref(n) for n in PLATFORM_EVENTS] + [_ref(f"{prefix}Event") for _, prefix in games]}))
    out.append(("ExtraGameEvent", {
        "description": "An event of a game hosted with EXTRA_GAME_MODULES (no game here has its type).",
        "type": "object", "required": ["type"],
        "properties": {"type": {"type": "string", "not": {"enum": events}}}}))
    return out


def merged_text() -> str:
    head = SPEC.read_text().split(MARKER, 1)[0]
    out = [head, MARKER]
    games = []
    variants = []
    schemas: dict[str, Any] = {}
    for name, prefix, body, extra in fragments():
        out.append(f"    # -- {name} --\n")
        out.append(body)
        games.append((name, prefix))
        schemas.update(load_yaml("x:\n" + body)["x"])
        variants.append((name, f"{prefix}CreateGame", create_variant(name, prefix, extra)))
    out.append("    # -- creating a game: one variant per game type --\n")
    out.append(_yaml("CreateGame", {
        "description": "A game to create; one variant per game type.",
        "oneOf": [_ref(n) for _, n, _ in variants],
        "discriminator": {"propertyName": "type",
                          "mapping": {game: f"#/components/schemas/{n}" for game, n, _ in variants}}}))
    for game, variant_name, variant in variants:
        out.append(_yaml(variant_name, variant))
        out.append(_yaml(variant_name.replace("CreateGame", "BotSeat"), bot_seat(game)))
        out.append(_yaml(variant_name.replace("CreateGame", "Clock"), clock_schema(game)))
    out.append("    # -- what the operations reference: unions of the games' unions --\n")
    for union_name, union in game_unions(games, schemas):
        out.append(_yaml(union_name, union))
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
