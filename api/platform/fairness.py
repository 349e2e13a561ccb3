"""Provably fair chance: who may choose a game's seed, the server's own seeds, and the
commitment every seat and spectator sees from the start.

Every shuffle and draw of a game is a pure function of its seed (domain/play.py `rng_for`), so
whoever knows the seed knows every hidden card to come. A client-chosen seed is therefore
accepted only where nobody can be cheated by it: games whose seats are all bots, or a server
run with ALLOW_CLIENT_SEEDS=1 (tests, tournaments replayed on purpose). Otherwise the server
draws 256 bits, shows everyone `sha256(seed)` at creation and reveals the seed once the game is
over, when `python -m tools.verify` re-derives every chance event from it and confirms the
history: the server could not have chosen the cards after seeing the moves.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any

from api.errors import ApiError, Code

SEED_BITS = 256


class SeedNotAllowed(ApiError):
    status, code = 422, Code.SEED_NOT_ALLOWED


def server_seed() -> str:
    """256 random bits, as 64 hex digits."""
    return secrets.token_hex(SEED_BITS // 8)


def commitment(seed: Any) -> str:
    """sha256 of the seed as the RNG reads it (`rng_for` formats it with `f"{seed}"`)."""
    return hashlib.sha256(f"{seed}".encode()).hexdigest()


def check_client_seed(seed: Any, seats: list[Any], allowed: bool) -> None:
    """Refuses a client-chosen seed unless every seat is a bot or the server allows it."""
    if seed is None or allowed or all("bot" in seat for seat in seats):
        return
    raise SeedNotAllowed(
        "A seed chosen by the client would let it predict every hidden card: it is accepted only for "
        "games whose seats are all bots (or on a server run with ALLOW_CLIENT_SEEDS=1). Leave `seed` out; "
        "the server draws one, shows its sha256 now and reveals it when the game is over.")


def fairness(seed: Any, over: bool) -> dict[str, Any]:
    """What everyone may know of the seed: its commitment, and the seed once the game is over."""
    return {"seed_sha256": commitment(seed), "seed": seed if over else None}
