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

from api.query.worker import based, execute, open_read_only, reopen
from graph.errors import StoreError

log = logging.getLogger(__name__)

#: Queries remembered as cheap, per server process.
CHEAP_QUERIES = 4096


class Direct:
    """A cheap query reduced to the engine's own two calls, for `api.hot_path`: where
    pyoxigraph writes the whole answer (`execute`: an ASK, or a SELECT whose rows are known to
    be under the cap) on the default dataset, the bytes are `engine.query(text)` serialized,
    with nothing in Python between. It holds for the generation it was made for."""

    __slots__ = ("engine", "text", "format", "rows", "booleans")

    def __init__(self, engine: Any, text: str, format: Any, rows: int, ask: bool):
        self.engine, self.text, self.format, self.rows = engine, text, format, rows
        # An ASK has two answers in a format: each written once, when first given.
        self.booleans: dict[bool, bytes] | None = {} if ask else None

    def run(self) -> bytes:
        result = self.engine.query(self.text)
        if self.booleans is None:
            return bytes(result.serialize(format=self.format))
        value = bool(result)
        body = self.booleans.get(value)
        if body is None:
            body = self.booleans[value] = bytes(result.serialize(format=self.format))
        return body


class CheapQueries:
    """The queries known to be cheap (by key: fingerprint, text, generation, formats and base
    IRI) and the store, opened read-only in this process, that runs them."""

    def __init__(self, location: str, opener: str, cheap_ms: float):
        self.location = location
        self.opener = opener
        self.cheap_ms = cheap_ms
        # key -> the rows of its last run (-1: not counted), for api.query.worker.execute; read
        # directly (`key in known`) on the answer's hot path
        self.known: OrderedDict[tuple[Any, ...], int] = OrderedDict()
        self._here: Any = None  # the store, opened in this process for cheap queries
        self._here_generation: str | None = None
        self._lock = threading.Lock()

    def __contains__(self, key: tuple[Any, ...]) -> bool:
        return key in self.known

    def remember(self, key: tuple[Any, ...], elapsed_ms: float, rows: int = -1) -> None:
        """A worker ran the query `key` in `elapsed_ms`, giving `rows` rows (-1: not counted);
        remembered when within `cheap_ms`."""
        if elapsed_ms > self.cheap_ms:
            return
        with self._lock:
            self.known[key] = rows
            self.known.move_to_end(key)
            while len(self.known) > CHEAP_QUERIES:
                self.known.popitem(last=False)

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
            rows = self.known.get(key, -1)
            # The count holds for the same data (the key's generation, which the store opened
            # here must be) and a query that gives the same rows each run (no RAND() …).
            same = getattr(store, "opened", None) == job["generation"]
            known = rows if rows >= 0 and same and not job.get("varying", True) else None
            start = time.perf_counter()
            payload = execute(store, job, known)
        except Exception:  # any trouble: the worker path decides and reports it
            log.exception("a cheap query failed in the server process; sent to a worker")
            self.forget(key)
            return None
        elapsed_ms = (time.perf_counter() - start) * 1000
        if elapsed_ms > 4 * self.cheap_ms:
            self.forget(key)
        return payload

    def direct(self, job: dict[str, Any], key: tuple[Any, ...], form: str | None
               ) -> Direct | None:
        """`job` as a `Direct` on the store opened here, when it qualifies (see `Direct`) and
        that store reads the job's generation; else None."""
        import pyoxigraph

        here = self._here
        try:  # read before `opened`: a store reopened meanwhile then reads as another generation
            engine = getattr(here, "engine", None)
        except StoreError:  # closed, or being reopened
            return None
        if not isinstance(engine, pyoxigraph.Store) or key not in self.known \
                or self._here_generation != job["generation"] \
                or getattr(here, "opened", None) != job["generation"] \
                or job["default_graph"] is not None or job["named_graphs"] is not None:
            return None
        if form == "ASK":
            rows = 1
        elif form != "SELECT":
            return None
        elif job["limit"] is not None and job["limit"] <= job["row_cap"]:
            rows = -1  # the query's own LIMIT keeps it under the cap: not counted
        else:
            rows = self.known.get(key, -1)
            if not 0 <= rows <= job["row_cap"] or job.get("varying", True):
                return None
        fmt = getattr(pyoxigraph.QueryResultsFormat, job["results_format"])
        return Direct(engine, based(job["sparql"], job.get("base_iri")), fmt, rows,
                      form == "ASK")

    def forget(self, key: tuple[Any, ...]) -> None:
        with self._lock:
            self.known.pop(key, None)

    def close(self) -> None:
        with self._lock:
            here, self._here = self._here, None
            self.known.clear()
        close = getattr(here, "close", None)
        if callable(close):
            close()
