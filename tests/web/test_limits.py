"""A person told to wait: a server with a tiny per-token budget (RATE_LIMIT for a long window)
answers a move `429 rate_limited` with `Retry-After`, and the page says how long to wait."""
from __future__ import annotations

import re

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.conftest import wait_for
from tests.web.conftest import WebServer, page_errors
from tests.web.helpers import click_a_move, create_in_lobby, text_of, wait


@pytest.fixture(scope="module")
def limited_server(redis_url, browser_available):
    server = WebServer(redis_url, RATE_LIMIT="40", RATE_WINDOW_S="3600")
    try:
        wait_for(server.up, timeout=60, interval=0.2)
        yield server
    finally:
        server.close()


def test_the_page_says_how_long_to_wait(limited_server, browser):
    driver = browser
    base = limited_server.base
    game_id = create_in_lobby(driver, base, "splendor", ["me", "open"])  # nobody moves meanwhile: no bots
    wait(driver, lambda: text_of(driver, "#turn").startswith("Waiting for players"))
    token = driver.execute_script(f"return JSON.parse(localStorage.getItem('gameserver.games'))['{game_id}'].token")
    # somebody else fills the seat; the page's seat token then spends what is left of its budget
    joined = requests.post(f"{base}/games/{game_id}/seats/1/claim", json={"name": "Bob"})
    assert joined.status_code == 201
    wait(driver, lambda: text_of(driver, "#turn") == "Your turn." and driver.find_elements(By.CSS_SELECTOR, "#moves button.move"),
         message="the game starts on the page")
    for _ in range(60):
        r = requests.get(f"{base}/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        if r.status_code == 429:
            break
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    retry_after = int(r.headers["Retry-After"])
    assert click_a_move(driver)
    wait(driver, lambda: re.match(r"Too many requests: wait (\d+) s", text_of(driver, "#status")), message="the page says to wait")
    waited = int(re.match(r"Too many requests: wait (\d+) s", text_of(driver, "#status")).group(1))
    assert 0 < waited <= retry_after
    assert "error" in driver.find_element(By.ID, "status").get_attribute("class")
    assert [e for e in page_errors(driver) if "429" not in e] == []
    driver.get("about:blank")  # the page leaves before its server stops (no stream cut under it)
