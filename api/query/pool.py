"""The pool of query worker processes and who gets one.

Workers are spawned on first use, each holding the store open read-only (api.query.worker);
one that runs past the time limit or dies is killed and replaced. Queries wait in line, first
come, first served, under the slow-query budget (api.query.admission, explained in
api.query.runner).
"""

from __future__ import annotations

import itertools
import multiprocessing
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from api.query.admission import SlowQueries
from api.query.clients import ClientTable
from api.query.errors import QueryBusy
from api.query.worker import worker_main
from graph.errors import QueryError, StoreError

# A start time this far ahead marks a query whose worker is still starting up.
_NOT_STARTED = 1e9


@dataclass(eq=False)
class Worker:
    process: Any
    conn: Connection
    ready: bool = False
    started: float = field(default_factory=time.monotonic)


class WorkerPool:
    """`workers` query worker processes over the store at `location`, opened by `opener`
    (without network access when `isolate`), and the line of queries waiting for one.

    `clients` holds which clients and queries are slow (see `SlowQueries`); a table shared with
    the other processes of a server makes that known to all of them.
    """

    startup_timeout_s = 60.0

    def __init__(self, location: str, *, workers: int, time_limit_ms: int, opener: str,
                 isolate: bool, clients: ClientTable):
        self.location = location
        self.workers = workers
        self.time_limit_ms = time_limit_ms
        self.opener = opener
        self.isolate = isolate
        self.clients = clients
        self.slow = SlowQueries(clients, time_limit_ms)
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[Worker] = []
        self._all: set[Worker] = set()
        self._lock = threading.Lock()
        # Guards the idle list, the holders and the waiting line.
        self._turn = threading.Condition(threading.Lock())
        # worker -> (client, when it took the worker or, once ready, started the query, and
        # the query's running lease in the client table or -1)
        self._holders: dict[Worker, tuple[str | None, float, int]] = {}
        self._waiting: list[int] = []  # tickets of the queries waiting for a worker, in order
        self._tickets = itertools.count()
        self._started = False
        self._closed = False

    # the workers

    def _spawn(self) -> Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=worker_main, args=(child, self.location, self.opener, self.isolate),
            name="paperkg-query", daemon=True)
        process.start()
        child.close()
        worker = Worker(process, parent)
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

    def _give_back(self, worker: Worker) -> None:
        with self._turn:
            self._release(worker)
            self._idle.append(worker)
            self._turn.notify_all()

    def _discard(self, worker: Worker) -> None:
        with self._turn:
            self._release(worker)
            self._turn.notify_all()
        with self._lock:
            self._all.discard(worker)
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(timeout=5)
        worker.conn.close()

    def _replace(self, worker: Worker) -> None:
        self._discard(worker)
        with self._lock:
            closed = self._closed
        if not closed:
            self._give_back(self._spawn())

    def _wait_ready(self, worker: Worker) -> None:
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

    def close_workers(self) -> None:
        """Stop every worker; the pool starts none after this."""
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

    # who gets a worker

    def held_by(self, client: str | None) -> int:
        """Workers running a query of `client` now."""
        with self._turn:
            return self._held(client)

    def is_slow_client(self, client: str | None) -> bool:
        """True when a query of `client` ran to the time limit in the last
        `SLOW_CLIENT_MEMORY_S` seconds (in any process sharing the client table)."""
        return self.slow.is_slow(client, time.monotonic())

    def _acquire(self, client: str | None, query: str, wait_s: float) -> Worker:
        """An idle worker for a query of `client` (fingerprint `query`), waiting up to
        `wait_s` in line.

        The slow-query budget is decided on the shared client table alone, so every process
        of a server gives a client the same answer: a copy of a query stopped at the time
        limit in the last `SLOW_CLIENT_MEMORY_S` seconds is refused until then, and a slow
        client (`SlowQueries.why`) may have one query running in the whole server, no more
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
                    why = self.slow.why(client, query, now)
                    if why == "query":
                        raise self.slow.busy(client, why, now, query)
                    if why == "client":
                        if self.slow.running(client):
                            raise self.slow.busy(client, why, now, query)
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

    def _take(self, client: str | None, *, slow: bool = False) -> Worker:
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

    def _running(self, worker: Worker, client: str | None) -> None:
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

    def _release(self, worker: Worker) -> None:
        held = self._holders.pop(worker, None)
        if held is not None:
            self.clients.stop_running(held[2])
