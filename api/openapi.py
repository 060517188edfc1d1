"""`/openapi.json`: an OpenAPI 3.1 description of every route the app serves.

Routes of this package are described in full below; any other route the app has (the web
pages) gets a generic HTML entry, so the spec always lists every route.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify

import graph
from graph.vocab import CONCEPT_TYPES, LINKS, NODE_TYPES

bp = Blueprint("openapi", __name__)

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    words = {400: "Bad parameter", 403: "Refused", 404: "Not found", 406: "Not acceptable",
             413: "Request too large", 429: "Too many requests",
             503: "Time limit exceeded or store unavailable"}
    return {str(s): {"$ref": f"#/components/responses/E{s}"} for s in statuses if s in words}


def _param(name: str, schema: dict[str, Any], description: str, *, where: str = "query",
           required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": where, "required": required or where == "path",
            "description": description, "schema": schema}


INT = {"type": "integer"}
STR = {"type": "string"}
NODE_PARAM_HELP = "an IRI, `type/slug` or `paper/key`"
_TYPE = "|".join(NODE_TYPES)
TYPES_PARAM = _param("types", {"type": "string", "pattern": f"^({_TYPE})(,({_TYPE}))*$"},
                     "comma-separated node types to keep")

SCHEMAS: dict[str, Any] = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {
        "type": "object", "required": ["status", "message"],
        "properties": {"status": INT, "message": STR}}}},
    "Node": {"type": "object", "required": ["id", "iri", "type", "label", "support"],
             "properties": {"id": STR, "iri": {"type": "string", "format": "iri"},
                            "type": STR, "label": STR,
                            "support": {"type": ["integer", "null"]}}},
    "Edge": {"type": "object", "required": ["source", "target", "relation"],
             "properties": {"source": STR, "target": STR,
                            "relation": {"type": "string", "enum": list(LINKS)}}},
    "Entity": {"allOf": [_ref("Node"), {"type": "object", "required": ["aliases"],
                                        "properties": {"aliases": {"type": "array",
                                                                   "items": STR}}}]},
    "Result": {"type": "object", "properties": {
        "id": STR, "iri": STR, "metric": {"oneOf": [_ref("Node"), {"type": "null"}]},
        "value": {"type": ["number", "string", "null"]}, "unit": {"type": ["string", "null"]},
        "dataset": {"oneOf": [_ref("Node"), {"type": "null"}]},
        "model": {"oneOf": [_ref("Node"), {"type": "null"}]},
        "baseline": {"oneOf": [_ref("Node"), {"type": "null"}]},
        "text": {"type": ["string", "null"]}}},
    "Claim": {"type": "object", "required": ["id", "iri", "kind", "text", "about", "results"],
              "properties": {"id": STR, "iri": STR, "kind": {"type": ["string", "null"]},
                             "text": {"type": ["string", "null"]},
                             "about": {"type": "array", "items": _ref("Node")},
                             "results": {"type": "array", "items": _ref("Result")}}},
}

RESPONSES = {
    f"E{status}": {"description": text, "content": {JSON: {"schema": _ref("Error")}}}
    for status, text in [(400, "A bad parameter, named in the message"),
                         (403, "Refused: the endpoint is read-only"),
                         (404, "No such resource"), (406, "No acceptable media type"),
                         (413, "Request larger than max_request_bytes"),
                         (429, "Rate limit exceeded; see Retry-After"),
                         (503, "Query time limit exceeded, workers busy or store unavailable; "
                               "see Retry-After")]
}

SPARQL_PARAMS = [
    _param("query", STR, "a SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE); without "
           "it the Service Description is returned"),
    _param("default-graph-uri", {"type": "array", "items": STR}, "default graph IRIs"),
    _param("named-graph-uri", {"type": "array", "items": STR}, "named graph IRIs"),
]
SPARQL_RESPONSES = {
    "200": {"description": "Query results, or the Service Description",
            "content": {media: {"schema": STR} for media in (
                "application/sparql-results+json", "application/sparql-results+xml",
                "text/csv", "text/tab-separated-values", "text/turtle",
                "application/n-triples", "application/ld+json", "application/rdf+xml")}},
    "303": {"description": "Browsers asking for HTML without a query go to the query page"},
    **_errors(400, 403, 406, 413, 429, 503),
}

OPERATIONS: dict[str, dict[str, Any]] = {
    "/sparql": {
        "get": {"tags": ["sparql"], "summary": "SPARQL 1.1 query by GET",
                "parameters": SPARQL_PARAMS, "responses": SPARQL_RESPONSES},
        "post": {"tags": ["sparql"], "summary": "SPARQL 1.1 query by POST (form or direct)",
                 "parameters": SPARQL_PARAMS[1:],
                 "requestBody": {"required": True, "content": {
                     "application/x-www-form-urlencoded": {"schema": {
                         "type": "object", "required": ["query"],
                         "properties": {"query": STR,
                                        "default-graph-uri": {"type": "array", "items": STR},
                                        "named-graph-uri": {"type": "array", "items": STR}}}},
                     "application/sparql-query": {"schema": STR}}},
                 "responses": SPARQL_RESPONSES},
    },
    "/api/papers": {"get": {
        "tags": ["graph"], "summary": "Papers, paged, by key",
        "parameters": [_param("page", {"type": "integer", "minimum": 1}, "page number"),
                       _param("per_page", {"type": "integer", "minimum": 1, "maximum": 200},
                              "papers per page (20)")],
        "responses": {"200": _json({"type": "object",
                                    "required": ["papers", "page", "per_page", "pages", "total"],
                                    "properties": {"papers": {"type": "array",
                                                              "items": _ref("Node")},
                                                   "page": INT, "per_page": INT, "pages": INT,
                                                   "total": INT}}),
                      **_errors(400, 429)}}},
    "/api/papers/{key}": {"get": {
        "tags": ["graph"], "summary": "One paper with its links grouped by relation and its "
        "claims with their results",
        "parameters": [_param("key", STR, "the paper's key", where="path")],
        "responses": {"200": _json({"type": "object", "required": ["id", "iri", "links",
                                                                   "claims"],
                                    "properties": {
                                        "id": STR, "key": STR, "iri": STR,
                                        "title": {"type": ["string", "null"]},
                                        "abstract": {"type": ["string", "null"]},
                                        "links": {"type": "object", "additionalProperties": {
                                            "type": "array", "items": _ref("Node")}},
                                        "claims": {"type": "array", "items": _ref("Claim")}}}),
                      **_errors(404, 429)}}},
    "/api/entities": {"get": {
        "tags": ["graph"], "summary": "Entities by support",
        "parameters": [_param("type", {"type": "string", "enum": list(CONCEPT_TYPES)},
                              "entity type"),
                       _param("q", STR, "text in the label or an alias"),
                       _param("limit", {"type": "integer", "minimum": 1, "maximum": 1000},
                              "most entities (50)")],
        "responses": {"200": _json({"type": "object", "required": ["entities", "total"],
                                    "properties": {"entities": {"type": "array",
                                                                "items": _ref("Entity")},
                                                   "total": INT}}),
                      **_errors(400, 429)}}},
    "/api/entities/{type_}/{slug}": {"get": {
        "tags": ["graph"], "summary": "One entity with its papers, aliases and co-occurring "
        "entities",
        "parameters": [_param("type_", {"type": "string", "enum": list(CONCEPT_TYPES)},
                              "entity type", where="path"),
                       _param("slug", STR, "entity slug", where="path")],
        "responses": {"200": _json({"allOf": [_ref("Entity"), {"type": "object", "properties": {
            "papers": {"type": "array", "items": _ref("Node")},
            "cooccurring": {"type": "array", "items": _ref("Node")},
            "broader": {"type": "array", "items": _ref("Node")}}}]}),
                      **_errors(404, 429)}}},
    "/api/search": {"get": {
        "tags": ["graph"], "summary": "Labels, aliases and titles across types, ranked",
        "parameters": [_param("q", {"type": "string", "minLength": 1}, "search text",
                              required=True),
                       _param("limit", {"type": "integer", "minimum": 1, "maximum": 100},
                              "most results (20)"), TYPES_PARAM],
        "responses": {"200": _json({"type": "object", "required": ["q", "total", "results"],
                                    "properties": {"q": STR, "total": INT, "results": {
                                        "type": "array", "items": _ref("Node")}}}),
                      **_errors(400, 429)}}},
    "/api/neighbourhood": {"get": {
        "tags": ["graph"], "summary": "k-hop subgraph around a node",
        "parameters": [_param("node", STR, NODE_PARAM_HELP, required=True),
                       _param("depth", {"type": "integer", "minimum": 1, "maximum": 3},
                              "hops (1)"),
                       TYPES_PARAM,
                       _param("limit", {"type": "integer", "minimum": 1},
                              "most nodes (100, at most the graph_node_limit setting)")],
        "responses": {"200": _json({"type": "object",
                                    "required": ["centre", "nodes", "edges", "truncated"],
                                    "properties": {"centre": STR,
                                                   "nodes": {"type": "array",
                                                             "items": _ref("Node")},
                                                   "edges": {"type": "array",
                                                             "items": _ref("Edge")},
                                                   "truncated": {"type": "boolean"}}}),
                      **_errors(400, 404, 429)}}},
    "/api/path": {"get": {
        "tags": ["graph"], "summary": "Shortest paths between two nodes",
        "parameters": [_param("from", STR, NODE_PARAM_HELP, required=True),
                       _param("to", STR, NODE_PARAM_HELP, required=True),
                       _param("max", {"type": "integer", "minimum": 1, "maximum": 10},
                              "most paths (3)")],
        "responses": {"200": _json({"type": "object",
                                    "required": ["from", "to", "length", "paths", "nodes"],
                                    "properties": {"from": STR, "to": STR,
                                                   "length": {"type": ["integer", "null"]},
                                                   "paths": {"type": "array", "items": {
                                                       "type": "array", "items": STR}},
                                                   "nodes": {"type": "array",
                                                             "items": _ref("Node")}}}),
                      **_errors(400, 404, 429)}}},
    "/api/similar": {"get": {
        "tags": ["graph"], "summary": "Papers sharing the most entities (rare ones weigh more)",
        "parameters": [_param("paper", STR, "a paper key, `paper/key` or IRI", required=True),
                       _param("k", {"type": "integer", "minimum": 1, "maximum": 100},
                              "most papers (10)")],
        "responses": {"200": _json({"type": "object", "required": ["paper", "similar"],
                                    "properties": {"paper": _ref("Node"), "similar": {
                                        "type": "array", "items": _ref("Node")}}}),
                      **_errors(400, 404, 429)}}},
    "/id/{type_}/{slug}": {"get": {
        "tags": ["linked data"], "summary": "A resource: its triples and the labels of what "
        "it links to; HTML for browsers",
        "parameters": [_param("type_", STR, "resource type", where="path"),
                       _param("slug", STR, "slug or key", where="path")],
        "responses": {"200": {"description": "The resource description", "content": {
            media: {"schema": STR} for media in ("text/turtle", "application/ld+json",
                                                  "application/n-triples",
                                                  "application/rdf+xml", "text/html")}},
                      "303": {"description": "Browsers go to the resource's page"},
                      **_errors(404, 406, 429)}}},
    "/exports/": {"get": {
        "tags": ["exports"], "summary": "The export files",
        "responses": {"200": _json({"type": "object", "required": ["files"], "properties": {
            "files": {"type": "array", "items": {"type": "object", "properties": {
                "name": STR, "bytes": INT, "url": STR}}}}}), **_errors(429)}}},
    "/exports/{name}": {"get": {
        "tags": ["exports"], "summary": "One export file",
        "parameters": [_param("name", STR, "file name under the exports folder",
                              where="path")],
        "responses": {"200": {"description": "The file", "content": {"*/*": {"schema": STR}}},
                      **_errors(404, 429)}}},
    "/healthz": {"get": {
        "tags": ["service"], "summary": "Liveness: the store can be read",
        "responses": {"200": _json({"type": "object", "required": ["status"], "properties": {
            "status": {"type": "string", "enum": ["ok"]}, "store": STR, "generation": STR}}),
                      "503": _json({"type": "object"}, "The store cannot be read")}}},
    "/openapi.json": {"get": {
        "tags": ["service"], "summary": "This document",
        "responses": {"200": _json({"type": "object"})}}},
}

_CONVERTER = re.compile(r"<(?:[a-z]+:)?([A-Za-z_][A-Za-z0-9_]*)>")


def openapi_path(rule: str) -> str:
    """A Flask rule as an OpenAPI path: `/id/<type_>/<path:slug>` -> `/id/{type_}/{slug}`."""
    return _CONVERTER.sub(r"{\1}", rule)


def _html(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"text/html": {"schema": STR}}}


# Errors of the web pages are HTML pages, not the API's JSON shape (api/errors.py).
PAGE_RESPONSES = {
    "200": _html("HTML"),
    "400": _html("A bad or missing parameter, named in the page"),
    "404": _html("No such paper, entity or node"),
    "413": _html("Request larger than max_request_bytes"),
    "429": _html("Rate limit exceeded"),
}


def _generic(rule: str, methods: set[str]) -> dict[str, Any]:
    names = _CONVERTER.findall(rule)
    return {method.lower(): {
        "tags": ["pages"], "summary": "Web page",
        "parameters": [_param(name, STR, name, where="path") for name in names],
        "responses": PAGE_RESPONSES} for method in sorted(methods)}


def spec(app: Flask) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        path = openapi_path(rule.rule)
        methods = set(rule.methods or ()) - {"HEAD", "OPTIONS"}
        if path in OPERATIONS:
            paths[path] = OPERATIONS[path]
        else:
            paths.setdefault(path, {}).update(_generic(rule.rule, methods))
    return {
        "openapi": "3.1.0",
        "info": {"title": "paperkg", "version": graph.__version__,
                 "description": "SPARQL 1.1 endpoint, JSON graph API and linked-data "
                 "resources over a knowledge graph of research papers. Errors are "
                 '`{"error": {"status": N, "message": "..."}}`.'},
        "paths": paths,
        "components": {"schemas": SCHEMAS, "responses": RESPONSES},
    }


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(spec(current_app))  # type: ignore[arg-type]
