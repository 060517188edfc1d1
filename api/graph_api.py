"""The JSON graph API (`/api/*`), linked-data resources (`/id/*`), export files
(`/exports/*`) and `/healthz`.

Every answer comes from the store, bounded by the question: graph walks (neighbourhood, path,
similar papers, an entity's co-occurring entities) are SPARQL queries over the part of the
graph they touch (graph.store_graph), and lists, search and name lookup read the search index
built with the store (graph.search_index, one SQLite file per store generation). Nothing
holds the whole graph in memory, so a server's size does not grow with the store's, and a
remote SPARQL store is served the same way. Bad parameters are 400 naming the parameter;
unknown nodes are 404.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyoxigraph
from flask import Blueprint, Response, jsonify, redirect, request, send_from_directory, url_for
from werkzeug.routing import BuildError

from api import services
from api.errors import ApiError
from graph import lookup, search_index
from graph.errors import StoreError
from graph.index_graph import IndexGraph
from graph.vocab import (
    CONCEPT_TYPES,
    DCTERMS,
    LINKS,
    NODE_TYPES,
    PKG,
    PREFIXES,
    RDFS,
    SCHEMA,
    SKOS,
    paper_key_of,
)
from graph.store_graph import StoreGraph, node_id, node_iri

bp = Blueprint("graph", __name__)

_SAFE_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._~+%-]{0,300}$")
RESOURCE_TYPES = (*NODE_TYPES, "claim", "result", "annotation")
PAGE_TYPES = (*NODE_TYPES, "claim")  # types the web pages show
MAX_DEPTH = 3
EXPORT_TYPES = {
    ".ttl": "text/turtle", ".nt": "application/n-triples", ".jsonld": "application/ld+json",
    ".rdf": "application/rdf+xml", ".trig": "application/trig", ".nq": "application/n-quads",
    ".graphml": "application/graphml+xml", ".json": "application/json",
    ".html": "text/html", ".txt": "text/plain", ".md": "text/markdown",
}


# -- helpers -----------------------------------------------------------------------------------


def _base() -> str:
    return str(services().settings["base_iri"])


def _unavailable(exc: StoreError) -> ApiError:
    return ApiError(503, str(exc), {"Retry-After": "5"})


def _generation() -> str:
    try:
        return services().generation()
    except StoreError as exc:
        raise _unavailable(exc) from None


def _graph() -> StoreGraph:
    """The graph questions: from the search index's tables when the index of this generation
    is built, else by SPARQL (the same answers) while it is built on a thread of its own."""
    generation = _generation()
    index = search_index.ready_index(services().store, _base(), generation)
    if index is not None:
        return IndexGraph(services().store, index, _base(), generation)
    return StoreGraph(services().store, _base(), generation)


def _index() -> search_index.SearchIndex:
    try:
        return search_index.open_index(services().store, _base(), _generation())
    except StoreError as exc:
        raise _unavailable(exc) from None


def _int_param(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name, "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, f"parameter {name!r} must be an integer, got {raw!r}") from None
    if not low <= value <= high:
        raise ApiError(400, f"parameter {name!r} must be between {low} and {high}, got {value}")
    return value


def _required(name: str) -> str:
    value = request.args.get(name, "").strip()
    if not value:
        raise ApiError(400, f"parameter {name!r} is required")
    return value


def _types_param(name: str = "types") -> list[str] | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    types = [part.strip() for part in raw.split(",") if part.strip()]
    unknown = [t for t in types if t not in NODE_TYPES]
    if unknown:
        raise ApiError(400, f"parameter {name!r}: unknown type {unknown[0]!r}; known types: "
                       f"{', '.join(NODE_TYPES)}")
    return types


def resolve_node(graph: StoreGraph, value: str) -> dict[str, Any] | None:
    """The node a parameter names: an IRI, "type/slug", a paper's key, or a label or alias
    ("ResNet": the best-supported node so named); None when there is none.

    The one place node names are resolved, so another lookup (by a paper's original id, say)
    can take its place."""
    text = value.strip()
    if not text:
        return None
    if text.startswith(("http://", "https://")):
        return graph.describe([text]).get(text)
    found = graph.node(text) if "/" in text else None
    if found is None and "/" not in text:
        found = graph.node(f"paper/{text}")
        if found is None:
            named = _index().by_name(text)
            found = graph.node(named) if named is not None else None
    return found


def _node_param(graph: StoreGraph, name: str) -> dict[str, Any]:
    value = _required(name)
    try:
        found = resolve_node(graph, value)
        if found is None:
            # an original id, a DOI or an arXiv/OpenAlex id; else "did you mean"
            iri = lookup.resolve(services().store, value, _base())
            found = graph.describe([iri]).get(iri)
    except lookup.UnknownName as exc:
        raise ApiError(404, f"parameter {name!r}: {exc}") from None
    except StoreError as exc:
        raise _unavailable(exc) from None
    if found is None:
        raise ApiError(404, f"parameter {name!r}: node {value!r} is not in the graph")
    return found


def _paper_iri(name: str) -> str:
    """The IRI of the paper `name` names (key, original id, DOI, arXiv or OpenAlex id), or
    404 naming the closest papers."""
    try:
        return lookup.paper(services().store, name, _base())
    except lookup.UnknownName as exc:
        raise ApiError(404, str(exc)) from None
    except StoreError as exc:
        raise _unavailable(exc) from None


def _iri(type_: str, part: str) -> str:
    """The IRI of `type_/part`, or 404 when the part cannot be one of ours."""
    if not _SAFE_PART.match(part):
        raise ApiError(404, f"no {type_} {part!r}")
    iri = f"{_base()}{type_}/{part}"
    try:
        pyoxigraph.NamedNode(iri)
    except ValueError:
        raise ApiError(404, f"no {type_} {part!r}") from None
    return iri


def _rows(sparql: str) -> list[list[Any]]:
    try:
        return [list(row) for row in services().store.query(sparql)]
    except StoreError as exc:
        raise _unavailable(exc) from None


class _Refs:
    """Linked nodes described in one batch: collect IRIs, then `resolve()`."""

    def __init__(self, graph: StoreGraph) -> None:
        self.graph = graph
        self.known: dict[str, dict[str, Any]] = {}

    def load(self, iris: Iterable[str]) -> None:
        self.known.update(self.graph.describe(iris))

    def __call__(self, iri: str) -> dict[str, Any]:
        if iri in self.known:
            return dict(self.known[iri])
        key = node_id(iri, _base())
        return {"id": key, "iri": iri, "type": key.split("/", 1)[0] if "/" in key else None,
                "label": key.rsplit("/", 1)[-1], "support": None}


def _number(value: str) -> int | float | str:
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() and "." not in value else number


def _guard(call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except StoreError as exc:
        raise _unavailable(exc) from None


# -- papers ------------------------------------------------------------------------------------


@bp.get("/api/papers")
def papers() -> Response:
    index = _index()
    per_page = _int_param("per_page", 20, 1, 200)
    total, _ = index.papers(0, 0)
    pages = max(1, -(-total // per_page))
    page = _int_param("page", 1, 1, pages)
    _, chosen = index.papers((page - 1) * per_page, per_page)
    return jsonify({
        "papers": [{**node, "key": node["id"].split("/", 1)[1]} for node in chosen],
        "page": page, "per_page": per_page, "pages": pages, "total": total,
    })


@bp.get("/api/papers/<path:key>")
def paper(key: str) -> Response:
    graph = _graph()
    iri = _paper_iri(key)
    key = paper_key_of(iri, _base()) or key
    rows = _rows(f"SELECT ?p ?o WHERE {{ <{iri}> ?p ?o }}")
    values: dict[str, list[Any]] = {}
    for predicate, obj in rows:
        values.setdefault(predicate.value, []).append(obj)
    if pyoxigraph.NamedNode(PKG + "Paper") not in values.get(PREFIXES["rdf"] + "type", []):
        raise ApiError(404, f"no paper {key!r}")

    def first(predicate: str) -> str | None:
        objects = sorted(o.value for o in values.get(predicate, []))
        return objects[0] if objects else None

    refs = _Refs(graph)
    linked = {name: sorted(o.value for o in values.get(PKG + name, [])
                           if isinstance(o, pyoxigraph.NamedNode)) for name in LINKS}
    facts = _claim_facts(iri)
    refs_wanted = [t for targets in linked.values() for t in targets]
    for props in facts.values():
        for predicate in ("about", "metric", "dataset", "model", "baseline"):
            refs_wanted += [o.value for o in props.get(PKG + predicate, [])
                            if isinstance(o, pyoxigraph.NamedNode)]
    _guard(refs.load, refs_wanted)
    links = {name: [refs(target) for target in targets]
             for name, targets in linked.items() if targets}
    return jsonify({
        "id": f"paper/{key}", "key": key, "iri": iri,
        "title": first(DCTERMS + "title"), "label": first(RDFS + "label"),
        "abstract": first(DCTERMS + "abstract"), "identifier": first(DCTERMS + "identifier"),
        "issued": first(DCTERMS + "issued"),
        "creators": sorted(o.value for o in values.get(DCTERMS + "creator", [])),
        "venue": first(SCHEMA + "isPartOf"),
        "links": links,
        "claims": _claims(facts, refs),
    })


def _claim_facts(paper_iri: str) -> dict[str, dict[str, list[Any]]]:
    rows = _rows(f"""SELECT ?s ?p ?o WHERE {{
  {{ <{paper_iri}> <{PKG}makesClaim> ?s . ?s ?p ?o }} UNION
  {{ <{paper_iri}> <{PKG}makesClaim> ?c . ?c <{PKG}result> ?s . ?s ?p ?o }} }}""")
    facts: dict[str, dict[str, list[Any]]] = {}
    for subject, predicate, obj in rows:
        facts.setdefault(subject.value, {}).setdefault(predicate.value, []).append(obj)
    return facts


def _claims(facts: dict[str, dict[str, list[Any]]], refs: _Refs) -> list[dict[str, Any]]:
    claims = [iri for iri, props in facts.items()
              if pyoxigraph.NamedNode(PKG + "Claim") in props.get(PREFIXES["rdf"] + "type", [])]

    def one(props: dict[str, list[Any]], predicate: str) -> Any:
        objects = sorted(props.get(predicate, []), key=lambda o: o.value)
        return objects[0] if objects else None

    def entity(props: dict[str, list[Any]], predicate: str) -> dict[str, Any] | None:
        term = one(props, predicate)
        return refs(term.value) if term is not None else None

    def order(iri: str) -> tuple[int, str]:
        tail = iri.rsplit("-", 1)[-1]
        return (int(tail) if tail.isdigit() else 0, iri)

    out = []
    for claim in sorted(claims, key=order):
        props = facts[claim]
        kind, text = one(props, PKG + "claimKind"), one(props, SCHEMA + "text")
        results = []
        for result in sorted(props.get(PKG + "result", []), key=lambda o: order(o.value)):
            detail = facts.get(result.value, {})
            value, unit = one(detail, PKG + "value"), one(detail, PKG + "unit")
            quoted = one(detail, SCHEMA + "text")
            results.append({
                "id": node_id(result.value, _base()), "iri": result.value,
                "metric": entity(detail, PKG + "metric"),
                "value": _number(value.value) if value is not None else None,
                "unit": unit.value if unit is not None else None,
                "dataset": entity(detail, PKG + "dataset"),
                "model": entity(detail, PKG + "model"),
                "baseline": entity(detail, PKG + "baseline"),
                "text": quoted.value if quoted is not None else None,
            })
        out.append({
            "id": node_id(claim, _base()), "iri": claim,
            "kind": kind.value.rsplit("#", 1)[-1] if kind is not None else None,
            "text": text.value if text is not None else None,
            "about": [refs(o.value) for o in sorted(props.get(PKG + "about", []),
                                                    key=lambda o: o.value)],
            "results": results,
        })
    return out


# -- entities ----------------------------------------------------------------------------------


@bp.get("/api/entities")
def entities() -> Response:
    kind = request.args.get("type", "").strip() or None
    if kind is not None and kind not in CONCEPT_TYPES:
        raise ApiError(400, f"parameter 'type': unknown entity type {kind!r}; known types: "
                       f"{', '.join(CONCEPT_TYPES)}")
    q = request.args.get("q", "").strip()
    limit = _int_param("limit", 50, 1, 1000)
    total, found = _index().entities(kind, q, limit)
    return jsonify({"entities": found, "total": total})


@bp.get("/api/entities/<type_>/<slug>")
def entity(type_: str, slug: str) -> Response:
    if type_ not in CONCEPT_TYPES:
        raise ApiError(404, f"no entity type {type_!r}; types: {', '.join(CONCEPT_TYPES)}")
    graph = _graph()
    iri = _iri(type_, slug)
    node = _guard(graph.describe, [iri]).get(iri)
    if node is None or node["type"] != type_:
        raise ApiError(404, f"no {type_} {slug!r}")
    refs = _Refs(graph)
    broader = [row[0].value for row in _rows(
        f"SELECT ?b WHERE {{ <{iri}> <{SKOS}broader> ?b }} ORDER BY ?b")]
    linking = _guard(graph.papers_of, iri)
    _guard(refs.load, [*broader, *(paper for paper, _ in linking)])
    return jsonify({
        **node,
        "aliases": _guard(graph.aliases, [iri])[iri],
        "broader": [refs(b) for b in broader],
        "papers": [{**refs(paper), "relations": relations} for paper, relations in linking],
        "cooccurring": _guard(graph.cooccurring, iri, limit=20),
    })


# -- search ------------------------------------------------------------------------------------


@bp.get("/api/search")
def search() -> Response:
    q = _required("q")
    limit = _int_param("limit", 20, 1, 100)
    types = _types_param("types")
    total, results = _index().search(q, types, limit)
    return jsonify({"q": q, "total": total, "results": results})


# -- graph questions ---------------------------------------------------------------------------


def _node_limit() -> int:
    return int(services().settings["graph_node_limit"])


@bp.get("/api/neighbourhood")
def neighbourhood() -> Response:
    graph = _graph()
    centre = _node_param(graph, "node")
    depth = _int_param("depth", 1, 1, MAX_DEPTH)
    types = _types_param("types")
    cap = _node_limit()
    limit = _int_param("limit", min(100, cap), 1, cap)
    nodes, edges, truncated = _guard(graph.neighbourhood, centre["iri"], depth=depth,
                                     types=types, limit=limit)
    return jsonify({"centre": centre["id"], "nodes": nodes, "edges": edges,
                    "truncated": truncated})


@bp.get("/api/path")
def path() -> Response:
    graph = _graph()
    source, target = _node_param(graph, "from"), _node_param(graph, "to")
    max_paths = _int_param("max", 3, 1, 10)
    paths = _guard(graph.shortest_paths, source["iri"], target["iri"], max_paths=max_paths)
    on_paths = sorted({node for found in paths for node in found})
    described = _guard(graph.describe, [node_iri(n, _base()) for n in on_paths])
    return jsonify({
        "from": source["id"], "to": target["id"],
        "length": len(paths[0]) - 1 if paths else None, "paths": paths,
        "nodes": [described[node_iri(n, _base())] for n in on_paths]})


@bp.get("/api/similar")
def similar() -> Response:
    graph = _graph()
    node = _node_param(graph, "paper")
    if node["type"] != "paper":
        raise ApiError(400, f"parameter 'paper': {node['id']!r} is not a paper")
    k = _int_param("k", 10, 1, 100)
    count = services().cached("paper_count", graph.paper_count)
    return jsonify({"paper": node,
                    "similar": _guard(graph.similar_papers, node["iri"], k=k, papers=count)})


# -- linked-data resources ---------------------------------------------------------------------

RESOURCE_FORMATS = {"text/turtle": "TURTLE", "application/ld+json": "JSON_LD",
                    "application/n-triples": "N_TRIPLES", "application/rdf+xml": "RDF_XML"}


def _description(iri: str) -> list[pyoxigraph.Triple]:
    """The resource's own triples plus the labels and titles of what it links to."""
    labels = f"<{RDFS}label> <{SKOS}prefLabel> <{DCTERMS}title>"
    triples = list(services().store.query(f"""CONSTRUCT {{ <{iri}> ?p ?o . ?o ?lp ?l }} WHERE {{
  <{iri}> ?p ?o OPTIONAL {{ VALUES ?lp {{ {labels} }} ?o ?lp ?l FILTER(isIRI(?o)) }} }}"""))
    subject = pyoxigraph.NamedNode(iri)
    # Own triples first, then the labels, each in a stable order.
    return sorted(triples, key=lambda t: (t.subject != subject, str(t.subject),
                                          str(t.predicate), str(t.object)))


def _page_url(type_: str, slug: str) -> str | None:
    if type_ not in PAGE_TYPES:
        return None
    try:
        if type_ == "paper":
            return url_for("pages.paper", key=slug)
        return url_for("pages.entity", type_=type_, slug=slug)
    except BuildError:
        return None


def _html_resource(iri: str, triples: list[pyoxigraph.Triple]) -> Response:
    base = _base()
    subject = pyoxigraph.NamedNode(iri)

    def cell(term: Any) -> str:
        if isinstance(term, pyoxigraph.NamedNode):
            text = html.escape(term.value)
            parts = term.value[len(base):].split("/")
            if term.value.startswith(base) and len(parts) == 2 and parts[0] in RESOURCE_TYPES:
                href = html.escape(url_for("graph.resource", type_=parts[0], slug=parts[1]))
                return f'<a href="{href}">{text}</a>'
            return text
        if isinstance(term, pyoxigraph.Literal):
            return html.escape(term.value)
        return html.escape(str(term))

    rows = "".join(f"<tr><td>{cell(t.predicate)}</td><td>{cell(t.object)}</td></tr>"
                   for t in triples if t.subject == subject)
    title = next((t.object.value for t in triples if t.subject == subject and t.predicate.value
                  in {RDFS + "label", SKOS + "prefLabel", DCTERMS + "title"}), iri)
    body = (f"<!doctype html><html lang=en><meta charset=utf-8>"
            f"<title>{html.escape(title)}</title><h1>{html.escape(title)}</h1>"
            f"<p><code>{html.escape(iri)}</code></p><table>{rows}</table></html>")
    return Response(body, mimetype="text/html")


@bp.get("/id/<type_>/<slug>")
def resource(type_: str, slug: str) -> Response:
    if type_ not in RESOURCE_TYPES:
        raise ApiError(404, f"no resource type {type_!r}; types: {', '.join(RESOURCE_TYPES)}")
    iri = _iri(type_, slug)
    offered = ["text/turtle", "text/html", "application/ld+json", "application/n-triples",
               "application/rdf+xml"]
    media_type = request.accept_mimetypes.best_match(offered) if request.headers.get(
        "Accept") else "text/turtle"
    if media_type is None:
        raise ApiError(406, f"cannot answer with any type in Accept: "
                       f"{request.headers.get('Accept')}; offered: {', '.join(offered)}")
    triples = _description(iri)
    if not triples:
        raise ApiError(404, f"no {type_} {slug!r}")
    if media_type == "text/html":
        page = _page_url(type_, slug)
        if page is not None:
            response = redirect(page, code=303)
        else:
            response = _html_resource(iri, triples)
    else:
        fmt = getattr(pyoxigraph.RdfFormat, RESOURCE_FORMATS[media_type])
        prefixes = PREFIXES if media_type in {"text/turtle", "application/rdf+xml"} else None
        body = pyoxigraph.serialize(triples, format=fmt, prefixes=prefixes)
        response = Response(body, content_type=f"{media_type}; charset=utf-8")
    response.headers["Vary"] = "Accept"
    return response  # type: ignore[return-value]


# -- exports and health ------------------------------------------------------------------------


def _exports_dir() -> Path:
    return Path(services().settings["exports_dir"]).resolve()


def _export_files(folder: Path) -> Iterable[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*")
                  if p.is_file() and not any(part.startswith(".")
                                             for part in p.relative_to(folder).parts))


@bp.get("/exports/")
def exports() -> Response:
    folder = _exports_dir()
    return jsonify({"files": [
        {"name": p.relative_to(folder).as_posix(), "bytes": p.stat().st_size,
         "url": url_for("graph.export_file", name=p.relative_to(folder).as_posix())}
        for p in _export_files(folder)]})


@bp.get("/exports/<path:name>")
def export_file(name: str) -> Response:
    if any(part.startswith(".") for part in name.replace("\\", "/").split("/")):
        raise ApiError(404, f"no export file {name!r}")
    folder = _exports_dir()
    suffix = Path(name).suffix.lower()
    response = send_from_directory(folder, name, mimetype=EXPORT_TYPES.get(suffix),
                                   max_age=0)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    state = services()
    try:
        generation = state.generation()
    except StoreError as exc:
        response = jsonify({"status": "unavailable", "message": str(exc)})
        response.status_code = 503
        return response
    return jsonify({"status": "ok", "store": str(state.settings["store"]),
                    "generation": generation})
