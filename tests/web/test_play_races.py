"""The play page under a slow network (a phone's, a loaded host's): a move list the page drew for
one state is never sent against another. test_browser.py's Splendor game once failed on a 422
its page had sent: a move button of an earlier decision, clicked after the page had read the
game's next version but before the moves of that version were drawn, went out with the new
version (POST /games/{id}/moves answered 422: the move is not legal there). The answers are
held in the page (a wrapper around its fetch) so the race is the same on every run."""
from __future__ import annotations

import json
import time

import requests
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from tests.web.conftest import page_errors
from tests.web.helpers import shown_version, text_of, wait

# The page's fetch, wrapped: POST .../moves counted (window.__posts), and its answer held while
# window.__holdPost is set (the move is on the server; the page has not heard); GET .../moves?
# held before it is sent while window.__holdMoves is set (a slow read of the moves: counted in
# window.__heldReads); GET /games/{id} held while window.__holdGame is set (a slow read of the game).
HOLD_FETCH = """
const real = window.fetch.bind(window);
window.__posts = 0; window.__heldReads = 0; window.__holdPost = false; window.__holdMoves = false; window.__holdGame = false;
const until = (flag) => new Promise((ok) => { const t = setInterval(() => { if (!window[flag]) { clearInterval(t); ok(); } }, 20); });
window.fetch = async (url, options = {}) => {
  const path = String(url);
  if (/\\/moves(\\?|$)/.test(path) && (options.method || "GET") === "POST") {
    window.__posts += 1;
    const answer = await real(url, options);
    await until("__holdPost");
    return answer;
  }
  if (window.__holdGame && /\\/games\\/[^/?]+$/.test(path)) await until("__holdGame");
  if (path.includes("/moves?") && window.__holdMoves) { window.__heldReads += 1; await until("__holdMoves"); }
  return real(url, options);
};
"""

# The move list's button for `move` (its data-move, parsed), or null.
BUTTON = """
const same = (a, b) => JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
return [...document.querySelectorAll('#moves button.move')].find((b) => same(JSON.parse(b.dataset.move), arguments[0])) || null;
"""


def _tap(driver, move) -> bool:
    """Taps the list's button for `move` (as a person: WebDriver's click); False when none is
    shown. A button redrawn under the tap (the page's stream) is looked up again."""
    for _ in range(40):
        button = driver.execute_script(BUTTON, move)
        if button is None:
            return False
        try:
            button.click()
            return True
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"the button of {move} kept being redrawn")


def _open_on_my_turn(driver, base, game_id, token) -> int:
    """The play page on my turn, live (its stream open); the version it shows."""
    driver.get(f"{base}/play/{game_id}#token={token}")
    wait(driver, lambda: text_of(driver, "#turn") == "Your turn." and text_of(driver, "#live") == "live", message="my turn, live")
    return shown_version(driver)


def _seated_game(base):
    """A Splendor game of two people: (its id, the token of the seat to act first, the other's)."""
    r = requests.post(f"{base}/games", json={"type": "splendor", "seats": [{"name": "Ann"}, {"name": "Bob"}]}, timeout=10)
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = {s["seat"]: s["token"] for s in body["seats"]}
    first = requests.get(f"{base}/games/{body['id']}", timeout=10).json()["to_act"][0]
    return body["id"], tokens[first], tokens[1 - first]


def test_a_move_list_of_an_earlier_state_is_never_sent(web_server, browser):
    base, driver = web_server.base, browser
    game_id, mine, theirs = _seated_game(base)
    drawn = _open_on_my_turn(driver, base, game_id, mine)
    driver.get_log("browser")  # only what follows counts
    driver.execute_script(HOLD_FETCH)
    listed = [json.loads(b.get_attribute("data-move")) for b in driver.find_elements(By.CSS_SELECTOR, "#moves button.move")]
    take = next(m for m in listed if m["type"] == "take_gems" and "red" in m["colors"])
    stale = {"type": "take_two", "color": "red"}  # legal now (4 red); not once a red is taken
    assert driver.execute_script(BUTTON, take) and driver.execute_script(BUTTON, stale)
    driver.execute_script("window.__holdPost = true")
    assert _tap(driver, take)
    wait(driver, lambda: driver.execute_script("return window.__posts") == 1, message="the move sent")
    # a second tap while the first move is on its way: a double send (409 once the first is in)
    _tap(driver, stale)
    # the other person moves meanwhile; the page then reads the game (my turn again) but its
    # moves slowly: the earlier list is still shown
    version = requests.get(f"{base}/games/{game_id}", timeout=10).json()["version"]
    assert version == drawn + 1
    theirs_moves = requests.get(f"{base}/games/{game_id}/moves", headers={"Authorization": f"Bearer {theirs}"}, timeout=10).json()["moves"]
    answer = next(m for m in theirs_moves if m["type"] == "take_gems" and "red" not in m["colors"])
    r = requests.post(f"{base}/games/{game_id}/moves", json={"expected_version": version, "move": answer},
                      headers={"Authorization": f"Bearer {theirs}"}, timeout=10)
    assert r.status_code == 201, r.text
    driver.execute_script("window.__holdMoves = true; window.__holdPost = false")
    wait(driver, lambda: driver.execute_script("return window.__heldReads") >= 1,
         message="the page has read the game's new version, and waits for its moves")
    _tap(driver, stale)  # the earlier list, still shown: a person taps it
    time.sleep(0.5)
    driver.execute_script("window.__holdMoves = false")
    wait(driver, lambda: shown_version(driver) == drawn + 2 and text_of(driver, "#turn") == "Your turn.",
         message="the new state's moves drawn")
    # one move sent; no refused request in the console (a 409 of the double send, a 422 of the
    # stale list's move)
    assert (driver.execute_script("return window.__posts"), page_errors(driver)) == (1, [])
    assert driver.find_elements(By.CSS_SELECTOR, "#moves button.move:not(:disabled)")


def test_a_move_list_the_stream_has_outdated_is_not_sent(web_server, browser):
    """The stream tells of a newer version (here the same seat moved from another device) before
    the page has read it again: the list shown is of an earlier state, and a tap on it is not sent
    (it would be refused: 409 or 422) but said, while the board is read again."""
    base, driver = web_server.base, browser
    game_id, mine, _ = _seated_game(base)
    drawn = _open_on_my_turn(driver, base, game_id, mine)
    driver.get_log("browser")
    driver.execute_script(HOLD_FETCH)
    driver.execute_script("window.__holdGame = true")
    listed = json.loads(driver.find_element(By.CSS_SELECTOR, "#moves button.move").get_attribute("data-move"))
    r = requests.post(f"{base}/games/{game_id}/moves", json={"expected_version": drawn, "move": listed},
                      headers={"Authorization": f"Bearer {mine}"}, timeout=10)
    assert r.status_code == 201, r.text
    wait(driver, lambda: text_of(driver, "#events li").startswith(f"{drawn + 1}."), message="the stream told of the move")
    assert _tap(driver, listed)  # still shown, still enabled: the board is being read
    wait(driver, lambda: text_of(driver, "#status").startswith("The game moved on"), message="the tap refused, said")
    driver.execute_script("window.__holdGame = false")
    wait(driver, lambda: shown_version(driver) == drawn + 1, message="the new version drawn")
    assert (driver.execute_script("return window.__posts"), page_errors(driver)) == (0, [])
