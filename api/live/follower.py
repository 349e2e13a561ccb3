"""The hub's one Redis reader: a single `XREAD BLOCK` over the event streams of the games and
the inboxes of the players that this process's live streams follow.

Its connection is its own (a blocked XREAD holds it), made from the live pool's settings with:

- a socket timeout longer than the block (BLOCK + `READ_MARGIN_S`): a timeout shorter than the
  block would end every quiet read with a spurious TimeoutError (and a reconnect); no timeout
  at all would leave the reader blocked for ever on a connection whose peer vanished without
  a reset (a host gone, a partition), where a timed-out read is a failed one and retried;
- no silent retry: a reconnected connection has a new client id, which interrupt() needs to
  end a blocked read (CLIENT UNBLOCK, sent on the store's pooled connections).

A read that fails (Redis restarting, a timeout) raises StoreUnavailable; the hub waits a
second and reads again from the positions it holds, on a new connection: nothing is missed, as
every position is the last entry a subscriber was given (api/live/reader.py, `_run`).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

import redis

from events import connection
from events.redis_store import RedisEventStore, decode_entry
from events.store import Follower, StoredEvent, StoreUnavailable

READ_MARGIN_S = 10.0  # the socket timeout's margin over the read's BLOCK time


class LiveFollower:
    """XREAD over games' streams (positions: versions) and inboxes (positions: entry ids)."""

    def __init__(self, store: RedisEventStore, inbox_key: Callable[[str], str],
                 decode_inbox: Callable[[dict[bytes, bytes]], dict[str, Any]],
                 block_ms: int, margin_s: float = READ_MARGIN_S):
        self.store = store
        self.inbox_key = inbox_key
        self.decode_inbox = decode_inbox
        # (the hub makes this reader on one Redis only; a cluster's is Polled, below)
        client = cast(redis.Redis, store.redis)
        connect_timeout = client.connection_pool.connection_kwargs.get("socket_connect_timeout") or 5
        self.redis = connection.dedicated(client, "reader", "live", socket_timeout=block_ms / 1000 + margin_s,
                                          socket_connect_timeout=connect_timeout)
        self._client_id: int | None = None
        self._blocked = False
        self._held: Any = None  # its connection, out of the pool while it works
        # a followed stream's key as the command sends it, by game id or ("inbox", player)
        self._packed: dict[str | tuple[str, str], bytes] = {}
        self._owner: dict[bytes, str | tuple[str, str]] = {}  # and whose a key is (a game, or ("inbox", player))

    def read(self, games: dict[str, int], inboxes: dict[str, str], block_ms: int, count: int = 100
             ) -> tuple[dict[str, list[StoredEvent]], dict[str, list[tuple[str, dict[str, Any]]]]]:
        """The games' events after their versions and the inboxes' entries after their ids,
        waiting up to block_ms for the first one."""
        if not games and not inboxes:
            return {}, {}
        # The command is packed here (each key's bytes made once, while it is followed): redis-py's
        # packing and reply parsing of an XREAD naming 100 games cost the web process more than
        # the deliveries it brought (bench/README.md, issue 30).
        parts = [b"", b"$5\r\nXREAD\r\n$5\r\nCOUNT\r\n", _bulk(b"%d" % count), b"$5\r\nBLOCK\r\n",
                 _bulk(b"%d" % block_ms), b"$7\r\nSTREAMS\r\n"]
        ids = []
        if len(self._packed) > 2 * (len(games) + len(inboxes)) + 1000:
            self._packed, self._owner = {}, {}  # keys no longer followed
        packed = self._packed
        for game_id, after in games.items():
            key = packed.get(game_id)
            if key is None:
                key = self._pack(game_id, self.store.keys.events(game_id))
            parts.append(key)
            ids.append(_bulk(b"0-%d" % after))
        for player_id, after_id in inboxes.items():
            key = packed.get(("inbox", player_id))
            if key is None:
                key = self._pack(("inbox", player_id), self.inbox_key(player_id))
            parts.append(key)
            ids.append(_bulk(after_id.encode()))
        parts.extend(ids)
        parts[0] = b"*%d\r\n" % (6 + 2 * len(ids))
        try:
            connection = self._connection()
            self._blocked = True
            connection.send_packed_command([b"".join(parts)], check_health=False)
            reply = connection.read_response()
        except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError) as e:
            self._drop()  # a new connection has a new id
            raise StoreUnavailable(str(e)) from e
        except BaseException:
            self._drop()  # (a reply half read would be the next read's)
            raise
        finally:
            self._blocked = False
        if isinstance(reply, redis.ResponseError):
            raise reply
        found_games: dict[str, list[StoredEvent]] = {}
        found_inboxes: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        owner = self._owner
        # RESP2: [[key, entries], ...]; RESP3: {key: entries}
        for stream, entries in (reply.items() if isinstance(reply, dict) else reply or ()):
            name = owner.get(stream)
            if isinstance(name, str):
                found_games[name] = [decode_entry(i, _fields(f)) for i, f in entries]
            elif name is not None:
                found_inboxes[name[1]] = [(i.decode(), self.decode_inbox(_fields(f))) for i, f in entries]
        return found_games, found_inboxes

    def _pack(self, name: str | tuple[str, str], key: str) -> bytes:
        raw = key.encode()
        self._owner[raw] = name
        packed = self._packed[name] = _bulk(raw)
        return packed

    def _connection(self) -> Any:
        """The reader's one connection, held for as long as it works (its client id asked once)."""
        if self._held is None:
            pool = self.redis.connection_pool
            connection: Any = pool.get_connection()
            try:
                connection.send_command("CLIENT", "ID")
                self._client_id = int(connection.read_response())
            except BaseException:
                connection.disconnect()
                pool.release(connection)
                raise
            self._held = connection
        return self._held

    def _drop(self) -> None:
        self._client_id = None
        held, self._held = self._held, None
        if held is not None:
            held.disconnect()
            self.redis.connection_pool.release(held)
        self.redis.connection_pool.disconnect()

    def interrupt(self) -> bool:
        """Ends a blocked read (the hub has a new stream to add to it); False if none was."""
        if not self._blocked or self._client_id is None:
            return False
        try:
            return bool(self.store.redis.client_unblock(self._client_id))
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e

    def close(self) -> None:
        self._drop()


def _bulk(value: bytes) -> bytes:
    return b"$%d\r\n%s\r\n" % (len(value), value)


def _fields(flat: list[Any]) -> dict[bytes, bytes]:
    """A stream entry's fields as Redis sends them (a flat list) as a dict."""
    return {flat[0]: flat[1]} if len(flat) == 2 else dict(zip(flat[::2], flat[1::2], strict=False))


class Polled:
    """For a store without one blocking read over all its keys (the in-memory store; a Redis
    Cluster, whose streams live on several nodes): the games through the store's own follower,
    and the inboxes, if any are followed, read every POLL_MS with one single-key read each (per
    process and player, not per connection)."""

    POLL_MS = 100

    def __init__(self, follower: Follower, inboxes: Any = None) -> None:
        self.follower = follower
        self.inboxes = inboxes  # api.players.Players, or None: no inboxes

    def read(self, games: dict[str, int], inboxes: dict[str, str], block_ms: int, count: int = 100
             ) -> tuple[dict[str, list[StoredEvent]], dict[str, list[tuple[str, dict[str, Any]]]]]:
        if inboxes and self.inboxes is not None:
            block_ms = min(block_ms, self.POLL_MS)
            if not games:
                time.sleep(block_ms / 1000)
        found = self.follower.read(games, block_ms, count) if games else {}
        entries = {}
        if inboxes and self.inboxes is not None:
            for player_id, after in inboxes.items():
                new = self.inboxes.inbox_after(player_id, after, count)
                if new:
                    entries[player_id] = new
        return found, entries

    def interrupt(self) -> bool:
        return self.follower.interrupt()

    def close(self) -> None:
        self.follower.close()
