"""Step-up for account changes (issue 51): what takes something away from the player's other
devices (revoking another key, replacing the recovery code, removing a passkey, unlinking an
identity) needs a fresh proof, not just any key: a key of a stolen phone must not lock its owner
out.

A proof (`POST /players/me/step-up`) is one of
- the player's current recovery code (checked, not spent: it still recovers the player);
- an answer of one of the player's passkeys to a step-up challenge (api/players/passkeys.py);
- an identity token of one of the player's linked identities, issued (`iat`) at most
  FRESH_IDENTITY_S ago.
It earns a grant bound to the one credential that asked (the hash of its key, or of its identity
token) for STEP_UP_S: `player:{<id>}:step-up:<hash>` (SET EX; single-key). A request signed in
with a fresh identity token is its own proof.

A passkey or identity added without a grant counts as a proof only PROOF_SETTLE_S after it was
added (its entry's `counts_from`), while every device is told of it at once: else a stolen key
would register its own passkey and step up with it. One added with a grant, or the identity a
player was made by, counts at once; one added before step-up existed (no `counts_from`) counts.

A player with no proof at hand (no passkey, no identity, its recovery code lost) keeps all it
could do that harms no other device: playing, adding keys, rotating or revoking its own key,
registering passkeys and linking identities (which become proofs after PROOF_SETTLE_S). Only
taking from other devices waits for a proof. Flask-free.
"""
from __future__ import annotations

import time
from typing import Any

from api.errors import ApiError, Code

STEP_UP_S = 300  # a grant lasts this long
FRESH_IDENTITY_S = 300  # an identity token proves a step-up this long after it was issued
CLOCK_SKEW_S = 30  # an `iat` this far ahead of the clock still counts (the verifier's leeway)
PROOF_SETTLE_S = 3 * 86400  # a proof added without a grant counts this long after
REFUSALS_TOLD_EVERY_S = 60  # a key's refused attempts at one change are told once in this time


class StepUpRequired(ApiError):
    status, code = 403, Code.STEP_UP_REQUIRED


class StepUpRefused(ApiError):
    status, code = 403, Code.STEP_UP_REFUSED


def now_ms() -> int:
    return int(time.time() * 1000)


def counts(entry: dict[str, Any], at_ms: int | None = None) -> bool:
    """Whether a passkey's or an identity's entry proves a step-up now."""
    return int(entry.get("counts_from", 0)) <= (now_ms() if at_ms is None else at_ms)


def fresh(claims: dict[str, Any], at_s: float | None = None) -> bool:
    """Whether a verified identity token was issued at most FRESH_IDENTITY_S ago."""
    issued = claims.get("iat")
    now = time.time() if at_s is None else at_s
    if not isinstance(issued, int | float) or isinstance(issued, bool):
        return False
    return -CLOCK_SKEW_S <= now - issued <= FRESH_IDENTITY_S


class StepUps:
    def __init__(self, connection: Any, prefix: str = "") -> None:
        self.redis = connection
        self.prefix = prefix

    def _grant(self, player_id: str, digest: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:step-up:{digest}"

    def grant(self, player_id: str, digest: str) -> int:
        """A grant for the credential of this hash; when it ends (ms)."""
        self.redis.set(self._grant(player_id, digest), "1", ex=STEP_UP_S)
        return now_ms() + STEP_UP_S * 1000

    def holds(self, player_id: str, digest: str) -> bool:
        return bool(self.redis.exists(self._grant(player_id, digest)))

    def end(self, player_id: str, digest: str) -> None:
        """The credential's grant ends (its key was revoked or replaced)."""
        self.redis.delete(self._grant(player_id, digest))

    def first_refusal(self, player_id: str, digest: str, change: str) -> bool:
        """Whether this refusal of the credential's attempt at `change` is the first in
        REFUSALS_TOLD_EVERY_S (the owner is told of it; a key retrying in a loop is told once a
        minute, not flooding the owner's stream and phone)."""
        key = f"{self.prefix}player:{{{player_id}}}:step-up-refused:{digest}:{change}"
        return bool(self.redis.set(key, "1", nx=True, ex=REFUSALS_TOLD_EVERY_S))
