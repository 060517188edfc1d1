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

The pool and the line for a worker are `api.query.pool`, the slow-query facts
`api.query.admission`, cheap queries `api.query.cheap`, result formats `api.query.results`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from api.query.admission import query_key
from api.query.cheap import CheapQueries
from api.query.check import QuerySyntaxError, check_query, outer_limit, varies
from api.query.clients import ClientTable
from api.query.errors import QueryBusy, QueryTimeout
from api.query.pool import WorkerPool
from api.query.results import QueryResult, formats_for, result_of
from api.query.worker import base_shift
from graph.errors import QueryError
from graph.sparqltext import explain

__all__ = ["Prepared", "QueryBusy", "QueryResult", "QueryRunner", "QueryTimeout", "is_remote",
           "query_key"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Prepared:
    """A checked query's job for a worker, its key among cheap queries and its fingerprint."""

    job: dict[str, Any]
    cheap: tuple[Any, ...]
    query: str  # the fingerprint, `query_key`
    form: str | None
    results_format: str
    graph_format: str


def is_remote(location: str) -> bool:
    return location.startswith(("http://", "https://"))


class QueryRunner(WorkerPool):
    """Runs checked SPARQL queries in worker processes, with a time limit and a row cap.

    `clients` holds which clients and queries are slow (see `api.query.admission`); a table
    shared with the other processes of a server makes that known to all of them. Without one
    the runner keeps its own.
    """

    def __init__(self, location: str, *, workers: int = 2, time_limit_ms: int = 10_000,
                 row_cap: int = 10_000, opener: str = "graph.store:open_store",
                 isolate_network: bool | None = None, clients: ClientTable | None = None,
                 cheap_ms: float = 0.0):
        super().__init__(
            location, workers=workers, time_limit_ms=time_limit_ms, opener=opener,
            # A remote store needs the network to reach its own server.
            isolate=(not is_remote(location)) if isolate_network is None else isolate_network,
            clients=ClientTable(marks=1024, buckets=0) if clients is None else clients)
        self.row_cap = row_cap
        # Queries known to be cheap (api.query.cheap), of an embedded store only: a remote
        # store's server answers in its own time.
        self.cheap = CheapQueries(location, opener, cheap_ms if not is_remote(location) else 0.0)

    def close(self) -> None:
        self.close_workers()
        self.cheap.close()

    def __enter__(self) -> QueryRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
        waits for a worker (see `WorkerPool._acquire`); QueryBusy says whether the client's own
        queries made it wait. `base_iri` resolves the query's relative IRIs (the endpoint's URL).
        """
        if form is None:
            form = check_query(sparql, graphs=graphs, base_iri=base_iri)
        prepared = self.prepare(sparql, form=form, media_type=media_type,
                                default_graph=default_graph, named_graphs=named_graphs,
                                generation=generation, base_iri=base_iri)
        job, cheap, query = prepared.job, prepared.cheap, prepared.query
        results_format, graph_format = prepared.results_format, prepared.graph_format
        if cheap in self.cheap:
            here = self._run_here(job, cheap, client, query)
            if here is not None:
                return result_of(here, form, results_format, graph_format)
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
                self.slow.mark(client, query)
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
        if timing:
            # A count cut at the cap is not the query's count.
            self.cheap.remember(cheap, timing[0], -1 if payload[3] else payload[2])
        return result_of(payload, form, results_format, graph_format)

    def prepare(self, sparql: str, *, form: str | None, media_type: str | None = None,
                default_graph: Sequence[str] | None = None,
                named_graphs: Sequence[str] | None = None, generation: str | None = None,
                base_iri: str | None = None) -> Prepared:
        """The work of a query that `check_query` found to be of `form`, ready to run (the
        arguments as for `run`)."""
        results_format, graph_format = formats_for(media_type)
        job = {"sparql": sparql, "results_format": results_format, "graph_format": graph_format,
               "default_graph": list(default_graph) if default_graph is not None else None,
               "named_graphs": list(named_graphs) if named_graphs is not None else None,
               "row_cap": self.row_cap, "generation": generation,
               "limit": outer_limit(sparql), "base_iri": base_iri, "varying": varies(sparql)}
        query = query_key(sparql, default_graph, named_graphs)
        cheap = (query, sparql, generation, results_format, graph_format, base_iri)
        return Prepared(job, cheap, query, form, results_format, graph_format)

    def _run_here(self, job: dict[str, Any], key: tuple[Any, ...], client: str | None,
                  query: str) -> tuple[bytes, str, int, bool] | None:
        """Run a query known to be cheap in this process (api.query.cheap); None when it
        cannot run here. The slow-query budget holds as for any query."""
        now = time.monotonic()
        why = self.slow.why(client, query, now)
        if why == "query" or (why == "client" and self.slow.running(client)):
            raise self.slow.busy(client, why, now, query)
        return self.cheap.run(job, key)
