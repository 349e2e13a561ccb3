"""Subscriptions, their owners and their progress, in Redis.

An owner is who made a subscription and whose view it receives: a game's table token
(`Owner("game", <game id>)`, for that game only, as `seat` or a spectator sees it), or a player
(`Owner("player", <id>)`, for games it sits in, as its seat sees them). A player's subscription
names its games, or says "mine": every game the player sits in, those it joins later included.
Keys:
- `webhook:{<sub>}`: the subscription (JSON), and `webhook:{<sub>}:attempts`, its recent
  attempts (newest first, capped), and for a "mine" subscription `webhook:{<sub>}:games`, the
  games it covers (grown when the player is seated in a game: api/webhooks/notify.py);
- `<owner>:webhooks`: the owner's subscriptions (for a game owner, `game:{<id>}:webhooks`),
  bounded by a script on that one key;
- `game:{<id>}:webhook-subs`: the subscriptions covering a game (whoever owns them), and
  `game:{<id>}:webhook:<sub>`: that subscription's progress through the game (the next
  message to deliver, its attempts, since when it fails), and `...:lock`; once a finished game
  is delivered to every covering subscription, these expire (PROGRESS_TTL_S) and the game
  leaves the "mine" subscriptions' sets: Redis does not keep every game ever subscribed to;
- `webhooks:games` (sorted set): the games some subscription covers, and `webhooks:retry`
  (sorted set, score: when due): attempts waiting for their back-off. Both global, touched by
  single-key commands only; on a cluster (KEY_BUCKETS > 1, events/connection.py) each is
  sharded into hash-tag buckets (`webhooks:retry:{b3}`), an entry in its game's bucket, so their
  load spreads over the nodes; the sweep reads every bucket.
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from api.players.keys import index_key
from events.connection import key_buckets
from events.keys import Keys, sharded

# A (subscription, game)'s lease: its holder renews it while it lives (workers/deliveries/
# leases.py), so a holder that died (its process, or Redis under it) lets another take over
# within seconds; every progress it saves is fenced by its token.
LEASE_MS = 5_000
ATTEMPTS_KEPT = 200
PROGRESS_TTL_S = 7 * 86400  # a finished, delivered game's webhook keys are kept this long
MINE = "mine"
RATING_CHANGED = "rating.changed"  # a player's re-ratings (api/webhooks/messages.py)
RATING_STREAM = "~rating."  # the id they are delivered under: `~rating.<player id>`
# A player's news (api/webhooks/news.py): its tournaments', its challenges', its direct messages.
TOURNAMENT_KINDS = ("tournament.started", "tournament.round_paired", "tournament.finished",
                    "tournament.player_withdrawn")
SOCIAL_KINDS = ("challenge.received", "challenge.answered", "chat.direct_message")  # need the `social` scope
NEWS_KINDS = (*TOURNAMENT_KINDS, *SOCIAL_KINDS)
NEWS_STREAM = "~news."  # the id they are delivered under: `~news.<player id>`

_ADD_BOUNDED = """
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_SAVE_HELD = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return redis.call('PEXPIRE', KEYS[1], ARGV[3])
"""
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Owner:
    kind: str  # "game": a game's table token; "player": a player's key
    id: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"

    @classmethod
    def parse(cls, text: str) -> Owner:
        kind, _, ident = text.partition(":")
        return cls(kind, ident)


@dataclass
class Subscription:
    id: str
    owner: str
    url: str
    events: list[Any]
    games: list[str] | str  # a list of game ids, or "mine" (a player's: every game it sits in)
    seat: int | None  # whose view a table-token subscription receives (None: a spectator's;
    # a player's subscription sees as the seat the player sits in)
    secret: str
    created_at: int  # ms
    status: str = "active"  # or "disabled"
    disabled_at: int | None = None
    disabled_reason: str | None = None
    lang: str = "en"  # the language of its events' and results' words (one stored before: English)
    # The player key that made it (its hash, never shown, and its id, shown to the owner): it
    # ends with that key (api/players/keys.py). None: a table token's, an identity token's, or
    # one made before keys were recorded.
    key_hash: str | None = None
    key_id: str | None = None

    def public(self) -> dict[str, Any]:
        shown = asdict(self)
        shown.pop("secret")
        shown.pop("key_hash")
        return shown

    @property
    def mine(self) -> bool:
        return self.games == MINE

    @property
    def player(self) -> str | None:
        """The owning player's id (None: a table token's subscription)."""
        kind, _, ident = self.owner.partition(":")
        return ident if kind == "player" else None


@dataclass
class Progress:
    """Where a subscription is in one game: messages before (version, index) are done."""

    version: int
    index: int = 0
    attempts: int = 0  # failed attempts of the next message
    failing_since: int | None = None  # ms; None while the receiver answers
    next_at: int = 0  # ms: no attempt before (the back-off)
    extra: dict[str, Any] = field(default_factory=dict)


class SubscriptionStore:
    def __init__(self, connection: Any, prefix: str = "", buckets: int | None = None) -> None:
        self.redis = connection
        self.prefix = prefix
        self.buckets = buckets or key_buckets(connection)
        self._keys = Keys(prefix)
        self._add_bounded = connection.register_script(_ADD_BOUNDED)
        self._unlock = connection.register_script(_UNLOCK)
        self._renew = connection.register_script(_RENEW)
        self._save_held = connection.register_script(_SAVE_HELD)

    # ---- keys ---------------------------------------------------------------------------
    def _sub(self, sub_id: str) -> str:
        return f"{self.prefix}webhook:{{{sub_id}}}"

    def _attempts(self, sub_id: str) -> str:
        return f"{self.prefix}webhook:{{{sub_id}}}:attempts"

    def _owned(self, owner: Owner) -> str:
        return f"{self.prefix}{owner.kind}:{{{owner.id}}}:webhooks"

    def owned_key(self, owner: Owner) -> str:
        """The set of the owner's subscriptions' ids."""
        return self._owned(owner)

    def _mine(self, sub_id: str) -> str:
        return f"{self.prefix}webhook:{{{sub_id}}}:games"

    def _covering(self, game_id: str) -> str:
        return self._keys.watchers(game_id)  # the append script looks at it too (events/keys.py)

    def _progress(self, game_id: str, sub_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:webhook:{sub_id}"

    def _lock(self, game_id: str, sub_id: str) -> str:
        return f"{self.prefix}game:{{{game_id}}}:webhook:{sub_id}:lock"

    def _global(self, name: str, game_id: str | None, bucket: int | None) -> str:
        return sharded(f"{self.prefix}webhooks:{name}", self.buckets, game_id, bucket)

    def games_key(self, game_id: str | None = None, bucket: int | None = None) -> str:
        return self._global("games", game_id, bucket)

    def retry_key(self, game_id: str | None = None, bucket: int | None = None) -> str:
        return self._global("retry", game_id, bucket)

    # ---- subscriptions -------------------------------------------------------------------
    @staticmethod
    def new_id() -> str:
        return "wh_" + secrets.token_urlsafe(12)

    def add(self, sub: Subscription, start_versions: dict[str, Any], limit: int) -> bool:
        """Stores a subscription unless its owner holds `limit` already; its progress in each
        game starts at start_versions[game]. False when the owner is at its limit."""
        owner = Owner.parse(sub.owner)
        if not self._add_bounded(keys=[self._owned(owner)], args=[sub.id, limit]):
            return False
        self.save(sub)
        for game_id, start in start_versions.items():
            self.cover(sub, game_id, start)
        return True

    def cover(self, sub: Subscription, game_id: str, start: int) -> bool:
        """The subscription covers the game from version `start` on (its progress is written
        only if it has none: covering twice changes nothing). True if it was new."""
        if sub.mine and not self.redis.sadd(self._mine(sub.id), game_id):
            return False
        fresh = self.redis.set(self._progress(game_id, sub.id), json.dumps(asdict(Progress(start))), nx=True)
        if sub.status == "active":
            self.redis.sadd(self._covering(game_id), sub.id)
            self.redis.zadd(self.games_key(game_id), {game_id: int(time.time() * 1000)}, nx=True)
        return bool(fresh)

    def games_of(self, sub: Subscription) -> list[Any]:
        """The games a subscription covers now."""
        if sub.mine:
            return sorted(m.decode() for m in self.redis.smembers(self._mine(sub.id)))
        return list(sub.games)

    def covers(self, sub: Subscription, game_id: str) -> bool:
        if game_id.startswith(RATING_STREAM):  # a player's re-ratings: its own "mine" subscriptions asking
            return sub.mine and sub.player == game_id[len(RATING_STREAM):] and RATING_CHANGED in sub.events
        if game_id.startswith(NEWS_STREAM):  # a player's news: its own "mine" subscriptions asking for some
            return sub.mine and sub.player == game_id[len(NEWS_STREAM):] and any(k in sub.events for k in NEWS_KINDS)
        if sub.mine:
            return bool(self.redis.sismember(self._mine(sub.id), game_id))
        return game_id in sub.games

    def covered(self, sub: Subscription, game_id: str) -> bool:
        """Whether the subscription covers the game, or covered it until the game was retired
        (finished and told all): a "mine" subscription's set loses the game then, but its
        progress is kept PROGRESS_TTL_S for a retry asked for meanwhile."""
        if self.covers(sub, game_id):
            return True
        return sub.mine and bool(self.redis.exists(self._progress(game_id, sub.id)))

    def save(self, sub: Subscription) -> None:
        self.redis.set(self._sub(sub.id), json.dumps(asdict(sub)))

    def update(self, sub: Subscription) -> None:
        """Saves a changed subscription (not one deleted meanwhile); a disabled one no longer
        covers its games, an active one covers them again."""
        if not self.redis.set(self._sub(sub.id), json.dumps(asdict(sub)), xx=True):
            return
        for game_id in self.games_of(sub):
            if sub.status == "active":
                self.redis.sadd(self._covering(game_id), sub.id)
                self.redis.zadd(self.games_key(game_id), {game_id: int(time.time() * 1000)}, nx=True)
            else:
                self.redis.srem(self._covering(game_id), sub.id)
                self.redis.zrem(self.retry_key(game_id), f"{sub.id} {game_id}")

    def get(self, sub_id: str) -> Subscription | None:
        raw = self.redis.get(self._sub(sub_id))
        return Subscription(**json.loads(raw)) if raw else None

    def owned(self, owner: Owner) -> list[Subscription]:
        ids = sorted(m.decode() for m in self.redis.smembers(self._owned(owner)))
        pipe = self.redis.pipeline(transaction=False)
        for sub_id in ids:
            pipe.get(self._sub(sub_id))
        return [Subscription(**json.loads(raw)) for raw in pipe.execute() if raw]

    def key_ended(self, sub: Subscription) -> bool:
        """Whether the player key that made the subscription was revoked or replaced (one made
        without a player key never is)."""
        return sub.key_hash is not None and not self.redis.exists(index_key(self.prefix, sub.key_hash))

    def count_owned(self, owner: Owner) -> int:
        count: int = self.redis.scard(self._owned(owner))
        return count

    def covering(self, game_id: str) -> list[str]:
        return sorted(m.decode() for m in self.redis.smembers(self._covering(game_id)))

    def subscribed(self, game_id: str) -> bool:
        """Whether some subscription covers the game (one command: the after-append check)."""
        return self.redis.zscore(self.games_key(game_id), game_id) is not None

    def subscribed_games(self) -> list[str]:
        return [g.decode() for b in range(self.buckets) for g in self.redis.zrange(self.games_key(bucket=b), 0, -1)]

    def remove(self, sub: Subscription) -> None:
        for game_id in self.games_of(sub):
            self.redis.srem(self._covering(game_id), sub.id)
            self.redis.delete(self._progress(game_id, sub.id))
            if not self.redis.scard(self._covering(game_id)):
                self.redis.zrem(self.games_key(game_id), game_id)
            self.redis.zrem(self.retry_key(game_id), f"{sub.id} {game_id}")
        self.redis.srem(self._owned(Owner.parse(sub.owner)), sub.id)
        self.redis.delete(self._sub(sub.id), self._attempts(sub.id), self._mine(sub.id))

    def drop(self, sub_id: str, game_id: str) -> None:
        """What a deleted subscription left of a game (its coverage, progress, retry)."""
        self.redis.srem(self._covering(game_id), sub_id)
        self.redis.delete(self._progress(game_id, sub_id))
        self.redis.zrem(self.retry_key(game_id), f"{sub_id} {game_id}")

    def forget_game(self, game_id: str) -> None:
        """A game no subscription needs any more leaves the set of subscribed games."""
        self.redis.zrem(self.games_key(game_id), game_id)

    def retire_game(self, game_id: str, ttl_s: int = PROGRESS_TTL_S) -> None:
        """A finished game every covering subscription has been told all of: its progress keys
        and its covering set expire after ttl_s (a retry asked for meanwhile still finds them),
        it leaves the "mine" subscriptions' sets and the set of subscribed games."""
        sub_ids = self.covering(game_id)
        pipe = self.redis.pipeline(transaction=False)
        for sub_id in sub_ids:
            pipe.expire(self._progress(game_id, sub_id), ttl_s)
            pipe.srem(self._mine(sub_id), game_id)  # a list subscription has no such set: a no-op
        pipe.expire(self._covering(game_id), ttl_s)
        pipe.zrem(self.games_key(game_id), game_id)
        pipe.execute()

    # ---- progress ------------------------------------------------------------------------
    def progress(self, game_id: str, sub_id: str) -> Progress | None:
        raw = self.redis.get(self._progress(game_id, sub_id))
        return Progress(**json.loads(raw)) if raw else None

    def progresses(self, game_id: str, sub_ids: list[Any]) -> dict[str, Any]:
        pipe = self.redis.pipeline(transaction=False)
        for sub_id in sub_ids:
            pipe.get(self._progress(game_id, sub_id))
        return {s: Progress(**json.loads(raw)) for s, raw in zip(sub_ids, pipe.execute()) if raw}

    def start(self, sub: Subscription, stream_id: str, version: int) -> None:
        """The subscription's progress in a stream that is no game (a player's re-ratings) starts
        at `version`, unless it has one already; never listed among its games."""
        self.redis.set(self._progress(stream_id, sub.id), json.dumps(asdict(Progress(version))), nx=True)

    def save_progress(self, game_id: str, sub_id: str, progress: Progress, token: str | None = None) -> bool:
        """Saves the progress; with a lease's token, only while that lease is held (and renews
        it): a holder that lost its lease (it stalled past LEASE_MS, Redis restarted under it)
        cannot overwrite its successor's progress. False when refused."""
        value = json.dumps(asdict(progress))
        if token is None:
            self.redis.set(self._progress(game_id, sub_id), value)
            return True
        return bool(self._save_held(keys=[self._lock(game_id, sub_id), self._progress(game_id, sub_id)],
                                    args=[token, value, LEASE_MS]))

    def lock(self, game_id: str, sub_id: str) -> str | None:
        token = secrets.token_hex(8)
        return token if self.redis.set(self._lock(game_id, sub_id), token, nx=True, px=LEASE_MS) else None

    def renew(self, held: list[tuple[str, str, str]]) -> list[bool]:
        """Renews leases, (game, subscription, token) each: whether each is still held. (A
        script each: a cluster's pipelines do not take scripts; a worker holds a few hundred.)"""
        return [bool(self._renew(keys=[self._lock(game_id, sub_id)], args=[token, LEASE_MS]))
                for game_id, sub_id, token in held]

    def unlock(self, game_id: str, sub_id: str, token: str) -> None:
        self._unlock(keys=[self._lock(game_id, sub_id)], args=[token])

    def locked(self, game_id: str, sub_id: str) -> bool:
        return bool(self.redis.exists(self._lock(game_id, sub_id)))

    # ---- retries -------------------------------------------------------------------------
    def retry_at(self, sub_id: str, game_id: str, at_ms: int) -> None:
        self.redis.zadd(self.retry_key(game_id), {f"{sub_id} {game_id}": at_ms})

    def due_retries(self, now_ms: int, limit: int = 500) -> list[tuple[str, str]]:
        """The attempts due by now_ms, the longest due first (up to `limit`, over every bucket)."""
        found = []
        for b in range(self.buckets):
            found += self.redis.zrangebyscore(self.retry_key(bucket=b), "-inf", now_ms, start=0, num=limit,
                                              withscores=True)
        found.sort(key=lambda item: item[1])
        return [tuple(m.decode().split(" ", 1)) for m, _ in found[:limit]]

    def retries_waiting(self) -> int:
        return sum(self.redis.zcard(self.retry_key(bucket=b)) for b in range(self.buckets))

    def retry_taken(self, sub_id: str, game_id: str) -> None:
        self.redis.zrem(self.retry_key(game_id), f"{sub_id} {game_id}")

    # ---- attempts ------------------------------------------------------------------------
    def record_attempts(self, sub_id: str, attempts: list[Any]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(self._attempts(sub_id), *(json.dumps(a) for a in attempts))
        pipe.ltrim(self._attempts(sub_id), 0, ATTEMPTS_KEPT - 1)
        pipe.execute()

    def attempts(self, sub_id: str, limit: int = 100) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in self.redis.lrange(self._attempts(sub_id), 0, limit - 1)]
