"""What is pushed: which of a player's inbox entries (api/players/feed.py, the matchmaker's
`matched`) become a push message, and each message's payload and headers.

The payload is the notice the player's stream sends (api/words/notices.py), in the
subscription's language: `{"type", "game_id", "game_type", "title", "body", "url", "version",
"at", "lang"}`, `title` the game's name and `body` the notice's sentence, `url` the page that shows the game.
Headers (RFC 8030): `Topic` names the game, so a push service holding an undelivered message
of a game replaces it with the newer one (a phone offline for a day hears the game's latest
news once, not every turn); `TTL` how long the service may hold it; `Urgency` high for what
asks the player to act (their turn, a clock running out), normal for the rest.

Account notices (issue 51) are pushed too, but for a step-up granted and a key replacing its own
secret: what was added, taken or refused on the player's account, titled "Your account", the
account page its `url`; each its own `Topic` (a newer one must not hide a refused attempt), and
a refusal `high`.

A re-rating after a moderator's void or its undo (`rerated`, issue 50: the player's own rating
before and after, per game type; never who was voided) is pushed too, titled with the game's
name, the type's leaderboard its `url`, its `Topic` the type's (the latest re-rating replaces an
undelivered one)."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from api.words import notices, translate
from api.words.messages import PLATFORM

PUSHED = ("your_turn", "game_started", "game_finished", "matched", "clock_warning", "account_change_refused",
          "rerated")
URGENT = ("your_turn", "clock_warning", "matched", "account_change_refused")
ACCOUNT_NOT_PUSHED = ("step_up", "key_rotated")  # the device's own doing, harming no other
ACCOUNT_URL = "/web/account.html"


def pushed(entry: dict[str, Any]) -> bool:
    if entry.get("type") == "account_changed":
        return entry.get("change") not in ACCOUNT_NOT_PUSHED
    return entry.get("type") in PUSHED


def payload(entry: dict[str, Any], lang: str) -> bytes:
    said = notices.said(entry, lang)
    game = said.get("message", {}).get("args", {}).get("game", {})
    account = str(entry.get("type", "")).startswith("account_")
    title = translate(lang, PLATFORM, notices.ACCOUNT_TITLE) if account else game.get("text") or entry.get("game_type")
    url = ACCOUNT_URL if account else f"/play/{entry['game_id']}" if entry.get("game_id") else \
        f"/leaderboard/{entry['game_type']}" if entry.get("type") == "rerated" and entry.get("game_type") else "/"
    body = {"type": entry["type"], "game_id": entry.get("game_id"), "game_type": entry.get("game_type"),
            "title": title, "body": said.get("text", ""), "url": url, "version": entry.get("version"),
            "at": entry.get("at"), "lang": lang}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def topic(entry: dict[str, Any]) -> str:
    """At most 32 characters of the URL-safe base64 alphabet (RFC 8030 5.4): the game's id
    hashed, so any id fits."""
    named = entry.get("game_id", "")
    if str(entry.get("type", "")).startswith("account_"):  # each account notice its own
        named = f"account:{entry.get('change')}:{entry.get('at')}"
    if entry.get("type") == "rerated":  # a newer re-rating of the type replaces one not delivered yet
        named = f"rerated:{entry.get('game_type')}"
    return hashlib.sha256(str(named).encode()).hexdigest()[:32]


def headers(entry: dict[str, Any], ttl_s: int) -> dict[str, Any]:
    return {"TTL": str(ttl_s), "Topic": topic(entry),
            "Urgency": "high" if entry.get("type") in URGENT else "normal"}
