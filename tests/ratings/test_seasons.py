"""Seasons (issue 52): monthly (UTC) windows over the rating history, each with a table of its own
that starts empty, rates the month's games only, is kept for good once the month ends, and is
recomputed exactly by a void; their names, the listing and a player's season results. In memory
(fakeredis, a finished log of the test's own)."""
from __future__ import annotations

import calendar
import uuid

import fakeredis
import pytest
from openskill.models import PlackettLuce

from api.errors import ApiError
from api.ratings import seasons
from api.ratings.ledger import Ledger, season_board
from api.ratings.profiles import Ratings
from events import codec

pytestmark = pytest.mark.unit

NOV = calendar.timegm((2026, 11, 20, 12, 0, 0)) * 1000
DEC = calendar.timegm((2026, 12, 6, 9, 0, 0)) * 1000


class FinishedLog:
    """The store's finished log, as the harvest reads it: entries in order, each named by its game."""

    def __init__(self, entries):
        self.entries = [(f"{i + 1}-0", e["id"], codec.dumps_bytes(e)) for i, e in enumerate(entries)]

    def read_finished_log(self, after, count):
        seq = int(after.split("-")[0])
        return [e for e in self.entries if int(e[0].split("-")[0]) > seq][:count]

    def finished_log_marks(self, game_ids):
        marks = {g: entry_id for entry_id, g, _ in self.entries}
        return [marks.get(g) for g in game_ids]


def game(at, winner, loser, type_="splendor"):
    seats = [{"seat": i, "name": w, "bot": None, "player": w} for i, w in enumerate((winner, loser))]  # player:<w>
    return {"id": uuid.uuid4().hex[:12], "type": type_, "status": "finished", "seats": seats,
            "result": {"winners": [0], "scores": [15, 3]}, "last_move_at": at}


def openskill(games):
    """OpenSkill's own numbers over `games` (winner, loser), from the start."""
    model, found = PlackettLuce(), {}
    for winner, loser in games:
        a, b = found.setdefault(winner, model.rating()), found.setdefault(loser, model.rating())
        (found[winner],), (found[loser],) = model.rate([[a], [b]], ranks=[0, 1])
    return {f"player:{w}": r for w, r in found.items()}


class People:
    def __init__(self, names):
        self.names = names

    def find(self, player_id):
        return type("P", (), {"id": player_id, "name": self.names[player_id]})() if player_id in self.names else None

    def find_many(self, ids):
        return {i: self.find(i) for i in ids if i in self.names}


# ---- the names -------------------------------------------------------------------------------

def test_a_season_is_a_utc_month_current_names_the_running_one_and_others_are_refused():
    assert seasons.current(DEC) == "2026-12" and seasons.resolve("current", DEC) == "2026-12"
    assert seasons.resolve("2026-11", DEC) == "2026-11" and seasons.resolve("2026-12", DEC) == "2026-12"
    starts, ends = seasons.bounds("2026-12")
    assert (starts, ends) == (calendar.timegm((2026, 12, 1, 0, 0, 0)) * 1000, calendar.timegm((2027, 1, 1, 0, 0, 0)) * 1000)
    assert seasons.shown("2026-11", DEC)["status"] == "ended" and seasons.shown("2026-12", DEC)["status"] == "running"
    for name in ("2026-13", "2026-00", "26-12", "december", "2026-1", "1969-12", ""):
        with pytest.raises(ApiError) as refused:
            seasons.resolve(name, DEC)
        assert (refused.value.status, refused.value.code) == (404, "unknown_season"), name
    with pytest.raises(ApiError) as refused:
        seasons.resolve("2027-01", DEC)
    assert (refused.value.status, refused.value.code) == (404, "season_not_started")
    assert refused.value.details == {"current": "2026-12"}


def test_the_season_errors_are_said_in_korean_and_english():
    from api.words import entries

    korean = {text for context, text in entries("ko") if context == "error"}
    assert {"unknown_season", "season_not_started"} <= korean


# ---- the projection --------------------------------------------------------------------------

def test_a_season_starts_empty_and_rates_its_own_months_games_only_kept_once_it_ends():
    nov = [("a", "b"), ("a", "c"), ("b", "c")]
    dec = [("c", "a"), ("b", "a")]
    entries = [game(NOV + i, w, lost) for i, (w, lost) in enumerate(nov)] + \
              [game(DEC + i, w, lost) for i, (w, lost) in enumerate(dec)]
    ledger = Ledger(fakeredis.FakeRedis(), "s:")
    ledger.catch_up(FinishedLog(entries[:3]))  # November, counted in November
    ledger.catch_up(FinishedLog(entries))  # and December's games later (the cursor goes on)
    overall, november, december = openskill(nov + dec), openskill(nov), openskill(dec)
    for who in ("player:a", "player:b", "player:c"):
        got = ledger.rating("splendor", who)
        assert (got.mu, got.sigma, got.games) == (overall[who].mu, overall[who].sigma, {"player:a": 4, "player:b": 3, "player:c": 3}[who])
        got = ledger.rating(season_board("splendor", "2026-12"), who)
        assert (got.mu, got.sigma) == (december[who].mu, december[who].sigma)  # from an empty start
        got = ledger.rating(season_board("splendor", "2026-11"), who)
        assert (got.mu, got.sigma) == (november[who].mu, november[who].sigma)  # November's final table, kept
    assert ledger.rating(season_board("splendor", "2026-12"), "player:d") is None
    assert ledger.seasons("splendor") == ["2026-11", "2026-12"] and ledger.seasons("witches") == []
    board = ledger.board(season_board("splendor", "2026-12"), 0, 10)
    shown = {w: december[w].mu - 3 * december[w].sigma for w in december}
    assert [w for w, _ in board] == sorted(shown, key=lambda w: -shown[w])
    assert ledger.season_sizes("splendor", ["2026-11", "2026-12", "2026-10"]) == [3, 3, 0]


def _tables(ledger, types):
    """Every rating the ledger keeps (the overall tables and the seasons'), and their boards."""
    found = {}
    for type_ in types:
        for season in ledger.seasons(type_) + [None]:
            kept = season_board(type_, season) if season else type_
            found[kept] = ({w.decode(): r for w, r in ledger.redis.hgetall(ledger._table(kept)).items()},
                           ledger.board(kept, 0, 1000), ledger.board(kept, 0, 1000, provisional=False))
        found[f"{type_} seasons"] = ledger.seasons(type_)
    return found


def test_a_void_recomputes_an_ended_seasons_table_to_exactly_a_rebuild_without_the_voided_games():
    cheat = "f"
    plays = [(NOV, "a", "b"), (NOV + 1, cheat, "a"), (NOV + 2, cheat, "b"), (NOV + 3, "b", "a"),
             (DEC, "a", cheat), (DEC + 1, "b", "a"), (DEC + 2, cheat, "c")]
    entries = [game(at, w, lost) for at, w, lost in plays]
    ledger = Ledger(fakeredis.FakeRedis(), "s:")
    ledger.catch_up(FinishedLog(entries))
    voided = frozenset({f"player:{cheat}"})
    changed, cursor = ledger.recompute(FinishedLog(entries), "splendor", voided)
    old_keys = ledger.every_key(ledger.redis, "splendor")
    with ledger.redis.pipeline(transaction=True) as pipe:
        pipe.multi()
        ledger.replace(pipe, "splendor", old_keys, changed, cursor)
        pipe.execute()
    rebuilt = Ledger(fakeredis.FakeRedis(), "s:")
    rebuilt.catch_up(FinishedLog([e for e, (_, w, lost) in zip(entries, plays) if cheat not in (w, lost)]))
    assert _tables(ledger, ["splendor"]) == _tables(rebuilt, ["splendor"])  # the bytes, not a tolerance
    november = openskill([("a", "b"), ("b", "a")])
    got = ledger.rating(season_board("splendor", "2026-11"), "player:a")
    assert (got.mu, got.sigma, got.games) == (november["player:a"].mu, november["player:a"].sigma, 2)
    assert ledger.rating(season_board("splendor", "2026-12"), "player:c") is None  # its only game was the cheat's


# ---- what people read ------------------------------------------------------------------------

def test_the_listing_the_season_leaderboard_and_a_players_season_results():
    entries = [game(NOV, "a", "b"), game(NOV + 1, "a", "b"), game(DEC, "b", "a")]
    ledger = Ledger(fakeredis.FakeRedis(), "s:")
    ledger.catch_up(FinishedLog(entries))
    ratings = Ratings(ledger, People({"a": "Ann", "b": "Bob"}), lambda: ["splendor", "witches"])
    listed = ratings.seasons("splendor", now_ms=DEC)
    assert listed["current"] == "2026-12"
    assert [(s["season"], s["status"], s["rated"]) for s in listed["seasons"]] == \
        [("2026-12", "running", 2), ("2026-11", "ended", 2)]
    empty = ratings.seasons("witches", now_ms=DEC)  # the running season is listed before its first game
    assert [(s["season"], s["rated"]) for s in empty["seasons"]] == [("2026-12", 0)]
    later = ratings.seasons("splendor", now_ms=DEC + 40 * 86_400_000)
    assert [s["season"] for s in later["seasons"]] == ["2027-01", "2026-12", "2026-11"]
    assert ratings.season("splendor", "current", now_ms=DEC)["season"] == "2026-12"
    with pytest.raises(ApiError) as refused:
        ratings.season("chess", "current", now_ms=DEC)
    assert refused.value.code == "unknown_game_type"
    board = ratings.season_leaderboard("splendor", "2026-11", 0, 10, provisional=True)
    assert [(e["rank"], e["player"]["name"], e["games"], e["wins"]) for e in board] == [(1, "Ann", 2, 2), (2, "Bob", 2, 0)]
    assert ratings.season_leaderboard("splendor", "2026-10", 0, 10, provisional=True) == []
    profile = ratings.profile("b")
    assert list(profile["seasons"]) == ["splendor"]
    assert [(s["season"], s["rank"], s["games"], s["wins"]) for s in profile["seasons"]["splendor"]] == \
        [("2026-12", 1, 1, 1), ("2026-11", 2, 2, 0)]
    december = ledger.rating(season_board("splendor", "2026-12"), "player:b")
    assert profile["seasons"]["splendor"][0]["rating"] == december.shown()["rating"]
