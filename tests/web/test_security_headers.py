"""The pages keep their Content-Security-Policy: the lobby, a seat's play page, a finished
game's play and replay pages and /docs (Swagger UI, an operation opened and tried), loaded in
Chromium, report no `securitypolicyviolation` event and no refusal in the browser's log."""
from __future__ import annotations

import requests
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from tests.conftest import wait_for
from tests.web.conftest import page_errors
from tests.web.helpers import create_in_lobby, replay_at, shown_version, text_of, wait

# Runs before each page's own scripts (a script the browser adds is not the page's: no CSP holds it).
LISTEN = """window.__violations = [];
document.addEventListener("securitypolicyviolation", e => window.__violations.push(
  `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


def _violations(driver) -> list[str]:
    found = driver.execute_script("return window.__violations || null")
    assert found is not None, "the listener ran on the page"
    return found + [m for m in page_errors(driver) if "Content Security Policy" in m or "Refused" in m]


def _finished_bot_game(web_server) -> str:
    # greedy bots: a Splendor game of about 60 moves, where random ones take about 80 (issue 48)
    created = requests.post(f"{web_server.base}/games", json={"type": "splendor", "seats": [{"bot": "greedy"}] * 2},
                            timeout=10).json()
    web_server.start_bots()
    try:
        wait_for(lambda: requests.get(f"{web_server.base}/games/{created['id']}", timeout=10).json()["status"]
                 == "finished", timeout=90, interval=0.3)
    finally:
        web_server.stop_bots()
    return created["id"]


def _scrolled_to(driver, css: str) -> list:
    """The element once Swagger UI draws it: its list of operations is virtual (only those near
    the screen are in the page), so the page is scrolled down a screen at a time until it is."""
    found = driver.find_elements(By.CSS_SELECTOR, css)
    if found:
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", found[0])
    else:
        driver.execute_script("window.scrollBy(0, 600)")
    return found


def test_no_page_violates_its_csp(web_server, browser):
    driver = browser
    listener = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LISTEN})
    try:
        page_errors(driver)  # what earlier tests left in the log
        seen = {}
        create_in_lobby(driver, web_server.base, "splendor")  # the lobby, then a seat's play page
        seen["play (a seat)"] = _violations(driver)
        driver.get(web_server.base + "/")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#my-games li"), message="the lobby lists my game")
        seen["lobby"] = _violations(driver)
        game_id = _finished_bot_game(web_server)
        driver.get(f"{web_server.base}/play/{game_id}")
        wait(driver, lambda: text_of(driver, "#turn").startswith("Game over"), message="the finished game is drawn")
        assert shown_version(driver) > 2
        seen["play (finished)"] = _violations(driver)
        driver.get(f"{web_server.base}/replay/{game_id}#v=5")
        wait(driver, lambda: replay_at(driver)[0] == 5, message="the replay is drawn")
        driver.find_element(By.ID, "next").click()
        wait(driver, lambda: replay_at(driver)[0] == 6)
        seen["replay"] = _violations(driver)
        driver.get(web_server.base + "/docs")
        try:
            wait(driver, lambda: _scrolled_to(driver, "#operations-server-listGameTypes"))
        except TimeoutException:
            raise AssertionError(f"Swagger UI did not render the spec: {_violations(driver)}") from None
        driver.find_element(By.CSS_SELECTOR, "#operations-server-listGameTypes .opblock-summary-control").click()
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, ".try-out__btn")).pop().click()
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, ".execute")).pop().click()
        wait(driver, lambda: "200" in text_of(driver, "#operations-server-listGameTypes .live-responses-table"),
             message="Try it out reaches this server (the served spec's origin)")
        seen["docs"] = _violations(driver)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": listener["identifier"]})
    assert seen == {page: [] for page in seen}, seen
