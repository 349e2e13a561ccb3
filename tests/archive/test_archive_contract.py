"""The archive port's contract (events/archive.py): both adapters, SQLite and PostgreSQL (a real
server), pass the same tests."""
from __future__ import annotations

import random
import sqlite3
import uuid

import pytest

from events import codec
from events.archive import DAMAGED_ENTRY, ArchivedGame, Damaged, pack
from events.archives import open_archive
from events.store import StoreUnavailable


def game(n=5, type_="splendor", private=False, summary_log="1-0", **summary) -> ArchivedGame:
    gid = uuid.uuid4().hex[:12]
    if summary_log:
        summary.update(finished_log=summary_log, harvest=f'{{"id":"{gid}"}}')
    entries = tuple(codec.dumps_bytes({"t": "moved", "d": {"type": "moved", "n": i, "s": "é\n\"x"}, "a": i % 2,
                                       "at": 1_700_000_000_000 + i}) for i in range(n))
    meta = {"type": type_, "seats": "[]", "seed": "42", "finished_log": "1-0"}
    return ArchivedGame(gid, meta, {"0": "hash0", "table": "hasht"}, entries,
                        {"type": type_, "status": "finished", "private": private, "created_at": 1, "finished_at": 2,
                         "result": {"winners": [0]}, **summary})


def test_a_game_is_read_back_as_written_to_the_byte(archive):
    written = game(300)
    archive.put(written)
    back = archive.get(written.game_id)
    assert back == written and back.entries == written.entries and back.version == 300
    assert archive.get("nosuchgame") is None


def test_writing_a_game_again_replaces_it_and_keeps_its_place(archive):
    first, other = game(3), game(2)
    archive.put(first)
    archive.put(other)
    again = ArchivedGame(first.game_id, first.meta, first.credentials, first.entries + first.entries[:1],
                         first.summary)
    archive.put(again)
    assert archive.get(first.game_id).version == 4
    assert [s["type"] for _, s in archive.finished(0, 10)] == ["splendor", "splendor"]
    positions = [p for p, _ in archive.finished(0, 10)]
    assert positions == sorted(positions) and archive.stats()[0] == 2


def test_the_finished_list_is_in_the_archives_order_public_games_only_by_type(archive):
    made = [game(type_="witches"), game(), game(private=True), game(type_="witches")]
    for g in made:
        archive.put(g)
    listed = archive.finished(0, 10)
    assert [s["type"] for _, s in listed] == ["witches", "splendor", "witches"]
    after_first = archive.finished(listed[0][0], 10)
    assert after_first == listed[1:]
    assert [p for p, _ in archive.finished(0, 10, "witches")] == [listed[0][0], listed[2][0]]
    assert archive.finished(0, 1) == listed[:1]


def _history(seed: int, n: int = 120) -> tuple[bytes, ...]:
    """A history like a real game's: names and shapes repeated, values varying."""
    rng = random.Random(seed)
    kinds = ["gems_taken", "card_bought", "card_reserved", "noble_visited"]
    return tuple(codec.dumps_bytes({"t": rng.choice(kinds), "d": {"type": "x", "gems": {c: rng.randint(0, 3) for c in
                                    ("white", "blue", "green", "red", "black")}, "card": f"c{rng.randint(1, 90)}"},
                                    "a": i % 2, "at": 1_700_000_000_000 + i * rng.randint(100, 9000)}) for i in range(n))


def test_a_game_types_dictionary_is_made_from_its_games_and_shrinks_the_next_ones(archive):
    from events.archive import TRAIN_ON

    def put(seed: int) -> tuple[ArchivedGame, int]:
        g = game()
        g = ArchivedGame(g.game_id, g.meta, g.credentials, _history(seed), g.summary)
        before = archive.stats()[2]
        archive.put(g)
        return g, archive.stats()[2] - before
    early = [put(seed) for seed in range(TRAIN_ON - 1)]
    assert archive.train_dictionary("splendor") is False  # too few games yet
    early.append(put(TRAIN_ON))
    assert archive.train_dictionary("splendor") is True
    later = [put(1000 + seed) for seed in range(5)]
    plain_size = sum(size for _, size in early[-5:]) / 5
    assert sum(size for _, size in later) / 5 < plain_size * 0.9, (plain_size, later)
    for g, _ in early + later:  # the games of before the dictionary and after it read back alike
        assert archive.get(g.game_id) == g
    assert archive.train_dictionary("witches") is False


def test_deployments_sharing_an_archive_see_their_own_games_only(archive, archive_url):
    """Two KEY_PREFIXes on one database: a game, the finished list, the harvest's log and the
    counts are each deployment's own (a game id of one is unknown to the other)."""
    mine, theirs = game(summary_log="7-0"), game(summary_log="6-0")
    archive.put(mine)
    other = open_archive(archive_url, namespace="other:")
    try:
        other.put(theirs)
        assert archive.get(theirs.game_id) is None and other.get(mine.game_id) is None
        assert other.get(theirs.game_id) == theirs
        assert [g for _, g, _ in archive.finished_log("0", 10)] == [mine.game_id]
        assert [g for _, g, _ in other.finished_log("0", 10)] == [theirs.game_id]
        assert [s["type"] for _, s in other.finished(0, 10)] == ["splendor"] and archive.stats()[0] == 1
    finally:
        other.close()


def test_a_purge_keeps_a_tombstone_of_the_games_that_ended_before(archive):
    old, new = game(40, finished_at=1_000), game(40, finished_at=5_000)
    archive.put(old)
    archive.put(new)
    assert archive.purge(2_000, 10) == 1 and archive.purge(2_000, 10) == 0  # done once
    tomb = archive.get(old.game_id)
    assert tomb.entries == () and tomb.summary == old.summary  # known as gone, its history dropped
    assert archive.get(new.game_id) == new
    assert archive.stats()[2] < 2 * len(pack(new)) + 100


def test_a_games_analysis_is_kept_with_it_to_the_byte_and_purged_with_its_history(archive, archive_url):
    """Issue 49 (remainder a): an archived game's analysis (the JSON document Redis held) is
    the archive's, read back to the byte, rewritten in place, each deployment's its own, and
    dropped when the game's history is purged."""
    old, new = game(4, finished_at=1_000), game(4, finished_at=5_000)
    archive.put(old)
    archive.put(new)
    assert archive.analysis(old.game_id) is None
    document = '{"id":"x","status":"done","decisions":[{"suggested_label":{"ko":"카드 \\"A\\""}}]}'.encode()
    archive.put_analysis(old.game_id, document)
    archive.put_analysis(new.game_id, b'{"status":"pending"}')
    archive.put_analysis(new.game_id, b'{"status":"done"}')  # written again: replaced
    assert archive.analysis(old.game_id) == document and archive.analysis(new.game_id) == b'{"status":"done"}'
    other = open_archive(archive_url, namespace="other:")
    try:
        assert other.analysis(old.game_id) is None
    finally:
        other.close()
    assert archive.purge(2_000, 10) == 1
    assert archive.analysis(old.game_id) is None and archive.analysis(new.game_id) == b'{"status":"done"}'


def test_stats_count_the_bytes_kept_and_what_they_were(archive):
    assert archive.stats() == (0, 0, 0)
    archive.put(game(200))
    games, raw, kept = archive.stats()
    assert games == 1 and raw > 200 * 60 and 0 < kept < raw / 5  # zstd on a repetitive history


def test_the_schema_is_made_and_migrated_once(archive, archive_url):
    archive.put(game())
    assert archive.schema_version() == 6
    again = open_archive(archive_url)  # another process starting on the same archive
    assert again.schema_version() == 6 and again.stats()[0] == 1
    again.close()


def test_an_archive_made_by_the_first_schema_is_migrated_with_its_games(archive_url):
    """Migration 2 (the finished log's order) on an archive of migration 1's, games in it."""
    old = open_archive(archive_url)
    migrations = type(old).migrations
    type(old).migrations = migrations[:1]
    try:
        first = game(summary_log="5-1")
        row = (first.game_id, "splendor", "finished", first.version, False, codec.dumps(first.summary), pack(first),
               1, 1)
        sql = ("INSERT INTO archived_games (game_id, type, status, version, private, summary, payload, raw_bytes, "
               f"archived_at) VALUES ({', '.join([old.mark] * 9)})")  # as the first schema's code wrote
        old._guard(lambda c: c.cursor().execute(sql, row))
        assert old.schema_version() == 1
    finally:
        type(old).migrations = migrations
        old.close()
    new = open_archive(archive_url)
    assert new.schema_version() == 6
    assert [(e, g) for e, g, _ in new.finished_log("0", 10)] == [("5-1", first.game_id)]
    assert new.get(first.game_id) == first


def test_the_finished_log_of_archived_games_in_its_order(archive):
    made = [game(summary_log=log) for log in ("20-0", "3-5", "20-1", None, "100-0")]
    for g in made:
        archive.put(g)
    listed = archive.finished_log("0", 10)
    assert [e for e, _, _ in listed] == ["3-5", "20-0", "20-1", "100-0"]  # by time, then number
    assert listed[0][1:] == (made[1].game_id, b'{"id":"' + made[1].game_id.encode() + b'"}')
    assert [e for e, _, _ in archive.finished_log("20-0", 2)] == ["20-1", "100-0"]
    assert archive.finished_log("100-0", 10) == []


def test_an_unreachable_archive_says_so_and_recovers(tmp_path):
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the archive's directory would be")
    archive = open_archive(f"sqlite:///{blocked}/archive.sqlite3")
    with pytest.raises((StoreUnavailable, OSError)):
        archive.ping()
    ok = open_archive(f"sqlite:///{tmp_path}/ok.sqlite3")
    assert ok.ping()


def test_postgresql_down_is_unavailable_then_recovers(postgres_url):
    archive = open_archive("postgresql://postgres@127.0.0.1:1/none")
    with pytest.raises(StoreUnavailable):
        archive.get("x")
    live = open_archive(postgres_url)
    assert live.ping()
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as admin:  # the server drops us (a restart)
        admin.execute("SELECT pg_terminate_backend(%s)", (live._connection.info.backend_pid,))
    with pytest.raises(StoreUnavailable):  # that call fails; the next one connects again
        live.get("x")
    assert live.ping() and live.get("x") is None


def test_a_bad_archive_url_is_refused():
    with pytest.raises(ValueError, match="ARCHIVE_URL"):
        open_archive("mysql://nope")
    assert sqlite3.sqlite_version_info >= (3, 24)  # upserts (ON CONFLICT DO UPDATE)


def test_a_damaged_record_is_told_by_its_checksums_and_listed_by_check(archive):
    """Issue 49: a payload that is garbage, a summary changed (still JSON: only its checksum
    tells), a summary that is not JSON in a row from before the checksums: each read is Damaged
    (with the summary where that part is sound), check() names them, the finished log keeps
    their places, and a record written again reads back."""
    kept, bad_payload, changed, not_json = (game(summary_log=f"{n}-0") for n in (1, 2, 3, 4))
    for g in (kept, bad_payload, changed, not_json):
        archive.put(g)

    def tamper(column, value, game_id):
        sql = f"UPDATE archived_games SET {column} = {archive.mark} WHERE game_id = {archive.mark}"
        archive._guard(lambda c: c.cursor().execute(sql, (value, game_id)))
    tamper("payload", b"garbage", bad_payload.game_id)
    tamper("summary", codec.dumps({**changed.summary, "result": {"winners": [1]}}), changed.game_id)
    tamper("summary", "{not json", not_json.game_id)
    tamper("summary_sha256", None, not_json.game_id)
    with pytest.raises(Damaged) as told:
        archive.get(bad_payload.game_id)
    assert told.value.game_id == bad_payload.game_id and told.value.summary == bad_payload.summary
    for g in (changed, not_json):
        with pytest.raises(Damaged) as told:
            archive.get(g.game_id)
        assert told.value.summary is None, told.value.reason
    assert archive.get(kept.game_id) == kept
    checked = archive.check(0, 2) + archive.check(archive.check(0, 2)[-1][0], 10)
    assert [(g, problem is not None) for _, g, problem in checked] == [
        (kept.game_id, False), (bad_payload.game_id, True), (changed.game_id, True), (not_json.game_id, True)]
    log = archive.finished_log("0", 10)
    assert [(e, g) for e, g, _ in log] == [(f"{n}-0", g.game_id) for n, g in enumerate(
        (kept, bad_payload, changed, not_json), start=1)]
    assert [entry == DAMAGED_ENTRY for _, _, entry in log] == [False, False, True, True]
    archive.put(bad_payload)  # repaired: written again
    assert archive.get(bad_payload.game_id) == bad_payload


def test_verify_prints_the_damaged_records(archive):
    import io

    from tools.archive import verify

    sound, hurt = game(), game()
    archive.put(sound)
    archive.put(hurt)
    sql = f"UPDATE archived_games SET payload = {archive.mark} WHERE game_id = {archive.mark}"
    archive._guard(lambda c: c.cursor().execute(sql, (b"\x28\xb5\x2f\xfd garbage", hurt.game_id)))
    out = io.StringIO()
    found = verify(archive, batch=1, out=out)
    assert [g for _, g, _ in found] == [hurt.game_id]
    assert f"game {hurt.game_id}" in out.getvalue() and "records checked: 2; damaged: 1" in out.getvalue()


def test_a_damaged_record_does_not_stop_its_types_dictionary(archive):
    """The dictionary is made from the type's sound records: a damaged one among them failed
    the training, and with it the end of every later archiving of the type (workers/archiver.py)."""
    from events.archive import TRAIN_ON

    made = [ArchivedGame(g.game_id, g.meta, g.credentials, _history(seed), g.summary)
            for seed, g in enumerate(game() for _ in range(TRAIN_ON + 1))]
    for g in made:
        archive.put(g)
    sql = f"UPDATE archived_games SET payload = {archive.mark} WHERE game_id = {archive.mark}"
    archive._guard(lambda c: c.cursor().execute(sql, (b"garbage", made[3].game_id)))
    assert archive.train_dictionary("splendor") is True
