"""Cheap queries run in the server process: a query whose text, dataset, result format and
store generation ran in a query worker within `cheap_ms` does the same work on the same data
again, so it can skip the hand-off to a worker (two process switches, most of a cheap query's
time)."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from api.query.worker import execute, open_read_only, reopen

log = logging.getLogger(__name__)

#: Queries remembered as cheap, per server process.
CHEAP_QUERIES = 4096


class CheapQueries:
    """The queries known to be cheap (by key: fingerprint, text, generation, formats and base
    IRI) and the store, opened read-only in this process, that runs them."""

    def __init__(self, location: str, opener: str, cheap_ms: float):
        self.location = location
        self.opener = opener
        self.cheap_ms = cheap_ms
        # key -> the rows of its last run (-1: not counted), for api.query.worker.execute
        self._known: OrderedDict[tuple[Any, ...], int] = OrderedDict()
        self._here: Any = None  # the store, opened in this process for cheap queries
        self._here_generation: str | None = None
        self._lock = threading.Lock()

    def __contains__(self, key: tuple[Any, ...]) -> bool:
        return key in self._known

    def remember(self, key: tuple[Any, ...], elapsed_ms: float, rows: int = -1) -> None:
        """A worker ran the query `key` in `elapsed_ms`, giving `rows` rows (-1: not counted);
        remembered when within `cheap_ms`."""
        if elapsed_ms > self.cheap_ms:
            return
        with self._lock:
            self._known[key] = rows
            self._known.move_to_end(key)
            while len(self._known) > CHEAP_QUERIES:
                self._known.popitem(last=False)

    def run(self, job: dict[str, Any], key: tuple[Any, ...]) -> tuple[bytes, str, int, bool] | None:
        """The payload of `job` run here, or None when it cannot run here (then it goes to a
        worker as usual). A run that takes far longer than it did (a loaded machine) forgets
        the query."""
        try:
            store = self._here
            if store is None or self._here_generation != job["generation"]:
                with self._lock:
                    if self._here is None:
                        self._here = open_read_only(self.location, self.opener)
                    elif self._here_generation != job["generation"]:
                        self._here = reopen(self._here, self.location, self.opener)
                    self._here_generation = job["generation"]
                    store = self._here
            rows = self._known.get(key, -1)
            # The count holds for the same data (the key's generation, which the store opened
            # here must be) and a query that gives the same rows each run (no RAND() …).
            same = getattr(store, "opened", None) == job["generation"]
            known = rows if rows >= 0 and same and not job.get("varying", True) else None
            start = time.perf_counter()
            payload = execute(store, job, known)
        except Exception:  # any trouble: the worker path decides and reports it
            log.exception("a cheap query failed in the server process; sent to a worker")
            with self._lock:
                self._known.pop(key, None)
            return None
        elapsed_ms = (time.perf_counter() - start) * 1000
        if elapsed_ms > 4 * self.cheap_ms:
            with self._lock:
                self._known.pop(key, None)
        return payload

    def close(self) -> None:
        with self._lock:
            here, self._here = self._here, None
            self._known.clear()
        close = getattr(here, "close", None)
        if callable(close):
            close()
