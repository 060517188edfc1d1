"""A paperkg store in OpenLink Virtuoso: RemoteStore adapted to Virtuoso's SPARQL dialect.

    open_store("http://host:8890/sparql", dialect="virtuoso")   # or $PAPERKG_STORE_DIALECT

What differs from a plain SPARQL 1.1 server (measured on Debian's virtuoso-opensource 7.2.5):

- **No default graph of its own.** A query's default graph is the union of every graph,
  system graphs included, and `INSERT DATA` without `GRAPH` is refused ("No plain default
  graph specified in the preamble"). So paperkg's default graph lives in the named graph
  `urn:paperkg:default`, and every update is sent with the preamble
  `define input:default-graph-uri <urn:paperkg:default>`, so it reads and writes that graph
  as its default graph. A query gets the same preamble and one
  `define input:named-graph-uri <g>` for each of paperkg's named graphs: with a default
  graph named and no named graphs, Virtuoso finds nothing in `GRAPH <g> { … }` (though
  `GRAPH ?g` still ranges over every graph); with both named, queries see exactly the dataset
  a SPARQL 1.1 store would. The list of named graphs is read again whenever the store's
  generation changes or this object writes; Virtuoso's own graphs are never in it.
- **Endpoints.** Queries go to `/sparql` (form-encoded POST: a `application/sparql-query`
  body is not read by this version, the request hangs); updates need a login, at
  `/sparql-auth` (HTTP Digest); the Graph Store Protocol is `/sparql-graph-crud-auth` (or
  `/sparql-graph-crud` without a login), which takes one graph per request (`?graph=`) as
  N-Triples, not N-Quads: loads are sent graph by graph.
- **Logins.** The server's SPARQL user (`SPARQL`) may not update; give a user with the
  `SPARQL_UPDATE` role through $PAPERKG_STORE_USER/$PAPERKG_STORE_PASSWORD or a netrc file.
- **Row limit.** `[SPARQL] ResultSetMaxRows` in virtuoso.ini cuts every answer (10,000 in the
  packaged file). A cut answer carries `X-SPARQL-MaxRows`: RemoteStore then raises a
  StoreError rather than return part of the graph. Set it above the store's size.
- **Transactions.** One update request is not one transaction unless the server runs in
  its transactional mode, so a reader may see the moment between a replace's DROP and MOVE.
"""

from __future__ import annotations

import itertools
import urllib.parse
from collections.abc import Iterator, Sequence
from typing import Any

import pyoxigraph
from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat

from graph.store.http import N_TRIPLES, credentials
from graph.store.protocol import solutions
from graph.store.remote import (
    DEFAULT_STAND_IN,
    GENERATION,
    META_GRAPH,
    META_SUBJECT,
    STAGING_PREFIX,
    RemoteStore,
    is_internal_graph,
)

#: Graphs Virtuoso keeps for itself (present in a fresh database).
SYSTEM_GRAPH_PREFIXES = ("http://www.openlinksw.com/", "http://www.w3.org/ns/ldp#",
                         "http://localuriqaserver/", "http://www.w3.org/2002/07/owl#")
_PREAMBLE = f"define input:default-graph-uri <{DEFAULT_STAND_IN}>\n"
#: A named graph no query asks for: marks paperkg's own bookkeeping queries, which must see
#: every graph (Virtuoso's preamble without named graphs), in `query(named_graphs=[…])`.
_ALL_GRAPHS = "urn:paperkg:all-graphs"


def virtuoso_endpoints(url: str, with_login: bool) -> tuple[str, str, str]:
    """(query, update, graph store) endpoints under a Virtuoso server's URL."""
    root = url.rstrip("/")
    if root.endswith("/sparql"):
        root = root[: -len("/sparql")]
    if with_login:
        return f"{root}/sparql", f"{root}/sparql-auth", f"{root}/sparql-graph-crud-auth"
    return f"{root}/sparql", f"{root}/sparql", f"{root}/sparql-graph-crud"


class VirtuosoStore(RemoteStore):
    """RemoteStore for Virtuoso: its default graph kept in a named graph, its endpoints."""

    #: INSERT DATA requests stay small: Virtuoso compiles each into one SQL statement.
    update_batch = 2_000

    def __init__(self, url: str, *, user: str | None = None, password: str | None = None,
                 **options: Any) -> None:
        login, secret = credentials(url, user, password)
        query, update, store = virtuoso_endpoints(url, login is not None)
        options.setdefault("query_endpoint", query)
        options.setdefault("update_endpoint", update)
        options.setdefault("store_endpoint", store)
        super().__init__(url, user=login, password=secret, **options)
        self._named: list[str] | None = None
        self._seen_generation: str | None = None

    # -- the dialect --------------------------------------------------------------------------

    def _query_request(self, sparql: str, params: list[tuple[str, str]]
                       ) -> tuple[bytes, str, list[tuple[str, str]]]:
        names = {name for name, _ in params}
        kept = [(name, value) for name, value in params if name != "union-default-graph"]
        if ("named-graph-uri", _ALL_GRAPHS) in params:
            kept, text = [], _PREAMBLE + sparql
        elif "default-graph-uri" in names:
            text = sparql
        elif "union-default-graph" in names:
            text = sparql  # Virtuoso's own default graph is the union of all
        else:
            named = "".join(f"define input:named-graph-uri <{g}>\n" for g in self._dataset())
            text = _PREAMBLE + named + sparql
        body = urllib.parse.urlencode([("query", text), *kept]).encode("ascii")
        return body, "application/x-www-form-urlencoded", []

    def _update_text(self, sparql: str) -> str:
        self._named = None  # a write may add or drop a graph
        return _PREAMBLE + sparql

    def _raw(self, sparql: str) -> list[Any]:
        """A bookkeeping query over every graph (the default one still the stand-in)."""
        return list(solutions(self, sparql, named_graphs=[_ALL_GRAPHS]))

    def _dataset(self) -> list[str]:
        """paperkg's named graphs, the meta graph with them, as queries should see them."""
        named = self._named
        if named is None:
            named = self._named = [*self.named_graphs(), META_GRAPH]
        return named

    def _graph_ref(self, graph: NamedNode | DefaultGraph) -> str:
        name = DEFAULT_STAND_IN if isinstance(graph, DefaultGraph) else graph.value
        return f"GRAPH <{name}>"

    def _drop_all(self) -> str:
        # Never DROP ALL: that would take Virtuoso's own graphs with it.
        graphs = [DEFAULT_STAND_IN, *self.named_graphs()]
        return " ;\n".join(f"DROP SILENT GRAPH <{g}>" for g in graphs)

    def _post_quads(self, quads: Sequence[Quad], *, params: Sequence[tuple[str, str]] = ()
                    ) -> None:
        self._named = None
        by_graph: dict[str, list[pyoxigraph.Triple]] = {}
        for quad in quads:
            name = (DEFAULT_STAND_IN if isinstance(quad.graph_name, DefaultGraph)
                    else quad.graph_name.value)
            by_graph.setdefault(name, []).append(quad.triple)
        for name, triples in by_graph.items():
            body = pyoxigraph.serialize(triples, format=RdfFormat.N_TRIPLES) or b""
            self._request("POST", self.store_endpoint, body=body, content_type=N_TRIPLES,
                          params=[*params, ("graph", name)], action="write")

    # -- reading ------------------------------------------------------------------------------

    def named_graphs(self) -> list[str]:
        rows = self._raw("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return sorted(
            row["g"].value for row in rows
            if isinstance(row["g"], NamedNode) and not is_internal_graph(row["g"])
            and not row["g"].value.startswith(SYSTEM_GRAPH_PREFIXES)
        )

    def _staging_graphs(self) -> list[str]:
        rows = self._raw("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } "
                         f'FILTER(STRSTARTS(STR(?g), "{STAGING_PREFIX}")) }}')
        return [row["g"].value for row in rows]

    def generation(self) -> str:
        # GRAPH ?g with a filter: the bookkeeping preamble names no graph to look into.
        rows = self._raw(f"SELECT ?t WHERE {{ GRAPH ?g {{ <{META_SUBJECT}> <{GENERATION}> ?t }} "
                         f"FILTER(?g = <{META_GRAPH}>) }}")
        token = min(row["t"].value for row in rows) if rows else f"count-{len(self)}"
        if token != self._seen_generation:
            self._seen_generation, self._named = token, None
        return token

    def quads(self, graph: str | None = None) -> Iterator[Quad]:
        if graph is None:
            return itertools.chain(self._graph_quads(""),
                                   *(self._graph_quads(g) for g in self.named_graphs()))
        return self._graph_quads(graph)

    def _graph_quads(self, graph: str) -> Iterator[Quad]:
        response = self._request("GET", self.store_endpoint, accept=N_TRIPLES,
                                 params=[("graph", graph or DEFAULT_STAND_IN)], stream=True)
        if response is None:
            return iter(())
        return self._stream_quads(response, RdfFormat.N_TRIPLES, graph)

    def __len__(self) -> int:
        graphs = ", ".join(f"<{g}>" for g in [DEFAULT_STAND_IN, *self.named_graphs()])
        rows = self._raw(
            f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER(?g IN ({graphs})) }}")
        return int(rows[0]["n"].value) if rows else 0

    def __repr__(self) -> str:
        return f"<VirtuosoStore {self.location}>"

