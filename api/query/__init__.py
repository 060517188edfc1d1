"""The endpoint's query machinery: what it refuses (`check`), the runner (`runner`) and its
pool of worker processes that run queries with a time limit and a row cap (`pool`, `worker`),
who gets a worker (`admission`), cheap queries run without one (`cheap`), result formats
(`results`), why no result came (`errors`), and the per-client records shared by the
processes of a server (`clients`)."""

from api.query.admission import query_key
from api.query.check import (
    QueryRefused,
    QuerySyntaxError,
    UpdateRefused,
    analyse,
    check_query,
    outer_limit,
    query_form,
)
from api.query.errors import QueryBusy, QueryTimeout
from api.query.results import QueryResult
from api.query.runner import QueryRunner, is_remote
from api.query.worker import isolate_network, open_read_only

__all__ = [
    "QueryBusy", "QueryRefused", "QueryResult", "QueryRunner", "QuerySyntaxError",
    "QueryTimeout", "UpdateRefused", "analyse", "check_query", "is_remote", "isolate_network",
    "open_read_only", "outer_limit", "query_form", "query_key",
]
