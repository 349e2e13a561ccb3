"""`python -m bench --smoke` runs every part of the benchmark suite at tiny sizes, so a change
that breaks a benchmark (a renamed store function, a new server rule the bench's requests break)
fails here instead of on the next person who measures something. It checks that the suite ran
and produced rows, never its figures: speed targets are the benchmarks' own business."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# The tier (tests/tiers.py): runs every part of the bench as a subprocess.
pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 300  # about 35 s on the 2 shared cores at load 12; generous, never a speed check


def test_every_part_of_the_bench_runs_and_gives_rows(tmp_path):
    from bench.__main__ import PARTS

    out = tmp_path / "bench.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}  # its own Redis
    done = subprocess.run([sys.executable, "-m", "bench", "--smoke", "--json", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, f"python -m bench --smoke exited {done.returncode}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    results = json.loads(out.read_text())
    assert set(results) == set(PARTS), done.stdout
    for part in PARTS:
        assert results[part], f"part {part} gave no rows:\n{done.stdout}"
        assert f"({part}: " in done.stdout  # its timing line: it ran to its end
    # Rows that need a server's answers to be right, not just to arrive: a person's game against
    # a bot (a seed posted with a person seat), and moves over HTTP in one request each.
    assert any(name.startswith("splendor/") and name != "splendor/replay" for name in results["bots"])
    assert results["http"]["game 1 req @2"]["moves_per_s"] > 0
    # the steady run (moves only, on games made before it) and the per-game accounts beside it
    assert results["http"]["steady @2"]["moves_per_s"] > 0 and results["http"]["steady @2"]["pooled"] > 0
    accounts = results["http"]["accounts splendor @2"]
    assert accounts["create_ms"] > 0 and accounts["steady_ms"] > 0 and "polls" in accounts["shares"], accounts
    assert any(name.startswith("bench-long/") for name in results["read"])


def test_the_redis_year_bench_runs_and_reports(tmp_path):
    """bench.redis_year (issue 49, item 16) at a tiny size: a few simulated days, its figures printed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}  # its own Redis
    done = subprocess.run([sys.executable, "-m", "bench.redis_year", "--players", "6", "--games-per-day", "2",
                           "--days", "4", "--day-s", "0.2"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "per finished game:" in done.stdout and "per player:" in done.stdout, done.stdout


def test_the_ratings_storage_bench_runs_and_reports():
    """bench.ratings_storage (issue 50) at a tiny size: bytes per rated game before and after the archiver."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}  # its own Redis
    done = subprocess.run([sys.executable, "-m", "bench.ratings_storage", "2"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "before the archiver" in done.stdout and "hash slots of each type" in done.stdout, done.stdout


def test_the_push_transports_bench_runs_and_reports(tmp_path):
    """bench.push_transports (issue 54) at a tiny size: a row per transport and thread count."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}  # its own Redis
    out = tmp_path / "push.json"
    done = subprocess.run([sys.executable, "-m", "bench.push_transports", "--players", "3", "--notices", "2",
                           "--threads", "1", "--json", str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    rows = json.loads(out.read_text())
    assert [(r["transport"], r["pushes"]) for r in rows] == [("webpush", 4), ("fcm", 4), ("apns", 4)], rows
