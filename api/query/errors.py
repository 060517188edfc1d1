"""Why the runner gave no result: the time limit, or no worker for the query."""

from __future__ import annotations

from graph.errors import QueryError


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
