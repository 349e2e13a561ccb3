"""Sums the files `pytest --cpu-report=PATH` wrote (PATH.<worker>): the costliest test files by
CPU seconds, and the total. `python -m tools.cpu_report PATH [N]`."""
from __future__ import annotations

import glob
import json
import sys
from collections import defaultdict


def main(argv: list[str]) -> int:
    path, shown = argv[0], int(argv[1]) if len(argv) > 1 else 40
    total: dict[str, float] = defaultdict(float)
    for part in glob.glob(f"{path}.*"):
        with open(part) as lines:
            for line in lines:
                row = json.loads(line)
                total[row["file"]] += row["own"] + row["children"]
    ranked = sorted(total.items(), key=lambda kv: -kv[1])
    for file, seconds in ranked[:shown]:
        print(f"{seconds:8.1f}  {file}")
    print(f"{sum(total.values()):8.1f}  all ({len(total)} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
