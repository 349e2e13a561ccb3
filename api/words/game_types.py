"""A hosted game's description (GET /game-types) in a language: its title, notes, options'
descriptions, move types' descriptions and its pieces' names (its words': domain/words.py);
ids (the type, option names, bot levels, move types) stay as they are, being what clients send."""
from __future__ import annotations

from typing import Any

from api.words import translate
from api.words.messages import PLATFORM


def texts(described: dict[str, Any]) -> list[str]:
    """Every text of a description that people read (what messages.po must translate; the
    pieces' names are the game's own catalogue's, tests/contract/test_words.py)."""
    return [described["title"], described.get("notes") or "",
            *[o["description"] for o in described["options"]], *described["move_types"].values()]


def localized(described: dict[str, Any], lang: str) -> dict[str, Any]:
    game = described["type"]

    def say(text: str) -> str:
        return translate(lang, game, text)

    shown = dict(described)
    shown["title"] = say(described["title"])
    if described.get("notes"):
        shown["notes"] = say(described["notes"])
    shown["options"] = [{**o, "description": say(o["description"])} for o in described["options"]]
    shown["move_types"] = {name: say(text) for name, text in described["move_types"].items()}
    shown["pieces"] = {id_: say(name) for id_, name in described.get("pieces", {}).items()}
    # a bot level as people read it (the id stays what a seat sends): the sentences' own name
    shown["bot_names"] = {level: translate(lang, PLATFORM, level.capitalize()) for level in described["bots"]}
    return shown
