"""bench/ladder.py's bookkeeping (issue 56): each game is one JSON line of the results file, a
second run plays only the (pair, seed) games the file lacks (a line cut by a stopped process is
played again), `--part I/N` splits the seeds between processes, a game's seat depends on its
seed alone, and the report counts every game the file has: wins, the Wilson interval, by seat,
the pairwise score and average place with 3 seats, decision CPU per level. The games themselves
are bench.flat_mc's `play` (tests/contract/test_flat_mc.py), faked here."""
from __future__ import annotations

import json

import pytest

from bench import flat_mc, ladder
from domain import registry

pytestmark = pytest.mark.unit


@pytest.fixture
def played(monkeypatch):
    """bench.flat_mc's `play` faked: seat 0 wins every game (scores: seat 0 best); returns the
    (levels, seed) of every game played."""
    games = []

    def fake_play(game, levels, seed, baseline, cpu, budget_from):
        games.append((dict(levels), seed))
        for level in levels.values():
            cpu.setdefault(level, []).append(0.010 if level == "expert" else 0.001)
        n = len(levels)
        return {"winners": [0], "scores": [3, *range(8, 8 + n - 1)] if game.name == "witches" else None}

    monkeypatch.setattr(flat_mc, "play", fake_play)
    return games


def test_the_ladder_climbs_the_measured_order():
    assert ladder.rungs(registry.get("witches")) == ["random", "careful", "lookahead", "flat-mc", "expert"]
    assert [ladder.pair_name(a, b) for a, b in ladder.pairs_of(registry.get("splendor"))] == [
        "random-greedy", "greedy-lookahead", "lookahead-flat-mc", "flat-mc-expert"]


def test_a_run_appends_a_line_a_game_and_a_second_run_plays_only_what_is_missing(tmp_path, played):
    path = tmp_path / "splendor.jsonl"
    pairs = [("random", "greedy"), ("greedy", "lookahead")]
    assert ladder.run("splendor", 100, 3, pairs, path, minutes=60, cpu_ms=50) == 6
    records = ladder.read(path)
    assert [(r["a"], r["b"], r["seed"], r["seat"]) for r in records] == [
        ("random", "greedy", 100, 0), ("random", "greedy", 101, 1), ("random", "greedy", 102, 0),
        ("greedy", "lookahead", 100, 0), ("greedy", "lookahead", 101, 1), ("greedy", "lookahead", 102, 0)]
    assert played[1] == ({0: "greedy", 1: "random"}, 101)  # A's seat is seed % seats
    assert [r["won"] for r in records[:3]] == [1.0, 0.0, 1.0]
    assert records[0]["cpu_ms"] == {"random": [1.0], "greedy": [1.0]}  # this game's alone

    assert ladder.run("splendor", 100, 3, pairs, path, minutes=60, cpu_ms=50) == 0  # all there
    cut = path.read_text().splitlines()
    path.write_text("\n".join(cut[:-1]) + "\n" + cut[-1][:20])  # a process stopped mid-line
    del played[:]
    assert ladder.run("splendor", 100, 4, pairs, path, minutes=60, cpu_ms=50) == 3
    assert [seed for _, seed in played] == [103, 102, 103]
    assert len(ladder.read(path)) == 8


def test_parts_split_the_seeds_and_share_one_file(tmp_path, played):
    path = tmp_path / "setup.jsonl"
    pairs = [("greedy", "lookahead")]
    assert ladder.run("setup", 10, 5, pairs, path, minutes=60, cpu_ms=50, part=(1, 2)) == 2
    assert ladder.run("setup", 10, 5, pairs, path, minutes=60, cpu_ms=50, part=(0, 2)) == 3
    assert sorted(r["seed"] for r in ladder.read(path)) == [10, 11, 12, 13, 14]
    assert [seed for _, seed in played] == [11, 13, 10, 12, 14]


def test_the_flat_mc_budget_is_the_fixed_one_and_recorded(tmp_path, played):
    path = tmp_path / "splendor.jsonl"
    ladder.run("splendor", 0, 2, [("flat-mc", "expert")], path, minutes=60, cpu_ms=123.0)
    assert {r["flat_mc_ms"] for r in ladder.read(path)} == {123.0}
    table = ladder.report("splendor", ladder.read(path))
    assert "| flat-mc-expert (flat-mc 123 ms) | 2 (0-1) |" in table
    assert "searched mean 10.0" in table  # the expert's own, beside the fixed budget


def test_the_report_counts_every_game_of_the_file_by_pair_and_seat(tmp_path, played):
    path = tmp_path / "splendor.jsonl"
    ladder.run("splendor", 100, 4, [("random", "greedy")], path, minutes=60, cpu_ms=50)
    ladder.run("splendor", 200, 1, [("random", "greedy")], path, minutes=60, cpu_ms=50)
    table = ladder.report("splendor", ladder.read(path))
    row = next(line for line in table.splitlines() if line.startswith("| random-greedy"))
    # seat 0 always wins: random wins the games of seeds 100, 102 and 200 (its seat 0)
    assert row == ("| random-greedy | 5 (100-200 (96 missing)) | won 3 (60.0%) | 23.1-88.2% "
                   "| seat 0: 3 of 3; seat 1: 0 of 2 | 1.0 / 1.0 ms (5) | 1.0 / 1.0 ms (5) |")
    assert "| greedy-lookahead | 0 |" in table  # a pair not played yet says so


def test_a_three_seat_report_gives_the_pairwise_score_and_average_place(tmp_path, played):
    path = tmp_path / "witches.jsonl"
    ladder.run("witches", 300, 3, [("random", "careful")], path, minutes=60, cpu_ms=50)
    row = ladder.report("witches", ladder.read(path)).splitlines()[-4]
    # random in seats 0 (first), 1 (second: ahead of one), 2 (last): 3 of 6 opponents
    assert "| random-careful | 3 (300-302) | pairwise 3 of 6 (50.0%); average place 2.00 (even 2); " \
           "won 1 (33.3%, even 33%) | 18.8-81.2% | seat 0: 1 of 1; seat 1: 0 of 1; seat 2: 0 of 1 |" in row
    assert json.loads(path.read_text().splitlines()[0])["pairwise"] == 1.0
