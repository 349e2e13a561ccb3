"""Ratings in the web client, in real browsers: two people press "Play now" on one game and meet
at one table; rated games appear on the leaderboard page, a name there opens the player's
profile with a chart of its rating; the lobby links a player's own ratings."""
from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from tests.api.helpers import auth
from tests.web.conftest import page_errors
from tests.web.helpers import text_of, wait


def _lobby(driver, base, name):
    driver.get(base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#types li[data-type="splendor"] button.play-now'))
    box = driver.find_element(By.ID, "name")
    box.clear()
    box.send_keys(name)


def test_two_people_press_play_now_and_meet_at_one_table(web_server, browser, second_browser):
    base = web_server.base
    page_errors(browser)
    page_errors(second_browser)
    _lobby(browser, base, "Ann")
    browser.find_element(By.CSS_SELECTOR, '#types li[data-type="splendor"] button.play-now').click()
    wait(browser, lambda: "Looking for 1 more player" in text_of(browser, "#status"), message="Ann waits in the queue")
    _lobby(second_browser, base, "Bob")
    second_browser.find_element(By.CSS_SELECTOR, '#types li[data-type="splendor"] button.play-now').click()
    wait(second_browser, lambda: "/play/" in second_browser.current_url, message="Bob is matched at once")
    wait(browser, lambda: "/play/" in browser.current_url, message="Ann's page follows her seek to the game")
    assert browser.current_url == second_browser.current_url
    wait(browser, lambda: text_of(browser, "#who") == "You play Ann.")
    wait(second_browser, lambda: text_of(second_browser, "#who") == "You play Bob.")
    assert page_errors(browser) == [] and page_errors(second_browser) == []


def _rated_game(base, winner, loser, decide=True):
    """A Splendor game the loser resigns, after one decision each (rated), or at once (`decide`
    False: unrated, too short)."""
    gid = requests.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                        headers=auth(winner["key"]), timeout=10).json()["id"]
    token = requests.post(f"{base}/games/{gid}/seats/1/claim", headers=auth(loser["key"]), timeout=10).json()["token"]
    for key in (winner["key"], token) if decide else ():
        moves = requests.get(f"{base}/games/{gid}/moves", headers=auth(key), timeout=10).json()
        assert requests.post(f"{base}/games/{gid}/moves", headers=auth(key), timeout=10, json={
            "expected_version": moves["version"], "move": moves["moves"][0]}).status_code == 201
    assert requests.post(f"{base}/games/{gid}/resign", headers=auth(token), timeout=10).status_code == 200
    return gid


def test_the_leaderboard_and_a_profile_with_its_chart(web_server, browser):
    base = web_server.base
    cy, dee = (requests.post(f"{base}/players", json={"name": n}, timeout=10).json() for n in ("Cy", "Dee"))
    for _ in range(3):
        _rated_game(base, cy, dee)

    def counted():
        r = requests.get(f"{base}/players/{cy['id']}", timeout=10).json()
        return r["ratings"].get("splendor", {}).get("games") == 3

    wait(browser, lambda: counted(), timeout=30, message="the reconciler counts the games")
    browser.get(f"{base}/leaderboard/splendor")
    wait(browser, lambda: "show the provisional" in text_of(browser, "#status"), message="nobody established yet")
    browser.find_element(By.ID, "provisional").click()
    wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#board tbody tr"))
    names = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#board tbody tr")]
    assert names.index(next(n for n in names if "Cy" in n)) < names.index(next(n for n in names if "Dee" in n))
    browser.find_element(By.LINK_TEXT, "Cy").click()
    wait(browser, lambda: text_of(browser, "#title") == "Cy", message="the profile opens")
    item = browser.find_element(By.CSS_SELECTOR, '#ratings li[data-type="splendor"]')
    assert "3 games, 3 wins" in item.text
    chart = item.find_element(By.CSS_SELECTOR, "svg.chart polyline")
    assert len(chart.get_attribute("points").split()) == 4  # from the newcomer's 1500, then each game
    assert page_errors(browser) == []


def test_the_table_shows_each_players_rating_and_its_change_once_counted(web_server, browser):
    base = web_server.base
    page_errors(browser)
    fay, gus = (requests.post(f"{base}/players", json={"name": n}, timeout=10).json() for n in ("Fay", "Gus"))
    gid = _rated_game(base, fay, gus)
    browser.get(f"{base}/play/{gid}")
    wait(browser, lambda: "→" in text_of(browser, "#table-ratings"), timeout=30,
         message="the table shows the ratings' changes once the game is counted")
    changes = requests.get(f"{base}/games/{gid}/ratings", timeout=10).json()["seats"]
    shown = text_of(browser, "#table-ratings")
    for change in changes:
        name = ("Fay", "Gus")[change["seat"]]
        assert f"{name} {change['before']} → {change['after']}" in shown, shown
    assert changes[0]["after"] > changes[0]["before"] > changes[1]["after"]  # Fay won: Gus resigned
    short = _rated_game(base, fay, gus, decide=False)  # resigned at move 0: not rated, and said why
    browser.get(f"{base}/play/{short}")
    wait(browser, lambda: "Not rated: the game ended before every seat made its first move." in
         text_of(browser, "#table-ratings"), timeout=15, message="the table says why the game is not rated")
    assert page_errors(browser) == []


def test_the_lobby_shows_the_players_own_rating_beside_each_game(web_server, browser):
    base = web_server.base
    page_errors(browser)
    hal, ivy = (requests.post(f"{base}/players", json={"name": n}, timeout=10).json() for n in ("Hal", "Ivy"))
    _rated_game(base, hal, ivy)
    wait(browser, lambda: requests.get(f"{base}/players/{hal['id']}", timeout=10).json()["ratings"].get("splendor"),
         message="the reconciler counts the game")
    browser.get(base + "/")
    wait(browser, lambda: browser.find_elements(By.ID, "key-in"))
    browser.execute_script("document.querySelector('#key-in').closest('details').open = true")
    browser.find_element(By.ID, "key-in").send_keys(hal["key"])
    browser.find_element(By.CSS_SELECTOR, "#use-key button, #use-key [type=submit]").click()
    rating = requests.get(f"{base}/players/{hal['id']}", timeout=10).json()["ratings"]["splendor"]
    wait(browser, lambda: text_of(browser, '#types li[data-type="splendor"] .my-rating')
         == f"Your rating: {rating['rating']}? (1 games)", message="Hal's rating beside Splendor")
    assert text_of(browser, '#types li[data-type="witches"] .my-rating') == ""
    assert page_errors(browser) == []
