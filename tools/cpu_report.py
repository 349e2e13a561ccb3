"""Sums the files `pytest --cpu-report=PATH` wrote (PATH.<worker>): the costliest test files by
CPU seconds, and the total. `python -m tools.cpu_report PATH [N]`. Columns: the whole, then its
parts: the tests' own, the processes they started and reaped, the session's shared processes
while they ran (tests/cpu_report.py)."""
from __future__ import annotations

import glob
import json
import sys
from collections import defaultdict

PARTS = ("own", "children", "shared")


def main(argv: list[str]) -> int:
    path, shown = argv[0], int(argv[1]) if len(argv) > 1 else 40
    total: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(PARTS, 0.0))
    for part in glob.glob(f"{path}.*"):
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


def _row(parts: dict[str, float], label: str) -> str:
    return f"{sum(parts.values()):8.1f}  " + " ".join(f"{parts[name]:7.1f}" for name in PARTS) + f"  {label}"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
