"""Work that may follow an answer instead of delaying it.

After a move's durable append, what is left (enqueueing the next bot or system turn, marking
a finished game, saving a snapshot) are writes the reconciler repairs if they are lost, so the
API process does them on one background thread (a greenlet under gunicorn's gevent workers)
once the answer is on its way. Under `appendfsync always` each of them waits for the disk: on
the request path they made the last move of every game (the scoring job's enqueue) the slowest
one in a hundred. Tasks run in the order given, so one game's steps stay in order.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


def immediately(task: Callable[..., object], *args: Any) -> None:
    """The default: run the task now (workers, whose next step may depend on it)."""
    task(*args)


class Deferred:
    def __init__(self) -> None:
        self._tasks: queue.SimpleQueue[tuple[Callable[..., object], tuple[Any, ...]]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def __call__(self, task: Callable[..., object], *args: Any) -> None:
        if self._thread is None:
            self._start()  # lazily: in the process that serves (gunicorn forks after import)
        self._tasks.put((task, args))

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="after-append", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            task, args = self._tasks.get()
            try:
                task(*args)
            except Exception:
                log.warning("deferred step %s failed; the reconciler will repair it", task.__name__, exc_info=True)

    def drain(self, timeout_s: float = 5.0) -> bool:
        """Waits until every task given so far has run (tests, shutdown); True if they did."""
        done = threading.Event()
        self(done.set)
        return done.wait(timeout_s)
