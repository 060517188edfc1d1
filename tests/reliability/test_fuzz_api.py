"""Every operation of /openapi.json fuzzed with schemathesis against a graph built from a
hostile corpus: no server error, and every response conforms to the spec (status, content
type, headers, body schema). The defects it found have targeted tests below."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

CHECKS = [checks.not_a_server_error, checks.status_code_conformance,
          checks.content_type_conformance, checks.response_headers_conformance,
          checks.response_schema_conformance]
def test_every_operation_survives_fuzzing_and_keeps_to_the_spec(hostile_app) -> None:
    schema = schemathesis.openapi.from_wsgi("/openapi.json", hostile_app)
    tried, failures = [], []
    for result in schema.get_all_operations():
        operation = result.ok()
        name = f"{operation.method.upper()} {operation.path}"
        tried.append(name)

        @given(case=operation.as_strategy())
        @settings(max_examples=8, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def call(case) -> None:
            case.call_and_validate(checks=CHECKS)

        try:
            call()
        except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - gather them all
            failures.append(f"{name}: {str(exc)[:1500]}")
    assert len(tried) >= 15, tried
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("param", ["default-graph-uri", "named-graph-uri"])
@pytest.mark.parametrize("value", ["not an iri", "http://x/\u009d", ""])
def test_an_invalid_graph_iri_is_a_400(hostile_app, param: str, value: str) -> None:
    response = hostile_app.test_client().get(
        "/sparql", query_string={"query": "ASK { ?s ?p ?o }", param: value})
    assert response.status_code == 400
    assert response.get_json()["error"]["status"] == 400
    assert param in response.get_json()["error"]["message"]


@pytest.mark.parametrize("url,path,status", [
    ("/paper/no-such-paper", "/paper/{key}", 404),
    ("/entity/nokind/x", "/entity/{type_}/{slug}", 404),
    ("/viz/neighbourhood", "/viz/neighbourhood", 400),
])
def test_page_errors_are_in_the_spec(hostile_app, url: str, path: str, status: int) -> None:
    client = hostile_app.test_client()
    assert client.get(url).status_code == status
    spec = client.get("/openapi.json").get_json()
    assert str(status) in spec["paths"][path]["get"]["responses"]
