"""The Store protocol: what every part of paperkg may ask of a graph store.

EmbeddedStore (graph.store.embedded), RemoteStore (graph.store.remote) and VirtuosoStore
(graph.store.virtuoso) implement it and return the same pyoxigraph types, so a caller cannot
tell them apart. The protocol knows RDF and SPARQL, not papers: what a paper owns and how its
facts change is the build's (graph.build.update).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pyoxigraph import DefaultGraph, Quad, QueryBoolean, QuerySolutions, RdfFormat, Triple

from graph.errors import QueryError

#: `quads(graph=DEFAULT_GRAPH)` / `default_graph=[DEFAULT_GRAPH]` name the store's default graph.
DEFAULT_GRAPH = ""


class Triples(Protocol):
    """The answer to a CONSTRUCT or DESCRIBE: pyoxigraph.QueryTriples, or a remote store's."""

    def __iter__(self) -> Iterator[Triple]: ...

    def serialize(self, output: Any = None, format: RdfFormat | None = None) -> bytes | None: ...


QueryResult = QuerySolutions | QueryBoolean | Triples

#: What `replace_all_nquads` loads: documents (bytes) and files (paths), or a function that
#: writes N-Quads files into the folder it is given and returns (or yields) their paths.
NQuadsSource = Sequence[bytes | str | os.PathLike] | Callable[[Path], Iterable[Path]]


@runtime_checkable
class Store(Protocol):
    """A graph store: SPARQL queries and updates, quads by graph, whole and partial writes."""

    location: str

    def query(
        self,
        sparql: str,
        *,
        default_graph: list[str] | None = None,
        named_graphs: list[str] | None = None,
        union_default_graph: bool = False,
    ) -> QueryResult: ...

    def quads(self, graph: str | None = None) -> Iterator[Quad]: ...

    def named_graphs(self) -> list[str]: ...

    def dump_graph(self, output: str | os.PathLike, graph: str = DEFAULT_GRAPH) -> None: ...

    def replace_all(self, quads: Iterable[Quad]) -> None: ...

    def replace_all_nquads(
        self,
        source: NQuadsSource,
        *,
        count: bool = True,
        before_publish: Callable[[Store], None] | None = None,
        lenient: bool = False,
    ) -> int | None: ...

    def add_quads(self, quads: Iterable[Quad]) -> None: ...

    def update(self, sparql: str) -> None: ...

    def generation(self) -> str: ...

    def refresh(self) -> bool: ...

    def __len__(self) -> int: ...

    def close(self) -> None: ...


def solutions(store: Store, sparql: str, **options: Any) -> QuerySolutions:
    """The rows of a SELECT query (`options` as for `Store.query`)."""
    result = store.query(sparql, **options)
    if not isinstance(result, QuerySolutions):
        raise QueryError(f"not a SELECT query: {sparql[:80]!r}")
    return result


def data_block(quads: Iterable[Quad]) -> str:
    """Quads as the body of INSERT DATA / DELETE DATA (default graph first, then GRAPH blocks)."""
    default: list[str] = []
    named: dict[str, list[str]] = {}
    for quad in quads:
        triple = f"{quad.subject} {quad.predicate} {quad.object} ."
        if isinstance(quad.graph_name, DefaultGraph):
            default.append(triple)
        else:
            named.setdefault(str(quad.graph_name), []).append(triple)
    parts = default + [f"GRAPH {g} {{\n{chr(10).join(ts)}\n}}" for g, ts in named.items()]
    return "\n".join(parts)
