"""The bot levels, weakest first: the expert (expert.py) beats the storyteller (bench/README.md,
issue 34), so it is the last level, the one that takes over a timed-out seat. A module of its
own, since the expert builds on bots.py's judgement."""
from __future__ import annotations

from .bots import random_policy, storyteller_policy
from .expert import expert_policy

BOTS = {"random": random_policy, "storyteller": storyteller_policy, "expert": expert_policy}
