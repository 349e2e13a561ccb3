"""Many live streams from one asyncio loop, on raw sockets: a watcher costs a few kilobytes and
no thread, so one process can hold thousands (the benchmark's and the robustness test's).

HTTP/1.0 requests: the server sends the stream unchunked and closes it at its end. A watcher
reconnects (with `Last-Event-ID`) when asked to, or when the server closes a stream that has
not ended, as an EventSource does.
"""
from __future__ import annotations

import asyncio
import json
import re
import resource
import time
from typing import Optional

_AT = re.compile(rb'"at":(\d+)')


def raise_open_files_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Watcher:
    """One stream: what it received, in order, and when."""

    def __init__(self, host: str, port: int, path: str, headers: Optional[dict] = None, keep_data: bool = True):
        self.host, self.port, self.path = host, port, path
        self.headers = dict(headers or {})
        self.keep_data = keep_data
        self.events: list[tuple] = []  # (kind, id, data or None, arrival ms, at ms or None)
        self.statuses: list[int] = []
        self.last_id: Optional[int] = None
        self.connected = asyncio.Event()
        self.ended = False
        self.connections = 0
        self._writer = None

    async def run(self, stop: asyncio.Event, reconnect_delay: float = 0.05) -> None:
        while not stop.is_set() and not self.ended:
            try:
                await self._once(stop)
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                pass
            if self.statuses and self.statuses[-1] != 200:
                return  # refused (or 204 after the end): an EventSource stops
            if not stop.is_set() and not self.ended:
                await asyncio.sleep(reconnect_delay)

    async def _once(self, stop: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=2 ** 20)
        self._writer = writer
        self.connections += 1
        headers = {"Host": self.host, "Accept": "text/event-stream", **self.headers}
        if self.last_id is not None:
            headers["Last-Event-ID"] = str(self.last_id)
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        writer.write(f"GET {self.path} HTTP/1.0\r\n{head}\r\n".encode())
        try:
            status_line = await reader.readuntil(b"\r\n")
            self.statuses.append(int(status_line.split()[1]))
            await reader.readuntil(b"\r\n\r\n")
            if self.statuses[-1] != 200:
                return
            self.connected.set()
            while not stop.is_set():
                frame = await reader.readuntil(b"\n\n")
                self._frame(frame)
                if self.ended:
                    return
        finally:
            writer.close()
            self._writer = None

    def _frame(self, frame: bytes) -> None:
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
        self.events.append((kind, id_, json.loads(data) if self.keep_data else None, now, at))
        if id_ is not None:
            self.last_id = id_
        if kind == "end":
            self.ended = True

    def drop(self) -> None:
        """Cuts the connection (a client that loses its network); run() reconnects."""
        if self._writer is not None:
            self._writer.transport.abort()

    def ids(self, kind: str = "game_event") -> list[int]:
        return [e[1] for e in self.events if e[0] == kind]
