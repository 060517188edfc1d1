"""The JSON graph API (`/api/*`), linked-data resources (`/id/*`), export files
(`/exports/*`) and `/healthz`: the `graph` blueprint and its routes.

Every answer comes from the store, bounded by the question: graph walks (neighbourhood, path,
similar papers, an entity's co-occurring entities) are SPARQL queries over the part of the
graph they touch (graph.network.store_graph), and lists, search and name lookup read the search
index built with the store (graph.network.search_index, one SQLite file per store generation).
Nothing holds the whole graph in memory, so a server's size does not grow with the store's, and a
remote SPARQL store is served the same way. Bad parameters are 400 naming the parameter;
unknown nodes are 404.

Modules: `access` (the store, the index, 503 when they cannot answer), `params` (query
parameters and node names), `questions` (the JSON answers), `papers` (a paper as JSON),
`resources` (`/id/*` in RDF or HTML) and `files` (exports and health).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response

from api.graph_api import files, questions, resources

bp = Blueprint("graph", __name__)

#: Every route of the blueprint (all GET); an endpoint is named for its view function.
ROUTES: tuple[tuple[str, Callable[..., Response]], ...] = (
    ("/api/papers", questions.papers),
    ("/api/papers/<path:key>", questions.paper),
    ("/api/entities", questions.entities),
    ("/api/entities/<type_>/<slug>", questions.entity),
    ("/api/search", questions.search),
    ("/api/neighbourhood", questions.neighbourhood),
    ("/api/path", questions.path),
    ("/api/similar", questions.similar),
    ("/id/<type_>/<slug>", resources.resource),
    ("/exports/", files.exports),
    ("/exports/<path:name>", files.export_file),
    ("/healthz", files.healthz),
)
for _rule, _view in ROUTES:
    bp.add_url_rule(_rule, view_func=_view, methods=["GET"])

__all__ = ["ROUTES", "bp"]
