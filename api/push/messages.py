"""What is pushed: which of a player's inbox entries (api/players/feed.py, the matchmaker's
`matched`) become a push message, and each message's payload and headers.

The payload is the notice the player's stream sends (api/words/notices.py), in the
subscription's language: `{"type", "game_id", "game_type", "title", "body", "url", "version",
"at", "lang"}`, `title` the game's name and `body` the notice's sentence, `url` the page that shows the game.
Headers (RFC 8030): `Topic` names the game, so a push service holding an undelivered message
of a game replaces it with the newer one (a phone offline for a day hears the game's latest
news once, not every turn); `TTL` how long the service may hold it; `Urgency` high for what
asks the player to act (their turn, a clock running out), normal for the rest."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from api.words import notices

PUSHED = ("your_turn", "game_started", "game_finished", "matched", "clock_warning")
URGENT = ("your_turn", "clock_warning", "matched")


def pushed(entry: dict[str, Any]) -> bool:
    return entry.get("type") in PUSHED


def payload(entry: dict[str, Any], lang: str) -> bytes:
    said = notices.said(entry, lang)
    game = said.get("message", {}).get("args", {}).get("game", {})
    body = {"type": entry["type"], "game_id": entry.get("game_id"), "game_type": entry.get("game_type"),
            "title": game.get("text") or entry.get("game_type"), "body": said.get("text", ""),
            "url": f"/play/{entry['game_id']}" if entry.get("game_id") else "/", "version": entry.get("version"),
            "at": entry.get("at"), "lang": lang}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def topic(entry: dict[str, Any]) -> str:
    """At most 32 characters of the URL-safe base64 alphabet (RFC 8030 5.4): the game's id
    hashed, so any id fits."""
    return hashlib.sha256(str(entry.get("game_id", "")).encode()).hexdigest()[:32]


def headers(entry: dict[str, Any], ttl_s: int) -> dict[str, Any]:
    return {"TTL": str(ttl_s), "Topic": topic(entry),
            "Urgency": "high" if entry.get("type") in URGENT else "normal"}
