"""History outlives code: recorded games (tests/recorded/<game>/<n>-seats.json, one per hosted
game and seat count, made by tests/recorded/record.py) replay through the current service to
the same final game, now and in every future version. A history is never rewritten: its
SHA-256 is pinned in tests/recorded/MANIFEST.json; a change that breaks an old history must
add an upcaster, not new data."""
from __future__ import annotations

import json

import pytest

from tests.recorded.record import HERE, final_of, history_digest, hosted_games, load_manifest, path_for, replay

RECORDINGS = sorted(HERE.glob("*/*-seats.json"))


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_recorded_game_replays_to_the_same_final_game(path):
    recording = json.loads(path.read_text())
    events = recording["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    service, gid = replay(recording)
    final = final_of(service, gid)
    expected = recording["final"]
    assert final["status"] == expected["status"] == "finished"
    assert final["version"] == expected["version"] == len(events)
    assert final["result"] == expected["result"], "the replayed game has another result"
    assert final == expected, "the replayed game looks different at its end"


def test_recorded_histories_are_never_rewritten():
    manifest = load_manifest()
    on_disk = {str(p.relative_to(HERE)) for p in RECORDINGS}
    assert set(manifest) == on_disk, "every recording is in MANIFEST.json and every entry has its file"
    for path in RECORDINGS:
        recording = json.loads(path.read_text())
        assert history_digest(recording) == manifest[str(path.relative_to(HERE))], \
            f"{path.name}: a recorded history changed; add an upcaster instead of rewriting the data"


@pytest.mark.parametrize("game", hosted_games(), ids=lambda g: g.name)
def test_every_hosted_game_and_seat_count_has_a_recorded_game(game):
    missing = [n for n in range(game.min_seats, game.max_seats + 1) if not path_for(game.name, n).exists()]
    assert not missing, (f"{game.name}: no recorded game for {missing} seats; "
                         f"run: python tests/recorded/record.py --game {game.name}")
