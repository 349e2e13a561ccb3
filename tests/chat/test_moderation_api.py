"""Reports and the moderators' actions on chat (issue 53): a report keeps its context, the queue
shows it, every action is an event with who and why, a suspension ends on time, an undo restores,
and the reporter is told the outcome."""
from __future__ import annotations

import time

from events import codec
from tests.api.helpers import auth
from tests.lobby.helpers import claim, open_game, player


def _moderator(app, client):
    mod = player(client, "Mod")
    app.extensions["moderation"].act("grant", mod["id"], "operator", "tests")
    return mod


def _texts(page):
    return [m["text"] for m in page["messages"]]


def test_a_reported_message_hidden_then_restored_and_the_reporter_told(app, client):
    mod = _moderator(app, client)
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    assert claim(client, gid, 1, bob["key"]).status_code in (200, 201)
    ids = [client.post(f"/games/{gid}/chat", json={"text": t}, headers=auth(k)).get_json()["id"]
           for t, k in (("hello", ann["key"]), ("you are trash", bob["key"]), ("rude", ann["key"]))]
    r = client.post("/reports", json={"kind": "message", "channel": f"game:{gid}:table", "message": ids[1],
                                      "reason": "insult"}, headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    report_id = r.get_json()["id"]
    # the queue: moderators only, the report with its context (the messages around it, the game)
    r = client.get("/moderation/reports", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "moderator_required")
    queue = client.get("/moderation/reports", headers=auth(mod["key"])).get_json()["reports"]
    mine = next(q for q in queue if q["id"] == report_id)
    assert mine["subject"]["player"] == bob["id"] and mine["context"]["game"] == gid
    assert mine["context"]["message"]["text"] == "you are trash"
    assert [m["text"] for m in mine["context"]["before"]] == ["hello"]
    assert [m["text"] for m in mine["context"]["after"]] == ["rude"]
    assert mine["status"] == "open" and mine["filtered_words"] == 0
    # hidden from everyone, an event with who and why
    r = client.post("/moderation/chat/hide", json={"channel": f"game:{gid}:table", "message": ids[1],
                                                   "reason": "insult"}, headers=auth(mod["key"]))
    assert r.status_code == 201
    action = r.get_json()
    assert (action["type"], action["by"], action["reason"]) == ("message_hidden", mod["id"], "insult")
    for key in (ann["key"], bob["key"]):
        assert _texts(client.get(f"/games/{gid}/chat", headers=auth(key)).get_json()) == ["hello", "rude"]
    # resolved: the reporter is told, in its stream
    r = client.post(f"/moderation/reports/{report_id}/resolve",
                    json={"outcome": "actioned", "actions": [action["action"]], "reason": "hidden"},
                    headers=auth(mod["key"]))
    assert r.status_code == 200 and r.get_json()["status"] == "resolved"
    r = client.post(f"/moderation/reports/{report_id}/resolve", json={"outcome": "dismissed", "reason": "again"},
                    headers=auth(mod["key"]))
    assert (r.status_code, r.get_json()["code"]) == (409, "already_done")
    told = [e for _, e in app.extensions["players"].inbox_after(ann["id"], "0-0", 500) if e["type"] == "report_resolved"]
    assert [(t["report"], t["outcome"]) for t in told] == [(report_id, "actioned")]
    assert report_id not in [q["id"] for q in client.get("/moderation/reports", headers=auth(mod["key"])).get_json()[
        "reports"]]
    # the undo restores it; a second undo is refused
    r = client.post(f"/moderation/actions/{action['action']}/undo", json={"reason": "mistake"}, headers=auth(mod["key"]))
    assert r.status_code == 201 and r.get_json()["type"] == "action_undone"
    assert _texts(client.get(f"/games/{gid}/chat", headers=auth(ann["key"])).get_json()) == [
        "hello", "you are trash", "rude"]
    r = client.post(f"/moderation/actions/{action['action']}/undo", json={"reason": "x"}, headers=auth(mod["key"]))
    assert (r.status_code, r.get_json()["code"]) == (409, "already_done")
    r = client.post("/moderation/actions/nosuchaction/undo", json={"reason": "x"}, headers=auth(mod["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_action")
    r = client.post("/reports", json={"kind": "message", "channel": f"game:{gid}:table", "message": "1-1",
                                      "reason": "x"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_message")
    # a message of a channel the reporter does not read is unknown to it (no probing of who wrote what)
    cat = player(client, "Cat")
    said = client.post(f"/games/{gid}/chat", json={"text": "tip"}, headers=auth(cat["key"])).get_json()["id"]
    r = client.post("/reports", json={"kind": "message", "channel": f"game:{gid}:spectators", "message": said,
                                      "reason": "x"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_message")
    r = client.post("/reports", json={"kind": "message", "channel": f"dm:{ann['id']}:{bob['id']}", "message": said,
                                      "reason": "x"}, headers=auth(cat["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_message")
    r = client.post("/reports", json={"kind": "message", "reason": "x"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")


def test_a_suspension_from_chat_ends_on_time_and_an_undo_lifts_one(app, client):
    mod = _moderator(app, client)
    ann, bob = player(client, "Ann"), player(client, "Bob")
    r = client.post("/reports", json={"kind": "player", "player": bob["id"], "reason": "spam"}, headers=auth(ann["key"]))
    assert r.status_code == 201
    gid = open_game(client, ann["key"])["id"]
    r = client.post(f"/moderation/players/{bob['id']}/suspend", json={"scope": "chat", "seconds": 1, "reason": "spam"},
                    headers=auth(mod["key"]))
    assert r.status_code == 201 and r.get_json()["until"] > time.time() * 1000
    r = client.post(f"/games/{gid}/chat", json={"text": "hi"}, headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "chat_suspended")
    ko = client.post(f"/games/{gid}/chat", json={"text": "hi"}, headers={**auth(bob["key"]), "Accept-Language": "ko"})
    assert "채팅" in ko.get_json()["detail"]
    time.sleep(1.05)  # it ends on time: no worker, no event
    assert client.post(f"/games/{gid}/chat", json={"text": "hi"}, headers=auth(bob["key"])).status_code == 201
    # a long one, lifted by its undo
    long = client.post(f"/moderation/players/{bob['id']}/suspend",
                       json={"scope": "chat", "seconds": 3600, "reason": "spam"}, headers=auth(mod["key"])).get_json()
    assert client.post(f"/games/{gid}/chat", json={"text": "hi"}, headers=auth(bob["key"])).status_code == 403
    client.post(f"/moderation/actions/{long['action']}/undo", json={"reason": "appeal"}, headers=auth(mod["key"]))
    assert client.post(f"/games/{gid}/chat", json={"text": "hi"}, headers=auth(bob["key"])).status_code == 201
    kinds = [e["type"] for e in app.extensions["chat"].events() if e.get("player") == bob["id"] or
             e.get("action") == long["action"]]
    assert kinds == ["player_suspended", "player_suspended", "action_undone"]


def test_a_suspension_from_play_refuses_seating_until_undone(app, client):
    mod = _moderator(app, client)
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    action = client.post(f"/moderation/players/{bob['id']}/suspend",
                         json={"scope": "play", "seconds": 3600, "reason": "abandons"}, headers=auth(mod["key"])).get_json()
    r = claim(client, gid, 1, bob["key"])
    assert (r.status_code, r.get_json()["code"]) == (403, "play_suspended")
    r = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]}, headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "play_suspended")
    assert client.post(f"/games/{gid}/chat", json={"text": "can I still talk"}, headers=auth(bob["key"])).status_code == 201
    client.post(f"/moderation/actions/{action['action']}/undo", json={"reason": "appeal"}, headers=auth(mod["key"]))
    assert claim(client, gid, 1, bob["key"]).status_code in (200, 201)


def test_a_new_process_starts_from_the_snapshot_and_folds_what_came_after(app, client):
    """The decider's stream grows without bound: a process folds the newest snapshot and the
    events after it, and equals the fold of the whole stream."""
    from api.chat import decider
    from api.chat.service import Chat

    chat = app.extensions["chat"]
    ann = player(client, "Ann")
    others = [player(client, f"P{i}") for i in range(4)]
    writer = Chat(chat.redis, chat.prefix, chat.players, chat.social, chat.blocks, chat.load, chat.is_member,
                  chat.members, chat.words, snapshot_every=3)
    for other in others:
        assert client.post(f"/players/{other['id']}/mute", headers=auth(ann["key"])).status_code in (200, 201, 204)
    writer.state()  # folds at least 4 events: writes a snapshot
    snapshot = codec.loads(chat.redis.get(writer.snapshot_key))
    assert snapshot["id"] == writer.events()[-1]["id"]
    assert client.delete(f"/players/{others[0]['id']}/mute", headers=auth(ann["key"])).status_code in (200, 204)
    whole = decider.fold({k: v for k, v in e.items() if k != "id"} for e in writer.events())  # its stream ids aside
    fresh = Chat(chat.redis, chat.prefix, chat.players, chat.social, chat.blocks, chat.load, chat.is_member,
                 chat.members, chat.words)
    assert fresh.state() == whole
    assert (ann["id"], others[0]["id"]) not in fresh.state().mutes
    assert (ann["id"], others[1]["id"]) in fresh.state().mutes
    # the fresh process read the snapshot, not the whole stream: a mark put in the snapshot shows
    marked = {**snapshot, "state": {**snapshot["state"], "mutes": [*snapshot["state"]["mutes"], ["mark", "x"]]}}
    chat.redis.set(writer.snapshot_key, codec.dumps_bytes(marked))
    again = Chat(chat.redis, chat.prefix, chat.players, chat.social, chat.blocks, chat.load, chat.is_member,
                 chat.members, chat.words)
    assert again.state().mutes == whole.mutes | {("mark", "x")}
