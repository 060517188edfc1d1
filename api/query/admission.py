"""Which clients and queries are slow: the facts behind the slow-query budget (see
api.query.runner), kept in an `api.query.clients.ClientTable` so that every process sharing
the table gives a client the same answer."""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Sequence

from api.query.clients import ClientTable
from api.query.errors import QueryBusy

#: How long a client whose query ran to the time limit counts as sending slow queries, and
#: that query (by `query_key`) as slow.
SLOW_CLIENT_MEMORY_S = 60.0


def query_key(sparql: str, default_graph: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None) -> str:
    """The fingerprint of a query's work: its text with white space runs made one space, and
    its dataset. Copies sent by different clients share it."""
    work = json.dumps([" ".join(sparql.split()), sorted(default_graph or ()),
                       sorted(named_graphs or ())], ensure_ascii=False)
    return "query:" + hashlib.sha256(work.encode("utf-8", "surrogatepass")).hexdigest()


class SlowQueries:
    """The slow clients and queries of a `ClientTable`, for queries with a time limit of
    `time_limit_ms`."""

    def __init__(self, clients: ClientTable, time_limit_ms: int):
        self.clients = clients
        self.time_limit_ms = time_limit_ms

    def is_slow(self, key: str | None, now: float) -> bool:
        """True when a query of the client (or a copy of the query) `key` ran to the time
        limit in the last `SLOW_CLIENT_MEMORY_S` seconds."""
        hit = self.clients.slow_since(key) if key is not None else None
        return hit is not None and now - hit < SLOW_CLIENT_MEMORY_S

    def mark(self, client: str | None, query: str) -> None:
        """A query of `client` with fingerprint `query` ran to the time limit."""
        now = time.monotonic()
        self.clients.mark_slow(query, now)
        if client is not None:
            self.clients.mark_slow(client, now)

    def running(self, client: str | None) -> bool:
        """True when a query of `client` runs now, in any process sharing the table."""
        return client is not None and self.clients.running_since(client) is not None

    def why(self, client: str | None, query: str, now: float) -> str | None:
        """Why a query of `client` with fingerprint `query` counts as slow, or None.

        "client": one of the client's queries ran to the time limit lately, or one has been
        running for more than a quarter of the time limit now; "query": a copy of this
        query, whoever sent it, ran to the time limit lately (this comes first: such a query
        is not run at all for a while). In this process or another sharing the client table.
        """
        if self.is_slow(query, now):
            return "query"
        if client is not None:
            if self.is_slow(client, now):
                return "client"
            since = self.clients.running_since(client)
            if since is not None and now - since > self.time_limit_ms / 4000:
                return "client"
        return None

    def busy(self, client: str | None, why: str, now: float, query: str) -> QueryBusy:
        """The QueryBusy(own=True) of a query held back because `why` (see `why`), with the
        seconds until the cause is surely gone."""
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
