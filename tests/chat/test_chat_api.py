"""Chat through the API (issue 53): each viewer reads and is told only what it may, on every
channel; pages resume without gaps; limits and the word filter; direct messages as privacy and
blocks allow; group chat for members."""
from __future__ import annotations

import json

from api.push import messages as push_messages
from tests.api.helpers import auth
from tests.lobby.helpers import claim, open_game, player


def _inbox(app, player_id):
    return [e for _, e in app.extensions["players"].inbox_after(player_id, "0-0", 500)]


def _chat_notices(app, player_id):
    return [e for e in _inbox(app, player_id) if e["type"] in ("chat", "direct_message")]


def _table(client):
    """Ann and Bob seated at a splendor game under way; Cat a player watching."""
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    game = open_game(client, ann["key"])
    r = claim(client, game["id"], 1, bob["key"])
    assert r.status_code in (200, 201), r.get_json()
    return ann, bob, cat, game["id"]


def _texts(page):
    return [m["text"] for m in page["messages"]]


def test_players_never_receive_the_spectators_chat_during_play(app, client):
    ann, bob, cat, gid = _table(client)
    r = client.post(f"/games/{gid}/chat", json={"text": "Ann should take the ruby"}, headers=auth(cat["key"]))
    assert r.status_code == 201 and r.get_json()["channel"] == f"game:{gid}:spectators"
    r = client.post(f"/games/{gid}/chat", json={"text": "good luck"}, headers=auth(bob["key"]))
    assert r.status_code == 201 and r.get_json()["channel"] == f"game:{gid}:table"
    # a seated player reads the table's chat; the spectators' is closed to it, by key or by asking
    assert _texts(client.get(f"/games/{gid}/chat", headers=auth(ann["key"])).get_json()) == ["good luck"]
    r = client.get(f"/games/{gid}/chat?channel=spectators", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "chat_closed")
    r = client.post(f"/games/{gid}/chat", json={"text": "hi", "channel": "spectators"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "chat_closed")
    # spectators (a player not seated, nobody at all) read theirs, never the table's during play
    assert _texts(client.get(f"/games/{gid}/chat", headers=auth(cat["key"])).get_json()) == [
        "Ann should take the ruby"]
    assert _texts(client.get(f"/games/{gid}/chat").get_json()) == ["Ann should take the ruby"]
    r = client.get(f"/games/{gid}/chat?channel=table")
    assert (r.status_code, r.get_json()["code"]) == (403, "chat_closed")
    ko = client.get(f"/games/{gid}/chat?channel=table", headers={"Accept-Language": "ko"}).get_json()
    assert ko["code"] == "chat_closed" and "관전자" in ko["detail"]
    # the player stream: Ann is told of Bob's table message, of no spectator's; Cat of nothing
    notices = _chat_notices(app, ann["id"])
    assert [n["message"]["text"] for n in notices] == ["good luck"]
    assert _chat_notices(app, bob["id"]) == [] and _chat_notices(app, cat["id"]) == []
    # the game's history of moves holds no chat
    history = client.get(f"/games/{gid}/history", headers=auth(ann["key"])).get_json()
    assert "luck" not in str(history) and "ruby" not in str(history)
    # once the game is over both chats are open to everyone, beside its replay
    r = client.post(f"/games/{gid}/resign", headers=auth(ann["key"]))
    assert r.status_code == 200, r.get_json()
    assert _texts(client.get(f"/games/{gid}/chat?channel=spectators", headers=auth(ann["key"])).get_json()) == [
        "Ann should take the ruby"]
    assert _texts(client.get(f"/games/{gid}/chat?channel=table").get_json()) == ["good luck"]


def test_a_seat_token_reads_the_table_chat_not_the_spectators(app, client):
    bob = player(client, "Bob")
    made = client.post("/games", json={"type": "splendor", "seats": [{"name": "Anon"}, {"open": True}]}).get_json()
    gid = made["id"]
    assert claim(client, gid, 1, bob["key"]).status_code in (200, 201)
    cat = player(client, "Cat")
    client.post(f"/games/{gid}/chat", json={"text": "psst"}, headers=auth(cat["key"]))
    client.post(f"/games/{gid}/chat", json={"text": "hello table"}, headers=auth(bob["key"]))
    token = made["seats"][0]["token"]
    assert _texts(client.get(f"/games/{gid}/chat", headers=auth(token)).get_json()) == ["hello table"]
    r = client.get(f"/games/{gid}/chat?channel=spectators", headers=auth(token))
    assert (r.status_code, r.get_json()["code"]) == (403, "chat_closed")


def test_pages_resume_without_gaps(client):
    ann, bob, _, gid = _table(client)
    for i in range(5):
        assert client.post(f"/games/{gid}/chat", json={"text": f"m{i}"}, headers=auth(ann["key"])).status_code == 201
    seen, cursor = [], None
    while True:
        page = client.get(f"/games/{gid}/chat?limit=2" + (f"&since={cursor}" if cursor else "&since=0-0"),
                          headers=auth(bob["key"])).get_json()
        assert "messages" in page, (page.get("details"), page.get("detail"))
        if not page["messages"]:
            break
        seen += _texts(page)
        cursor = page["next"]
    assert seen == [f"m{i}" for i in range(5)]
    client.post(f"/games/{gid}/chat", json={"text": "m5"}, headers=auth(bob["key"]))
    assert _texts(client.get(f"/games/{gid}/chat?since={cursor}", headers=auth(ann["key"])).get_json()) == ["m5"]
    newest = client.get(f"/games/{gid}/chat?limit=2", headers=auth(ann["key"])).get_json()
    assert _texts(newest) == ["m4", "m5"]
    back = client.get(f"/games/{gid}/chat?limit=2&before={newest['previous']}", headers=auth(ann["key"])).get_json()
    assert _texts(back) == ["m2", "m3"]


def test_the_cursors_edges_are_pages_not_errors(client):
    """`before=0-0` (nothing is before it) is an empty page; a cursor Redis cannot hold (20
    digits) is refused as the spec says; schemathesis found the first answered 400."""
    ann, _, _, gid = _table(client)
    client.post(f"/games/{gid}/chat", json={"text": "hello"}, headers=auth(ann["key"]))
    r = client.get(f"/games/{gid}/chat?before=0-0", headers=auth(ann["key"]))
    assert r.status_code == 200 and r.get_json()["messages"] == [], r.get_json()
    r = client.get(f"/games/{gid}/chat?before={'9' * 20}-0", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")
    # the live stream: the header's id and the query's are each checked (an empty query's too)
    r = client.get(f"/games/{gid}/chat/stream?last_event_id=", headers={**auth(ann["key"]), "Last-Event-ID": "0-0"})
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")


def test_the_word_filter_masks_english_and_korean_before_storage_and_counts(app, client):
    ann, bob, _, gid = _table(client)
    r = client.post(f"/games/{gid}/chat", json={"text": "what the FUCK, shitty move"}, headers=auth(ann["key"]))
    assert r.get_json()["text"] == "what the ****, shitty move"  # whole words only: "shitty" stays
    r = client.post(f"/games/{gid}/chat", json={"text": "씨 발 뭐야 병신아"}, headers=auth(ann["key"]))
    assert r.get_json()["text"] == "* * 뭐야 **아"
    stored = client.get(f"/games/{gid}/chat", headers=auth(bob["key"])).get_json()
    assert "FUCK" not in str(stored) and "병신" not in str(stored)
    assert app.extensions["chat"].filtered(ann["id"]) == 3
    assert app.extensions["chat"].filtered(bob["id"]) == 0
    r = client.post(f"/games/{gid}/chat", json={"text": "see https://example.com <b>x</b>"}, headers=auth(bob["key"]))
    assert r.get_json()["text"] == "see https://example.com <b>x</b>"  # links and markup kept as text


def test_limits_length_and_rate(client):
    ann, _, _, gid = _table(client)
    r = client.post(f"/games/{gid}/chat", json={"text": "x" * 501}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")
    r = client.post(f"/games/{gid}/chat", json={"text": "   "}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")
    assert client.post(f"/games/{gid}/chat", json={"text": "hi"}).status_code == 401
    codes = [client.post(f"/games/{gid}/chat", json={"text": "spam"}, headers=auth(ann["key"])).status_code
             for _ in range(20)]  # 8 every 10 s: 20 in under 10 s cross at most one window
    assert 429 in codes and codes.count(201) <= 16


def test_direct_messages_as_privacy_and_blocks_allow_with_mutes(app, client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    r = client.post(f"/players/me/messages/{bob['id']}", json={"text": "hi"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "not_allowed_by_player")  # friends only by default
    client.post(f"/players/{bob['id']}/follow", headers=auth(ann["key"]))
    client.post(f"/players/{ann['id']}/follow", headers=auth(bob["key"]))
    r = client.post(f"/players/me/messages/{bob['id']}", json={"text": "hi Bob"}, headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    notices = _chat_notices(app, bob["id"])
    assert [(n["type"], n["message"]["text"]) for n in notices] == [("direct_message", "hi Bob")]
    client.post(f"/players/me/messages/{bob['id']}", json={"text": "shit, 씨발"}, headers=auth(ann["key"]))
    told = _chat_notices(app, bob["id"])[-1]
    pushed = json.loads(push_messages.payload(told, "ko"))  # pushed as the stream tells it: filtered
    assert (pushed["type"], pushed["title"], pushed["body"]) == ("direct_message", "Ann", "****, **")
    assert push_messages.pushed(told) and push_messages.topic(told) != push_messages.topic(notices[0] | {"from": {}})
    convs = client.get("/players/me/messages", headers=auth(bob["key"])).get_json()["conversations"]
    assert [c["player"]["id"] for c in convs] == [ann["id"]]
    assert _texts(client.get(f"/players/me/messages/{ann['id']}", headers=auth(bob["key"])).get_json()) == [
        "hi Bob", "****, **"]
    # Bob mutes Ann: her messages are hidden from him everywhere, and he is told of none
    assert client.post(f"/players/{ann['id']}/mute", headers=auth(bob["key"])).get_json()["muted"]
    assert client.get("/players/me/mutes", headers=auth(bob["key"])).get_json() == {"mutes": [ann["id"]]}
    client.post(f"/players/me/messages/{bob['id']}", json={"text": "are you there"}, headers=auth(ann["key"]))
    assert _texts(client.get(f"/players/me/messages/{ann['id']}", headers=auth(bob["key"])).get_json()) == []
    assert len(_chat_notices(app, bob["id"])) == 2
    assert _texts(client.get(f"/players/me/messages/{bob['id']}", headers=auth(ann["key"])).get_json()) == [
        "hi Bob", "****, **", "are you there"]  # she is not told
    assert client.delete(f"/players/{ann['id']}/mute", headers=auth(bob["key"])).status_code == 204
    assert len(_texts(client.get(f"/players/me/messages/{ann['id']}", headers=auth(bob["key"])).get_json())) == 3
    r = client.post(f"/players/{bob['id']}/mute", headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (422, "self_relation")
    # a block: no message either way, said as a privacy refusal; the history hidden both ways
    r = client.post(f"/players/{ann['id']}/block", headers=auth(bob["key"]))
    assert r.status_code == 200, r.get_json()
    for sender, to in ((ann, bob), (bob, ann)):
        r = client.post(f"/players/me/messages/{to['id']}", json={"text": "x"}, headers=auth(sender["key"]))
        assert (r.status_code, r.get_json()["code"]) == (403, "not_allowed_by_player")
    assert _texts(client.get(f"/players/me/messages/{ann['id']}", headers=auth(bob["key"])).get_json()) == []
    assert _texts(client.get(f"/players/me/messages/{bob['id']}", headers=auth(ann["key"])).get_json()) == [
        "hi Bob", "****, **", "are you there"]  # her own only: Bob wrote her none
    assert client.get("/players/me/messages", headers=auth(bob["key"])).get_json() == {"conversations": []}


def test_a_blocked_or_muted_players_table_messages_reach_nobody_who_blocked_or_muted_them(app, client):
    ann, bob, cat, gid = _table(client)
    client.post(f"/players/{bob['id']}/mute", headers=auth(ann["key"]))
    client.post(f"/games/{gid}/chat", json={"text": "from bob"}, headers=auth(bob["key"]))
    assert _texts(client.get(f"/games/{gid}/chat", headers=auth(ann["key"])).get_json()) == []
    assert _chat_notices(app, ann["id"]) == []
    # spectators: Dan blocks Cat; Cat's spectator messages never reach Dan, Dan's never Cat
    dan = player(client, "Dan")
    client.post(f"/players/{cat['id']}/block", headers=auth(dan["key"]))
    client.post(f"/games/{gid}/chat", json={"text": "from cat"}, headers=auth(cat["key"]))
    client.post(f"/games/{gid}/chat", json={"text": "from dan"}, headers=auth(dan["key"]))
    assert _texts(client.get(f"/games/{gid}/chat", headers=auth(dan["key"])).get_json()) == ["from dan"]
    assert _texts(client.get(f"/games/{gid}/chat", headers=auth(cat["key"])).get_json()) == ["from cat"]
    assert _texts(client.get(f"/games/{gid}/chat").get_json()) == ["from cat", "from dan"]


def test_group_chat_is_its_members(app, client):
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    group = client.post("/groups", json={"name": "Tuesday club"}, headers=auth(ann["key"])).get_json()
    assert client.post(f"/groups/{group['id']}/join", headers=auth(bob["key"])).status_code == 200
    r = client.post(f"/groups/{group['id']}/chat", json={"text": "tonight?"}, headers=auth(ann["key"]))
    assert r.status_code == 201
    assert _texts(client.get(f"/groups/{group['id']}/chat", headers=auth(bob["key"])).get_json()) == ["tonight?"]
    assert [n["message"]["text"] for n in _chat_notices(app, bob["id"])] == ["tonight?"]
    for r in (client.get(f"/groups/{group['id']}/chat", headers=auth(cat["key"])),
              client.post(f"/groups/{group['id']}/chat", json={"text": "me too"}, headers=auth(cat["key"]))):
        assert (r.status_code, r.get_json()["code"]) == (403, "chat_closed")


def _first_chat_frames(client, url, headers=None, last=None):
    """The first `chat` events a chat stream sends (from `last`), as (id, message)."""
    headers = {**(headers or {}), **({"Last-Event-ID": last} if last else {})}
    r = client.get(url, headers=headers, buffered=False)
    assert r.status_code == 200, r.get_data()
    try:
        for chunk in r.response:
            if b"event: chat" in chunk:
                frames = [f for f in chunk.decode().split("\n\n") if f.startswith("id: ")]
                return [(f.split("\n")[0][4:], json.loads(f.split("data: ", 1)[1])) for f in frames]
    finally:
        r.close()


def test_the_live_chat_stream_sends_each_viewer_its_channel_and_resumes_without_gaps(app, client):
    ann, bob, cat, gid = _table(client)
    said = {}
    for text, who in (("spectator tip", cat), ("gl hf", bob), ("thanks", ann), ("another tip", cat)):
        said[text] = client.post(f"/games/{gid}/chat", json={"text": text}, headers=auth(who["key"])).get_json()["id"]
    url = f"/games/{gid}/chat/stream"
    seated = _first_chat_frames(client, url, auth(ann["key"]), "0-0")
    assert [m["text"] for _, m in seated] == ["gl hf", "thanks"]  # never a spectator's, during play
    assert [i for i, _ in seated] == [said["gl hf"], said["thanks"]]
    assert [m["text"] for _, m in _first_chat_frames(client, url, auth(cat["key"]), "0-0")] == [
        "spectator tip", "another tip"]
    assert [m["text"] for _, m in _first_chat_frames(client, url, None, "0-0")] == ["spectator tip", "another tip"]
    r = client.get(url + "?channel=spectators", headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "chat_closed")
    # resumed after an id: the messages after it, none missed
    assert [m["text"] for _, m in _first_chat_frames(client, url, auth(bob["key"]), said["gl hf"])] == ["thanks"]
    # a muted writer's messages never reach the viewer who muted it
    client.post(f"/players/{bob['id']}/mute", headers=auth(ann["key"]))
    assert [m["text"] for _, m in _first_chat_frames(client, url, auth(ann["key"]), "0-0")] == ["thanks"]
