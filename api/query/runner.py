"""The safe SPARQL query runner behind the public endpoint.

Two guarantees:

* A query is checked before it runs (`api.query.check`): updates are refused
  (`UpdateRefused`), and so is anything that would make the store reach the network
  (`SERVICE`) or name graphs it does not hold (`FROM`/`FROM NAMED` with other IRIs)
  (`QueryRefused`).
* The time limit really stops the work: queries run in a small pool of worker processes, each
  holding the store open read-only, and a worker that runs past the limit is killed and
  replaced (`QueryTimeout`). Results are serialized by pyoxigraph in the worker and come back
  as bytes, cut at the row cap.

Workers go to waiting queries first come, first served, with two rules that keep a flood of
slow queries from starving everyone else. The slow-query budget, the same in every process of
a server: a client whose query ran to the time limit in the last `SLOW_CLIENT_MEMORY_S`
seconds, or has a query running for more than a quarter of the time limit now, may have one
query running in the whole server; and a query a copy of which ran to the time limit in those
seconds (same text up to white space, same dataset: `query_key`) is not run again until they
have passed, whoever sends it, so a flood of one expensive query from fresh addresses is
held back once the first copy has been stopped. (Only being stopped marks a query: one merely
running long may be a cheap one slowed by a busy machine.) Both give `QueryBusy(own=True)`
with the seconds to wait. Capacity, in each process: a slow client's query never waits for a
worker and never takes the last free one (when there are two or more). The facts come from an
`api.query.clients.ClientTable`: given one shared by the processes of a server, a client or
query found slow by any of them is slow for all.

Where the operating system allows it, workers of an embedded store also drop their network
access (a fresh network namespace), so even a query that slipped past the check could not
connect anywhere.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import math
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from api.query.check import QuerySyntaxError, check_query, outer_limit
from api.query.clients import ClientTable
from api.query.worker import base_shift, execute, open_read_only, reopen, worker_main
from graph.errors import QueryError, StoreError
from graph.sparqltext import QUERY_FORMS, explain

log = logging.getLogger(__name__)

#: How long a client whose query ran to the time limit counts as sending slow queries, and
#: that query (by `query_key`) as slow.
SLOW_CLIENT_MEMORY_S = 60.0
#: Queries remembered as cheap (see `QueryRunner._run_here`), per server process.
CHEAP_QUERIES = 4096
# A start time this far ahead marks a query whose worker is still starting up.
_NOT_STARTED = 1e9

# Media types the runner can produce, by query form.
RESULTS_MEDIA_TYPES: dict[str, str] = {
    "application/sparql-results+json": "JSON",
    "application/sparql-results+xml": "XML",
    "text/csv": "CSV",
    "text/tab-separated-values": "TSV",
}
GRAPH_MEDIA_TYPES: dict[str, str] = {
    "text/turtle": "TURTLE",
    "application/n-triples": "N_TRIPLES",
    "application/ld+json": "JSON_LD",
    "application/rdf+xml": "RDF_XML",
}

class QueryTimeout(QueryError):
    """A query stopped at the time limit."""

    def __init__(self, time_limit_ms: int):
        super().__init__(f"query exceeded the time limit of {time_limit_ms} ms")
        self.time_limit_ms = time_limit_ms


class QueryBusy(QueryError):
    """No query worker for this query: all stayed busy for the whole time limit, or the asking
    client may not take the one that is free (see `QueryRunner.run`).

    `own` is True when the asking client's own queries are the cause: it holds a worker, one
    of its queries ran to the time limit a short while ago (or has run a quarter of it now),
    or a copy of this query did. `retry_after` is the seconds after which the cause is
    surely gone, when known.
    """

    def __init__(self, message: str, *, own: bool = False, retry_after: int | None = None):
        super().__init__(message)
        self.own = own
        self.retry_after = retry_after


@dataclass(frozen=True)
class QueryResult:
    body: bytes
    media_type: str
    form: str  # SELECT, ASK, CONSTRUCT or DESCRIBE
    rows: int  # solutions or triples sent (1 for ASK; -1 when not counted)
    truncated: bool


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    ready: bool = False
    started: float = field(default_factory=time.monotonic)


def query_key(sparql: str, default_graph: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None) -> str:
    """The fingerprint of a query's work: its text with white space runs made one space, and
    its dataset. Copies sent by different clients share it."""
    work = json.dumps([" ".join(sparql.split()), sorted(default_graph or ()),
                       sorted(named_graphs or ())], ensure_ascii=False)
    return "query:" + hashlib.sha256(work.encode("utf-8", "surrogatepass")).hexdigest()


def is_remote(location: str) -> bool:
    return location.startswith(("http://", "https://"))


class QueryRunner:
    """Runs checked SPARQL queries in worker processes, with a time limit and a row cap.

    `clients` holds which clients and queries are slow (see `_slow_now`); a table shared with
    the other processes of a server makes that known to all of them. Without one the runner
    keeps its own.
    """

    startup_timeout_s = 60.0

    def __init__(self, location: str, *, workers: int = 2, time_limit_ms: int = 10_000,
                 row_cap: int = 10_000, opener: str = "graph.store:open_store",
                 isolate_network: bool | None = None, clients: ClientTable | None = None,
                 cheap_ms: float = 0.0):
        self.location = location
        self.workers = workers
        self.time_limit_ms = time_limit_ms
        self.row_cap = row_cap
        self.opener = opener
        # A remote store needs the network to reach its own server.
        self.isolate = (not is_remote(location)) if isolate_network is None else isolate_network
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self.clients = ClientTable(marks=1024, buckets=0) if clients is None else clients
        # Queries known to be cheap (see `_run_here`), of an embedded store only: a remote
        # store's server answers in its own time.
        self.cheap_ms = cheap_ms if not is_remote(location) else 0.0
        self._cheap: OrderedDict[tuple[Any, ...], float] = OrderedDict()
        self._here: Any = None  # the store, opened in this process for cheap queries
        self._here_generation: str | None = None
        self._here_lock = threading.Lock()
        # Guards the idle list, the holders and the waiting line.
        self._turn = threading.Condition(threading.Lock())
        # worker -> (client, when it took the worker or, once ready, started the query, and
        # the query's running lease in the client table or -1)
        self._holders: dict[_Worker, tuple[str | None, float, int]] = {}
        self._waiting: list[int] = []  # tickets of the queries waiting for a worker, in order
        self._tickets = itertools.count()
        self._started = False
        self._closed = False

    # pool management

    def _spawn(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=worker_main, args=(child, self.location, self.opener, self.isolate),
            name="paperkg-query", daemon=True)
        process.start()
        child.close()
        worker = _Worker(process, parent)
        with self._lock:
            self._all.add(worker)
        return worker

    def _ensure_started(self) -> None:
        with self._lock:
            if self._closed:
                raise QueryError("the query runner is closed")
            if self._started:
                return
            self._started = True
        for _ in range(self.workers):
            self._give_back(self._spawn())

    def _give_back(self, worker: _Worker) -> None:
        with self._turn:
            self._release(worker)
            self._idle.append(worker)
            self._turn.notify_all()

    def _discard(self, worker: _Worker) -> None:
        with self._turn:
            self._release(worker)
            self._turn.notify_all()
        with self._lock:
            self._all.discard(worker)
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(timeout=5)
        worker.conn.close()

    def _replace(self, worker: _Worker) -> None:
        self._discard(worker)
        with self._lock:
            closed = self._closed
        if not closed:
            self._give_back(self._spawn())

    def _wait_ready(self, worker: _Worker) -> None:
        if worker.ready:
            return
        if not worker.conn.poll(self.startup_timeout_s):
            self._replace(worker)
            raise StoreError(f"a query worker did not open the store at {self.location} "
                             f"within {self.startup_timeout_s:.0f} s")
        try:
            status, message = worker.conn.recv()
        except EOFError:
            status, message = "failed", "the query worker exited while opening the store"
        if status != "ready":
            self._replace(worker)
            raise StoreError(message)
        worker.ready = True

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers = list(self._all)
        for worker in workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in workers:
            worker.process.join(timeout=2)
            self._discard(worker)
        with self._here_lock:
            here, self._here = self._here, None
            self._cheap.clear()
        close = getattr(here, "close", None)
        if callable(close):
            close()

    def __enter__(self) -> QueryRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # who gets a worker

    def held_by(self, client: str | None) -> int:
        """Workers running a query of `client` now."""
        with self._turn:
            return self._held(client)

    def is_slow_client(self, client: str | None) -> bool:
        """True when a query of `client` ran to the time limit in the last
        `SLOW_CLIENT_MEMORY_S` seconds (in any process sharing the client table)."""
        return self._is_slow(client, time.monotonic())

    def _is_slow(self, client: str | None, now: float) -> bool:
        hit = self.clients.slow_since(client) if client is not None else None
        return hit is not None and now - hit < SLOW_CLIENT_MEMORY_S

    def _mark_slow(self, client: str | None, query: str) -> None:
        now = time.monotonic()
        self.clients.mark_slow(query, now)
        if client is not None:
            self.clients.mark_slow(client, now)

    def _slow_now(self, client: str | None, query: str, now: float) -> str | None:
        """Why a query of `client` with fingerprint `query` counts as slow, or None.

        "client": one of the client's queries ran to the time limit lately, or one has been
        running for more than a quarter of the time limit now; "query": a copy of this
        query, whoever sent it, ran to the time limit lately (this comes first: such a query
        is not run at all for a while). In this process or another sharing the client table.
        """
        if self._is_slow(query, now):
            return "query"
        if client is not None:
            if self._is_slow(client, now):
                return "client"
            since = self.clients.running_since(client)
            if since is not None and now - since > self.time_limit_ms / 4000:
                return "client"
        return None

    def _acquire(self, client: str | None, query: str, wait_s: float) -> _Worker:
        """An idle worker for a query of `client` (fingerprint `query`), waiting up to
        `wait_s` in line.

        The slow-query budget is decided on the shared client table alone, so every process
        of a server gives a client the same answer: a copy of a query stopped at the time
        limit in the last `SLOW_CLIENT_MEMORY_S` seconds is refused until then, and a slow
        client (`_slow_now`) may have one query running in the whole server, no more
        (`QueryBusy(own=True)`, 429). Capacity is this process's: a slow client's query does
        not wait and never takes the last free worker here (`QueryBusy(own=False)`, 503), so
        a flood of queries that run to the time limit from many addresses holds at most
        `workers - 1` of them in each process.
        """
        deadline = time.monotonic() + wait_s
        reserve = 1 if self.workers > 1 else 0
        with self._turn:
            ticket = next(self._tickets)
            self._waiting.append(ticket)
            try:
                while True:
                    now = time.monotonic()
                    ahead = self._waiting.index(ticket)
                    why = self._slow_now(client, query, now)
                    if why == "query":
                        raise self._busy_slow(client, why, now, query)
                    if why == "client":
                        if client is not None and self.clients.running_since(client) is not None:
                            raise self._busy_slow(client, why, now, query)
                        if len(self._idle) > reserve + ahead:
                            return self._take(client, slow=True)
                        raise QueryBusy(
                            f"{self.workers - len(self._idle)} of {self.workers} query workers "
                            "of this server process are busy and the last one stays free for "
                            "clients without slow queries; try again in a second",
                            retry_after=1)
                    if len(self._idle) > ahead:
                        return self._take(client)
                    remaining = deadline - now
                    if remaining <= 0:
                        held = self._held(client)
                        if held:
                            raise QueryBusy(
                                f"all {self.workers} query workers stayed busy for "
                                f"{2 * self.time_limit_ms} ms, {held} with this client's "
                                "queries", own=True)
                        raise QueryBusy(f"all {self.workers} query workers stayed busy "
                                        f"for {2 * self.time_limit_ms} ms with other clients' "
                                        "queries; try again later")
                    # Wake now and then: a query of this client (or a copy of this one) may
                    # turn slow meanwhile.
                    self._turn.wait(min(remaining, 0.1))
            finally:
                self._waiting.remove(ticket)
                self._turn.notify_all()  # the next in line may now be first

    def _held(self, client: str | None) -> int:
        return sum(1 for holder, _, _ in self._holders.values() if holder == client)

    def _busy_slow(self, client: str | None, why: str, now: float, query: str) -> QueryBusy:
        if why == "client":
            since = self.clients.running_since(client) if client is not None else None
            # Its running query ends within the time limit of its start (or of now, while
            # its worker starts up).
            left = self.time_limit_ms / 1000 - max(0.0, now - since) if since is not None \
                else 1.0
            return QueryBusy(
                "this client sends slow queries (one ran to the time limit in the last "
                f"{SLOW_CLIENT_MEMORY_S:.0f} s, or has run for a quarter of it now), so it may "
                "have one query running at a time, and one is running",
                own=True, retry_after=max(1, math.ceil(left)))
        marked = self.clients.slow_since(query)
        left = SLOW_CLIENT_MEMORY_S - (now - marked) if marked is not None else 1.0
        return QueryBusy(
            f"this query is slow: a copy of it ran to the time limit in the last "
            f"{SLOW_CLIENT_MEMORY_S:.0f} s, and it is not run again until "
            f"{SLOW_CLIENT_MEMORY_S:.0f} s after that", own=True,
            retry_after=max(1, math.ceil(left)))

    def _take(self, client: str | None, *, slow: bool = False) -> _Worker:
        # A worker still starting up (a replacement) goes to a slow query first and a started
        # one to any other, which then runs without waiting for a start.
        preferred = [n for n, worker in enumerate(self._idle) if worker.ready != slow]
        worker = self._idle.pop(preferred[-1] if preferred else -1)
        # Counted as running in every process from now on (one query at a time for a slow
        # client), but with its start in the far future until the worker is ready, so that
        # a worker's start-up never counts towards the running-long rule.
        lease = self.clients.start_running(client, now=time.monotonic() + _NOT_STARTED) \
            if client is not None else -1
        self._holders[worker] = (client, time.monotonic(), lease)
        return worker

    def _running(self, worker: _Worker, client: str | None) -> None:
        """The query of `client` starts running on `worker` (it is ready): from now on it
        counts towards the running-long rule."""
        if client is None:
            return
        with self._turn:
            held = self._holders.get(worker)
            if held is not None:
                now = time.monotonic()
                self.clients.restart_running(held[2], now)
                self._holders[worker] = (client, now, held[2])

    def _release(self, worker: _Worker) -> None:
        held = self._holders.pop(worker, None)
        if held is not None:
            self.clients.stop_running(held[2])

    # queries

    def run(self, sparql: str, *, media_type: str | None = None,
            default_graph: Sequence[str] | None = None,
            named_graphs: Sequence[str] | None = None, generation: str | None = None,
            graphs: Callable[[], Iterable[str]] | None = None,
            form: str | None = None, client: str | None = None,
            base_iri: str | None = None) -> QueryResult:
        """Check and run one query; `media_type` picks the result format for its form.

        `form` skips the check when the caller has already run `check_query` on this text.
        `client` (the asking address) and the query's fingerprint (`query_key`) decide who
        waits for a worker (see `_acquire`); QueryBusy says whether the client's own queries
        made it wait. `base_iri` resolves the query's relative IRIs (the endpoint's URL).
        """
        if form is None:
            form = check_query(sparql, graphs=graphs, base_iri=base_iri)
        results_format, graph_format = "JSON", "TURTLE"
        if media_type in RESULTS_MEDIA_TYPES:
            results_format = RESULTS_MEDIA_TYPES[media_type]
        if media_type in GRAPH_MEDIA_TYPES:
            graph_format = GRAPH_MEDIA_TYPES[media_type]
        job = {"sparql": sparql, "results_format": results_format, "graph_format": graph_format,
               "default_graph": list(default_graph) if default_graph is not None else None,
               "named_graphs": list(named_graphs) if named_graphs is not None else None,
               "row_cap": self.row_cap, "generation": generation,
               "limit": outer_limit(sparql), "base_iri": base_iri}
        query = query_key(sparql, default_graph, named_graphs)
        cheap = (query, sparql, generation, results_format, graph_format, base_iri)
        if cheap in self._cheap:
            here = self._run_here(job, cheap, client, query)
            if here is not None:
                return self._result(here, form, results_format, graph_format)
        self._ensure_started()
        limit_s = self.time_limit_ms / 1000
        # Every running query ends within the time limit, so the second in line (one worker
        # or two) has one within twice that.
        worker = self._acquire(client, query, 2 * limit_s)
        try:
            self._wait_ready(worker)
        except BaseException:
            if worker in self._all:  # not replaced by _wait_ready already
                self._replace(worker)
            raise
        self._running(worker, client)
        try:
            worker.conn.send(job)
            if not worker.conn.poll(limit_s):
                log.warning("query stopped at the time limit of %d ms", self.time_limit_ms)
                # Marked before the worker goes: the client stays slow for every process
                # without a gap between its running query and the mark.
                self._mark_slow(client, query)
                self._replace(worker)
                raise QueryTimeout(self.time_limit_ms)
            status, payload, *timing = worker.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self._replace(worker)
            raise QueryError("the query worker stopped unexpectedly") from None
        except BaseException:
            if worker in self._all:  # interrupted while the query ran: stop it
                self._replace(worker)
            raise
        self._give_back(worker)
        if status == "syntax":
            raise QuerySyntaxError(explain(sparql, payload, shift=base_shift(base_iri)))
        if status != "ok":
            raise QueryError(f"the query failed: {payload}")
        if timing and timing[0] <= self.cheap_ms:
            self._remember_cheap(cheap, timing[0])
        return self._result(payload, form, results_format, graph_format)

    # cheap queries, without the hand-off

    def _remember_cheap(self, key: tuple[Any, ...], elapsed_ms: float) -> None:
        with self._here_lock:
            self._cheap[key] = elapsed_ms
            self._cheap.move_to_end(key)
            while len(self._cheap) > CHEAP_QUERIES:
                self._cheap.popitem(last=False)

    def _run_here(self, job: dict[str, Any], key: tuple[Any, ...], client: str | None,
                  query: str) -> tuple[bytes, str, int, bool] | None:
        """Run a query known to be cheap in this process: the same text, dataset, result
        format and store generation ran in a query worker within `cheap_ms`, and the engine
        does the same work on the same data again. It saves the hand-off to a worker (two
        process switches), which is most of a cheap query's time. None when it cannot run
        here (then it goes to a worker as usual). The slow-query budget holds as for any
        query; a run that takes far longer than it did (a loaded machine) forgets the query.
        """
        now = time.monotonic()
        why = self._slow_now(client, query, now)
        if why == "query" or (why == "client" and client is not None
                              and self.clients.running_since(client) is not None):
            raise self._busy_slow(client, why, now, query)
        try:
            with self._here_lock:
                if self._here is None:
                    self._here = open_read_only(self.location, self.opener)
                elif self._here_generation != job["generation"]:
                    self._here = reopen(self._here, self.location, self.opener)
                self._here_generation = job["generation"]
                store = self._here
            start = time.perf_counter()
            payload = execute(store, job)
        except Exception:  # any trouble: the worker path decides and reports it
            log.exception("a cheap query failed in the server process; sent to a worker")
            with self._here_lock:
                self._cheap.pop(key, None)
            return None
        elapsed_ms = (time.perf_counter() - start) * 1000
        if elapsed_ms > 4 * self.cheap_ms:
            with self._here_lock:
                self._cheap.pop(key, None)
        return payload

    def _result(self, payload: tuple[bytes, str, int, bool], form: str | None,
                results_format: str, graph_format: str) -> QueryResult:
        body, result_form, rows, truncated = payload
        if result_form == "SELECT" or result_form == "ASK":
            chosen = _media_type_for(RESULTS_MEDIA_TYPES, results_format)
        else:
            chosen = _media_type_for(GRAPH_MEDIA_TYPES, graph_format)
        if form in QUERY_FORMS and result_form == "CONSTRUCT":
            result_form = form  # CONSTRUCT or DESCRIBE
        return QueryResult(body, chosen, result_form, rows, truncated)


def _media_type_for(table: dict[str, str], name: str) -> str:
    return next(media for media, fmt in table.items() if fmt == name)

