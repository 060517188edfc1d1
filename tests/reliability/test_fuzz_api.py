"""Every operation of /openapi.json fuzzed with schemathesis against a graph built from a
hostile corpus: no server error, and every response conforms to the spec (status, content
type, headers, body schema). Known defects are listed in KNOWN, each with a targeted test
that fails until it is fixed (see docs/security.md)."""

from __future__ import annotations

import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

CHECKS = [checks.not_a_server_error, checks.status_code_conformance,
          checks.content_type_conformance, checks.response_headers_conformance,
          checks.response_schema_conformance]
# Defects reported, not yet fixed: operation -> (the only failure codes allowed, words the
# report must contain). Server error + undocumented status: an invalid graph IRI is a 500.
_IRI_500 = ({"ST101", "ST103"}, "IRI")
# Undocumented status: the spec gives the HTML pages no error statuses.
_PAGE_ERRORS = ({"ST103"}, "Documented: 200")
KNOWN = {
    "GET /sparql": _IRI_500,
    "POST /sparql": _IRI_500,
    "GET /paper/{key}": _PAGE_ERRORS,
    "GET /entity/{type_}/{slug}": _PAGE_ERRORS,
    "GET /viz/neighbourhood": _PAGE_ERRORS,
}


def known(name: str, report: str) -> bool:
    if name not in KNOWN:
        return False
    codes, words = KNOWN[name]
    return set(re.findall(r"- (ST\d+) ", report)) <= codes and words in report


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
            if not known(name, str(exc)):
                failures.append(f"{name}: {str(exc)[:1500]}")
    assert len(tried) >= 15, tried
    assert not failures, "\n\n".join(failures)


@pytest.mark.xfail(strict=True, reason="api/sparql.py passes graph IRIs unchecked to the "
                   "store: 500 (fix proposed in docs/security.md)")
@pytest.mark.parametrize("param", ["default-graph-uri", "named-graph-uri"])
@pytest.mark.parametrize("value", ["not an iri", "http://x/\u009d", ""])
def test_an_invalid_graph_iri_is_a_400(hostile_app, param: str, value: str) -> None:
    response = hostile_app.test_client().get(
        "/sparql", query_string={"query": "ASK { ?s ?p ?o }", param: value})
    assert response.status_code == 400
    assert response.get_json()["error"]["status"] == 400
    assert param in response.get_json()["error"]["message"]


@pytest.mark.xfail(strict=True, reason="api/openapi.py documents only 200 for the web pages "
                   "(fix proposed in docs/security.md)")
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
