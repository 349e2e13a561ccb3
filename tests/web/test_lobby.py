"""People meet through the lobby, in two browsers (two chromium profiles: two people): one
creates a Splendor game with an open seat, the other finds it in the server's listing
(GET /games) and joins it; both then play from /play/{id}. The players' keys stay in each
browser, so the lobby lists a person's games when they come back."""
from __future__ import annotations

import time

from selenium.webdriver.common.by import By

from tests.web.conftest import page_errors
from tests.web.helpers import (
    click_a_move,
    create_in_lobby,
    shown_version,
    text_of,
    wait,
)


def _set_name(driver, base, name):
    driver.get(base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#type option"))
    box = driver.find_element(By.ID, "name")
    box.clear()
    box.send_keys(name)


def _no_sideways_scroll(driver):
    overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{driver.current_url} scrolls sideways by {overflow} px"


def test_two_people_meet_in_the_lobby_and_play(web_server, browser, second_browser, screenshots):
    """Ann at a desktop, Bob on a phone-sized screen (390 px wide)."""
    ann, bob = browser, second_browser
    bob.set_window_size(390, 844)
    base = web_server.base
    page_errors(ann)  # what earlier tests left in this browser's log
    _set_name(ann, base, "Ann")
    game_id = create_in_lobby(ann, base, "splendor", ["me", "open"])
    wait(ann, lambda: text_of(ann, "#turn").startswith("Waiting for players: 1 free seat"), message="the game waits")
    assert text_of(ann, "#who") == "You sit in seat 1 as Ann."
    assert not ann.find_elements(By.CSS_SELECTOR, "#board .join")  # Ann is seated: nothing to join
    ann.find_element(By.ID, "board").screenshot(str(screenshots / "lobby-waiting.png"))

    # Bob finds it among the open games and joins
    _set_name(bob, base, "Bob")
    join = wait(bob, lambda: bob.find_elements(By.CSS_SELECTOR, f'#open-games li[data-game="{game_id}"] button.join'),
                message="the open game is listed")[0]
    assert "Ann" in text_of(bob, f'#open-games li[data-game="{game_id}"]')
    named = join.get_attribute("aria-label")  # a person's words: the game and who sits there, no id
    assert game_id not in named and "Ann" in named and "Splendor" in named, named
    _no_sideways_scroll(bob)
    bob.execute_script("arguments[0].scrollIntoView({block: 'center'})", join)
    bob.save_screenshot(str(screenshots / "phone-lobby.png"))
    join.click()
    wait(bob, lambda: bob.current_url.endswith(f"/play/{game_id}"), message="joining opens the game")
    wait(bob, lambda: text_of(bob, "#who") == "You play Bob.", message="Bob sits in the game")
    # Ann's page learns it live: the deal is drawn, and her seat is hers
    wait(ann, lambda: text_of(ann, "#who") == "You play Ann.", message="Ann's page starts the game live")
    wait(ann, lambda: ann.find_elements(By.CSS_SELECTOR, "#board svg [data-ref]"))

    # both move, two turns each, each page following the other's moves live
    moved = {"ann": 0, "bob": 0}
    deadline = time.monotonic() + 240  # a ceiling for a slow host, waited out only on a failure
    while min(moved.values()) < 2:
        assert time.monotonic() < deadline, f"moves made: {moved}"
        for who, driver in (("ann", ann), ("bob", bob)):
            if text_of(driver, "#turn") == "Your turn.":
                before = shown_version(driver)
                if click_a_move(driver, prefer=("Take",)):
                    wait(driver, lambda: shown_version(driver) > before, message=f"{who}'s move is answered")
                    moved[who] += 1
        time.sleep(0.05)
    final = max(shown_version(ann), shown_version(bob))
    for driver in (ann, bob):
        wait(driver, lambda: shown_version(driver) == final, message="both boards show every move")
    _no_sideways_scroll(bob)
    bob.save_screenshot(str(screenshots / "phone-play.png"))
    ann.find_element(By.ID, "board").screenshot(str(screenshots / "lobby-two-players.png"))

    # Ann comes back to the lobby: her games list this one, to play
    ann.get(base + "/")
    wait(ann, lambda: ann.find_elements(By.CSS_SELECTOR, f'#my-games li[data-game="{game_id}"] a[href="/play/{game_id}"]'),
         message="the lobby lists Ann's game")
    assert "You are Ann" in text_of(ann, "#you-line")
    for driver in (ann, bob):
        assert page_errors(driver) == []


def test_an_invited_seat_is_taken_from_the_creators_link(web_server, browser, second_browser):
    """A seat by invitation is not for anyone in the lobby; the creator's invite link opens the
    game with a Join button for it."""
    ann, bob = browser, second_browser
    base = web_server.base
    page_errors(ann)
    _set_name(ann, base, "Ann")
    game_id = create_in_lobby(ann, base, "splendor", ["me", "invite"])
    link = wait(ann, lambda: ann.find_elements(By.ID, "invite-link"), message="the creator sees the invite link")[0].get_attribute("value")
    assert link.startswith(f"{base}/play/{game_id}#invite=")
    bob.get(base + "/")
    wait(bob, lambda: "by invitation" in text_of(bob, f'#open-games li[data-game="{game_id}"]'), message="listed, not joinable")
    assert not bob.find_elements(By.CSS_SELECTOR, f'#open-games li[data-game="{game_id}"] button.join')
    bob.get(base + f"/play/{game_id}")  # without the code: no Join
    wait(bob, lambda: text_of(bob, "#who") == "You are not seated.")
    assert not bob.find_elements(By.CSS_SELECTOR, "#board button.join")
    # Cy, who has never been here (this browser forgets its player), follows the link
    bob.execute_script("localStorage.clear()")
    bob.get(link)
    bob.refresh()  # a link in the same document changes only the hash: load it
    join = wait(bob, lambda: bob.find_elements(By.CSS_SELECTOR, '#board li[data-seat="1"] button.join'), message="the link offers the seat")[0]
    bob.find_element(By.ID, "join-name").send_keys("Cy")  # a newcomer names themself first
    join.click()
    wait(bob, lambda: text_of(bob, "#who") == "You play Cy.", message="Cy sits in the game")
    wait(ann, lambda: text_of(ann, "#who") == "You play Ann.", message="Ann's page starts the game live")
    for driver in (ann, bob):
        assert page_errors(driver) == []


def test_a_player_comes_back_in_another_browser_with_the_key(web_server, browser, second_browser):
    """The lobby shows this browser's player key; another browser given it lists that player's
    games (and plays them as that player). Ann is the player the tests above made."""
    ann, other = browser, second_browser
    base = web_server.base
    ann.get(base + "/")
    wait(ann, lambda: "You are Ann" in text_of(ann, "#you-line"))
    ann.find_element(By.CSS_SELECTOR, "#key-box summary").click()
    ann.find_element(By.ID, "show-key").click()
    key = wait(ann, lambda: text_of(ann, "#key-out"), message="the key is shown")
    assert key.startswith("pk.")
    mine = {li.get_attribute("data-game") for li in wait(ann, lambda: ann.find_elements(By.CSS_SELECTOR, "#my-games li[data-game]"))}
    other.get(base + "/")
    wait(other, lambda: other.find_elements(By.CSS_SELECTOR, "#type option"))
    other.find_element(By.CSS_SELECTOR, "#key-box summary").click()
    other.find_element(By.ID, "key-in").send_keys(key)
    other.find_element(By.CSS_SELECTOR, "#use-key button").click()
    wait(other, lambda: text_of(other, "#status") == "Welcome back, Ann.", message="the key is taken")
    wait(other, lambda: {li.get_attribute("data-game") for li in other.find_elements(By.CSS_SELECTOR, "#my-games li[data-game]")} == mine,
         message="Ann's games are listed in the other browser")
    assert page_errors(other) == []


def test_a_name_in_the_lobbys_lists_opens_its_menu(web_server, browser):
    """Issue 53: mute, block or report from a player's name anywhere: in the lobby's open games,
    another person's name carries its menu (a visitor with no player yet is offered none)."""
    import requests

    base, driver = web_server.base, browser
    ann, bob = (requests.post(f"{base}/players", json={"name": n}, timeout=5).json() for n in ("Ann", "Bob"))
    made = requests.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                         headers={"Authorization": f"Bearer {ann['key']}"}, timeout=5).json()
    row = f'#open-games li[data-game="{made["id"]}"]'
    driver.get(f"{base}/health")
    driver.execute_script("localStorage.clear()")
    driver.get(base + "/")
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, row), message="the open game listed")
    assert not driver.find_elements(By.CSS_SELECTOR, f"{row} .person-menu")  # a visitor: no menu
    driver.execute_script("localStorage.setItem('gameserver.player', JSON.stringify(arguments[0]))",
                          {"id": bob["id"], "name": bob["name"], "key": bob["key"]})
    driver.get(base + "/")
    menu = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'{row} .person-menu[data-player="{ann["id"]}"] summary'),
                message="Ann's name with its menu")[0]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", menu)
    menu.click()
    mute = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f"{row} .person-actions button.mute"), message="the menu")[0]
    assert driver.find_elements(By.CSS_SELECTOR, f"{row} .person-actions .report-reason")
    mute.click()
    mutes = lambda: requests.get(f"{base}/players/me/mutes", headers={"Authorization": f"Bearer {bob['key']}"}, timeout=5).json()["mutes"]
    wait(driver, lambda: ann["id"] in mutes(), message="Ann muted through the lobby's menu")
    menu.click()  # opened again, the menu says what is true now
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f"{row} .person-actions button.unmute"), message="unmute offered")
    driver.execute_script("localStorage.clear()")
    assert page_errors(driver) == []
