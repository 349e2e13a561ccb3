"""The games' words in the answers (issue 32), in the caller's language: each legal move's label
and refs beside it (GET /moves and a move's next_moves), each history event's `text` and
`message`, a finished game's result as a sentence, every piece's name in GET /game-types;
ETags per language. A Splendor game played to its end through the API, in Korean and English
(the answers checked against openapi.yaml by the test client)."""
from __future__ import annotations

import json
import re

from tests.api.helpers import auth, create, move, tokens
from tests.conftest import wait_for

HANGUL = re.compile("[\uac00-\ud7a3]")
PREFERRED = ("buy", "take_gems", "take_two", "reserve", "choose_noble", "return_tokens")


def _pick(moves: list) -> int:
    for kind in PREFERRED:  # buying first, so the game ends soon
        for i, m in enumerate(moves):
            if m["type"] == kind:
                return i
    return 0


def _play(client, gid, seat_tokens) -> int:
    version = client.get(f"/games/{gid}").get_json()["version"]
    for _ in range(600):
        game = wait_for(lambda: _settled(client, gid))  # the scoring is a worker's
        if game["status"] == "finished":
            return game["version"]
        seat = next(a for a in game["to_act"] if isinstance(a, int))
        listed = client.get(f"/games/{gid}/moves?lang=ko", headers=auth(seat_tokens[seat])).get_json()
        assert len(listed["labels"]) == len(listed["moves"])
        i = _pick(listed["moves"])
        r = move(client, gid, seat_tokens[seat], listed["moves"][i], game["version"])
        assert r.status_code == 201, r.get_json()
        version = r.get_json()["version"]
    raise AssertionError(f"not finished at version {version}")


def _settled(client, gid):
    game = client.get(f"/games/{gid}").get_json()
    return game if game["status"] == "finished" or any(isinstance(a, int) for a in game["to_act"]) else None


def test_moves_come_with_their_labels_and_refs_in_the_callers_language(client):
    created = create(client, "splendor", [{"name": "Ann"}, {"name": "Bo"}])
    gid, seat_tokens = created["id"], tokens(created)
    ko = client.get(f"/games/{gid}/moves", headers={**auth(seat_tokens[0]), "Accept-Language": "ko-KR,ko;q=0.9"})
    en = client.get(f"/games/{gid}/moves", headers=auth(seat_tokens[0]))
    assert ko.headers["Content-Language"] == "ko" and en.headers["Content-Language"] == "en"
    assert ko.get_json()["moves"] == en.get_json()["moves"]  # the moves themselves are the same
    for said, lang in ((ko.get_json()["labels"], "ko"), (en.get_json()["labels"], "en")):
        assert len(said) == len(ko.get_json()["moves"])
        for label in said:
            assert label["label"] and "{" not in label["label"] and not re.search(r"\bsp-", label["label"])
            assert bool(HANGUL.search(label["label"])) == (lang == "ko"), label
    reserves = [(m, w) for m, w in zip(en.get_json()["moves"], en.get_json()["labels"]) if m["type"] == "reserve"]
    assert reserves and all(m["card"] in w["refs"] for m, w in reserves)  # the card it names, to light it
    # The ETag is per language: an English one does not answer a Korean read 304.
    assert ko.headers["ETag"] != en.headers["ETag"]
    again = client.get(f"/games/{gid}/moves?lang=ko", headers={**auth(seat_tokens[0]), "If-None-Match": en.headers["ETag"]})
    assert again.status_code == 200
    same = client.get(f"/games/{gid}/moves?lang=ko", headers={**auth(seat_tokens[0]), "If-None-Match": ko.headers["ETag"]})
    assert same.status_code == 304
    # A listed move is sent as it is listed; the answer's next_moves come with their labels too.
    first = en.get_json()["moves"][0]
    r = client.post(f"/games/{gid}/moves?include=next_moves&lang=ko", headers=auth(seat_tokens[0]),
                    json={"expected_version": en.get_json()["version"], "move": first})
    assert r.status_code == 201, r.get_json()
    nxt = r.get_json()["next_moves"]
    assert nxt is None or (len(nxt["labels"]) == len(nxt["moves"]) and HANGUL.search(nxt["labels"][0]["label"]))
    spectator = client.get(f"/games/{gid}/moves").get_json()
    assert spectator["moves"] == [] and "labels" not in spectator


def test_a_game_told_in_words_from_its_creation_to_its_result(client, workers):
    created = create(client, "splendor", [{"name": "Ann"}, {"name": "Bo"}])
    gid, seat_tokens = created["id"], tokens(created)
    last = _play(client, gid, seat_tokens)
    for lang in ("ko", "en"):
        after, texts = 0, []
        while True:
            page = client.get(f"/games/{gid}/events?after={after}&limit=200&lang={lang}").get_json()
            for e in page["events"]:
                assert e["text"] and "{" not in e["text"], e
                assert set(e["message"]) == {"template", "args"}
                texts.append(e["text"])
            if not page["next"]:
                break
            after = page["events"][-1]["version"]
        assert len(texts) == last
        assert not [t for t in texts if re.search(r"\bsp-|\bSeat 0\b|0번 자리", t)]
        assert any("Ann" in t for t in texts) and any("Bo" in t for t in texts)  # people by their names
        assert bool(HANGUL.search(" ".join(texts))) == (lang == "ko")
        game = client.get(f"/games/{gid}?lang={lang}").get_json()
        words = game["result_words"]
        assert words["text"] and ("Ann" in words["text"] or "Bo" in words["text"]), words


def test_game_types_name_every_piece_in_the_language(client):
    ko = {t["type"]: t for t in client.get("/game-types?lang=ko").get_json()["game_types"]}
    en = {t["type"]: t for t in client.get("/game-types").get_json()["game_types"]}
    hosted = ("splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft")
    for type_ in hosted:
        assert en[type_]["pieces"] and set(en[type_]["pieces"]) == set(ko[type_]["pieces"])
        assert all(HANGUL.search(name) or name.isdigit() for name in ko[type_]["pieces"].values()), type_
        # every bot level named as the sentences name it, in both languages
        assert set(en[type_]["bot_names"]) == set(ko[type_]["bot_names"]) == set(en[type_]["bots"])
        assert en[type_]["bot_names"]["random"] == "Random" and ko[type_]["bot_names"]["random"] == "무작위"
        assert all(HANGUL.search(name) for name in ko[type_]["bot_names"].values()), ko[type_]["bot_names"]


def test_every_game_has_its_rules_summary_in_every_language(client):
    for type_ in ("splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft"):
        en = client.get(f"/game-types/{type_}/rules")
        ko = client.get(f"/game-types/{type_}/rules", headers={"Accept-Language": "ko"})
        assert en.status_code == ko.status_code == 200
        assert (en.get_json()["language"], ko.get_json()["language"]) == ("en", "ko"), type_
        assert ko.headers["Content-Language"] == "ko" and HANGUL.search(ko.get_json()["markdown"])
        for said in (en.get_json(), ko.get_json()):
            text = said["markdown"]
            assert text.startswith("# ") and text.count("\n## ") >= 4, (type_, text[:200])
            assert not re.search(r"\b(sp|su|ft|wi)-\w", text), type_
        assert en.get_json()["effects"] and set(en.get_json()["effects"]) == set(ko.get_json()["effects"])
        pieces = client.get("/game-types").get_json()["game_types"]
        named = next(t for t in pieces if t["type"] == type_)["pieces"]
        assert set(en.get_json()["effects"]) <= set(named)
    missing = client.get("/game-types/chess/rules")
    assert missing.status_code == 404 and missing.get_json()["code"] == "unknown_game_type"


def test_the_stream_tells_each_event_in_the_streams_language(client):
    from tests.api.test_live import Stream

    created = create(client, "splendor", [{"name": "Ann"}, {"name": "Bo"}])
    gid, seat_tokens = created["id"], tokens(created)
    streams = {lang: Stream(client, gid, seat_tokens[1], query=f"?lang={lang}") for lang in ("ko", "en")}
    try:
        for s in streams.values():
            assert s.next()[0] == "state"
        listed = client.get(f"/games/{gid}/moves", headers=auth(seat_tokens[0])).get_json()
        r = move(client, gid, seat_tokens[0], listed["moves"][0], listed["version"])
        assert r.status_code == 201
        for lang, s in streams.items():
            kind, version, data = s.next()
            shown = client.get(f"/games/{gid}/events?after={version - 1}&limit=1&lang={lang}",
                               headers=auth(seat_tokens[1])).get_json()["events"][0]
            assert kind == "game_event" and data["text"] == shown["text"] and data["message"] == shown["message"]
            assert bool(HANGUL.search(data["text"])) == (lang == "ko") and "Ann" in data["text"]
    finally:
        for s in streams.values():
            s.close()


def test_the_export_has_words_when_the_request_names_a_language(client):
    created = create(client, "splendor", [{"name": "Ann"}, {"name": "Bo"}])
    gid, seat_tokens = created["id"], tokens(created)
    listed = client.get(f"/games/{gid}/moves", headers=auth(seat_tokens[0])).get_json()
    assert move(client, gid, seat_tokens[0], listed["moves"][0], listed["version"]).status_code == 201
    bare = client.get(f"/games/{gid}/events?format=ndjson", headers=auth(seat_tokens[1]))
    ko = client.get(f"/games/{gid}/events?format=ndjson", headers={**auth(seat_tokens[1]), "Accept-Language": "ko"})
    lines = [json.loads(line) for line in bare.get_data(as_text=True).splitlines()]
    said = [json.loads(line) for line in ko.get_data(as_text=True).splitlines()]
    assert lines and not any("text" in e for e in lines)  # an archive's pull: the events as they are
    assert [{k: v for k, v in e.items() if k not in ("text", "message")} for e in said] == lines
    assert all(e["text"] and HANGUL.search(e["text"]) for e in said)
    assert bare.headers["ETag"] != ko.headers["ETag"]
    again = client.get(f"/games/{gid}/events?format=ndjson&lang=en", headers={**auth(seat_tokens[1]),
                                                                           "If-None-Match": bare.headers["ETag"]})
    assert again.status_code == 200 and "text" in again.get_data(as_text=True)
