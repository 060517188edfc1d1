"""How a server worker ends: at once while it has served nothing, gracefully after.

A stop signal (SIGTERM, SIGINT) sent to a worker process may be delivered to any of its
threads. Python runs the signal's handler in the main thread only, and granian's worker parks
its main thread in a lock wait while its Rust threads serve: when the kernel picked one of
those threads, the main thread was never woken, the handler never ran, and the worker served
on until the server killed it `workers_kill_timeout` later (30 s or more; 3 of 112 runs of
tests/api/test_serve.py on 2 cores). Here a thread of our own reads the signal numbers that
Python's C handler writes to a wakeup pipe, whichever thread caught the signal, and acts on
them.

A worker that has not yet let a request into the app has nothing to finish, so until then a
stop ends it at once; from the first request on, granian's own handler stops it gracefully,
in-flight requests first. Either way the stop is acted on once.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable
from typing import Any

from api.hot_path import WSGIApp

#: The signals that stop a worker (granian's own list).
STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})


def end_worker(status: int = 0) -> None:
    """End this worker process at once, its query worker processes first (an orphan would
    run on with no time limit over it)."""
    for child in multiprocessing.active_children():
        child.kill()
    logging.shutdown()
    os._exit(status)


class FirstRequest:
    """`app`, remembering whether any request has reached it in this process."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app
        self.seen = False

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        self.seen = True
        return self.app(environ, start_response)


class Stopper:
    """The one action a worker takes on its first stop signal, from whichever thread sees
    it first: end at once while `marker` has seen no request (or before granian's handler
    exists), else hand the signal to granian's handler, which stops the server gracefully
    (called twice, that handler would block: its signal holds one unread stop)."""

    def __init__(self, marker: FirstRequest, end: Callable[[int], None] = end_worker) -> None:
        self.marker, self.end = marker, end
        self.granian_handler: Callable[..., Any] | None = None
        self._calls = itertools.count()  # next() is atomic under the GIL; a lock is not re-entrant

    def __call__(self, signum: int, frame: Any = None) -> None:
        if next(self._calls):
            return
        if not self.marker.seen or self.granian_handler is None:
            self.end(0)
            return
        self.granian_handler(signum, frame)

    def install(self, set_main_signals: Callable[..., Any]) -> Callable[..., Any]:
        """`set_main_signals` (granian's), installing this stopper in place of the handler
        it is given, which this stopper calls."""
        def guarded(interrupt_handler: Callable[..., Any],
                    reload_handler: Callable[..., Any] | None = None) -> None:
            self.granian_handler = interrupt_handler
            set_main_signals(self, reload_handler)
        return guarded

    def watch(self) -> None:
        """Act on stop signals caught by any thread (call from the main thread)."""
        read, write = os.pipe()
        os.set_blocking(write, False)
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        threading.Thread(target=self._read, args=(read,), daemon=True,
                         name="paperkg-stop").start()

    def _read(self, fd: int) -> None:
        while True:
            for signum in os.read(fd, 64):
                if signum in STOP_SIGNALS:
                    self(signum)


def stop_at_once_until_served(marker: FirstRequest) -> Stopper:
    """In a server worker, before granian installs its signal handlers: route every stop
    through one `Stopper` (see the module's text)."""
    import granian._signals as signals

    stopper = Stopper(marker)
    signals.set_main_signals = stopper.install(signals.set_main_signals)
    stopper.watch()
    return stopper
