"""Links that open the app (issue 54): the files iOS and Android fetch to let an app open this
server's URLs (`/.well-known/apple-app-site-association`, `/.well-known/assetlinks.json`), made
from the operator's settings, and the shareable URLs an answer's `links` gives (a game's page,
its replay, a player's profile: the web client's stable routes, which the apps claim).

- APPLE_APP_IDS: `<team id>.<bundle id>` of each iOS app; the association claims the web
  client's routes for them (`applinks`, iOS 13's `components` form) and lets their passkeys
  and saved passwords be this site's (`webcredentials`).
- ANDROID_PACKAGES and ANDROID_CERT_FINGERPRINTS: each Android app's package name, and the
  SHA-256 fingerprints of the certificates that sign them (`AA:BB:...`, 32 bytes): Digital Asset
  Links statements that the apps handle this site's URLs (Android 12's verified App Links need
  `android:autoVerify="true"` in the app too) and may share its credentials.
- PUBLIC_URL: the site's origin for `links` (`https://games.example`); unset, the request's.

Unset, a file answers 404 `not_found`, as any path the server does not serve. A malformed
setting stops the app when it is made (`create_app`), saying which."""
from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from api.errors import ApiError, Code

bp = Blueprint("app_links", __name__)

# The web client's routes an app may open (api/http/web_client.py): a game, its replay, a player,
# a tournament.
ROUTES = ("/play/*", "/replay/*", "/profile/*", "/tournament/*")
COMMENT = "a game, its replay, a player, a tournament"
APP_ID = re.compile(r"[A-Z0-9]{10}\.[A-Za-z0-9.-]+")
PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")
FINGERPRINT = re.compile(r"[0-9A-F]{2}(:[0-9A-F]{2}){31}")
MAX_AGE = "public, max-age=3600"


class NotServed(ApiError):
    status, code = 404, Code.NOT_FOUND


def apple_association(app_ids: tuple[str, ...]) -> dict[str, Any]:
    """The apple-app-site-association document for these app ids (ValueError naming a bad one)."""
    bad = [a for a in app_ids if not APP_ID.fullmatch(a)]
    if bad:
        raise ValueError(f"APPLE_APP_IDS: {bad} are not <10-character team id>.<bundle id>")
    return {"applinks": {"details": [{"appIDs": list(app_ids),
                                      "components": [{"/": route, "comment": COMMENT} for route in ROUTES]}]},
            "webcredentials": {"apps": list(app_ids)}}


def asset_links(packages: tuple[str, ...], fingerprints: tuple[str, ...]) -> list[dict[str, Any]]:
    """The Digital Asset Links statements for these packages (ValueError naming a bad setting)."""
    bad = [p for p in packages if not PACKAGE.fullmatch(p)]
    if bad:
        raise ValueError(f"ANDROID_PACKAGES: {bad} are not package names")
    if packages and not fingerprints:
        raise ValueError("ANDROID_PACKAGES is set without ANDROID_CERT_FINGERPRINTS")
    wrong = [f for f in fingerprints if not FINGERPRINT.fullmatch(f.upper())]
    if wrong:
        raise ValueError(f"ANDROID_CERT_FINGERPRINTS: {wrong} are not SHA-256 fingerprints (AA:BB:... 32 bytes)")
    return [{"relation": ["delegate_permission/common.handle_all_urls",
                          "delegate_permission/common.get_login_creds"],
             "target": {"namespace": "android_app", "package_name": package,
                        "sha256_cert_fingerprints": [f.upper() for f in fingerprints]}} for package in packages]


def documents(settings: Any) -> dict[str, Any]:
    """Both documents from the settings, checked (create_app keeps them in app.extensions)."""
    return {"apple": apple_association(settings.apple_app_ids) if settings.apple_app_ids else None,
            "android": asset_links(settings.android_packages, settings.android_cert_fingerprints)
            if settings.android_packages else None}


def _served(name: str) -> ResponseReturnValue:
    found = current_app.extensions["app_links"][name]
    if found is None:
        raise NotServed("This server names no app for its links (its operator set none).")
    response = jsonify(found)
    response.headers["Cache-Control"] = MAX_AGE
    return response


@bp.get("/.well-known/apple-app-site-association")
def apple_app_site_association() -> ResponseReturnValue:
    return _served("apple")


@bp.get("/.well-known/assetlinks.json")
def assetlinks() -> ResponseReturnValue:
    return _served("android")


# ---- an answer's links -------------------------------------------------------------------------
def origin() -> str:
    return str(current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def game_links(game_id: str) -> dict[str, str]:
    base = origin()
    return {"web": f"{base}/play/{game_id}", "replay": f"{base}/replay/{game_id}", "api": f"{base}/games/{game_id}"}


def player_links(player_id: str) -> dict[str, str]:
    base = origin()
    return {"web": f"{base}/profile/{player_id}", "api": f"{base}/players/{player_id}"}


def tournament_links(tournament_id: str) -> dict[str, str]:
    base = origin()
    return {"web": f"{base}/tournament/{tournament_id}", "api": f"{base}/tournaments/{tournament_id}"}
