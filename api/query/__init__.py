"""The endpoint's query machinery: what it refuses (`check`), the pool of worker processes
that run queries with a time limit and a row cap (`runner`, `worker`), and the per-client
records shared by the processes of a server (`clients`)."""

from api.query.check import (
    QueryRefused,
    QuerySyntaxError,
    UpdateRefused,
    analyse,
    check_query,
    outer_limit,
    query_form,
)
from api.query.runner import (
    QueryBusy,
    QueryResult,
    QueryRunner,
    QueryTimeout,
    is_remote,
    query_key,
)
from api.query.worker import isolate_network, open_read_only

__all__ = [
    "QueryBusy", "QueryRefused", "QueryResult", "QueryRunner", "QuerySyntaxError",
    "QueryTimeout", "UpdateRefused", "analyse", "check_query", "is_remote", "isolate_network",
    "open_read_only", "outer_limit", "query_form", "query_key",
]
