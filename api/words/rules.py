"""A game's rules summary in a language (GET /game-types/{game_type}/rules, issue 32): Markdown
written for each game and language (`locales/<lang>/rules/<game>.md`, beside the catalogues,
so that adding a language is adding its files), and each piece's one-line effect (the game's
`GameWords.effects`, translated like its other words): what a tooltip needs. A language
without a summary of the game is answered in English (and says so). Flask-free."""
from __future__ import annotations

import functools
from typing import Any

from api.words import DEFAULT, LOCALES, translate
from domain.contract import GameDef


@functools.cache
def markdown(lang: str, game_type: str) -> str | None:
    """The summary's Markdown in `lang`; None when there is none."""
    path = LOCALES / lang / "rules" / f"{game_type}.md"
    return path.read_text(encoding="utf-8") if path.exists() else None


def summary(game: GameDef, lang: str) -> dict[str, Any]:
    """{"type", "language", "markdown", "effects": {id: {"name", "effect"}}} in `lang`, or in
    English where `lang` has no summary of the game (`language` says which)."""
    said = lang if markdown(lang, game.name) is not None else DEFAULT
    words = game.words
    effects = {} if words is None else {
        id_: {"name": translate(said, game.name, words.names[id_]), "effect": translate(said, game.name, line)}
        for id_, line in words.effects.items()}
    return {"type": game.name, "language": said, "markdown": markdown(said, game.name) or "", "effects": effects}
