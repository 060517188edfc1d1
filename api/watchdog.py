"""End a server worker whose app is stuck in one request, so that the server replaces it.

Queries run in query worker processes with their own time limit, so a slow query never holds
an app thread past that limit; a request that still runs far beyond it is a hang in the app
itself (a lock never released, a remote store that accepts and never answers). granian, unlike
a server written in Python, has no per-request timeout of its own and would keep such a worker
with one thread fewer for ever: this wrapper notices and exits the process, and the server's
`respawn_failed_workers` starts a fresh one. Only the app's call is timed, not the sending of
a streamed body: a slow client reading a large export is not a hang.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from api.hot_path import WSGIApp
from api.worker_stop import end_worker

log = logging.getLogger(__name__)

#: The exit status of a worker ended by the watchdog (EX_SOFTWARE).
EXIT_STATUS = 70


def _exit_worker() -> None:
    # From the watchdog thread: the stuck thread cannot be interrupted, and a clean
    # interpreter shutdown would wait for it.
    end_worker(EXIT_STATUS)


class Watchdog:
    """`app`, timed: when one call has run `limit` seconds, log it and call `on_stuck`
    (by default, end this process at once).

    The watch thread starts with the first request, in the worker process that serves it
    (a thread started before the server forks would not be in the workers).
    """

    def __init__(self, app: WSGIApp, limit: float, *,
                 on_stuck: Callable[[], None] = _exit_worker,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if limit <= 0:
            raise ValueError(f"the watchdog's limit must be positive, not {limit}")
        self.app, self.limit, self.on_stuck, self.clock = app, limit, on_stuck, clock
        # One entry for each request in the app: thread id -> (start, method, path).
        self.running: dict[int, tuple[float, str, str]] = {}
        self.interval = min(1.0, limit / 4)
        self._watcher: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        if self._watcher is None:
            self._start()
        ident = threading.get_ident()
        self.running[ident] = (self.clock(), environ.get("REQUEST_METHOD", ""),
                               environ.get("PATH_INFO", ""))
        try:
            return self.app(environ, start_response)
        finally:
            self.running.pop(ident, None)

    def _start(self) -> None:
        with self._start_lock:
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, daemon=True,
                                                 name="paperkg-watchdog")
                self._watcher.start()

    def stuck(self) -> list[tuple[float, str, str]]:
        """The calls running `limit` seconds or longer: (seconds, method, path)."""
        now = self.clock()
        return [(now - start, method, path)
                for start, method, path in list(self.running.values())
                if now - start >= self.limit]

    def check(self) -> bool:
        """Log and act on stuck calls; whether there were any."""
        found = self.stuck()
        for seconds, method, path in found:
            log.error("worker %d: %s %s has run %.1f s (limit %.0f s); ending the worker "
                      "so the server starts a fresh one", os.getpid(), method, path, seconds,
                      self.limit)
        if found:
            self.on_stuck()
        return bool(found)

    def _watch(self) -> None:
        while True:
            time.sleep(self.interval)
            self.check()
