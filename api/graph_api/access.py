"""The graph API's way to the store: the open store, its generation, the graph questions
(from the search index when it is built, else by SPARQL) and the search index; a store that
cannot answer is 503 with Retry-After."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from api.context import services
from api.errors import ApiError
from graph.errors import StoreError
from graph.network import IndexGraph, StoreGraph, search_index
from graph.store import solutions

T = TypeVar("T")


def base() -> str:
    return str(services().settings["base_iri"])


def node_limit() -> int:
    return int(services().settings["graph_node_limit"])


def unavailable(exc: StoreError) -> ApiError:
    return ApiError(503, str(exc), {"Retry-After": "5"})


def generation() -> str:
    try:
        return services().generation()
    except StoreError as exc:
        raise unavailable(exc) from None


def graph() -> StoreGraph:
    """The graph questions: from the search index's tables when the index of this generation
    is built, else by SPARQL (the same answers) while it is built on a thread of its own."""
    current = generation()
    index = search_index.ready_index(services().store, base(), current)
    if index is not None:
        return IndexGraph(services().store, index, base(), current)
    return StoreGraph(services().store, base(), current)


def index() -> search_index.SearchIndex:
    try:
        return search_index.open_index(services().store, base(), generation())
    except StoreError as exc:
        raise unavailable(exc) from None


def rows(sparql: str) -> list[list[Any]]:
    try:
        return [list(row) for row in solutions(services().store, sparql)]
    except StoreError as exc:
        raise unavailable(exc) from None


def guard(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`call(*args, **kwargs)`, a store that cannot answer made 503."""
    try:
        return call(*args, **kwargs)
    except StoreError as exc:
        raise unavailable(exc) from None
