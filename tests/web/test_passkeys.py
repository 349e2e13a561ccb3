"""Passkeys in Chromium (issue 36), with its virtual authenticator (the DevTools protocol's
WebAuthn domain, through selenium): a player registers a passkey on the account page in one
profile; another profile, holding the same authenticator's credential and no player, signs in
with it on the account page and plays a move as that player. Issue 51: revoking another key there
asks for a proof first, which the passkey gives (registered with a step-up, it counts at once);
removing the passkey asks too, given with the recovery code. The pages are opened on
`localhost` (WebAuthn takes no IP address as a relying party's id)."""
from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.conftest import _running_driver, page_errors
from tests.web.helpers import click_a_move, create_in_lobby, shown_version, text_of, wait
from tests.web.test_security_headers import LISTEN

AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
                 "isUserVerified": True, "automaticPresenceSimulation": True}


@pytest.fixture
def first_profile(browser_available):
    yield from _running_driver()


@pytest.fixture
def second_profile(browser_available):
    yield from _running_driver()


def _authenticator(driver) -> str:
    driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
    return driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})["authenticatorId"]


SIGN_IN_ANSWER = """
const done = arguments[arguments.length - 1];
fetch("/passkeys/sign-in/options", {method: "POST"}).then((r) => r.json())
  .then((o) => navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(o)}))
  .then((c) => done(c.toJSON()), (e) => done({error: String(e)}));
"""


def _stored_player(driver) -> dict | None:
    return driver.execute_script("return JSON.parse(localStorage.getItem('gameserver.player'))")


@pytest.mark.browser
def test_a_passkey_registered_in_one_profile_signs_in_another_which_plays(web_server, first_profile, second_profile,
                                                                           redis_client):
    base = web_server.base.replace("127.0.0.1", "localhost")
    ann, other = first_profile, second_profile
    for driver in (ann, other):  # the account page keeps its Content-Security-Policy
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LISTEN})
    web_server.start_bots()
    try:
        # The player made by the API, its recovery code kept by the test (the lobby shows none).
        made = requests.post(f"{base}/players", json={"name": "Ann"}, timeout=10).json()
        ann.get(base + "/web/account.html")
        ann.execute_script("localStorage.setItem('gameserver.player', JSON.stringify(arguments[0]))",
                           {"id": made["id"], "name": made["name"], "key": made["key"]})
        game_id = create_in_lobby(ann, base, "splendor", ["me", "bot:random"])
        me = _stored_player(ann)
        assert me["id"] == made["id"]
        # A step-up for the first profile's key: the passkey it adds then proves one at once.
        assert requests.post(f"{base}/players/me/step-up", json={"recovery_code": made["recovery_code"]},
                             headers={"Authorization": f"Bearer {me['key']}"}, timeout=10).status_code == 201
        # The lobby's one link leads to the account page.
        ann.get(base + "/")
        wait(ann, lambda: ann.find_elements(By.ID, "account-link"), message="the lobby links the account page")
        ann.find_element(By.ID, "account-link").click()
        wait(ann, lambda: "account.html" in ann.current_url and text_of(ann, "#who").startswith("This browser is"))
        authenticator = _authenticator(ann)
        name = ann.find_element(By.ID, "new-passkey-name")
        name.clear()
        name.send_keys("Ann's laptop")
        ann.find_element(By.ID, "add-passkey").click()
        wait(ann, lambda: "Ann's laptop" in text_of(ann, "#passkeys"), message="the passkey is listed")
        assert ann.execute_script("return window.__violations") == []
        credentials = ann.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        assert len(credentials) == 1 and credentials[0]["isResidentCredential"]

        # Another profile: the same passkey on its authenticator, no player of its own.
        other_authenticator = _authenticator(other)
        other.execute_cdp_cmd("WebAuthn.addCredential", {"authenticatorId": other_authenticator, "credential": credentials[0]})
        other.get(base + "/web/account.html")
        wait(other, lambda: text_of(other, "#who").startswith("This browser holds no player"))
        field = other.find_element(By.ID, "sign-in-name")
        field.clear()
        field.send_keys("Ann's phone")
        other.find_element(By.ID, "passkey-sign-in-btn").click()
        wait(other, lambda: text_of(other, "#status").startswith("Signed in as"), message="signed in with the passkey")
        signed_in = _stored_player(other)
        assert signed_in["id"] == me["id"] and signed_in["key"] != me["key"]
        wait(other, lambda: "Ann's phone (this browser)" in text_of(other, "#keys"), message="its own key is listed")
        assert other.execute_script("return window.__violations") == []

        # It plays as the player: its seat's moves, with its own key.
        other.get(f"{base}/play/{game_id}")
        wait(other, lambda: text_of(other, "#turn") == "Your turn." and other.find_elements(By.CSS_SELECTOR, "#moves button.move"),
             timeout=40, message="the signed-in browser is to move")
        before = shown_version(other)
        assert click_a_move(other)
        wait(other, lambda: shown_version(other) > before, message="its move is played")
        history = requests.get(f"{web_server.base}/games/{game_id}/events?limit=200", timeout=10).json()["events"]
        assert any(e.get("actor") == 0 and e["version"] > before for e in history)
        assert page_errors(other) == [] and page_errors(ann) == []

        # The first profile's key still works, and both keys are listed.
        keys = requests.get(f"{web_server.base}/players/me/keys", headers={"Authorization": f"Bearer {me['key']}"},
                            timeout=10).json()["keys"]
        assert [k["name"] for k in keys] == ["first key", "Ann's phone"]

        # The signed-in profile revokes another key: the page asks for a proof, the passkey gives it.
        spare = requests.post(f"{base}/players/me/keys", json={"name": "spare"},
                              headers={"Authorization": f"Bearer {me['key']}"}, timeout=10).json()
        other.get(base + "/web/account.html")
        wait(other, lambda: "spare" in text_of(other, "#keys"), message="the spare key is listed")
        other.find_element(By.CSS_SELECTOR, f'#keys li[data-key="{spare["id"]}"] button').click()
        wait(other, lambda: other.find_element(By.ID, "step-up").is_displayed(), message="the page asks for a proof")
        other.find_element(By.ID, "step-up-passkey").click()
        wait(other, lambda: "spare" not in text_of(other, "#keys"), message="revoked once the passkey proved it")
        assert not other.find_element(By.ID, "step-up").is_displayed()
        assert requests.get(f"{base}/players/me", headers={"Authorization": f"Bearer {spare['key']}"},
                            timeout=10).status_code == 401

        # An answer replayed is refused: each sign-in challenge answers once.
        answer = other.execute_async_script(SIGN_IN_ANSWER)
        first = requests.post(f"{base}/passkeys/sign-in", json={"credential": answer, "name": "script"}, timeout=10)
        replayed = requests.post(f"{base}/passkeys/sign-in", json={"credential": answer, "name": "again"}, timeout=10)
        assert first.status_code == 201 and replayed.status_code == 401, (first.text, replayed.text)
        assert replayed.json()["code"] == "passkey_refused"

        # Removing it takes something from the other devices: once the first profile's grant is
        # over, the page asks for a proof (here the recovery code), then removes it.
        grants = redis_client.keys(f"{web_server.prefix}player:{{{me['id']}}}:step-up:*")
        assert len(grants) == 2  # the first profile's key's and the second's
        redis_client.delete(*grants)
        ann.find_element(By.CSS_SELECTOR, "#passkeys li button").click()
        wait(ann, lambda: ann.find_element(By.ID, "step-up").is_displayed(), message="the page asks for a proof")
        assert text_of(ann, "#passkeys") != ""
        ann.find_element(By.ID, "step-up-code").send_keys(made["recovery_code"])
        ann.find_element(By.ID, "step-up-submit").click()
        # Removed on the first profile, the passkey signs in nowhere.
        wait(ann, lambda: text_of(ann, "#passkeys") == "", message="the passkey is removed")
        assert not ann.find_element(By.ID, "step-up").is_displayed()
        other.execute_script("localStorage.removeItem('gameserver.player')")
        other.get(base + "/web/account.html")
        wait(other, lambda: text_of(other, "#who").startswith("This browser holds no player"))
        other.find_element(By.ID, "passkey-sign-in-btn").click()
        wait(other, lambda: "not registered here" in text_of(other, "#status"), message="the removed passkey is refused")
        assert _stored_player(other) is None
    finally:
        web_server.stop_bots()
