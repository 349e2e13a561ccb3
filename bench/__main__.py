"""The benchmark suite of issue 8: every figure beside its floor, measured in the same run.

    python -m bench                       # everything (about 6 minutes)
    python -m bench --quick               # everything, short runs (under 2 minutes)
    python -m bench --only engines,read   # some parts: engines, read, bots, http, memory
    python -m bench --json out.json       # also write the figures as JSON

Parts: engines (in-process playouts and the replay path), read (GET game / state?version on
100-10,000 events), bots (RQ hop latency), http (moves over HTTP vs the Flask+Lua floor, wrk),
memory (Redis bytes per event and per game). See bench/README.md.
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

PARTS = ("engines", "read", "bots", "http", "memory")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short runs: the whole suite in under 2 minutes")
    parser.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts of {', '.join(PARTS)}")
    parser.add_argument("--json", metavar="PATH", help="write every figure as JSON to PATH")
    parser.add_argument("--conns", default="16,64", help="http: client connections per run (default 16,64)")
    parser.add_argument("--seconds", type=float, help="http: seconds per wrk run (default 4 quick, 10 full)")
    args = parser.parse_args()
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
          f"{'wrk' if shutil.which('wrk') else 'python (wrk not found)'}{', quick' if args.quick else ''}")
    results: dict = {}
    started = time.perf_counter()
    for part in parts:
        t0 = time.perf_counter()
        print()
        if part == "engines":
            from bench import engines

            results[part] = engines.run(args.quick)
        elif part == "read":
            from bench import reading

            results[part] = reading.run(args.quick)
        elif part == "bots":
            from bench import bots

            results[part] = bots.run(args.quick)
        elif part == "http":
            from bench import http_moves

            conns = tuple(int(c) for c in args.conns.split(","))
            results[part] = http_moves.run(args.quick, conns=conns, seconds=args.seconds)
        elif part == "memory":
            from bench import memory

            results[part] = memory.run(args.quick)
        print(f"({part}: {time.perf_counter() - t0:.0f} s)")
    print(f"\n# total {time.perf_counter() - started:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
