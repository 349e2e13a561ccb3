"""The story cards (cards.json), with their conditions parsed once at import."""
from __future__ import annotations

import json
from pathlib import Path

from .conditions import parse

_DOC = json.loads(Path(__file__).with_name("cards.json").read_text())
CARDS = {c["id"]: c for c in _DOC["cards"]}
CARD_IDS = tuple(c["id"] for c in _DOC["cards"])
CONDITIONS = {c["id"]: parse(c["condition"]) for c in _DOC["cards"]}


def card_public(card_id: str) -> dict:
    """A card as a client shows it once its holder may see it."""
    c = CARDS[card_id]
    return {"id": card_id, "number": c["number"], "title": c["title"], "text": c["text"],
            "condition": c["condition"]}
