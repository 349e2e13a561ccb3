"""The benchmark suite of issue 8: every figure beside its floor, measured in the same run.

    python -m bench                       # everything (about 6 minutes)
    python -m bench --quick               # everything, short runs (under 2 minutes)
    python -m bench --smoke               # everything at tiny sizes (seconds): does each part run?
    python -m bench --only engines,read   # some parts: engines, read, bots, http, memory, history
    python -m bench --json out.json       # also write the figures as JSON

Parts: engines (in-process playouts and the replay path), read (GET game / state?version on
100-10,000 events), bots (RQ hop latency), http (moves over HTTP vs the Flask+Lua floor, wrk),
memory (Redis bytes per event and per game), history (a live long game's state?version=N cold
against a full cold load, and its NDJSON export's CPU against paging), archive (a finished game's
bytes in the archive and in Redis, the archive's reads). See bench/README.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import sys
import time

PARTS = ("engines", "read", "bots", "http", "memory", "history", "archive")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short runs: the whole suite in under 2 minutes")
    parser.add_argument("--smoke", action="store_true",
                        help="tiny sizes, a few seconds a part: checks every part still runs (tests/test_bench_smoke.py)")
    parser.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts of {', '.join(PARTS)}")
    parser.add_argument("--json", metavar="PATH", help="write every figure as JSON to PATH")
    parser.add_argument("--conns", default="16,64", help="http: client connections per run (default 16,64)")
    parser.add_argument("--seconds", type=float, help="http: seconds per wrk run (default 4 quick, 10 full)")
    args = parser.parse_args()
    quick = args.quick or args.smoke
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s) {', '.join(sorted(unknown))}; choose from {', '.join(PARTS)}")

    # SIGTERM unwinds like Ctrl-C: the servers and Redis this suite started are stopped
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    import bench.common  # noqa: F401 - puts the repository on sys.path
    from domain import registry

    print(f"# bench: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, games: "
          f"{', '.join(g.name for g in registry.all_games())}, load generator: "
          f"{'wrk' if shutil.which('wrk') else 'python (wrk not found)'}{', smoke' if args.smoke else ', quick' if quick else ''}")
    started = time.perf_counter()
    if args.smoke:
        results = smoke(args, parts)
    else:
        results = run_parts(args, parts, quick)
    print(f"\n# total {time.perf_counter() - started:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)


def smoke(args, parts: list[str]) -> dict:
    """Every part against one Redis and one server (each part would start its own: 10-15 s
    apiece on a loaded machine), hosting what every part needs."""
    from bench.common import private_redis, running_server

    # no webhook or analysis worker: no part delivers a webhook or reads an analysis, and each
    # is one more process importing the whole project at the start (issue 48)
    with private_redis() as url, running_server(url, EXTRA_GAME_MODULES="bench.long_game", WEB_WORKERS="1",
                                                TURN_WORKERS="1", WEBHOOK_WORKERS="0", ANALYSIS_WORKERS="0") as base:
        os.environ["BENCH_REDIS_URL"], os.environ["BENCH_SERVER_URL"] = url, base
        try:
            return run_parts(args, parts, True)
        finally:
            del os.environ["BENCH_REDIS_URL"], os.environ["BENCH_SERVER_URL"]


def run_parts(args, parts: list[str], quick: bool) -> dict:
    results: dict = {}
    for part in parts:
        t0 = time.perf_counter()
        print()
        if part == "engines":
            from bench import engines

            results[part] = engines.run(quick, smoke=args.smoke)
        elif part == "read":
            from bench import reading

            results[part] = reading.run(quick, smoke=args.smoke)
        elif part == "bots":
            from bench import bots

            results[part] = bots.run(quick, smoke=args.smoke)
        elif part == "http":
            from bench import http_moves

            conns = tuple(int(c) for c in args.conns.split(","))
            if args.smoke:
                results[part] = http_moves.run(quick, conns=(2,), seconds=args.seconds or 1, sse=2,
                                               smoke=True)
            else:
                results[part] = http_moves.run(quick, conns=conns, seconds=args.seconds)
        elif part == "memory":
            from bench import memory

            results[part] = memory.run(quick, smoke=args.smoke)
        elif part == "history":
            from bench import history_cost

            results[part] = history_cost.run(quick, smoke=args.smoke)
        elif part == "archive":
            from bench import archive

            results[part] = archive.run(quick)
        print(f"({part}: {time.perf_counter() - t0:.0f} s)")
    return results


if __name__ == "__main__":
    main()
