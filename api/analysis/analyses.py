"""A finished game's analysis: asked for, computed once, read (issue 34).

Where it is kept: one Redis key beside the game's (`game:{<id>}:analysis`, a JSON document: the
request while it is pending, then the analysis) while the game is Redis's; once the game is
archived, in the archive with it (events/archive.py's `put_analysis`: the same bytes, read back
before the Redis key is deleted; `file`). The archiver files a done analysis when it archives
the game (workers/archiver.py); one pending then, or asked for after, is filed by its job once
computed (`compute` writes Redis's key, then files it if the game was archived meanwhile: the
eviction sets the marker before the archiver looks at the key, so one of the two files it). A
read looks at Redis first, then at the archive: the answer is the same bytes before and after.
With ARCHIVE_RETENTION_S it expires with the game (the key's TTL; the archive's purge drops it
with the history), and a read of a game past the retention answers `410 game_expired` before
looking for it.

Who may ask: a player (its key) seated in the finished game, at most ANALYSIS_PER_DAY new
analyses a UTC day (asking again for one already asked is free: it answers what there is).
Anyone may read it, as anyone may read a finished game's history: the suggestions are the
seat's own legal moves, chosen from its information only (domain/analysis.py), and a finished
game's history shows every seat's hand to everyone already.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from api.analysis.decisions import people_decisions
from api.errors import ApiError, Code, SeatNotYours
from api.games import words
from api.games.repository import Game
from api.games.service import GameService
from api.words import languages
from domain import analysis
from events.archived_store import ArchivingStore
from events.keys import glob_escaped

NONE, PENDING, DONE = "none", "pending", "done"  # nobody asked yet; asked, being computed; computed
RETRY_AFTER_S = 2  # what a pending answer tells a client to wait before asking again
REQUEUE_AFTER_S = 60  # a request pending this long has its job queued again by a read (a lost or failed one)


class AnalysisRefused(ApiError):
    status, code = 409, Code.GAME_NOT_FINISHED


class Analyses:
    def __init__(self, redis: Any, prefix: str, service: GameService, enqueue: Callable[[str], object],
                 per_day: int, iterations: int, retention_s: float | None = None):
        self.redis, self.prefix, self.service, self.enqueue = redis, prefix, service, enqueue
        self.per_day, self.iterations, self.retention_s = per_day, iterations, retention_s
        store = service.store
        self.archiving = store if isinstance(store, ArchivingStore) else None  # the archive behind Redis

    def key(self, game_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:analysis"

    def _asked_key(self, player_id: str, day: str) -> str:
        return f"{self.prefix}analysis-asked:{player_id}:{day}"

    # ---- asking and reading ----------------------------------------------------------------------

    def request(self, game_id: str, player_id: str) -> dict[str, Any]:
        """A player of the finished game asks for its analysis: the pending request (queued
        once) or the analysis done. Refused: not finished (409), not the player's (403), the
        player's day spent (429)."""
        game = self._finished(game_id)
        if game.seat_of_player(player_id) is None:
            raise SeatNotYours("Only a player of this game can ask for its analysis.")
        found = self._stored(game_id)
        if found is None:
            self._count(player_id)
            pending = {"id": game_id, "status": PENDING, "requested_at": int(time.time() * 1000)}
            if not self.redis.set(self.key(game_id), json.dumps(pending), nx=True, ex=self._ttl(game)):
                self._uncount(player_id)  # another request was first: it counted, not this one
            found = self._stored(game_id) or pending
        if found["status"] == PENDING:
            self.enqueue(game_id)  # again for a request whose job was lost (one job per game)
        return found

    def read(self, game_id: str) -> dict[str, Any] | None:
        """The game's analysis or its pending request; None when nobody asked yet. A request
        pending for long gets its job again (one whose worker died, or that failed), so a
        client that only polls is answered in the end."""
        self._finished(game_id)
        found = self._stored(game_id)
        if found is not None and found["status"] == PENDING and \
                time.time() * 1000 - found.get("requested_at", 0) > REQUEUE_AFTER_S * 1000:
            self.enqueue(game_id)
        return found

    def _finished(self, game_id: str) -> Game:
        game = self.service.load(game_id)  # 404 unknown_game, 410 game_expired
        if not game.finished:
            raise AnalysisRefused("A game is analysed once it has finished; this one has not.",
                                  version=game.version)
        return game

    def _stored(self, game_id: str) -> dict[str, Any] | None:
        """The request or analysis: Redis's, else (the game archived) the archive's."""
        raw = self.redis.get(self.key(game_id))
        if raw is None and self.archiving is not None and self.archiving.archived_version(game_id):
            raw = self.archiving.archive.analysis(game_id)
        return json.loads(raw) if raw is not None else None

    def file(self, game_id: str) -> bool:
        """Moves a done analysis of an archived game from Redis into the archive (written, read
        back the same, then Redis's key deleted); whether it did. A pending one stays: its job
        files it once computed."""
        if self.archiving is None or not self.archiving.archived_version(game_id):
            return False
        raw = self.redis.get(self.key(game_id))
        if raw is None or json.loads(raw).get("status") != DONE:
            return False
        archive = self.archiving.archive
        archive.put_analysis(game_id, raw)
        if archive.analysis(game_id) != raw:
            raise RuntimeError(f"game {game_id}: the archive's copy of its analysis differs; kept in Redis")
        self.redis.delete(self.key(game_id))  # a done analysis never changes: nothing to race
        return True

    def file_every(self) -> int:
        """The done analyses of archived games Redis still holds (a SCAN: python -m tools.archive,
        for the games archived before analyses went with them), filed; how many."""
        head = f"{self.prefix}game:{{"
        moved = 0
        for key in self.redis.scan_iter(match=f"{glob_escaped(head)}*}}:analysis", count=1000):
            name = key.decode() if isinstance(key, bytes) else key
            moved += self.file(name[len(head):].rsplit("}:analysis", 1)[0])
        return moved

    def _count(self, player_id: str) -> None:
        now = datetime.now(UTC)
        key = self._asked_key(player_id, now.strftime("%Y-%m-%d"))
        asked = self.redis.incr(key)
        self.redis.expire(key, 2 * 86400)
        if asked > self.per_day:
            self.redis.decr(key)
            midnight = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
            raise ApiError(f"You asked for {self.per_day} analyses today, the most a day; ask again tomorrow (UTC).",
                           code=Code.ANALYSIS_LIMIT_REACHED, status=429, details={"limit": self.per_day},
                           headers={"Retry-After": str(max(1, int((midnight - now).total_seconds())))})

    def _uncount(self, player_id: str) -> None:
        self.redis.decr(self._asked_key(player_id, datetime.now(UTC).strftime("%Y-%m-%d")))

    # ---- computing (the analysis job: jobs.analyse) -------------------------------------

    def compute(self, game_id: str) -> str:
        """Analyses the game once; says what was done (`done`, `already`, `not asked`)."""
        found = self._stored(game_id)
        if found is None:
            return "not asked"
        if found["status"] == DONE:
            self.file(game_id)  # done and left in Redis (a job that died before filing it): the archive's
            return "already"
        game = self._finished(game_id)
        decided = [self._appraised(then, decision, game.seed)
                   for then, decision in people_decisions(game, self.service.store.read(game_id))]
        marks = set(analysis.marked(decided))
        for d in decided:
            d["marked"] = d["version"] in marks
        done = {"id": game_id, "status": DONE, "type": game.definition.name,
                "level": analysis.level_of(game.definition), "iterations": self.iterations,
                "requested_at": found.get("requested_at"), "computed_at": int(time.time() * 1000),
                "decisions": decided, "marked": sorted(marks)}
        self.redis.set(self.key(game_id), json.dumps(done), keepttl=True)  # the request's: the game's retention
        self.file(game_id)  # the game archived meanwhile (or before): the archive's
        return DONE

    def _appraised(self, then: Game, decision: analysis.Decision, seed: object) -> dict[str, Any]:
        appraised = analysis.appraise(then.definition, decision, seed, self.iterations)
        appraised["suggested_label"] = _labels(then, decision.seat, appraised["suggested"], languages())
        return appraised

    def _ttl(self, game: Game) -> int | None:
        """Seconds left until the game's retention ends (None: kept as long as the game)."""
        if self.retention_s is None:
            return None
        ended = self.service.store.last_event(game.id)
        ended_ms = ended.at if ended is not None else int(time.time() * 1000)
        return max(1, int(ended_ms / 1000 + self.retention_s - time.time()))


def _labels(game: Game, seat: int, move: dict[str, Any], langs: Iterable[str]) -> dict[str, str] | None:
    """The suggestion in words, in every language (a read picks the caller's)."""
    said = {lang: found[0]["label"] for lang in langs if (found := words.labels(game, lang, seat, [move]))}
    return said or None


def in_language(found: dict[str, Any], lang: str) -> dict[str, Any]:
    """An analysis as answered: each suggestion's label in `lang` (English if it has none)."""
    if found.get("status") != DONE:
        return found
    shown = dict(found)
    shown["decisions"] = [{**d, "suggested_label": (d.get("suggested_label") or {}).get(lang)
                           or (d.get("suggested_label") or {}).get("en")} for d in found["decisions"]]
    return shown
