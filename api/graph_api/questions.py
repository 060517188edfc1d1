"""The JSON answers of the graph API: papers, entities, search and the graph questions
(neighbourhood, path, similar papers)."""

from __future__ import annotations

from flask import Response, jsonify, request

from api.context import services
from api.errors import ApiError
from api.graph_api.access import base, graph, guard, index, node_limit, rows
from api.graph_api.papers import Refs, is_paper, paper_json, paper_values
from api.graph_api.params import (
    int_param,
    iri_of,
    node_param,
    paper_iri,
    required,
    types_param,
)
from graph.network import node_iri
from graph.vocab import CONCEPT_TYPES, SKOS, paper_key_of

MAX_DEPTH = 3


# -- papers ------------------------------------------------------------------------------------


def papers() -> Response:
    found = index()
    per_page = int_param("per_page", 20, 1, 200)
    total, _ = found.papers(0, 0)
    pages = max(1, -(-total // per_page))
    page = int_param("page", 1, 1, pages)
    _, chosen = found.papers((page - 1) * per_page, per_page)
    return jsonify({
        "papers": [{**node, "key": node["id"].split("/", 1)[1]} for node in chosen],
        "page": page, "per_page": per_page, "pages": pages, "total": total,
    })


def paper(key: str) -> Response:
    questions = graph()
    iri = paper_iri(key)
    key = paper_key_of(iri, base()) or key
    values = paper_values(iri)
    if not is_paper(values):
        raise ApiError(404, f"no paper {key!r}")
    return jsonify(paper_json(questions, iri, key, values))


# -- entities ----------------------------------------------------------------------------------


def entities() -> Response:
    kind = request.args.get("type", "").strip() or None
    if kind is not None and kind not in CONCEPT_TYPES:
        raise ApiError(400, f"parameter 'type': unknown entity type {kind!r}; known types: "
                       f"{', '.join(CONCEPT_TYPES)}")
    q = request.args.get("q", "").strip()
    limit = int_param("limit", 50, 1, 1000)
    total, found = index().entities(kind, q, limit)
    return jsonify({"entities": found, "total": total})


def entity(type_: str, slug: str) -> Response:
    if type_ not in CONCEPT_TYPES:
        raise ApiError(404, f"no entity type {type_!r}; types: {', '.join(CONCEPT_TYPES)}")
    questions = graph()
    iri = iri_of(type_, slug)
    node = guard(questions.describe, [iri]).get(iri)
    if node is None or node["type"] != type_:
        raise ApiError(404, f"no {type_} {slug!r}")
    refs = Refs(questions)
    broader = [row[0].value for row in rows(
        f"SELECT ?b WHERE {{ <{iri}> <{SKOS}broader> ?b }} ORDER BY ?b")]
    linking = guard(questions.papers_of, iri)
    guard(refs.load, [*broader, *(paper for paper, _ in linking)])
    return jsonify({
        **node,
        "aliases": guard(questions.aliases, [iri])[iri],
        "broader": [refs(b) for b in broader],
        "papers": [{**refs(paper), "relations": relations} for paper, relations in linking],
        "cooccurring": guard(questions.cooccurring, iri, limit=20),
    })


# -- search ------------------------------------------------------------------------------------


def search() -> Response:
    q = required("q")
    limit = int_param("limit", 20, 1, 100)
    types = types_param("types")
    total, results = index().search(q, types, limit)
    return jsonify({"q": q, "total": total, "results": results})


# -- graph questions ---------------------------------------------------------------------------


def neighbourhood() -> Response:
    questions = graph()
    centre = node_param(questions, "node")
    depth = int_param("depth", 1, 1, MAX_DEPTH)
    types = types_param("types")
    cap = node_limit()
    limit = int_param("limit", min(100, cap), 1, cap)
    nodes, edges, truncated = guard(questions.neighbourhood, centre["iri"], depth=depth,
                                    types=types, limit=limit)
    return jsonify({"centre": centre["id"], "nodes": nodes, "edges": edges,
                    "truncated": truncated})


def path() -> Response:
    questions = graph()
    source, target = node_param(questions, "from"), node_param(questions, "to")
    max_paths = int_param("max", 3, 1, 10)
    paths = guard(questions.shortest_paths, source["iri"], target["iri"], max_paths=max_paths)
    on_paths = sorted({node for found in paths for node in found})
    described = guard(questions.describe, [node_iri(n, base()) for n in on_paths])
    return jsonify({
        "from": source["id"], "to": target["id"],
        "length": len(paths[0]) - 1 if paths else None, "paths": paths,
        "nodes": [described[node_iri(n, base())] for n in on_paths]})


def similar() -> Response:
    questions = graph()
    node = node_param(questions, "paper")
    if node["type"] != "paper":
        raise ApiError(400, f"parameter 'paper': {node['id']!r} is not a paper")
    k = int_param("k", 10, 1, 100)
    count = services().cached("paper_count", questions.paper_count)
    return jsonify({"paper": node,
                    "similar": guard(questions.similar_papers, node["iri"], k=k, papers=count)})
