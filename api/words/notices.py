"""A player's stream's entries in words (issue 32): each notice (`your_turn`, `game_finished`,
`rated`, ...) with its `text` and `message` in the stream's language, naming the game by its
title in that language; an account notice (`account_changed`, `account_change_refused`: issue
51) names the device that acted. The platform's templates (context "platform"); Flask-free."""
from __future__ import annotations

from typing import Any

from api.words import particles, translate
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
    "challenged": "{game}: {name} challenges you.",
    "challenge_declined": "{game}: {name} declined your challenge.",
    "rated": "{game}: your rating went from {before} to {after}.",
    "clock_warning": "{game}: your time for this move is running out.",
    "rerated": "{game}: after a moderator's decision your rating was recomputed, from {before} to {after}.",
}
RERATED_UNRATED = "{game}: after a moderator's decision your rating was recomputed."  # before or after: none


ACCOUNT_TITLE = "Your account"
# (type, change) -> the sentence; {by} the device (key) that acted, {key} / {passkey} / {issuer}
# what changed.
ACCOUNT = {
    ("account_changed", "key_added"): "A new device key, \u201c{key}\u201d, was added by \u201c{by}\u201d.",
    ("account_changed", "key_rotated"): "The device key \u201c{by}\u201d replaced its secret.",
    ("account_changed", "key_revoked"): "The device key \u201c{key}\u201d was revoked by \u201c{by}\u201d.",
    ("account_changed", "recovery_code_replaced"):
        "\u201c{by}\u201d made a new recovery code: the old one no longer works.",
    ("account_changed", "recovered"): "The recovery code made a new device key, \u201c{key}\u201d.",
    ("account_changed", "passkey_added"): "\u201c{by}\u201d added a passkey, \u201c{passkey}\u201d.",
    ("account_changed", "passkey_removed"): "\u201c{by}\u201d removed a passkey.",
    ("account_changed", "identity_linked"): "\u201c{by}\u201d linked a sign-in with {issuer}.",
    ("account_changed", "identity_unlinked"): "\u201c{by}\u201d unlinked a sign-in.",
    ("account_changed", "step_up"): "\u201c{by}\u201d proved it is yours, for account changes.",
    ("account_change_refused", "step_up"): "\u201c{by}\u201d gave a wrong proof that it is yours.",
    ("account_change_refused", "key_revoked"):
        "\u201c{by}\u201d tried to revoke the device key \u201c{key}\u201d without proof that it is yours: refused.",
}
ACCOUNT_REFUSED = "\u201c{by}\u201d tried to change your account without proof that it is yours: refused."
SOMEONE = "a sign-in"  # who acted when no device key did (an identity token)


def every_text() -> set[str]:
    """Every English text the notices say (what the catalogues translate)."""
    return set(TEMPLATES.values()) | set(ACCOUNT.values()) | {RERATED_UNRATED, ACCOUNT_TITLE, ACCOUNT_REFUSED, SOMEONE}


def _account(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    kind, change = entry.get("type", ""), entry.get("change", "")
    template = ACCOUNT.get((kind, change)) or (ACCOUNT_REFUSED if kind == "account_change_refused" else None)
    if template is None:
        return entry
    said_template = translate(lang, PLATFORM, template)
    by = (entry.get("by") or {}).get("name") or translate(lang, PLATFORM, SOMEONE)
    args = {"by": by, "key": (entry.get("key") or {}).get("name", ""),
            "passkey": (entry.get("passkey") or {}).get("name", ""),
            "issuer": (entry.get("identity") or {}).get("issuer", "")}
    shown = {name: {"kind": "name", "text": text} for name, text in args.items() if f"{{{name}}}" in template}
    message = {"template": said_template, "args": shown}
    return {**entry, "text": particles(said_template.format_map(args)), "message": message}


def said(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    """The entry with its `text` and `message` (a new dict); as it is for a kind with no words."""
    if entry.get("type", "").startswith("account_"):
        return _account(entry, lang)
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
