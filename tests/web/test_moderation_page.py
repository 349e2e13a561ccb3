"""The moderators' page (issue 50), in a real browser on a phone (390x844), in Korean and English:
a moderator (granted by the operator's command) sees the flags with their evidence, voids a
flagged player's rated games with a reason and undoes it, each an event with who and why; a
player who is not a moderator is told the page is not theirs, and shown nothing else. Each page
is checked as issue 55 asks (nothing wider than the screen, no text under 12 px, no control
under 24 px, axe-core, no English at ko outside names)."""

from __future__ import annotations

import subprocess
import sys

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.api.helpers import auth
from tests.conftest import ROOT
from tests.web.conftest import page_errors
from tests.web.helpers import text_of, wait
from tests.web.test_social_pages import _as, _checked, _people

pytestmark = pytest.mark.browser
LANGS = ("ko", "en")
SAID = {
    "ko": ("무효 처리했습니다", "다시 반영됩니다", "운영자만 볼 수 있는 페이지"),
    "en": ("are voided", "count again", "for moderators only"),
}


def grant(web_server, player_id: str) -> None:
    """The operator's command (never the API) makes the player a moderator."""
    subprocess.run(
        [sys.executable, "-m", "tools.moderators", "grant", player_id, "trusted"],
        cwd=ROOT,
        env=web_server.env,
        check=True,
        timeout=120,
        capture_output=True,
    )


def lineage(base, maker, name):
    """A player made by a request carrying the maker's key: a `key_lineage` flag of the two."""
    r = requests.post(f"{base}/players", json={"name": name}, headers=auth(maker["key"]), timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def _names(driver):
    return driver.execute_script("return [...document.querySelectorAll('.who')].map((n) => n.textContent)")


def _events(base, mod):
    return requests.get(f"{base}/moderation/events", headers=auth(mod["key"]), timeout=10).json()["events"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_moderator_voids_and_undoes_from_the_page(web_server, browser, lang):
    base, driver = web_server.base, browser
    mod, farmer = _people(base, "지민", "농부")
    lineage(base, farmer, "부계정")
    grant(web_server, mod["id"])
    _as(driver, base, mod, lang)
    driver.get(base + "/web/moderation.html")
    row = f'#flags li[data-player="{farmer["id"]}"]'
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, row), message="the farmer's flag")
    flag = next(
        f
        for f in driver.find_elements(By.CSS_SELECTOR, '#flags li[data-signal="key_lineage"]')
        if f.find_elements(By.CSS_SELECTOR, f'li[data-player="{farmer["id"]}"]')
    )
    assert flag.find_element(By.CSS_SELECTOR, "dl.mod-figures dd").text == "2"  # its evidence: two accounts
    # the reports' queue is read after the flags: its reported messages (other modules' chat on
    # the shared server, e.g. "your turn") are people's words, read as names once it is drawn
    wait(driver, lambda: driver.execute_script("return document.querySelector('#reports-card').hidden === false"),
         message="the reports' queue drawn")
    _checked(driver, lang, names=_names(driver), page="moderation")

    driver.find_element(By.CSS_SELECTOR, f"{row} button.void").click()  # no reason: refused by the page
    wait(driver, lambda: "error" in driver.find_element(By.ID, "status").get_attribute("class"))
    driver.find_element(By.CSS_SELECTOR, f"{row} .mod-reason").send_keys("farming")
    driver.find_element(By.CSS_SELECTOR, f"{row} button.void").click()
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f"{row} button.unvoid"), message="voided")
    assert SAID[lang][0] in text_of(driver, "#status")
    voided = [e for e in _events(base, mod) if e["type"] == "player_voided" and e["player"] == farmer["id"]]
    assert [(e["by"], e["reason"]) for e in voided] == [(mod["id"], "farming")]
    _checked(driver, lang, names=_names(driver), page="moderation-voided")

    driver.find_element(By.CSS_SELECTOR, f"{row} .mod-reason").send_keys("appeal upheld")
    driver.find_element(By.CSS_SELECTOR, f"{row} button.unvoid").click()
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f"{row} button.void"), message="undone")
    assert SAID[lang][1] in text_of(driver, "#status")
    undone = [e for e in _events(base, mod) if e["type"] == "player_unvoided" and e["player"] == farmer["id"]]
    assert [(e["by"], e["reason"]) for e in undone] == [(mod["id"], "appeal upheld")]


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_who_is_not_a_moderator_is_told_and_shown_nothing(web_server, browser, lang):
    base, driver = web_server.base, browser
    (someone,) = _people(base, "누군가")
    _as(driver, base, someone, lang)
    driver.get(base + "/web/moderation.html")
    wait(driver, lambda: SAID[lang][2] in text_of(driver, "#status"), message="the moderators-only message")
    assert not driver.find_element(By.ID, "flags-card").is_displayed()
    assert not driver.find_element(By.ID, "reports-card").is_displayed()
    refused = page_errors(driver)  # the browser logs the API's 403, the page's only error
    assert refused and all("/moderation/flags" in e and "403" in e for e in refused), refused
    _checked(driver, lang, page="moderation-refused")


def test_a_moderator_hides_a_reported_message_from_the_queue(web_server, browser):
    """Ann's table message, reported by Bob once her game is over (its chat open to everyone), is
    in the moderator's queue with its text; hidden from the page with a reason, the report is
    resolved (actioned, naming the hide) and the queue is empty of it."""
    base, driver = web_server.base, browser
    mod, ann, bob = _people(base, "모더", "안나", "보람")
    grant(web_server, mod["id"])
    game = requests.post(
        f"{base}/games",
        json={"type": "splendor", "seats": [{"me": True}, {"bot": "random"}]},
        headers=auth(ann["key"]),
        timeout=10,
    ).json()
    said = requests.post(
        f"{base}/games/{game['id']}/chat", json={"text": "rude words here"}, headers=auth(ann["key"]), timeout=10
    )
    assert said.status_code == 201, said.text
    message = said.json()
    token = next(s["token"] for s in game["seats"] if s.get("token"))
    requests.post(f"{base}/games/{game['id']}/resign", headers=auth(token), timeout=10).raise_for_status()
    filed = requests.post(
        f"{base}/reports",
        json={"kind": "message", "channel": message["channel"], "message": message["id"], "reason": "insult"},
        headers=auth(bob["key"]),
        timeout=10,
    )
    assert filed.status_code == 201, filed.text
    report = filed.json()["id"]
    _as(driver, base, mod, "en")
    driver.get(base + "/web/moderation.html")
    item = f'#reports li[data-report="{report}"]'
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, item), message="the report")
    assert "rude words here" in text_of(driver, item)
    _checked(driver, "en", page="moderation-reports")
    driver.find_element(By.CSS_SELECTOR, f"{item} .mod-reason").send_keys("insults")
    next(b for b in driver.find_elements(By.CSS_SELECTOR, f"{item} button") if b.text == "Hide the message").click()
    wait(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, item), message="resolved")
    resolved = requests.get(f"{base}/moderation/reports?status=resolved", headers=auth(mod["key"]), timeout=10).json()
    mine = next(r for r in resolved["reports"] if r["id"] == report)
    assert mine["status"] == "resolved" and mine["resolution"]["outcome"] == "actioned", mine
