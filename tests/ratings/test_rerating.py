"""A void's re-rating from the voided (or restored) player's first game on (issue 50): the ledger
it leaves is exactly the one a recompute of every game leaves, key by key and byte by byte,
whatever the games, the seats, the months (seasons), the players voided and restored in turn,
games not counted yet, and rating charts at their cap (where it cannot be exact, it says so and
every game is rated again). A Hypothesis property, in memory (fakeredis, a finished log of the
test's own): 20 drawn histories (PROPERTY_PROFILE=thorough: 600 fresh ones)."""
from __future__ import annotations

import os
import uuid
from unittest import mock

import fakeredis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.ratings import ledger as ledger_module
from api.ratings.ledger import Ledger
from tests.ratings.test_seasons import DEC, NOV, FinishedLog

pytestmark = pytest.mark.unit

PEOPLE = [f"p{i}" for i in range(6)]
settings.register_profile("rerating", max_examples=20, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("rerating-thorough", settings.get_profile("rerating"), max_examples=600, derandomize=False)
PROFILE = settings.get_profile("rerating-thorough" if os.environ.get("PROPERTY_PROFILE") == "thorough" else "rerating")


def _entry(i, month, type_, seats, winner):
    shown = [{"seat": n, "name": w, "bot": w[4:], **({"player": None})} if w.startswith("bot:")
             else {"seat": n, "name": w, "bot": None, "player": w} for n, w in enumerate(seats)]
    scores = [10 + (n * 7 + i) % 5 for n in range(len(seats))]
    return {"id": f"g{i}-{uuid.uuid4().hex[:6]}", "type": type_, "status": "finished", "seats": shown,
            "result": {"winners": [winner], "scores": scores}, "last_move_at": month + i}


games = st.lists(st.tuples(st.sampled_from([NOV, DEC]), st.sampled_from(["splendor", "witches"]),
                           st.lists(st.sampled_from(PEOPLE + ["bot:random"]), min_size=2, max_size=4),
                           st.integers(0, 3)), min_size=1, max_size=40)
# each step: a player voided or restored (whichever it is not), after `new` more games were logged
steps = st.lists(st.tuples(st.sampled_from(PEOPLE), st.integers(0, 4), st.booleans()), min_size=1, max_size=5)


USED: list[bool] = []  # whether each re-rating was a partial one (not every game again)


def _dump(ledger):
    found = {}
    for key in ledger.redis.scan_iter(match=f"{ledger.base}:*"):
        kind = ledger.redis.type(key)
        found[key] = (ledger.redis.hgetall(key) if kind == b"hash" else
                      ledger.redis.zrange(key, 0, -1, withscores=True) if kind == b"zset" else
                      ledger.redis.lrange(key, 0, -1) if kind == b"list" else ledger.redis.get(key))
    return found


def _rerate(ledger, store, excluded, incremental, archived=frozenset()):
    """What a moderator's action does to the ledger (api/moderation/service.py's apply), one way or
    the other: a transaction per game type, each in its own slot. Whether every type was partial."""
    partial = True
    for type_ in ledger.game_types():
        old = ledger.excluded(ledger.redis, type_)
        plan = ledger.recompute_from(store, type_, excluded, excluded ^ old) if incremental else None
        if plan is None:
            old_keys = ledger.every_key(ledger.redis, type_)
            changed, cursor = ledger.recompute(store, type_, excluded)
        else:
            members = ledger.season_members(ledger.redis, plan["boards"])
        with ledger.redis.pipeline(transaction=True) as pipe:
            pipe.multi()
            pipe.delete(ledger.excluded_key(type_))
            if excluded:
                pipe.sadd(ledger.excluded_key(type_), *sorted(excluded))
            if plan is None:
                ledger.replace(pipe, type_, old_keys, changed, cursor, archived & set(changed["games"]))
            else:
                ledger.replace_from(pipe, type_, plan, members, archived & set(plan["games"]))
            pipe.execute()
        partial = partial and plan is not None
    return partial


@PROFILE
@given(games=games, steps=steps, cap=st.sampled_from([500, 3]))
def test_a_rerating_from_the_first_changed_game_on_equals_rating_every_game_again(games, steps, cap):
    drawn = [_entry(i, month, type_, seats, winner % len(seats))
             for i, (month, type_, seats, winner) in enumerate(games)]
    more = iter([_entry(1000 + i, DEC, "splendor", [PEOPLE[i % 6], PEOPLE[(i + 1) % 6]], i % 2) for i in range(40)])
    with mock.patch.object(ledger_module, "HISTORY_KEPT", cap):
        log = FinishedLog(drawn)
        partial = Ledger(fakeredis.FakeRedis(), "r:")
        whole = Ledger(fakeredis.FakeRedis(), "r:")
        for ledger in (partial, whole):
            ledger.catch_up(log, tell=False)
        excluded: frozenset[str] = frozenset()
        for who, new, counted in steps:
            log = FinishedLog([*drawn, *[next(more) for _ in range(new)]])
            drawn = _entries(log)
            if counted:  # the reconciler counted the new games first; else the re-rating counts them
                for ledger in (partial, whole):
                    ledger.catch_up(log, tell=False)
            excluded = excluded ^ {f"player:{who}"}
            USED.append(_rerate(partial, log, excluded, incremental=True))
            _rerate(whole, log, excluded, incremental=False)
            assert _dump(partial) == _dump(whole)


def _entries(log):
    from events import codec

    return [codec.loads(raw) for _, _, raw in log.entries]


def test_the_rerating_starts_at_the_first_changed_game_and_passes_the_earlier_ones_over():
    """The point of it: a void of a player whose games all came late rates only the late games."""
    early = [_entry(i, NOV, "splendor", ["p1", "p2"], i % 2) for i in range(30)]
    late = [_entry(100 + i, DEC, "splendor", ["p0", "p3" if i % 2 else "p1"], 0) for i in range(4)]
    log = FinishedLog(early + late)
    ledger = Ledger(fakeredis.FakeRedis(), "r:")
    ledger.catch_up(log, tell=False)
    plan = ledger.recompute_from(log, "splendor", frozenset({"player:p0"}), frozenset({"player:p0"}))
    assert plan is not None and sorted(plan["games"]) == sorted(e["id"] for e in late)
    assert all(seats == [] for seats in plan["games"].values())  # each of them the voided player's
    # a record counted before records kept their start (no `kept`): every game is rated again
    record = ledger.recorded(late[0]["id"])
    ledger.redis.set(ledger._game("splendor", late[0]["id"]),
                     ledger_module.codec.dumps_bytes(ledger_module.public(record)))
    assert ledger.recompute_from(log, "splendor", frozenset({"player:p0"}), frozenset({"player:p0"})) is None
    assert "kept" not in ledger.game_changes(late[1]["id"])[0]  # what the API and webhooks show: as before
