"""A player's stream's entries in words (issue 32): each notice (`your_turn`, `game_finished`,
`rated`, ...) with its `text` and `message` in the stream's language, naming the game by its
title in that language. The platform's templates (context "platform"); Flask-free."""
from __future__ import annotations

from typing import Any

from api.words.messages import PLATFORM, Speaker
from domain import registry
from domain.words import Message, count, seat, word

TEMPLATES = {
    "your_turn": "{game}: it is your turn.",
    "seat_claimed": "{game}: {name} took a seat.",
    "seat_left": "{game}: {seat} is free again.",
    "game_started": "{game}: every seat is taken, the game begins.",
    "game_finished": "{game}: the game is over.",
    "rematch": "{game}: a rematch was created.",
    "matched": "{game}: a table was found for you.",
    "rated": "{game}: your rating went from {before} to {after}.",
    "clock_warning": "{game}: your time for this move is running out.",
    "rerated": "{game}: after a moderator's decision your rating was recomputed, from {before} to {after}.",
}
RERATED_UNRATED = "{game}: after a moderator's decision your rating was recomputed."  # before or after: none


def said(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    """The entry with its `text` and `message` (a new dict); as it is for a kind with no words."""
    template = TEMPLATES.get(entry.get("type", ""))
    if entry.get("type") == "rerated" and (entry.get("before") is None or entry.get("after") is None):
        template = RERATED_UNRATED
    game = registry.get(entry.get("game_type", ""))
    if template is None or game is None:
        return entry
    args: dict[str, Any] = {"game": word(game.title)}
    names: list[str | None] = []
    if "seat" in entry and isinstance(entry["seat"], int):
        names = [*([None] * entry["seat"]), entry.get("name")]
        if "{seat}" in template:
            args["seat"] = seat(entry["seat"])
        if "{name}" in template:
            args["name"] = {"kind": "player", "seat": entry["seat"]}
    if entry["type"] in ("rated", "rerated") and "{before}" in template:
        args.update(before=count(entry["before"]), after=count(entry["after"]))
    speaker = Speaker(game.name, {}, lang, names, PLATFORM)
    text, message = speaker.say(Message(template, args))
    return {**entry, "text": text, "message": message}
