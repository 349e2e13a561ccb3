"""openapi.yaml read as the client generators read it (issue 54, "a spec every generator reads"),
checked on the text itself so that a new operation or schema cannot bring a fault back:

- every `const` has a `type` beside it, the type of its value (openapi-generator's kotlin and
  swift6 type a bare `const` as `Any`; redocly refuses a `const` of another type);
- every union of two or more object schemas that a property's fixed value tells apart has a
  `discriminator` with a `mapping` that agrees with those values (without it, generators that do
  not match oneOf by validation merge the variants into one model: every game's view became the
  Witches view in Kotlin); the unions whose variants no property tells apart are named below,
  each with why;
- no tag is a top-level key of the document (the tag `webhooks` made the paths' webhook
  operations and the top-level `webhooks` one generated file, and the first vanished), and every
  operation's tags are declared;
- nothing is nullable where the server always fills it (a generator makes a nullable property
  optional in Kotlin and Swift, and every app then unwraps it): the properties left nullable are
  listed in NULLABLE, each where null means something (a spectator's seat, a game not over, a
  free seat, a page without a next); a new one is a choice made on purpose. Those the audit made
  non-nullable (NOT_NULL) are held to it by every real answer of the HTTP suite
  (tests/api/spec.py checks each response against openapi.yaml, so a null there fails it).

tests/clients/test_native_clients.py generates the Kotlin and Swift clients and checks them."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from api.openapi import load_yaml
from api.openapi.extra import with_extra_games
from tests.api.spec import written
from tests.conftest import ROOT

# Unions of objects that no property's fixed value tells apart (the variants differ by which keys
# they hold, or by a boolean, which a discriminator cannot name): a generator matches them by
# shape. Keyed by where the union is; a new one is a choice to make on purpose, so it is listed.
UNTAGGED = {
    "paths./players/me/keys.post.responses.201.content.application/json.schema": "a device key or a new player: by their keys",
    "paths./players/me/push-subscriptions.post.requestBody.content.application/json.schema": "Web Push's browser body has no `kind`",
    "components.schemas.Seat": "a person (`name`) or a bot (`bot`)",
    "components.schemas.FreeSeat": "`open`, `invite` or `me`: by the key present",
    "components.schemas.LegalMoves.properties.summary": "each game's own summary keys",
    "components.schemas.SetUpPreview": "`ok` is a boolean",
    "components.schemas.SplendorReservedCard": "`hidden` is a boolean",
    "components.schemas.SplendorView.properties.pending": "which choice is pending: by its key",
    "components.schemas.GameEventData": "games share event types (`game_started`): told apart by the game",
    **{f"components.schemas.{game}CreateGame.properties.seats.items": "a person, a bot or a free seat: by their keys"
       for game in ("FairyTile", "SetUp", "SmallWorld", "Splendor", "Witches")},
    **{f"components.schemas.{game}Game.allOf.1.properties.result": "a game's result or the server's: by their keys"
       for game in ("FairyTile", "SetUp", "SmallWorld", "Splendor", "Witches")},
}
# Nullable properties, by the schema that holds them (under components.schemas, or the inline
# schema's place): null where the value is not there yet or not the caller's (the descriptions in
# openapi.yaml say when). Found by the audit of issue 54: each nullable property's nulls recorded
# over the HTTP suite's answers, those never null read in the code that fills them.
NULLABLE = {
    "paths./games/{id}/stream-tickets.post.responses.201.content.application/json.schema": ("seat",),
    "paths./webhooks.post.requestBody.content.application/json.schema": ("secret", "seat"),
    "paths./tournaments.get.responses.200.content.application/json.schema": ("next",),  # null on the last page
    "WebPushSubscriptionBody": ("expirationTime",),
    "RemovedPushSubscription": ("status",),
    "PushMessage": ("game_id", "game_type", "version"),
    "Webhook": ("key_id", "seat", "disabled_at", "disabled_reason"),
    "WebhookAttempt": ("response_code", "error"),
    "WebhookSeatShown": ("name", "bot"),
    "WebhookGameFinished.properties.data": ("unrated_reason", "result_words"),
    "WebhookRatingChanged.properties.data.properties.changes.items": ("before", "after"),
    "CreatedGame": ("table_token",),
    "CreatedGame.properties.seats.items": ("name", "bot", "token"),
    "GameCommon": ("you", "rematch", "result_words"),
    "GameSeat": ("name", "bot"),
    "GameSummary": ("rematch", "result"),  # rematch: none made yet (GameCommon's too)
    "Notice": ("game_id", "game_type", "version"),
    "GamePage": ("next",),
    "Seek": ("seats", "max_seats"),
    "SeekStatus": ("rating",),
    "GameRatings": ("seats", "unrated_reason"),
    "AnalysedDecision": ("suggested_label",),  # a game type without words (an extra game module)
    "Person": ("name",),
    "Friend.allOf.1": ("game",),
    "ChatPage": ("next", "previous"),
    "Conversations.properties.conversations.items.properties.player": ("name",),
    "Challenge": ("seats",),
    "GroupMembers.properties.members.items": ("name",),
    "TournamentCreate": ("min_rating", "max_rating", "invited", "group"),
    # rounds_total: an arena; duration_s: not an arena; finished_at: not over; group: open to anyone
    "TournamentSummary": ("rounds_total", "duration_s", "finished_at", "group"),
    # a table voided, or given its places, before its game was made
    "WebhookTournament.properties.data.properties.tables.items": ("game_id",),
    "Tournament.allOf.1": ("next_step",),
    "Tournament.allOf.1.properties.rounds.items.properties.tables.items": ("game_id",),
    "ModerationAction.properties.rerated.items": ("before", "after"),
    "ModerationFlag.properties.players.items": ("name",),
    "LeaderboardEntry.allOf.1.properties.player": ("name",),
    "SeasonLeaderboard.allOf.1": ("next",),
    "Leaderboard": ("next",),
    "DeviceKey": ("last_used",),
    "NewAccessToken": ("expires_in",),
    "AccessToken": ("expires", "last_used"),
    "Passkey": ("last_used",),
    "SeatClaimed": ("player",),  # an anonymous claimer (a name, no key)
    "SeatLeft": ("player",),  # the same claimer leaving
    "Fairness": ("seed",),
    "PlatformResult": ("by",),  # aborted by the server for a block between its players, no seat
    "ClockState": ("deadline",),
    "ClockState.properties.seats.items": ("remaining_ms", "deadline"),
    "PauseResult": ("result",),
    "SeatCommandResult": ("result",),
    "LegalMoves": ("seat",),
    "MoveResult": ("next_moves",),
    "HistoryEvent": ("actor",),
    "SeatResigned": ("bot",),
    "GameAborted": ("seat",),  # the same abort (challenges.py, pairing.py): no seat aborted it
    "FairyTileView": ("next_tile", "hand", "result"),
    "FairyTileView.properties.seats.items": ("hand",),
    "FairyTileGameSetUpEvent": ("next_tile",),
    "FairyTileTileLaidEvent": ("next_tile",),
    "FairyTileCardToldEvent": ("drawn",),
    "SetUpSquare": ("owner", "top"),
    "SetUpView": ("turn", "teams", "last_play", "result"),
    "SmallWorldTolls.items": ("seat",),
    "SmallWorldResult": ("tie_break",),
    "SmallWorldConquest": ("race", "seat"),
    "SmallWorldView.properties.regions.items": ("seat", "race", "marker"),
    "SmallWorldView.properties.players.items": ("race", "power", "declined_race", "declined_power", "faction"),
    "SmallWorldView.properties.turn": ("form",),
    "SmallWorldView.properties.rows.items": ("power", "alliance", "horde", "neutral"),
    "SmallWorldGameStartedEvent.properties.rows.items": ("alliance", "horde", "neutral"),
    "SmallWorldDeclinedEvent": ("removed",),
    "SmallWorldRegionConqueredEvent": ("defender", "revealed"),
    "SmallWorldRegionConqueredEventDefender": ("seat",),
    "SmallWorldIntimidatedEvent": ("removed", "to", "lone_to"),
    "SmallWorldBombsRevealedEvent.properties.bombs.items": ("live",),
    "SplendorView": ("you", "pending", "result"),
    "SplendorCardReservedEvent": ("refill",),
    "SplendorCardBoughtEvent": ("refill",),
    "WitchesSpell": ("choice",),
    "WitchesView": ("led_colour", "last_trick", "spell", "result", "passed", "received"),
    "WitchesRoundScoredEvent": ("spell",),
    "FairyTileCreateGame": ("clock",),
    "SetUpCreateGame": ("clock",),
    "SmallWorldCreateGame": ("clock",),
    "SplendorCreateGame": ("clock",),
    "WitchesCreateGame": ("clock",),
    "FairyTileGame.allOf.1": ("view", "result"),
    "SetUpGame.allOf.1": ("view", "result"),
    "SmallWorldGame.allOf.1": ("view", "result"),
    "SplendorGame.allOf.1": ("view", "result"),
    "WitchesGame.allOf.1": ("view", "result"),
    "ExtraGame.allOf.1": ("view", "result"),
}
# The audit's removals: filled in every answer (where the property is present).
NOT_NULL = {
    "HistoryEvent": ("at",),  # an event's append time: every store writes it (events/store.py StoredEvent.at)
    "Notice": ("at",),  # every inbox notice is written with its time (Players.write_inbox)
    "PushMessage": ("at",),  # the same notice's time; a notice without one is never pushed
    "SeekStatus": ("since",),  # set when searching, kept when pairing, the pairing's time once matched
    "GameAnalysis": ("requested_at",),  # set by the request, copied into the finished analysis
    "PlatformResult": ("idle_seconds",),  # every game_abandoned carries it (events.abandoned_event, claims.py)
}
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def spec() -> dict[str, Any]:
    """openapi.yaml as written (the file generators read; tests/api/spec.py's spec() is as the
    test servers serve it, with the extra games' variants)."""
    return written()


def _walk(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}.{key}" if where else str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{where}.{i}")


def _deref(document: dict[str, Any], schema: Any) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        target: Any = document
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema = target
    return schema


def _is_object(document: dict[str, Any], schema: Any) -> bool:
    schema = _deref(document, schema)
    return isinstance(schema, dict) and (schema.get("type") == "object" or "properties" in schema
                                         or any(_is_object(document, s) for s in schema.get("allOf", [])))


def _fixed(document: dict[str, Any], schema: Any) -> dict[str, Any]:
    """A variant's properties whose value is fixed (a const, or an enum of one), its allOf's too."""
    schema = _deref(document, schema)
    out: dict[str, Any] = {}
    for part in [schema, *schema.get("allOf", [])]:
        if part is not schema:
            out.update(_fixed(document, part))
            continue
        for name, prop in part.get("properties", {}).items():
            prop = _deref(document, prop)
            if "const" in prop:
                out[name] = prop["const"]
            elif len(prop.get("enum", [])) == 1:
                out[name] = prop["enum"][0]
    return out


def _values(document: dict[str, Any], schema: Any, prop: str) -> set[Any]:
    """The values a variant allows its property `prop` (a const, an enum; a variant that is a
    union of its own, FairyTileMoveFigure, allows its variants' values)."""
    schema = _deref(document, schema)
    if "oneOf" in schema or "anyOf" in schema:
        return set().union(*(_values(document, v, prop) for v in schema.get("oneOf", schema.get("anyOf"))))
    fixed = _deref(document, _properties(document, schema).get(prop, {}))
    return {fixed["const"]} if "const" in fixed else set(fixed.get("enum", []))


def _properties(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in schema.get("allOf", []):
        out.update(_properties(document, _deref(document, part)))
    out.update(schema.get("properties", {}))
    return out


def object_unions(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], list[Any]]]:
    """(where, oneOf or anyOf, the union, its variants but `null`) for every union of two or
    more object schemas."""
    for where, node in _walk(document):
        for key in ("oneOf", "anyOf"):
            if not isinstance(node.get(key), list):
                continue
            variants = [v for v in node[key] if _deref(document, v).get("type") != "null"]
            if sum(_is_object(document, v) for v in variants) >= 2:
                yield where, key, node, variants


def _json_type(value: Any) -> str:
    for kind, types in (("boolean", bool), ("integer", int), ("number", float), ("string", str),
                        ("array", list), ("object", dict)):
        if isinstance(value, types):
            return kind
    return "null"


def bare_consts(document: dict[str, Any]) -> list[str]:
    """Where a `const` has no `type`, or one its value is not of."""
    faults = []
    for where, node in _walk(document):
        if "const" in node:
            types = node.get("type", [])
            types = {types} if isinstance(types, str) else set(types)
            kind = _json_type(node["const"])
            if kind not in types and not (kind == "integer" and "number" in types):
                faults.append(where)
    return faults


def union_faults(document: dict[str, Any]) -> list[str]:
    faults = []
    for where, key, union, variants in object_unions(document):
        discriminator = union.get("discriminator")
        if discriminator is None:
            fixed = [_fixed(document, v) if _is_object(document, v) else {} for v in variants]
            told_apart = [p for p in set.intersection(*(set(f) for f in fixed))
                          if all(isinstance(f[p], str) for f in fixed) and len({f[p] for f in fixed}) == len(fixed)]
            if told_apart:
                faults.append(f"{where}: its {key}'s {told_apart[0]!r} tells its variants apart, but it has no discriminator")
            elif where not in UNTAGGED:
                faults.append(f"{where}: its {key} of objects has no discriminator (add one, or name it in UNTAGGED)")
            continue
        mapping = discriminator.get("mapping")
        if not mapping:
            faults.append(f"{where}: its discriminator has no mapping")
            continue
        prop = discriminator["propertyName"]
        refs = {v["$ref"] for v in union[key] if "$ref" in v}
        if set(mapping.values()) != refs:
            faults.append(f"{where}: the mapping's schemas {sorted(set(mapping.values()))} are not the variants {sorted(refs)}")
        for value, ref in mapping.items():
            allowed = _values(document, {"$ref": ref}, prop)
            if value not in allowed:
                faults.append(f"{where}: mapping {value!r} -> {ref}, whose {prop} is one of {sorted(allowed)}")
    return faults


def tag_faults(document: dict[str, Any]) -> list[str]:
    declared = [tag["name"] for tag in document.get("tags", [])]
    faults = [f"the tag {name!r} is a top-level key of the document" for name in declared if name in document]
    for section in ("paths", "webhooks"):
        for path, item in document.get(section, {}).items():
            for method, operation in item.items():
                if method in HTTP_METHODS:
                    faults += [f"{section} {path} {method}: tag {t!r} " + ("is a top-level key" if t in document
                                                                          else "is not declared in `tags`")
                               for t in operation.get("tags", []) if t in document or t not in declared]
    return faults


def test_every_const_has_its_type():
    assert bare_consts(spec()) == []


def test_every_union_a_value_tells_apart_has_a_discriminator_with_its_mapping():
    assert union_faults(spec()) == []


def test_the_untagged_unions_listed_are_still_there():
    """UNTAGGED names no union that is gone or got a discriminator (then it leaves the list)."""
    untagged = {where for where, _, union, _ in object_unions(spec()) if "discriminator" not in union}
    assert set(UNTAGGED) - untagged == set()


def test_no_tag_collides_with_a_top_level_key():
    assert tag_faults(spec()) == []


def test_the_games_union_is_discriminated_except_where_extra_games_are_served():
    """`Game` maps each game's type to its schema; a server hosting more games (ExtraGame, of
    any other type) serves it without the discriminator, which could not map that type."""
    game = spec()["components"]["schemas"]["Game"]
    assert game["discriminator"]["mapping"] == {
        name: f"#/components/schemas/{parts['view'].removesuffix('View')}Game"
        for name, parts in spec()["x-games"].items()}
    served = load_yaml(with_extra_games((ROOT / "openapi.yaml").read_text()))["components"]["schemas"]["Game"]
    assert "discriminator" not in served and served["oneOf"][-1] == {"$ref": "#/components/schemas/ExtraGame"}


def test_the_checks_can_fail():
    """Each check finds the faults issue 54 found: a bare const, the games' union without its
    discriminator, a mapping to the wrong variant, an untagged union nobody listed, the
    `webhooks` tag."""
    import copy
    document = copy.deepcopy(spec())
    schemas = document["components"]["schemas"]
    schemas["SplendorGame"]["allOf"][1]["properties"]["type"].pop("type")
    schemas["SetUpPreviewOkFalse"]["properties"]["ok"]["type"] = "string"
    assert bare_consts(document) == ["components.schemas.SetUpPreviewOkFalse.properties.ok",
                                     "components.schemas.SplendorGame.allOf.1.properties.type"]
    del schemas["Game"]["discriminator"]
    schemas["CreateGame"]["discriminator"]["mapping"]["splendor"] = "#/components/schemas/WitchesCreateGame"
    schemas["Pair"] = {"oneOf": [{"$ref": "#/components/schemas/PersonSeat"}, {"$ref": "#/components/schemas/GameCommon"}]}
    faults = union_faults(document)
    assert any(f.startswith("components.schemas.Game: its oneOf's 'type' tells") for f in faults), faults
    assert any(f.startswith("components.schemas.CreateGame: mapping 'splendor'") for f in faults), faults
    assert any(f.startswith("components.schemas.Pair: its oneOf of objects has no discriminator") for f in faults), faults
    document["tags"].append({"name": "webhooks"})
    document["paths"]["/webhooks"]["get"]["tags"] = ["webhooks"]
    assert len(tag_faults(document)) == 2


def _nullable(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    return (isinstance(kinds, list) and "null" in kinds) or bool(schema.get("nullable")) or any(
        isinstance(v, dict) and v.get("type") == "null" for key in ("oneOf", "anyOf") for v in schema.get(key, []))


def nullable_properties(document: dict[str, Any]) -> dict[str, set[str]]:
    """{where (components.schemas. left out): its nullable properties' names}."""
    found: dict[str, set[str]] = {}
    for where, node in _walk(document):
        properties = node.get("properties")
        if isinstance(properties, dict) and not where.endswith(".properties"):
            names = {n for n, p in properties.items() if isinstance(p, dict) and _nullable(p)}
            if names:
                found[where.removeprefix("components.schemas.")] = names
    return found


def test_nothing_is_nullable_but_what_is_listed():
    found = nullable_properties(spec())
    listed = {where: set(names) for where, names in NULLABLE.items()}
    new = {w: sorted(n - listed.get(w, set())) for w, n in found.items() if n - listed.get(w, set())}
    gone = {w: sorted(n - found.get(w, set())) for w, n in listed.items() if n - found.get(w, set())}
    assert new == {}, "nullable, not in NULLABLE: is it ever null? If so, list it; else remove the null"
    assert gone == {}, "in NULLABLE, no longer nullable: take it off the list"


def test_what_every_answer_fills_is_not_nullable():
    found = nullable_properties(spec())
    schemas = spec()["components"]["schemas"]
    for name, properties in NOT_NULL.items():
        assert not set(properties) & found.get(name, set()), name
        assert set(properties) <= set(schemas[name]["properties"]), name


def test_the_response_checks_refuse_a_null_where_not_null():
    """The HTTP suite's checks (tests/api/spec.py, the validator SpecCheckingClient uses) fail an
    answer with a null in a NOT_NULL property: the audit's removals are held by real answers."""
    import jsonschema

    from tests.api.spec import validate_named

    for name, properties in NOT_NULL.items():
        for prop in properties:
            try:
                validate_named(name, {prop: None})
            except jsonschema.ValidationError as e:
                assert list(e.absolute_path) == [prop], (name, prop, e.message)
            else:
                raise AssertionError(f"{name}.{prop}: a null passed the response checks")
