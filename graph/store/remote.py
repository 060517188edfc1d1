"""A paperkg store kept in any SPARQL 1.1 server, spoken to over HTTP.

`RemoteStore(url)` implements graph.store.protocol.Store, like the embedded store, and returns the
same pyoxigraph types, so the rest of paperkg cannot tell the two apart. It uses three standard
endpoints, by default under the URL given (Oxigraph server's layout):

    {url}/query   SPARQL 1.1 Protocol, queries (POST application/sparql-query)
    {url}/update  SPARQL 1.1 Protocol, updates (POST application/sparql-update)
    {url}/store   SPARQL 1.1 Graph Store Protocol (bulk reads and loads, N-Quads / N-Triples)

A URL ending in `/query` or `/sparql` names the query endpoint; the others are its siblings.
Servers with another layout (Fuseki: `/ds/query`, `/ds/update`, `/ds/data`) take the three
URLs as keywords. Only the standard library speaks HTTP here; no other host is ever contacted.

Atomicity. `replace_all` first loads the new graph into *staging* named graphs
(`urn:paperkg:staging:…`), which no paperkg query reads, then swaps them in with a single
SPARQL Update request (`DROP` the old graphs, `MOVE` each staging graph onto its target).
A server that runs one update request as one transaction (Oxigraph, Fuseki/TDB2, GraphDB)
therefore switches readers from the complete old graph to the complete new one; a failed load
leaves the old graph untouched (the staging graphs are dropped, or cleared by the next
`replace_all`). Limits: while staging, the server holds both graphs (disk, and for Oxigraph
the swap transaction in memory); a server that does not run an update request atomically
(Virtuoso by default) may expose the moment between DROP and MOVE; and there is no lock
against a second writer — paperkg assumes one writer per store, as with the embedded store.
`replace_all(..., atomic=False)` skips staging: drop everything, then load.

Generation. Every write through this class also writes a fresh token in the named graph
`urn:paperkg:meta` (in the same update request as the change wherever the change is an update
request). `generation()` reads it with one tiny query, so a server can tell cheaply that the
graph changed. A store that was written by other tools and has no token yet falls back to a
count of its quads (exact, but it scans the store). Writes by other tools that leave the token
alone are not noticed. `quads()`, `named_graphs()` and `len()` leave the meta graph out;
SPARQL queries over named graphs (`GRAPH ?g`), or with the union default graph, can see it.

Credentials. A server that wants a login for writes (or for everything) gets it from
$PAPERKG_STORE_USER and $PAPERKG_STORE_PASSWORD, or from a netrc file named by
$PAPERKG_STORE_NETRC (its entry for the store's host), or from the `user=`/`password=`
keywords; HTTP Digest or Basic, as the server asks. A URL with a password in it is refused, so
that it never sits in a command line, a process list or a log; no message names the password.

Other servers. Virtuoso speaks a dialect: graph.store.virtuoso adapts to it
($PAPERKG_STORE_DIALECT=virtuoso, or `open_store(url, dialect="virtuoso")`).

Errors. A refused connection, a timeout (`timeout=` seconds, else $PAPERKG_STORE_TIMEOUT, else
60) or an HTTP error is a StoreError naming the URL; a query the server rejects (HTTP 400) is a
QueryError.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import urllib.parse
import uuid
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import pyoxigraph
from pyoxigraph import BlankNode, DefaultGraph, NamedNode, Quad, RdfFormat

from graph.errors import QueryError, StoreError
from graph.store import http
from graph.store.bulk import nquads_quads
from graph.store.http import N_QUADS, N_TRIPLES, NETRC_ENV, PASSWORD_ENV, SPARQL_JSON, USER_ENV
from graph.store.protocol import (
    DEFAULT_GRAPH,
    NQuadsSource,
    QueryResult,
    Store,
    data_block,
    solutions,
)
from graph.vocab import PKG

STAGING_PREFIX = "urn:paperkg:staging:"
#: Where a server without a default graph of its own (Virtuoso) keeps paperkg's default graph.
DEFAULT_STAND_IN = "urn:paperkg:default"
META_GRAPH = "urn:paperkg:meta"
META_SUBJECT = "urn:paperkg:store"
GENERATION = PKG + "generation"
#: Quads per HTTP request when loading: bounds the memory of one request body on both sides.
LOAD_BATCH = 200_000
#: Quads per INSERT DATA: above this an add goes through the Graph Store Protocol instead.
UPDATE_BATCH = 20_000


def _batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def _staging_name(token: str, graph: NamedNode | DefaultGraph) -> NamedNode:
    if isinstance(graph, DefaultGraph):
        return NamedNode(f"{STAGING_PREFIX}{token}:default")
    return NamedNode(f"{STAGING_PREFIX}{token}:graph:{urllib.parse.quote(graph.value, safe='')}")


def is_internal_graph(graph: Any) -> bool:
    """A graph this backend keeps for itself (generation token, staging, default stand-in)."""
    return isinstance(graph, NamedNode) and (
        graph.value in (META_GRAPH, DEFAULT_STAND_IN) or graph.value.startswith(STAGING_PREFIX)
    )


class RemoteStore:
    """A store in a SPARQL 1.1 server: same methods and result types as EmbeddedStore."""

    #: Quads per INSERT DATA (above: the Graph Store Protocol).
    update_batch = UPDATE_BATCH

    def __init__(
        self,
        url: str,
        *,
        timeout: float | None = None,
        query_endpoint: str | None = None,
        update_endpoint: str | None = None,
        store_endpoint: str | None = None,
        read_only: bool = False,
        user: str | None = None,
        password: str | None = None,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise StoreError(f"a remote store URL starts with http:// or https://, not {url!r}")
        parts = urllib.parse.urlsplit(url)
        if parts.username is not None or parts.password is not None:
            raise StoreError(
                f"the store URL for {parts.hostname} holds a login: give it with ${USER_ENV} "
                f"and ${PASSWORD_ENV} (or a netrc file named by ${NETRC_ENV}), not in the URL"
            )
        self.location = url
        self.timeout = timeout if timeout is not None else http.env_timeout()
        self.read_only = read_only
        query, update, store = http.endpoints(url)
        self.query_endpoint = query_endpoint or query
        self.update_endpoint = update_endpoint or update
        self.store_endpoint = store_endpoint or store
        self._closed = False
        self.user, password = http.credentials(url, user, password)
        self._opener = http.opener(self.user, password, (url, self.query_endpoint,
                                                         self.update_endpoint, self.store_endpoint))

    # -- HTTP ---------------------------------------------------------------------------------

    def _request(self, method: str, url: str, **options: Any) -> Any:
        """Send one request (`options` as for graph.store.http.send): the response, or a
        StoreError/QueryError."""
        if self._closed:
            raise StoreError(f"the store at {self.location} is closed")
        return http.send(self._opener, method, url, timeout=self.timeout, **options)

    def _update(self, sparql: str) -> None:
        if self.read_only:
            raise StoreError(f"the store at {self.location} was opened read-only")
        self._request("POST", self.update_endpoint, body=self._update_text(sparql).encode("utf-8"),
                      content_type="application/sparql-update", action="write")

    def _post_quads(self, quads: Sequence[Quad], *, params: Sequence[tuple[str, str]] = ()) -> None:
        body = pyoxigraph.serialize(quads, format=RdfFormat.N_QUADS) or b""
        self._request("POST", self.store_endpoint, body=body, content_type=N_QUADS,
                      params=params, action="write")

    # -- reading ------------------------------------------------------------------------------

    def query(
        self,
        sparql: str,
        *,
        default_graph: list[str] | None = None,
        named_graphs: list[str] | None = None,
        union_default_graph: bool = False,
    ) -> QueryResult:
        """Run a SPARQL query on the server: QuerySolutions, QueryBoolean or triples.

        Graph names are IRIs, as for EmbeddedStore; the default graph ("") cannot be named in
        the SPARQL Protocol, so a `default_graph` list holding it is refused. The
        union-default-graph flag is Oxigraph's (`union-default-graph` parameter); servers
        without it use their own default graph setting.
        """
        params: list[tuple[str, str]] = []
        for name in default_graph or ():
            if name == "":
                raise QueryError("a remote store cannot name its default graph in default_graph")
            params.append(("default-graph-uri", name))
        for name in named_graphs or ():
            params.append(("named-graph-uri", name))
        if union_default_graph:
            params.append(("union-default-graph", "true"))
        body, content_type, params = self._query_request(sparql, params)
        response = self._request(
            "POST", self.query_endpoint, body=body, content_type=content_type,
            accept=f"{SPARQL_JSON}, {N_TRIPLES};q=0.9", params=params,
            action="query", stream=True,
        )
        return http.answer(response, self.query_endpoint)

    def _query_request(self, sparql: str, params: list[tuple[str, str]]
                       ) -> tuple[bytes, str, list[tuple[str, str]]]:
        """(body, content type, URL parameters) of a query request: a dialect's hook."""
        return sparql.encode("utf-8"), "application/sparql-query", params

    def _update_text(self, sparql: str) -> str:
        """The update request as this server wants it: a dialect's hook."""
        return sparql

    def _graph_ref(self, graph: NamedNode | DefaultGraph) -> str:
        """A graph as the target of DROP/MOVE: `DEFAULT` or `GRAPH <g>` (a dialect's hook)."""
        return "DEFAULT" if isinstance(graph, DefaultGraph) else f"GRAPH <{graph.value}>"

    def _drop_all(self) -> str:
        return "DROP SILENT ALL"

    def _select(self, sparql: str) -> list[Any]:
        return list(solutions(self, sparql))

    def quads(self, graph: str | None = None) -> Iterator[Quad]:
        """Every quad (None), the default graph's (""), or one named graph's, streamed."""
        if graph is None:
            params: list[tuple[str, str]] = []
            accept, fmt = N_QUADS, RdfFormat.N_QUADS
        elif graph == "":
            params, accept, fmt = [("default", "")], N_TRIPLES, RdfFormat.N_TRIPLES
        else:
            params, accept, fmt = [("graph", graph)], N_TRIPLES, RdfFormat.N_TRIPLES
        response = self._request("GET", self.store_endpoint, accept=accept, params=params,
                                 stream=True)
        if response is None:  # no such graph
            return iter(())
        return self._stream_quads(response, fmt, graph)

    def _stream_quads(self, response: IO[bytes], fmt: RdfFormat, graph: str | None
                      ) -> Iterator[Quad]:
        target = None if graph is None else (DefaultGraph() if graph == "" else NamedNode(graph))
        with response:
            try:
                for quad in pyoxigraph.parse(response, fmt):
                    if target is not None:
                        yield Quad(quad.subject, quad.predicate, quad.object, target)
                    elif not is_internal_graph(quad.graph_name):
                        yield quad
            except (OSError, SyntaxError) as exc:
                raise StoreError(f"cannot read the SPARQL store at {self.store_endpoint}: {exc}"
                                 ) from None

    def named_graphs(self) -> list[str]:
        rows = self._select("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return sorted(
            row["g"].value for row in rows
            if isinstance(row["g"], NamedNode) and not is_internal_graph(row["g"])
        )

    def __len__(self) -> int:
        rows = self._select(
            "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } "
            f'FILTER(?g != <{META_GRAPH}> && !STRSTARTS(STR(?g), "{STAGING_PREFIX}")) }} }}'
        )
        return int(rows[0]["n"].value) if rows else 0

    def generation(self) -> str:
        """The token the last write through RemoteStore left; a quad count if there is none."""
        rows = self._select(
            f"SELECT ?t WHERE {{ GRAPH <{META_GRAPH}> {{ <{META_SUBJECT}> <{GENERATION}> ?t }} }}"
        )
        if rows:
            return min(row["t"].value for row in rows)
        return f"count-{len(self)}"

    def refresh(self) -> bool:
        """Nothing to reopen: every call reads the server's current graph."""
        return False

    # -- writing ------------------------------------------------------------------------------

    def _bump(self) -> str:
        """The update operations that replace the generation token."""
        token = f"{uuid.uuid4().hex}"
        return (
            f"DROP SILENT GRAPH <{META_GRAPH}> ;\n"
            f"INSERT DATA {{ GRAPH <{META_GRAPH}> {{ "
            f'<{META_SUBJECT}> <{GENERATION}> "{token}" }} }}'
        )

    def _staging_graphs(self) -> list[str]:
        rows = self._select(
            "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } "
            f'FILTER(STRSTARTS(STR(?g), "{STAGING_PREFIX}")) }}'
        )
        return [row["g"].value for row in rows]

    def _drop(self, graphs: Iterable[str]) -> None:
        operations = [f"DROP SILENT GRAPH <{g}>" for g in graphs]
        if operations:
            self._update(" ;\n".join(operations))

    def replace_all(self, quads: Iterable[Quad], *, atomic: bool = True) -> None:
        """Make `quads` the whole content: staged, then swapped in by one update request."""
        if self.read_only:
            raise StoreError(f"the store at {self.location} was opened read-only")
        if not atomic:
            self._update(f"{self._drop_all()} ;\n{self._bump()}")
            for batch in _batches(quads, LOAD_BATCH):
                self._post_quads(batch)
            return
        self._drop(self._staging_graphs())  # left by a failed earlier replace
        token = uuid.uuid4().hex[:12]
        targets: dict[str, NamedNode | DefaultGraph] = {}

        def staged(source: Iterable[Quad]) -> Iterator[Quad]:
            for quad in source:
                graph = quad.graph_name
                if isinstance(graph, BlankNode):
                    raise StoreError(f"a remote store names its graphs by IRI, not {graph}")
                name = _staging_name(token, graph)
                targets.setdefault(name.value, graph)
                yield Quad(quad.subject, quad.predicate, quad.object, name)

        try:
            for batch in _batches(staged(quads), LOAD_BATCH):
                self._post_quads(batch)
            old = [g for g in self.named_graphs() if g not in
                   {t.value for t in targets.values() if isinstance(t, NamedNode)}]
            operations = [f"DROP SILENT {self._graph_ref(DefaultGraph())}"]
            operations += [f"DROP SILENT GRAPH <{g}>" for g in old]
            for stage, target in targets.items():
                destination = self._graph_ref(target).removeprefix("GRAPH ")
                operations.append(f"MOVE SILENT <{stage}> TO {destination}")
            operations.append(self._bump())
            self._update(" ;\n".join(operations))
        except BaseException:
            try:
                self._drop(targets)
            except StoreError:
                pass  # the next replace_all clears them
            raise

    def add_quads(self, quads: Iterable[Quad]) -> None:
        """Add quads: one update request (with the new token) when small, else bulk loads."""
        batch = list(quads)
        if not batch:
            return
        if len(batch) <= self.update_batch:
            self._update(f"INSERT DATA {{\n{data_block(batch)}\n}} ;\n{self._bump()}")
            return
        for part in _batches(batch, LOAD_BATCH):
            self._post_quads(part)
        self._update(self._bump())

    def update(self, sparql: str) -> None:
        """Run a SPARQL Update request (one transaction on the server) and renew the token."""
        self._update(f"{sparql.rstrip().rstrip(';')} ;\n{self._bump()}")

    def replace_all_nquads(
        self,
        source: NQuadsSource,
        *,
        count: bool = True,
        before_publish: Callable[[Store], None] | None = None,
        lenient: bool = False,
    ) -> int | None:
        """`replace_all` of the quads of N-Quads documents and files (see
        graph.store.protocol.NQuadsSource), parsed here and sent in batches; the files of a
        function source are parsed as it yields them, and deleted once sent.

        `before_publish(self)` runs once the new graph is in place: a server has no graph
        that is loaded but not yet visible, so an error there leaves the new graph, not the old
        one. `lenient` skips the check of each IRI while parsing."""
        if callable(source):
            with tempfile.TemporaryDirectory(prefix="paperkg-load-") as folder:
                files = source(Path(folder))
                try:
                    self.replace_all(nquads_quads(files, self.location, lenient, delete=True))
                finally:
                    if isinstance(files, Generator):  # left early: let it clean up (its workers)
                        files.close()
        else:
            self.replace_all(nquads_quads(source, self.location, lenient))
        if before_publish is not None:
            before_publish(self)
        return len(self) if count else None

    def dump_graph(self, output: str | os.PathLike, graph: str = DEFAULT_GRAPH) -> None:
        """Write one graph's triples to the file `output` as N-Triples (server order)."""
        with open(output, "w", encoding="utf-8", newline="\n") as out:
            for quad in self.quads(graph):
                out.write(f"{quad.triple} .\n")

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> RemoteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<RemoteStore {self.location}>"
