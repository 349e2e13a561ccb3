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

PUSHED = ("your_turn", "game_started", "game_finished", "matched", "challenged", "clock_warning",
          "account_change_refused", "rerated", "direct_message")
URGENT = ("your_turn", "clock_warning", "matched", "challenged", "account_change_refused")
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
    title = translate(lang, PLATFORM, notices.ACCOUNT_TITLE) if account else \
        game.get("text") or entry.get("game_type") or entry.get("title")  # a direct message: its sender
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
    if entry.get("type") == "direct_message":  # a conversation's newest replaces its last
        named = f"dm:{(entry.get('from') or {}).get('id')}"
    if str(entry.get("type", "")).startswith("account_"):  # each account notice its own
        named = f"account:{entry.get('change')}:{entry.get('at')}"
    if entry.get("type") == "rerated":  # a newer re-rating of the type replaces one not delivered yet
        named = f"rerated:{entry.get('game_type')}"
    return hashlib.sha256(str(named).encode()).hexdigest()[:32]


def headers(entry: dict[str, Any], ttl_s: int) -> dict[str, Any]:
    return {"TTL": str(ttl_s), "Topic": topic(entry),
            "Urgency": "high" if entry.get("type") in URGENT else "normal"}


# ---- native apps (issue 54): FCM's HTTP v1 message and APNs' request ----------------------------
# One collapse key per game (`topic`: 32 hex characters, within APNs' 64 bytes): a device offline
# holds the game's newest message only (FCM keeps 4 collapse keys per device, and discards all
# of a device's 100 non-collapsible messages past that; APNs coalesces by `apns-collapse-id`).
# Priority: high (FCM `HIGH`, APNs 10) for what asks the player to act (URGENT), else normal (FCM
# `NORMAL`, APNs 5: delivered when the device's power allows). Expiration: the notice's time plus
# PUSH_TTL_S (FCM `ttl` is what is left of it; APNs `apns-expiration` its UNIX time).


def message(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    """The PushMessage (what `payload` encodes for Web Push)."""
    said: dict[str, Any] = json.loads(payload(entry, lang))
    return said


def expires_at_s(entry: dict[str, Any], ttl_s: int) -> int:
    return int(int(entry.get("at") or 0) / 1000) + ttl_s


def fcm_message(entry: dict[str, Any], token: str, lang: str, ttl_s: int, now_s: float) -> dict[str, Any]:
    """The body of FCM's `projects.messages.send` (HTTP v1): a notification the system shows
    (title, body; on Android tagged by the game, so the drawer keeps one per game) and the
    PushMessage as `data` (FCM's data values are strings: null as "")."""
    said = message(entry, lang)
    key = topic(entry)
    left = max(0, expires_at_s(entry, ttl_s) - int(now_s))
    high = entry.get("type") in URGENT
    return {"message": {
        "token": token,
        "notification": {"title": said["title"] or "", "body": said["body"]},
        "data": {k: "" if v is None else str(v) for k, v in said.items()},
        "android": {"collapse_key": key, "priority": "HIGH" if high else "NORMAL", "ttl": f"{left}s",
                    "notification": {"tag": key}},
        "apns": {"headers": {"apns-collapse-id": key, "apns-priority": "10" if high else "5",
                             "apns-expiration": str(expires_at_s(entry, ttl_s))}},
    }}


def apns_request(entry: dict[str, Any], lang: str, ttl_s: int, bundle_id: str) -> tuple[dict[str, str], bytes]:
    """APNs' headers (but `authorization`) and JSON body: an alert (title, body, the game's thread)
    and the PushMessage under `message`."""
    said = message(entry, lang)
    key = topic(entry)
    high = entry.get("type") in URGENT
    headers = {"apns-topic": bundle_id, "apns-push-type": "alert", "apns-priority": "10" if high else "5",
               "apns-expiration": str(expires_at_s(entry, ttl_s)), "apns-collapse-id": key}
    body = {"aps": {"alert": {"title": said["title"] or "", "body": said["body"]}, "sound": "default",
                    "thread-id": key}, "message": said}
    return headers, json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
