"""The lobby's defaults (issue 35): a made-up friendly name rather than "Me", a game nobody else
can join created private (it is not listed, and still the creator's to replay), one with an
open seat public; no developer notes beside the games."""
from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.conftest import _running_driver, page_errors
from tests.web.helpers import create_in_lobby, text_of, wait


@pytest.mark.browser
def test_a_new_browser_gets_a_friendly_name_and_private_bot_games(web_server, browser_available):
    base = web_server.base
    steps = _running_driver()
    driver = next(steps)
    try:
        driver.get(base + "/")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option"))
        name = driver.find_element(By.ID, "name").get_attribute("value")
        assert len(name.split()) == 2 and name != "Me", name
        notes = {t["type"]: t["notes"] for t in requests.get(base + "/game-types", timeout=5).json()["game_types"]}
        lobby = driver.find_element(By.TAG_NAME, "main").text
        assert not any(n and n in lobby for n in notes.values())  # the server's notes are the docs', not the lobby's
        Select(driver.find_element(By.ID, "type")).select_by_value("splendor")
        assert driver.find_element(By.ID, "private").is_selected()  # you and a bot: private
        Select(driver.find_elements(By.CSS_SELECTOR, "#seats .seat")[1]).select_by_value("open")
        assert not driver.find_element(By.ID, "private").is_selected()  # an open seat: listed
        Select(driver.find_elements(By.CSS_SELECTOR, "#seats .seat")[1]).select_by_value("bot:random")
        assert driver.find_element(By.ID, "private").is_selected()
        game_id = create_in_lobby(driver, base, "splendor", ["me", "bot:random"])
        wait(driver, lambda: text_of(driver, "#who") == f"You play {name}.")
        listed = requests.get(base + "/games?status=active&limit=100", timeout=5).json()["games"]
        assert game_id not in {g["id"] for g in listed}
        driver.get(base + "/")
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#my-games li[data-game="{game_id}"]'), message="still the creator's")
        assert page_errors(driver) == []
    finally:
        steps.close()
