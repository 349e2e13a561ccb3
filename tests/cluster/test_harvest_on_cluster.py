"""The harvest (tests/lobby/test_harvest.py) on the cluster: the finished log is one stream in
one slot, its entries named from the games' own slots."""
from __future__ import annotations

from tests.lobby import test_harvest as harvest

globals().update({name: test for name, test in vars(harvest).items() if name.startswith("test_")})
app, client = harvest.app, harvest.client
