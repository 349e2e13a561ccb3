"""The peeking detector fed (issue 50): each finished game of a hidden-information game gets, on
the analysis queue (never the turns': the search takes seconds to minutes, and no turn waits
behind it), the evidence of every decision its people made from a player's seat
(domain/analysis.py's peek_evidence: the search's shares from the seat's determinizations and
from the real state, PEEKING_ITERATIONS each), kept as moderation events; GET /moderation/flags
judges the decisions of the lookback (api/moderation/signals.py's peeking_flags).

Where it is kept: `moderation:{peeking:<type>}:events`, a Redis stream per game type (never a
game's history, nor the moderators' stream: it is the evidence, not an action; a hash slot per
type, as the ratings'), one entry per player and game (`peeking_evidence`: the player, the game,
its type, and each decision's version, legal moves, move played and the two models' shares),
trimmed to the lookback as it grows. `moderation:{peeking:<type>}:game:<id>` marks a game whose
evidence is written (for the lookback): the marker and the entries are one transaction in the
type's slot, so a job run twice (a lost worker's, queued again) writes them once. Only a seat a
player held is judged: an anonymous person has no one to flag, and a bot (or one that took the
seat over) provably sees only its seat. Flask-free.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import redis

from api.analysis.decisions import people_decisions
from api.moderation import signals
from api.platform import events as pe
from domain import analysis
from events import codec

if TYPE_CHECKING:
    from api.games.repository import Game
    from api.games.service import GameService

log = logging.getLogger(__name__)
EVIDENCE = "peeking_evidence"


def judged(game: Game) -> bool:
    """Whether the finished game's decisions are evidence: its game hides something, and a
    player (an account) held one of its seats."""
    return analysis.hidden_information(game.definition) and any(s["player"] is not None for s in game.seats)


class PeekingJobs:
    """The game service's listener: a finished game whose decisions are evidence gets its job
    (the analysis queue's `peek`: jobs.peek), once, whichever process appended its end."""

    def __init__(self, enqueue: Callable[[str], object], iterations: int) -> None:
        self.enqueue = enqueue
        self.iterations = iterations  # PEEKING_ITERATIONS; 0: no evidence gathered

    def __call__(self, game: Game, events: list[tuple[str, dict[str, Any]]]) -> None:
        if self.iterations <= 0 or not game.finished or not pe.finishing([t for t, _ in events]):
            return
        if judged(game):
            self.enqueue(game.id)


class PeekingEvidence:
    def __init__(
        self,
        connection: Any,
        prefix: str,
        service: GameService,
        iterations: int,
        lookback_s: float,
        game_types: Callable[[], list[str]],
    ) -> None:
        self.redis: Any = connection
        self.service = service
        self.iterations = iterations
        self.lookback_ms = int(lookback_s * 1000)
        self.prefix = prefix
        self.game_types = game_types  # the types whose streams the flags read

    def key(self, game_type: str) -> str:
        return f"{self.prefix}moderation:{{peeking:{game_type}}}:events"

    def _done(self, game_type: str, game_id: str) -> str:
        return f"{self.prefix}moderation:{{peeking:{game_type}}}:game:{game_id}"

    # ---- the job (jobs.peek) ---------------------------------------------------------------------
    def record(self, game_id: str, now_ms: int | None = None) -> str:
        """The game's evidence, computed and written once; what was done (`recorded <n>`,
        `already`, `not judged`)."""
        game = self.service.load(game_id)
        done = self._done(game.definition.name, game_id)
        if self.redis.exists(done):
            return "already"
        if not game.finished or not judged(game):
            return "not judged"
        entries = self.evidence(game, now_ms or int(time.time() * 1000))
        with self.redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(done)
                if pipe.exists(done):
                    return "already"
                pipe.multi()
                pipe.set(done, 1, px=max(1, self.lookback_ms))
                oldest = f"{max(0, entries[0]['at'] - self.lookback_ms) if entries else 0}-0"
                for entry in entries:
                    pipe.xadd(
                        self.key(game.definition.name), {"e": codec.dumps_bytes(entry)}, minid=oldest, approximate=True
                    )
                pipe.execute()
            except redis.WatchError:
                return "already"  # another run of the job wrote it meanwhile
        return f"recorded {sum(len(e['decisions']) for e in entries)}"

    def evidence(self, game: Game, now_ms: int) -> list[dict[str, Any]]:
        """One entry per player of the game: each of its decisions with a choice, as evidence."""
        found: dict[str, dict[str, Any]] = {}
        definition = game.definition
        for then, decision in people_decisions(game, self.service.store.read(game.id)):
            player = then.seats[decision.seat]["player"]
            if player is None:
                continue
            played = analysis.played_move(definition, decision, game.seed)
            if played is None:
                continue
            seen = analysis.peek_evidence(
                definition, decision.before, decision.seat, played, game.seed, decision.version, self.iterations
            )
            if seen is None:
                continue
            entry = found.setdefault(
                player,
                {
                    "type": EVIDENCE,
                    "player": player,
                    "game": game.id,
                    "game_type": definition.name,
                    "at": now_ms,
                    "iterations": self.iterations,
                    "decisions": [],
                },
            )
            entry["decisions"].append(
                {
                    "version": seen["version"],
                    "moves": seen["moves"],
                    "played": seen["played"],
                    "honest": seen["honest"],
                    "peeking": seen["peeking"],
                }
            )
        return [found[p] for p in sorted(found)]

    # ---- read by the flags -------------------------------------------------------------------
    def decisions(self, now_ms: int | None = None) -> list[signals.PeekDecision]:
        """Every decision's evidence written within the lookback, as the detector judges it."""
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        found: list[signals.PeekDecision] = []
        pipe = self.redis.pipeline(transaction=False)
        for game_type in self.game_types():
            pipe.xrange(self.key(game_type), f"{max(0, now_ms - self.lookback_ms)}-0", "+")
        for _, fields in (entry for entries in pipe.execute() for entry in entries):
            entry = codec.loads(fields[b"e"])
            if entry.get("type") != EVIDENCE:
                continue  # an event of a later version
            found.extend(
                signals.PeekDecision(
                    f"player:{entry['player']}",
                    entry["game"],
                    entry["game_type"],
                    d["version"],
                    d["moves"],
                    d["played"],
                    d["honest"],
                    d["peeking"],
                )
                for d in entry["decisions"]
            )
        return found
