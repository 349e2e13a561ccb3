"""Links that open the app (issue 54): `/.well-known/apple-app-site-association` and
`/.well-known/assetlinks.json` from the operator's settings (404 `not_found` without them, a bad
setting refused when the app is made), and the `links` of game and player answers."""
from __future__ import annotations

import uuid

import pytest

from api.http import app_links
from tests.api.helpers import auth
from tests.lobby.helpers import claim, open_game, player

FINGERPRINT = ":".join(["AB"] * 32)


@pytest.fixture(scope="module")
def linked_app(redis_url):
    from app import create_app

    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": f"al{uuid.uuid4().hex[:6]}:", "TESTING": True,
                       "RATE_LIMIT": 1_000_000, "PUBLIC_URL": "https://games.example",
                       "APPLE_APP_IDS": ("ABCDE12345.org.example.games",),
                       "ANDROID_PACKAGES": ("org.example.games",),
                       "ANDROID_CERT_FINGERPRINTS": (FINGERPRINT.lower(),)})


@pytest.fixture
def linked(linked_app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(linked_app, linked_app.response_class, use_cookies=True)


def test_the_association_files_come_from_the_settings(linked):
    apple = linked.get("/.well-known/apple-app-site-association")
    assert apple.status_code == 200 and apple.mimetype == "application/json"
    assert "max-age=3600" in apple.headers["Cache-Control"]
    details = apple.get_json()["applinks"]["details"]
    assert details[0]["appIDs"] == ["ABCDE12345.org.example.games"]
    assert [c["/"] for c in details[0]["components"]] == ["/play/*", "/replay/*", "/profile/*", "/tournament/*"]
    assert apple.get_json()["webcredentials"]["apps"] == ["ABCDE12345.org.example.games"]
    android = linked.get("/.well-known/assetlinks.json").get_json()
    assert android[0]["target"] == {"namespace": "android_app", "package_name": "org.example.games",
                                    "sha256_cert_fingerprints": [FINGERPRINT]}
    assert "delegate_permission/common.handle_all_urls" in android[0]["relation"]


def test_without_settings_the_files_are_not_served(client):
    for path in ("/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"):
        r = client.get(path)
        assert (r.status_code, r.get_json()["code"]) == (404, "not_found")


@pytest.mark.parametrize("ids, packages, prints", [
    (("org.example.games",), (), ()),  # no team id
    ((), ("org.example.games",), ()),  # a package without its certificates
    ((), ("org.example.games",), ("AB:CD",)),  # not a SHA-256 fingerprint
    ((), ("not a package",), (FINGERPRINT,)),
])
def test_a_malformed_setting_is_refused(ids, packages, prints):
    from api.settings import Settings

    with pytest.raises(ValueError):
        app_links.documents(Settings(apple_app_ids=ids, android_packages=packages, android_cert_fingerprints=prints))


def test_game_and_player_answers_carry_their_shareable_links(linked):
    ann, bob = player(linked, "Ann"), player(linked, "Bob")
    assert ann["links"] == {"web": f"https://games.example/profile/{ann['id']}",
                            "api": f"https://games.example/players/{ann['id']}"}
    created = open_game(linked, ann["key"])
    gid = created["id"]
    assert created["links"]["web"] == f"https://games.example/play/{gid}"
    assert claim(linked, gid, 1, bob["key"]).status_code == 201
    game = linked.get(f"/games/{gid}", headers=auth(ann["key"])).get_json()
    assert game["links"] == {"web": f"https://games.example/play/{gid}",
                             "replay": f"https://games.example/replay/{gid}", "api": f"https://games.example/games/{gid}"}
    assert linked.get("/players/me", headers=auth(bob["key"])).get_json()["links"]["web"].endswith(bob["id"])
    assert linked.get(f"/players/{ann['id']}").get_json()["links"]["web"].endswith(f"/profile/{ann['id']}")
    assert linked.get(game["links"]["web"].removeprefix("https://games.example")).status_code == 200  # a page


def test_without_a_public_url_links_name_the_requests_origin(client):
    ann = player(client, "Ann")
    assert ann["links"]["web"] == f"http://localhost/profile/{ann['id']}"
