"""/openapi.json: OpenAPI 3.1 that lists every route, with parameters and resolvable
references; schemathesis drives the graph API from it and finds no server error."""

from __future__ import annotations

import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

from api.openapi import openapi_path


@pytest.fixture(scope="module")
def document(app):
    response = app.test_client().get("/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def test_version_and_info(document):
    assert document["openapi"] == "3.1.0"
    assert document["info"]["title"] == "paperkg"


def test_every_route_is_described(app, document):
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        path = openapi_path(rule.rule)
        assert path in document["paths"], path
        for method in set(rule.methods) - {"HEAD", "OPTIONS"}:
            assert method.lower() in document["paths"][path], (path, method)


def test_api_routes_are_all_there(document):
    for path in ["/sparql", "/api/papers", "/api/papers/{key}", "/api/entities",
                 "/api/entities/{type_}/{slug}", "/api/search", "/api/neighbourhood",
                 "/api/path", "/api/similar", "/id/{type_}/{slug}", "/exports/{name}",
                 "/healthz", "/openapi.json"]:
        assert path in document["paths"], path
    assert set(document["paths"]["/sparql"]) == {"get", "post"}


def test_path_parameters_are_declared(document):
    for path, operations in document["paths"].items():
        names = set(re.findall(r"{([^}]+)}", path))
        for operation in operations.values():
            declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert declared == names, path
            assert operation["responses"], path


def _refs(node, found):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                found.append(value)
            else:
                _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)
    return found


def test_references_resolve(document):
    for ref in _refs(document, []):
        assert ref.startswith("#/")
        target = document
        for part in ref[2:].split("/"):
            assert part in target, ref
            target = target[part]


def test_error_responses_use_the_error_schema(document):
    for status in ("400", "404", "429", "503"):
        schema = document["components"]["responses"][f"E{status}"]["content"][
            "application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/Error"}


def test_graph_api_has_no_server_errors(make_app):
    fuzz_app = make_app(rate_limit=0)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", fuzz_app)
    tried = []
    for result in schema.include(path_regex=r"^/api/").get_all_operations():
        operation = result.ok()
        tried.append(operation.path)

        @given(case=operation.as_strategy())
        @settings(max_examples=6, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def call(case):
            case.call_and_validate(checks=[checks.not_a_server_error,
                                           checks.response_schema_conformance,
                                           checks.status_code_conformance])

        call()
    assert len(tried) == 8
