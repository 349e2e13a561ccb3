"""Chat in the web client (issue 53), in a real browser: a game's table chat beside the board
(a message reaching the other player live, written with Enter), the spectators' chat never shown
to a player during play, a spectator's chat on a phone (below the board, a tap away, live by the
chat's stream), mute from a name hiding the player's messages, a report with a reason, direct
messages at /messages and a group's chat, a finished game's two chats with its replay, a seat
opened by its seat link following the table chat live. The second person is the API. Issue 55's rules on
each page at `ko` and `en` on a phone (tests/web/test_social_pages.py `_checked`)."""
from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.api.helpers import auth
from tests.web.conftest import page_errors
from tests.web.helpers import text_of, wait
from tests.web.test_social_pages import _as, _checked, _people

WINDOW = (1280, 1100)  # the conftest's --window-size: given back to the next module


@pytest.fixture(scope="module", autouse=True)
def _window_given_back(browser):
    yield
    browser.set_window_size(*WINDOW)


def _table(base, ann, bob):
    """A Splendor game Ann and Bob sit at (started: every seat taken)."""
    gid = requests.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                        headers=auth(ann["key"]), timeout=10).json()["id"]
    assert requests.post(f"{base}/games/{gid}/seats/1/claim", headers=auth(bob["key"]), timeout=10).status_code == 201
    return gid


def _say(base, path, who, text):
    r = requests.post(f"{base}{path}", json={"text": text}, headers=auth(who["key"]), timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def _said(driver, box="#chat"):
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, f"{box} .chat-log li")]


def _menu(driver, box, player_id):
    """Opens the menu of the player's name on the newest of its messages in `box`."""
    menu = driver.find_elements(By.CSS_SELECTOR, f'{box} .chat-log li[data-from="{player_id}"] details.person-menu')[-1]
    menu.find_element(By.CSS_SELECTOR, "summary").click()
    wait(driver, lambda: menu.find_elements(By.CSS_SELECTOR, "button.mute"), message="the name's menu")
    return menu


def test_table_chat_live_spectators_apart_report_and_mute(web_server, browser):
    base, driver = web_server.base, browser
    ann, bob, cyd = _people(base, "Ann", "Bob", "Cyd")
    gid = _table(base, ann, bob)
    _say(base, f"/games/{gid}/chat", cyd, "spectators only")  # Cyd is not seated: the spectators' chat
    _say(base, f"/games/{gid}/chat", bob, "hello Ann")
    _as(driver, base, ann, "en")
    driver.set_window_size(*WINDOW)  # a desktop: the chat open beside the board
    driver.get(f"{base}/play/{gid}")
    wait(driver, lambda: any("hello Ann" in m for m in _said(driver)), message="the table's history")
    assert text_of(driver, "#chat-h") == "Table chat"
    # Ann writes (Enter sends); Bob reads it from the table's chat
    box = driver.find_element(By.CSS_SELECTOR, "#chat .chat-text")
    box.send_keys("hi Bob, see https://example.com")
    assert "31 of 500" in text_of(driver, "#chat .chat-count")
    box.send_keys(Keys.ENTER)
    wait(driver, lambda: any("hi Bob" in m["text"] for m in requests.get(
        f"{base}/games/{gid}/chat", headers=auth(bob["key"]), timeout=10).json()["messages"]), message="Ann's message stored")
    assert not driver.find_elements(By.CSS_SELECTOR, "#chat .chat-log a")  # a link stays text
    # Bob's next message reaches Ann live (her player stream's `chat` notice)
    _say(base, f"/games/{gid}/chat", bob, "good luck")
    wait(driver, lambda: any("good luck" in m for m in _said(driver)), message="Bob's message live")
    _say(base, f"/games/{gid}/chat", cyd, "play the red card")
    _say(base, f"/games/{gid}/chat", bob, "your turn")
    wait(driver, lambda: any("your turn" in m for m in _said(driver)), message="Bob's later message live")
    assert not [m for m in _said(driver) if "spectators only" in m or "red card" in m]  # the spectators' chat: never here
    # a report of Bob's message, with a reason
    menu = _menu(driver, "#chat", bob["id"])
    menu.find_element(By.CSS_SELECTOR, ".report-reason").send_keys("rude")
    menu.find_element(By.CSS_SELECTOR, "button.send-report").click()
    wait(driver, lambda: "Report sent" in text_of(driver, "#status"), message="the report sent")
    # mute Bob from his name: his messages leave Ann's chat, and stay out
    _menu(driver, "#chat", bob["id"]).find_element(By.CSS_SELECTOR, "button.mute").click()
    # the log is read again after a mute (empty for a moment): wait for Ann's own message back
    wait(driver, lambda: (said := _said(driver)) and not [m for m in said if "good luck" in m] and any("hi Bob" in m for m in said),
         message="Bob's messages hidden, Ann's kept")
    assert requests.get(f"{base}/players/me/mutes", headers=auth(ann["key"]), timeout=10).json()["mutes"] == [bob["id"]]
    assert page_errors(driver) == []


@pytest.mark.parametrize("lang", ("ko", "en"))
def test_a_spectators_chat_on_a_phone(web_server, browser, lang):
    base, driver = web_server.base, browser
    ann, bob, cyd, dee = _people(base, "Ann", "Bob", "Cyd", "Dee")
    gid = _table(base, ann, bob)
    _say(base, f"/games/{gid}/chat", bob, "table only")
    _as(driver, base, dee, lang)  # Dee watches, on a phone
    driver.get(f"{base}/play/{gid}")
    wait(driver, lambda: not driver.find_element(By.ID, "chat-section").get_attribute("hidden")
         and driver.find_elements(By.CSS_SELECTOR, "#board svg"), message="the board and the chat")
    details = driver.find_element(By.ID, "chat-details")
    assert details.get_attribute("open") is None  # a tap away on a phone
    board, chat = (driver.find_element(By.ID, i).rect for i in ("board", "chat-section"))
    assert chat["y"] >= board["y"] + board["height"]  # below the board, never over it
    driver.find_element(By.CSS_SELECTOR, "#chat-details summary").click()
    _say(base, f"/games/{gid}/chat", cyd, "안녕하세요 모두")
    wait(driver, lambda: any("안녕하세요" in m for m in _said(driver)), message="a spectator's message live")
    assert text_of(driver, "#chat-h") == {"ko": "관전자 채팅", "en": "Spectators' chat"}[lang]
    assert not [m for m in _said(driver) if "table only" in m]
    _checked(driver, lang, ("Ann", "Bob", "Cyd", "Dee"), "play-chat")


@pytest.mark.parametrize("lang", ("ko", "en"))
def test_direct_messages_and_a_groups_chat(web_server, browser, lang):
    base, driver = web_server.base, browser
    ann, bob = _people(base, "Ann", "Bob")
    for a, b in ((ann, bob), (bob, ann)):  # friends: they may write to each other
        assert requests.post(f"{base}/players/{b['id']}/follow", headers=auth(a["key"]), timeout=10).status_code == 200
    _say(base, f"/players/me/messages/{ann['id']}", bob, "잘 지내요?")
    _as(driver, base, ann, lang)
    driver.get(base + "/web/friends.html")  # from the friend, to the conversation
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'#friends li[data-player="{bob["id"]}"] a.message'), message="a friend's Message")
    driver.find_element(By.CSS_SELECTOR, f'#friends li[data-player="{bob["id"]}"] a.message').click()
    wait(driver, lambda: any("잘 지내요" in m for m in _said(driver, "#dm")), message="the conversation")
    assert driver.find_elements(By.CSS_SELECTOR, f'#conversations li[data-player="{bob["id"]}"]')
    driver.find_element(By.CSS_SELECTOR, "#dm .chat-text").send_keys("네 좋아요")
    driver.find_element(By.CSS_SELECTOR, "#dm button.chat-send").click()
    wait(driver, lambda: any(m["text"] == "네 좋아요" for m in requests.get(
        f"{base}/players/me/messages/{ann['id']}", headers=auth(bob["key"]), timeout=10).json()["messages"]), message="Ann's answer")
    _say(base, f"/players/me/messages/{ann['id']}", bob, "그럼 한 판")
    wait(driver, lambda: any("한 판" in m for m in _said(driver, "#dm")), message="Bob's message live")
    _checked(driver, lang, ("Ann", "Bob"), "messages")
    # a group's chat, for its members
    group = requests.post(f"{base}/groups", json={"name": "Club", "description": "", "visibility": "public"},
                          headers=auth(ann["key"]), timeout=10).json()["id"]
    assert requests.post(f"{base}/groups/{group}/join", headers=auth(bob["key"]), timeout=10).status_code == 200
    _say(base, f"/groups/{group}/chat", bob, "모두 반가워요")
    driver.get(f"{base}/web/group.html?id={group}")
    wait(driver, lambda: any("반가워요" in m for m in _said(driver, "#group-chat")), message="the group's chat")
    _say(base, f"/groups/{group}/chat", bob, "오늘 저녁에")
    wait(driver, lambda: any("저녁에" in m for m in _said(driver, "#group-chat")), message="a member's message live")
    _checked(driver, lang, ("Ann", "Bob", "Club"), "group-chat")


@pytest.mark.parametrize("lang", ("ko", "en"))
def test_a_finished_games_two_chats_with_its_replay(web_server, browser, lang):
    base, driver = web_server.base, browser
    ann, bob, cyd = _people(base, "Ann", "Bob", "Cyd")
    gid = _table(base, ann, bob)
    _say(base, f"/games/{gid}/chat", bob, "좋은 게임")  # the table's
    _say(base, f"/games/{gid}/chat", cyd, "멋진 수")  # Cyd watches: the spectators'
    assert requests.post(f"{base}/games/{gid}/resign", headers=auth(ann["key"]), timeout=10).status_code == 200
    _as(driver, base, ann, lang)  # a player of it, on a phone: after the game it reads both
    if lang == "en":
        driver.set_window_size(*WINDOW)
    driver.get(f"{base}/replay/{gid}")
    wait(driver, lambda: _said(driver, "#table-chat") and _said(driver, "#spectators-chat"), message="both chats")
    assert [m.split()[1:2] for m in _said(driver, "#table-chat")] == [["좋은"]]
    assert [m.split()[1:2] for m in _said(driver, "#spectators-chat")] == [["멋진"]]
    assert text_of(driver, "#spectators-chat-h") == {"ko": "관전자 채팅", "en": "Spectators' chat"}[lang]
    assert not driver.find_elements(By.CSS_SELECTOR, "#replay-chat .chat-text")  # read only
    table, spectators = (driver.find_element(By.ID, i).rect for i in ("table-chat", "spectators-chat"))
    if lang == "ko":  # a phone: one after the other
        assert spectators["y"] >= table["y"] + table["height"]
        _checked(driver, lang, ("Ann", "Bob", "Cyd"), "replay-chat")
    else:  # a desktop: side by side
        assert spectators["y"] == table["y"] and spectators["x"] > table["x"]
    assert page_errors(driver) == []


def test_a_seat_opened_by_its_seat_link_follows_the_table_chat_live(web_server, browser):
    base, driver = web_server.base, browser
    ann, dee = _people(base, "Ann", "Dee")
    made = requests.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"name": "Bob"}]},
                         headers=auth(ann["key"]), timeout=10).json()
    gid, link = made["id"], next(s["token"] for s in made["seats"] if s["seat"] == 1)
    _say(base, f"/games/{gid}/chat", ann, "hello Bob")
    _as(driver, base, dee, "en")  # this browser keeps another player's key (Dee sits nowhere here)
    driver.set_window_size(*WINDOW)
    driver.get(f"{base}/play/{gid}#token={link}")  # Bob's seat link
    wait(driver, lambda: any("hello Bob" in m for m in _said(driver)), message="the table's history")
    assert text_of(driver, "#chat-h") == "Table chat"
    _say(base, f"/games/{gid}/chat", ann, "your move")
    wait(driver, lambda: any("your move" in m for m in _said(driver)), message="Ann's message live")
    assert page_errors(driver) == []
