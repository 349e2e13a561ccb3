"""Sums the files `pytest --cpu-report=PATH` wrote (PATH.<worker>): the costliest test files by
CPU seconds, and the total. `python -m tools.cpu_report PATH [N]`. Columns: the whole, then its
parts: the tests' own, the processes they started and reaped, the session's shared processes
while they ran (tests/cpu_report.py). `python -m tools.cpu_report --tail PATH [N]`: each worker's
last N files and when it finished, so how long one worker ran alone at the run's end."""
from __future__ import annotations

import glob
import json
import re
import sys
from collections import defaultdict

PARTS = ("own", "children", "shared")


def _parts(path: str) -> list[str]:
    """The report's files: PATH.main or PATH.gw<N>, not a PATH.log kept beside them."""
    return sorted(part for part in glob.glob(f"{path}.*") if re.fullmatch(r"main|gw\d+", part.rsplit(".", 1)[1]))


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--tail":
        return tail(argv[1], int(argv[2]) if len(argv) > 2 else 8)
    path, shown = argv[0], int(argv[1]) if len(argv) > 1 else 40
    total: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(PARTS, 0.0))
    for part in _parts(path):
        with open(part) as lines:
            for line in lines:
                row = json.loads(line)
                for name in PARTS:
                    total[row["file"]][name] += row.get(name, 0.0)
    ranked = sorted(total.items(), key=lambda kv: -sum(kv[1].values()))
    print(f"{'CPU s':>8}  {'own':>7} {'started':>7} {'shared':>7}  file")
    for file, parts in ranked[:shown]:
        print(_row(parts, file))
    sums = {name: sum(parts[name] for parts in total.values()) for name in PARTS}
    print(_row(sums, f"all ({len(total)} files)"))
    return 0


def tail(path: str, shown: int) -> int:
    """Each worker's last files and when it finished: how long one worker ran alone at the end.
    Seconds count from each worker's start (the workers start within a second of each other)."""
    ends = {}
    for part in _parts(path):
        worker = part.rsplit(".", 1)[1]
        with open(part) as lines:
            rows = [row for line in lines if (row := json.loads(line)).get("end") is not None]
        rows.sort(key=lambda row: row["end"])
        ends[worker] = rows[-1]["end"] if rows else 0.0
        print(f"{worker}: done at {ends[worker]:.0f} s")
        for row in rows[-shown:]:
            print(f"  {row['start']:7.1f} {row['end']:7.1f}  {row['file']}")
    if ends:
        print(f"alone at the end: {max(ends.values()) - min(ends.values()):.0f} s")
    return 0


def _row(parts: dict[str, float], label: str) -> str:
    return f"{sum(parts.values()):8.1f}  " + " ".join(f"{parts[name]:7.1f}" for name in PARTS) + f"  {label}"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
