"""The bot levels, weakest first: the expert (expert.py) beats greedy (bench/README.md, issue 34),
and the last level is the one that takes over a timed-out seat (api/platform/clocks.py) and the
lobby's default. A module of its own, since the expert builds on bots.py's judgement."""
from __future__ import annotations

from .bots import greedy_policy, random_policy
from .expert import choose as expert_policy

BOTS = {"random": random_policy, "greedy": greedy_policy, "expert": expert_policy}
