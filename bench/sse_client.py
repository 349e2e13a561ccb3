"""Many live streams from one asyncio loop, on raw sockets (asyncio protocols): a watcher costs a
few kilobytes and no thread, so one process can hold thousands (the benchmark's and the
robustness test's).

HTTP/1.0 requests: the server sends the stream unchunked and closes it at its end. A watcher
reconnects (with `Last-Event-ID`) when the connection is cut or the server closes a stream that
has not ended, as an EventSource does, and stops on any answer but 200.

`keep_data=False` (the benchmark's thousands): frames are not parsed one by one; each chunk
received is only searched for the events' `"at":` (when the server appended them), for the
fan-out delay, and for the last `id:`.
"""
from __future__ import annotations

import asyncio
import json
import re
import resource
import time

_AT = re.compile(rb'"at":(\d+)')
_ID = re.compile(rb"(?:^|\n)id: (\d+)\n")
_GAME_EVENT = b"event: game_event\n"
_END = b"event: end\n"


def raise_open_files_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class _Connection(asyncio.Protocol):
    def __init__(self, watcher: Watcher):
        self.watcher = watcher
        self.done = asyncio.get_running_loop().create_future()
        self.head = b""
        self.buffer = b""
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        w = self.watcher
        if self.head is not None:  # the status line and headers first
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            status = int(self.head.split(b" ", 2)[1])
            w.statuses.append(status)
            data, self.head = self.head[end + 4:], None
            if status != 200:
                self.transport.close()
                return
            w.connected.set()
        if w.keep_data:
            self.buffer += data
            while True:
                end = self.buffer.find(b"\n\n")
                if end < 0:
                    break
                w.frame(self.buffer[:end])
                self.buffer = self.buffer[end + 2:]
        else:
            w.chunk(data)
        if w.ended:
            self.transport.close()

    def connection_lost(self, exc) -> None:
        if not self.done.done():
            self.done.set_result(None)


class Watcher:
    """One stream: what it received, in order, and when."""

    def __init__(self, host: str, port: int, path: str, headers: dict | None = None, keep_data: bool = True):
        self.host, self.port, self.path = host, port, path
        self.headers = dict(headers or {})
        self.keep_data = keep_data
        self.events: list[tuple] = []  # (kind, id, data, arrival ms, at ms); keep_data only
        self.delays: list[tuple] = []  # (arrival ms, arrival - at) of each game event; not keep_data
        self.statuses: list[int] = []
        self.last_id: int | None = None
        self.connected = asyncio.Event()
        self.ended = False
        self.running = False
        self.connections = 0
        self._connection: _Connection | None = None

    async def run(self, stop: asyncio.Event, reconnect_delay: float = 0.05) -> None:
        self.running = True
        try:
            while not stop.is_set() and not self.ended:
                try:
                    await self._once()
                except OSError:
                    pass
                if self.statuses and self.statuses[-1] != 200:
                    return  # refused (or 204 after the end): an EventSource stops
                if not stop.is_set() and not self.ended:
                    await asyncio.sleep(reconnect_delay)
        finally:
            self.running = False

    async def _once(self) -> None:
        loop = asyncio.get_running_loop()
        _, connection = await loop.create_connection(lambda: _Connection(self), self.host, self.port)
        self._connection = connection
        self.connections += 1
        headers = {"Host": self.host, "Accept": "text/event-stream", **self.headers}
        if self.last_id is not None:
            headers["Last-Event-ID"] = str(self.last_id)
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        connection.transport.write(f"GET {self.path} HTTP/1.0\r\n{head}\r\n".encode())
        try:
            await connection.done
        finally:
            self._connection = None

    def frame(self, frame: bytes) -> None:
        kind = id_ = data = None
        for line in frame.split(b"\n"):
            if line.startswith(b"event: "):
                kind = line[7:].decode()
            elif line.startswith(b"id: "):
                id_ = int(line[4:])
            elif line.startswith(b"data: "):
                data = line[6:]
        if kind is None:
            return  # a comment or `retry:`
        now = time.time() * 1000
        at = None
        if kind == "game_event":
            found = _AT.search(data)
            at = int(found.group(1)) if found else None
        self.events.append((kind, id_, json.loads(data), now, at))
        if id_ is not None:
            self.last_id = id_
        if kind == "end":
            self.ended = True

    def chunk(self, data: bytes) -> None:
        """keep_data=False: the delays of the game events in a chunk, the last id, the end."""
        if _GAME_EVENT in data:
            now = time.time() * 1000
            self.delays += [(now, now - int(at)) for at in _AT.findall(data)]
        ids = _ID.findall(data)
        if ids:
            self.last_id = int(ids[-1])
        if _END in data:
            self.ended = True

    @property
    def open(self) -> bool:
        return self._connection is not None and self.statuses[-1:] == [200]

    def drop(self) -> None:
        """Cuts the connection (a client that loses its network); run() reconnects."""
        if self._connection is not None and self._connection.transport is not None:
            self._connection.transport.abort()

    def ids(self, kind: str = "game_event") -> list[int]:
        return [e[1] for e in self.events if e[0] == kind]
