"""The SPARQL 1.1 Protocol endpoint (`/sparql`), read-only and safe for the public.

Queries come by GET `?query=`, by form POST, or by POST with `application/sparql-query`;
`default-graph-uri` / `named-graph-uri` (repeatable) set the dataset. A query's relative IRIs
resolve against the endpoint's own URL (the request URL without its query string), as
Oxigraph's server does. Each query is checked (api.query.check_query) before it runs in a
worker process with a time limit and a row cap; a client may have `max_queries_in_flight`
queries waiting or running at once (429 beyond).
Results are negotiated by Accept. Errors use the API's JSON error shape.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

import pyoxigraph
from flask import Blueprint, Response, redirect, request, url_for
from werkzeug.routing import BuildError

from api.context import services
from api.errors import ApiError
from api.limits import busy_retry_after, query_slot
from api.query import (
    QueryBusy,
    QueryRefused,
    QueryResult,
    QuerySyntaxError,
    QueryTimeout,
    UpdateRefused,
    check_query,
)
from graph.errors import QueryError, StoreError
from graph.sparqltext import with_prefixes
from graph.store import solutions

bp = Blueprint("sparql", __name__)

RESULTS_TYPES = ["application/sparql-results+json", "application/sparql-results+xml",
                 "text/csv", "text/tab-separated-values"]
GRAPH_TYPES = ["text/turtle", "application/n-triples", "application/ld+json",
               "application/rdf+xml"]
# Media types clients send for the same formats.
ALIASES = {
    "application/json": {"results": "application/sparql-results+json",
                         "graph": "application/ld+json"},
    "application/xml": {"results": "application/sparql-results+xml",
                        "graph": "application/rdf+xml"},
    "text/xml": {"results": "application/sparql-results+xml", "graph": "application/rdf+xml"},
    "application/x-turtle": {"graph": "text/turtle"},
    "text/plain": {"graph": "application/n-triples"},
}
TEXT_TYPES = {"text/csv", "text/tab-separated-values", "text/turtle", "application/n-triples"}
UI_ENDPOINTS = ("pages.sparql_ui",)


def _params(raw: bytes, where: str) -> list[tuple[str, str]]:
    """Decode URL-encoded parameters strictly: non-UTF-8 text is a client error."""
    try:
        text = raw.decode("ascii") if raw.isascii() else raw.decode("utf-8")
        return parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise ApiError(400, f"the {where} is not valid UTF-8") from None


def _all(params: list[tuple[str, str]], name: str) -> list[str]:
    return [value for key, value in params if key == name]


# An absolute IRI starts with a scheme; these never appear in one (RFC 3987), nor do controls.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_NOT_IN_IRI = re.compile(r'[\x00-\x20<>"{}|\\^`\x7f-\x9f]')


def check_graph_iri(param: str, value: str) -> str:
    """`value` of the parameter `param` if it is an absolute IRI, else a 400 naming both."""
    shown = repr(value if len(value) <= 200 else value[:200] + "...")
    if not _SCHEME.match(value):
        reason = "it has no scheme (such as http:)"
    elif (bad := _NOT_IN_IRI.search(value)) is not None:
        reason = f"it holds {bad.group()!r}, which no IRI may hold"
    else:
        try:
            pyoxigraph.NamedNode(value)
        except ValueError as exc:  # the full RFC 3987 grammar: percent escapes, hosts...
            reason = str(exc).encode("ascii", "backslashreplace").decode("ascii")
        else:
            return value
    raise ApiError(400, f"parameter {param!r} must be an absolute IRI, not {shown}: {reason}")


def _graph_iris(params: list[tuple[str, str]], name: str) -> list[str]:
    return [check_graph_iri(name, value) for value in _all(params, name)]


def _request_query() -> tuple[str | None, list[str], list[str]]:
    """(query text, default-graph-uri values, named-graph-uri values) of the request."""
    url_params = _params(request.query_string, "query string")
    if request.method == "GET":
        params = url_params
        queries = _all(params, "query")
        if _all(params, "update"):
            if queries:
                raise ApiError(400, "give either a query or an update, not both")
            raise ApiError(403, "updates are not allowed: this endpoint is read-only")
    else:
        media_type = request.mimetype
        if media_type == "application/x-www-form-urlencoded":
            params = url_params + _params(request.get_data(cache=True), "request body")
            queries = _all(params, "query")
            updates = _all(params, "update")
            if queries and updates:
                raise ApiError(400, "give either a query or an update, not both")
            if updates:
                raise ApiError(403, "updates are not allowed: this endpoint is read-only")
            if not queries:
                raise ApiError(400, "a form POST needs a 'query' parameter")
        elif media_type == "application/sparql-query":
            params = url_params
            if _all(params, "query"):
                raise ApiError(400, "a query POSTed as application/sparql-query cannot also "
                               "have a 'query' URL parameter")
            try:
                queries = [request.get_data(cache=True).decode("utf-8")]
            except UnicodeDecodeError:
                raise ApiError(400, "the request body is not valid UTF-8") from None
            charset = request.mimetype_params.get("charset", "utf-8").lower()
            if charset not in {"utf-8", "utf8"}:
                raise ApiError(400, f"the query must be UTF-8, not {charset}")
        elif media_type == "application/sparql-update":
            raise ApiError(403, "updates are not allowed: this endpoint is read-only")
        elif not media_type:
            raise ApiError(400, "a POST needs a Content-Type: application/sparql-query or "
                           "application/x-www-form-urlencoded")
        else:
            raise ApiError(400, f"unsupported Content-Type {media_type!r}: use "
                           "application/sparql-query or application/x-www-form-urlencoded")
    if len(queries) > 1:
        raise ApiError(400, f"give one 'query' parameter, not {len(queries)}")
    return (queries[0] if queries else None, _graph_iris(params, "default-graph-uri"),
            _graph_iris(params, "named-graph-uri"))


def negotiate(kind: str, default: str | None = None) -> str:
    """The media type to answer with, for "results" (SELECT/ASK) or "graph" results."""
    offered = RESULTS_TYPES if kind == "results" else GRAPH_TYPES
    if default is not None:
        offered = [default] + [media for media in offered if media != default]
    header = request.headers.get("Accept")
    if not header:
        return offered[0]
    if header in offered:  # one plain media type, as SPARQL clients send: no parsing needed
        return header
    accept = request.accept_mimetypes
    aliases = [alias for alias, targets in ALIASES.items() if kind in targets]
    best = accept.best_match(offered + aliases)
    if best is None:
        raise ApiError(406, f"cannot answer with any type in Accept: "
                       f"{request.headers.get('Accept')}; offered: {', '.join(offered)}")
    return ALIASES[best][kind] if best in ALIASES else best


def content_type(media_type: str) -> str:
    """The Content-Type of an answer in `media_type`. A charset only where the type defines
    one: text and XML types. The JSON types define none (RFC 8259 §11 for JSON, and the SPARQL
    JSON results and JSON-LD registrations: always UTF-8), so it is left off, as Oxigraph's
    server leaves it off."""
    return f"{media_type}; charset=utf-8" if media_type in TEXT_TYPES or "xml" in media_type \
        else media_type


@bp.route("/sparql", methods=["GET", "POST"])
def sparql() -> Response:
    query, default_graphs, named_graphs = _request_query()
    if query is None:
        return _service_description()
    state = services()
    base_iri = request.base_url
    try:
        form = check_query(query, graphs=state.named_graphs, base_iri=base_iri)
        media_type = None
        if form in {"SELECT", "ASK"}:
            media_type = negotiate("results")
        elif form in {"CONSTRUCT", "DESCRIBE"}:
            media_type = negotiate("graph")
        with query_slot() as client:
            result = state.runner.run(
                query, media_type=media_type, form=form,
                # Either parameter makes the dataset exactly what the two name (the SPARQL
                # Protocol, §2.1.4): naming only default graphs leaves no named graph.
                default_graph=default_graphs if default_graphs or named_graphs else None,
                named_graphs=named_graphs if default_graphs or named_graphs else None,
                generation=state.generation(), client=client, base_iri=base_iri)
    except UpdateRefused as exc:
        raise ApiError(403, str(exc)) from None
    except (QuerySyntaxError, QueryRefused) as exc:
        raise ApiError(400, str(exc)) from None
    except QueryTimeout as exc:
        raise ApiError(503, str(exc), {"Retry-After": "5"}) from None
    except QueryBusy as exc:
        if exc.own:  # the client's own queries are the cause: it should slow down
            wait = exc.retry_after or busy_retry_after()
            raise ApiError(429, f"{exc}; retry in {wait} s", {"Retry-After": str(wait)}) \
                from None
        raise ApiError(503, str(exc), {"Retry-After": str(exc.retry_after or 1)}) from None
    except StoreError as exc:
        raise ApiError(503, str(exc), {"Retry-After": "5"}) from None
    except QueryError as exc:
        raise ApiError(500, str(exc)) from None
    return Response(result.body, headers=result_headers(result))


def result_headers(result: QueryResult) -> list[tuple[str, str]]:
    """The headers of a query's answer, but its length."""
    return answer_headers(content_type(result.media_type), result.rows, result.truncated)


def answer_headers(type_header: str, rows: int, truncated: bool) -> list[tuple[str, str]]:
    """The headers of an answer of Content-Type `type_header`, but its length (also sent by
    `api.hot_path`, which knows the Content-Type before the query runs)."""
    headers = [("Content-Type", type_header), ("Vary", "Accept")]
    if rows >= 0:  # not counted when the query's own LIMIT kept it under the cap
        headers.append(("X-Paperkg-Rows", str(rows)))
    if truncated:
        headers.append(("X-Paperkg-Truncated", "true"))
    return headers


bp.add_app_template_filter(with_prefixes, "with_prefixes")


# -- the Service Description -------------------------------------------------------------------

SD = "http://www.w3.org/ns/sparql-service-description#"
VOID = "http://rdfs.org/ns/void#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
FORMATS = "http://www.w3.org/ns/formats/"
RESULT_FORMATS = ("SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV",
                  "SPARQL_Results_TSV", "Turtle", "N-Triples", "JSON-LD", "RDF_XML")
SD_TYPES = {"text/turtle": "TURTLE", "application/n-triples": "N_TRIPLES",
            "application/ld+json": "JSON_LD", "application/rdf+xml": "RDF_XML"}


def _ui_url() -> str | None:
    for endpoint in UI_ENDPOINTS:
        try:
            return url_for(endpoint)
        except BuildError:
            continue
    return None


def _count_rows(sparql: str) -> list[tuple[str, int]]:
    rows = solutions(services().store, sparql)
    return [(row[0].value, int(row[1].value)) for row in rows]


def void_statistics() -> dict[str, Any]:
    """Triples, classes and properties of the default graph, and triples per named graph."""

    def compute() -> dict[str, Any]:
        store = services().store
        total = next(iter(solutions(store, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")))
        return {
            "triples": int(total[0].value),
            "classes": _count_rows(
                "SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a ?c } GROUP BY ?c ORDER BY ?c"),
            "properties": _count_rows(
                "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p ORDER BY ?p"),
            "graphs": _count_rows(
                "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } "
                "GROUP BY ?g ORDER BY ?g"),
        }

    return services().cached("void", compute)


def service_description_triples(endpoint: str) -> list[pyoxigraph.Triple]:
    """sd:Service with a VoID description of the dataset, as pyoxigraph triples."""
    node, blank, literal = pyoxigraph.NamedNode, pyoxigraph.BlankNode, pyoxigraph.Literal
    integer = node("http://www.w3.org/2001/XMLSchema#integer")
    rdf_type = node(RDF_TYPE)
    service = node(endpoint)
    triples = [
        pyoxigraph.Triple(service, rdf_type, node(SD + "Service")),
        pyoxigraph.Triple(service, node(SD + "endpoint"), service),
        pyoxigraph.Triple(service, node(SD + "supportedLanguage"), node(SD + "SPARQL11Query")),
    ]
    for name in RESULT_FORMATS:
        triples.append(pyoxigraph.Triple(service, node(SD + "resultFormat"),
                                         node(FORMATS + name)))
    stats = void_statistics()
    dataset, default_graph = blank(), blank()
    triples += [
        pyoxigraph.Triple(service, node(SD + "defaultDataset"), dataset),
        pyoxigraph.Triple(dataset, rdf_type, node(SD + "Dataset")),
        pyoxigraph.Triple(dataset, rdf_type, node(VOID + "Dataset")),
        pyoxigraph.Triple(dataset, node(SD + "defaultGraph"), default_graph),
        pyoxigraph.Triple(default_graph, rdf_type, node(SD + "Graph")),
        pyoxigraph.Triple(default_graph, node(VOID + "triples"),
                          literal(str(stats["triples"]), datatype=integer)),
        pyoxigraph.Triple(default_graph, node(VOID + "classes"),
                          literal(str(len(stats["classes"])), datatype=integer)),
        pyoxigraph.Triple(default_graph, node(VOID + "properties"),
                          literal(str(len(stats["properties"])), datatype=integer)),
    ]
    for kind, rows, count_name in (("class", stats["classes"], "entities"),
                                   ("property", stats["properties"], "triples")):
        for iri, count in rows:
            partition = blank()
            triples += [
                pyoxigraph.Triple(default_graph, node(VOID + f"{kind}Partition"), partition),
                pyoxigraph.Triple(partition, node(VOID + kind), node(iri)),
                pyoxigraph.Triple(partition, node(VOID + count_name),
                                  literal(str(count), datatype=integer)),
            ]
    for iri, count in stats["graphs"]:
        named, graph = blank(), blank()
        triples += [
            pyoxigraph.Triple(dataset, node(SD + "namedGraph"), named),
            pyoxigraph.Triple(named, rdf_type, node(SD + "NamedGraph")),
            pyoxigraph.Triple(named, node(SD + "name"), node(iri)),
            pyoxigraph.Triple(named, node(SD + "graph"), graph),
            pyoxigraph.Triple(graph, rdf_type, node(SD + "Graph")),
            pyoxigraph.Triple(graph, node(VOID + "triples"),
                              literal(str(count), datatype=integer)),
        ]
    return triples


def _service_description() -> Response:
    accept = request.accept_mimetypes
    if request.method == "GET" and accept["text/html"] > max(
            accept[media] for media in SD_TYPES):
        ui = _ui_url()
        if ui is not None:
            return redirect(ui, code=303)  # type: ignore[return-value]
    media_type = negotiate("graph")
    fmt = getattr(pyoxigraph.RdfFormat, SD_TYPES[media_type])
    endpoint = url_for("sparql.sparql", _external=True)
    prefixes = {"sd": SD, "void": VOID, "formats": FORMATS} \
        if media_type in {"text/turtle", "application/rdf+xml"} else None
    body = pyoxigraph.serialize(service_description_triples(endpoint), format=fmt,
                                prefixes=prefixes)
    response = Response(body, content_type=content_type(media_type))
    response.headers["Vary"] = "Accept"
    return response
