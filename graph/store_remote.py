"""A paperkg store kept in any SPARQL 1.1 server, spoken to over HTTP.

`RemoteStore(url)` has the interface of `graph.store.EmbeddedStore` and returns the same
pyoxigraph types, so the rest of paperkg cannot tell the two apart. It uses three standard
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

Other servers. Virtuoso speaks a dialect: graph.store_virtuoso adapts to it
($PAPERKG_STORE_DIALECT=virtuoso, or `open_store(url, dialect="virtuoso")`).

Errors. A refused connection, a timeout (`timeout=` seconds, else $PAPERKG_STORE_TIMEOUT, else
60) or an HTTP error is a StoreError naming the URL; a query the server rejects (HTTP 400) is a
QueryError.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

import pyoxigraph
from pyoxigraph import (
    DefaultGraph,
    NamedNode,
    Quad,
    QueryResultsFormat,
    RdfFormat,
)

from graph.errors import QueryError, StoreError
from graph.vocab import CLASSES, DEFAULT_BASE, ENTITY_TYPES, OA, PKG, paper_iri

# The embedded store's own update helpers, so both backends write and recount the same way.
from graph.store import data_block, replace_operations  # noqa: E402

DEFAULT_TIMEOUT = 60.0
USER_ENV = "PAPERKG_STORE_USER"
PASSWORD_ENV = "PAPERKG_STORE_PASSWORD"
NETRC_ENV = "PAPERKG_STORE_NETRC"
#: Seconds to wait for the server, when the caller gives no `timeout` (open_store does not).
TIMEOUT_ENV = "PAPERKG_STORE_TIMEOUT"
STAGING_PREFIX = "urn:paperkg:staging:"
#: Where a server without a default graph of its own (Virtuoso) keeps paperkg's default graph.
DEFAULT_STAND_IN = "urn:paperkg:default"
META_GRAPH = "urn:paperkg:meta"
_META_SUBJECT = META_SUBJECT = "urn:paperkg:store"
_GENERATION = GENERATION = PKG + "generation"
#: Quads per HTTP request when loading: bounds the memory of one request body on both sides.
LOAD_BATCH = 200_000
#: Quads per INSERT DATA: above this an add goes through the Graph Store Protocol instead.
UPDATE_BATCH = 20_000

_SPARQL_JSON = "application/sparql-results+json"
_N_TRIPLES = N_TRIPLES = "application/n-triples"
_N_QUADS = "application/n-quads"
_ENTITY_CLASSES = tuple(CLASSES[type_] for type_ in ENTITY_TYPES)


class RemoteTriples:
    """The triples of a CONSTRUCT or DESCRIBE answer: iterable like pyoxigraph.QueryTriples."""

    def __init__(self, triples: list[pyoxigraph.Triple]) -> None:
        self._triples = triples

    def __iter__(self) -> Iterator[pyoxigraph.Triple]:
        return iter(self._triples)

    def __len__(self) -> int:
        return len(self._triples)

    def serialize(self, output: Any = None, format: RdfFormat | None = None) -> bytes | None:
        return pyoxigraph.serialize(self._triples, output, format or RdfFormat.N_TRIPLES)


def _endpoints(url: str) -> tuple[str, str, str]:
    root = url.rstrip("/")
    parent, _, last = root.rpartition("/")
    if last in ("query", "sparql"):
        return root, f"{parent}/update", f"{parent}/store"
    return f"{root}/query", f"{root}/update", f"{root}/store"


def _term(node: Any) -> str:
    """A term in SPARQL syntax (pyoxigraph writes N-Triples, which SPARQL accepts)."""
    return str(node)


def _batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def _staging_name(token: str, graph: NamedNode | DefaultGraph) -> NamedNode:
    if isinstance(graph, DefaultGraph):
        return NamedNode(f"{STAGING_PREFIX}{token}:default")
    return NamedNode(f"{STAGING_PREFIX}{token}:graph:{urllib.parse.quote(graph.value, safe='')}")


def _hidden(graph: Any) -> bool:
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
        self.timeout = timeout if timeout is not None else _env_timeout()
        self.read_only = read_only
        query, update, store = _endpoints(url)
        self.query_endpoint = query_endpoint or query
        self.update_endpoint = update_endpoint or update
        self.store_endpoint = store_endpoint or store
        self._closed = False
        self.user, password = _credentials(url, user, password)
        # urllib's default opener honours http_proxy; a store on loopback must not go through it.
        handlers: list[Any] = [urllib.request.ProxyHandler({})]
        if self.user is not None:
            logins = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            for endpoint in (url, self.query_endpoint, self.update_endpoint, self.store_endpoint):
                logins.add_password(None, endpoint, self.user, password or "")
            handlers += [urllib.request.HTTPDigestAuthHandler(logins),
                         urllib.request.HTTPBasicAuthHandler(logins)]
        self._opener = urllib.request.build_opener(*handlers)

    # -- HTTP ---------------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        url: str,
        *,
        body: bytes | None = None,
        content_type: str | None = None,
        accept: str | None = None,
        params: Sequence[tuple[str, str]] = (),
        action: str = "read",
        stream: bool = False,
    ) -> Any:
        """Send one request; the response (a stream when `stream`) or a StoreError/QueryError."""
        if self._closed:
            raise StoreError(f"the store at {self.location} is closed")
        if params:
            url = f"{url}?{urllib.parse.urlencode(params)}"
        request = urllib.request.Request(url, data=body, method=method)
        if content_type:
            request.add_header("Content-Type", content_type)
        if accept:
            request.add_header("Accept", accept)
        try:
            response = self._opener.open(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            detail = _error_text(exc)
            if exc.code == 404 and method == "GET":
                return None
            if exc.code == 400 and action == "query":
                raise QueryError(
                    f"the SPARQL store at {url} rejected the query: {detail}"
                ) from None
            raise StoreError(
                f"cannot {action} the SPARQL store at {url}: HTTP {exc.code} {exc.reason}"
                + (f": {detail}" if detail else "")
            ) from None
        except TimeoutError:
            raise StoreError(
                f"the SPARQL store at {url} did not answer within {self.timeout:g} s"
            ) from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise StoreError(
                    f"the SPARQL store at {url} did not answer within {self.timeout:g} s"
                ) from None
            text = reason.strerror if isinstance(reason, OSError) and reason.strerror else reason
            raise StoreError(f"cannot reach the SPARQL store at {url}: {text}") from None
        except OSError as exc:
            raise StoreError(f"cannot {action} the SPARQL store at {url}: {exc}") from None
        if stream:
            return response
        with response:
            try:
                return response.read()
            except OSError as exc:
                raise StoreError(f"cannot {action} the SPARQL store at {url}: {exc}") from None

    def _update(self, sparql: str) -> None:
        if self.read_only:
            raise StoreError(f"the store at {self.location} was opened read-only")
        self._request("POST", self.update_endpoint, body=self._update_text(sparql).encode("utf-8"),
                      content_type="application/sparql-update", action="write")

    def _post_quads(self, quads: Sequence[Quad], *, params: Sequence[tuple[str, str]] = ()) -> None:
        body = pyoxigraph.serialize(quads, format=RdfFormat.N_QUADS) or b""
        self._request("POST", self.store_endpoint, body=body, content_type=_N_QUADS,
                      params=params, action="write")

    # -- reading ------------------------------------------------------------------------------

    def query(
        self,
        sparql: str,
        *,
        default_graph: list[str] | None = None,
        named_graphs: list[str] | None = None,
        union_default_graph: bool = False,
    ) -> Any:
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
            accept=f"{_SPARQL_JSON}, {_N_TRIPLES};q=0.9", params=params,
            action="query", stream=True,
        )
        with response:
            media = (response.headers.get_content_type() or "").lower()
            cut = response.headers.get("X-SPARQL-MaxRows")
            if cut:
                raise StoreError(
                    f"the SPARQL store at {self.query_endpoint} cut its answer at {cut} rows "
                    "(Virtuoso's ResultSetMaxRows): raise that limit above the store's size"
                )
            try:
                data = response.read()
            except OSError as exc:
                raise StoreError(
                    f"cannot read the answer of {self.query_endpoint}: {exc}"
                ) from None
        try:
            if media in (_SPARQL_JSON, "application/json"):
                return pyoxigraph.parse_query_results(data, QueryResultsFormat.JSON)
            if media == "application/sparql-results+xml":
                return pyoxigraph.parse_query_results(data, QueryResultsFormat.XML)
            if media in (_N_TRIPLES, "text/plain"):
                triples = pyoxigraph.parse(data, RdfFormat.N_TRIPLES)
                return RemoteTriples([q.triple for q in triples])
            if media == "text/turtle":
                return RemoteTriples([q.triple for q in pyoxigraph.parse(data, RdfFormat.TURTLE)])
        except SyntaxError as exc:
            raise StoreError(
                f"the SPARQL store at {self.query_endpoint} sent an answer that does not "
                f"parse: {exc}"
            ) from None
        raise StoreError(
            f"the SPARQL store at {self.query_endpoint} answered in {media or 'no media type'}, "
            "not SPARQL JSON results or N-Triples"
        )

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
        return list(self.query(sparql))

    def quads(self, graph: str | None = None) -> Iterator[Quad]:
        """Every quad (None), the default graph's (""), or one named graph's, streamed."""
        if graph is None:
            params: list[tuple[str, str]] = []
            accept, fmt = _N_QUADS, RdfFormat.N_QUADS
        elif graph == "":
            params, accept, fmt = [("default", "")], _N_TRIPLES, RdfFormat.N_TRIPLES
        else:
            params, accept, fmt = [("graph", graph)], _N_TRIPLES, RdfFormat.N_TRIPLES
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
                    elif not _hidden(quad.graph_name):
                        yield quad
            except (OSError, SyntaxError) as exc:
                raise StoreError(f"cannot read the SPARQL store at {self.store_endpoint}: {exc}"
                                 ) from None

    def named_graphs(self) -> list[str]:
        rows = self._select("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return sorted(
            row["g"].value for row in rows
            if isinstance(row["g"], NamedNode) and not _hidden(row["g"])
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
            f"SELECT ?t WHERE {{ GRAPH <{META_GRAPH}> {{ <{_META_SUBJECT}> <{_GENERATION}> ?t }} }}"
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
            f'<{_META_SUBJECT}> <{_GENERATION}> "{token}" }} }}'
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
                name = _staging_name(token, quad.graph_name)
                targets.setdefault(name.value, quad.graph_name)
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

    def _owned_quads(self, paper: str | NamedNode) -> list[Quad]:
        return owned_quads(self, paper.value if isinstance(paper, NamedNode) else paper)

    def replace_graph_of(self, paper_iri: str, quads: Iterable[Quad]) -> None:
        """Replace one paper's facts and provenance by `quads` in one update request, then
        recount pkg:support of the entities it linked or links; unlinked entities are removed."""
        operations = replace_operations(paper_iri, self._owned_quads(paper_iri),
                                        list(dict.fromkeys(quads)))
        if operations:
            self.update(" ;\n".join(operations))

    def remove_paper(self, key: str, *, base: str = DEFAULT_BASE) -> bool:
        """Remove one paper (by key, or its IRI) like `replace_graph_of(iri, [])`; True if held."""
        iri = key if key.startswith(("http://", "https://")) else paper_iri(base, key)
        present = self.query(
            f"ASK {{ {{ <{iri}> ?p ?o }} UNION {{ GRAPH ?g {{ <{iri}> ?p ?o }} }} }}"
        )
        if not bool(present):
            return False
        self.replace_graph_of(iri, [])
        return True

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> RemoteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<RemoteStore {self.location}>"


def _credentials(url: str, user: str | None, password: str | None
                 ) -> tuple[str | None, str | None]:
    """(user, password) for the store at `url`: the keywords, else the environment, else the
    netrc file $PAPERKG_STORE_NETRC names; (None, None) for no login."""
    if user is not None:
        return user, password
    if os.environ.get(USER_ENV):
        return os.environ[USER_ENV], os.environ.get(PASSWORD_ENV, "")
    path = os.environ.get(NETRC_ENV, "").strip()
    if not path:
        return None, None
    import netrc

    try:
        entry = netrc.netrc(path).authenticators(urllib.parse.urlsplit(url).hostname or "")
    except (OSError, netrc.NetrcParseError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a netrc file"
        raise StoreError(f"cannot read the store login file ${NETRC_ENV} ({path}): {reason}"
                         ) from None
    if entry is None:
        return None, None
    return entry[0], entry[2]


def _env_timeout() -> float:
    value = os.environ.get(TIMEOUT_ENV, "").strip()
    if not value:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise StoreError(f"${TIMEOUT_ENV} must be a number of seconds above 0, not {value!r}")
    return seconds


def owned_quads(store: Any, paper: str) -> list[Quad]:
    """Quads about a paper and the nodes only it owns (claims, results, annotations with their
    targets and selectors), in any graph, read with SPARQL: works on every store backend."""
    p = f"<{paper}>"
    has_source, has_target, has_selector = (f"<{OA}hasSource>", f"<{OA}hasTarget>",
                                            f"<{OA}hasSelector>")
    makes_claim, result = f"<{PKG}makesClaim>", f"<{PKG}result>"

    def anywhere(pattern: str) -> str:
        return f"{{ {pattern} }} UNION {{ GRAPH ?h {{ {pattern} }} }}"

    # The paper itself is added below, not as a `{ VALUES ?x { p } }` branch of the UNION:
    # Virtuoso 7.2 answers nothing at all to a UNION with a VALUES branch.
    subjects_query = f"""SELECT DISTINCT ?x WHERE {{
  {{ {anywhere(f"{p} {makes_claim} ?x")} }}
  UNION {{ {anywhere(f"{p} {makes_claim} ?c . ?c {result} ?x")} }}
  UNION {{ {anywhere(f"?x {has_source} {p}")} }}
  UNION {{ {anywhere(f"?t {has_source} {p} . ?t {has_selector} ?x")} }}
  UNION {{ {anywhere(f"?t {has_source} {p} . ?x {has_target} ?t")} }}
}}"""
    subjects = [NamedNode(paper)] + [row["x"] for row in store.query(subjects_query)
                                     if isinstance(row["x"], NamedNode)]
    subjects = list(dict.fromkeys(subjects))
    owned: list[Quad] = []
    for part in _batches(subjects, 500):
        values = " ".join(_term(s) for s in part)
        rows = store.query(
            f"SELECT ?s ?p ?o ?g WHERE {{ VALUES ?s {{ {values} }} "
            "{ ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
        )
        for row in rows:
            graph = row["g"]
            if _hidden(graph):
                continue
            owned.append(Quad(row["s"], row["p"], row["o"], graph or DefaultGraph()))
    return list(dict.fromkeys(owned))


def _error_text(exc: urllib.error.HTTPError) -> str:
    try:
        body = exc.read(2000).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    if body.startswith("{"):
        try:
            body = json.dumps(json.loads(body))
        except ValueError:
            pass
    return " ".join(body.split())[:300]


#: Earlier name, for callers that use it.
_data_block = data_block
