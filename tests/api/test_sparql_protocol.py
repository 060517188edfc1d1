"""SPARQL 1.1 Protocol conformance of /sparql: the three ways to send a query, the dataset
parameters, content negotiation, the Service Description, and the negative cases of the
W3C protocol test suite (answered with the API's JSON error shape)."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import quote

import pytest
import rdflib
from conftest import BASE, PROVENANCE
from rdflib.compare import isomorphic
from rdflib.namespace import RDFS

LABEL_OF_TRANSFORMER = (
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
    f"SELECT ?label WHERE {{ <{BASE}method/transformer> rdfs:label ?label }}"
)
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
LABELS_OF_TASKS = (
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
    "PREFIX pkg: <https://w3id.org/paperkg/ns#> "
    "CONSTRUCT { ?t rdfs:label ?l } WHERE { ?t a pkg:Task ; rdfs:label ?l }"
)


def _bindings(response) -> list[dict[str, str]]:
    document = json.loads(response.data)
    return [{name: term["value"] for name, term in row.items()}
            for row in document["results"]["bindings"]]


def _error(response, status: int) -> str:
    assert response.status_code == status, response.data
    assert response.mimetype == "application/json"
    document = json.loads(response.data)
    assert set(document) == {"error"}
    assert document["error"]["status"] == status
    return document["error"]["message"]


def _expected_task_graph() -> rdflib.Graph:
    graph = rdflib.Graph()
    for slug, label in (("image-classification", "Image Classification"),
                        ("node-classification", "Node Classification"),
                        ("question-answering", "Question Answering")):
        graph.add((rdflib.URIRef(f"{BASE}task/{slug}"), RDFS.label, rdflib.Literal(label)))
    return graph


# -- the three ways ------------------------------------------------------------------------------


def test_query_by_get(client):
    response = client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER})
    assert response.status_code == 200
    assert response.mimetype == "application/sparql-results+json"
    assert _bindings(response) == [{"label": "Transformer"}]


def test_query_by_form_post(client):
    response = client.post("/sparql", data={"query": LABEL_OF_TRANSFORMER})
    assert response.status_code == 200
    assert _bindings(response) == [{"label": "Transformer"}]


def test_query_by_direct_post(client):
    response = client.post("/sparql", data=LABEL_OF_TRANSFORMER.encode(),
                           content_type="application/sparql-query; charset=utf-8")
    assert response.status_code == 200
    assert _bindings(response) == [{"label": "Transformer"}]


def test_count_of_default_graph(client):
    response = client.get("/sparql", query_string={"query": COUNT_ALL})
    assert _bindings(response) == [{"n": "225"}]


# -- dataset -------------------------------------------------------------------------------------


def test_default_graph_uri_selects_the_provenance_graph(client):
    response = client.get("/sparql", query_string={"query": COUNT_ALL,
                                                   "default-graph-uri": PROVENANCE})
    assert _bindings(response) == [{"n": "13"}]


def test_default_graph_uri_with_direct_post(client):
    response = client.post(f"/sparql?default-graph-uri={quote(PROVENANCE, safe='')}",
                           data=COUNT_ALL, content_type="application/sparql-query")
    assert _bindings(response) == [{"n": "13"}]


def test_default_graph_uri_in_form_post(client):
    response = client.post("/sparql", data={"query": COUNT_ALL, "default-graph-uri": PROVENANCE})
    assert _bindings(response) == [{"n": "13"}]


def test_two_default_graph_uris_merge(client):
    # The provenance graph and a graph the store does not have: still 13 triples.
    response = client.get("/sparql", query_string=[("query", COUNT_ALL),
                                                   ("default-graph-uri", PROVENANCE),
                                                   ("default-graph-uri", "urn:x-none")])
    assert _bindings(response) == [{"n": "13"}]


def test_named_graph_uri_limits_graph_patterns(client):
    query = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"
    everything = client.get("/sparql", query_string={"query": query})
    assert _bindings(everything) == [{"g": PROVENANCE}]
    none = client.get("/sparql", query_string={"query": query, "named-graph-uri": "urn:x-none"})
    assert _bindings(none) == []


# -- negotiation ---------------------------------------------------------------------------------


def test_select_as_xml(client):
    response = client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER},
                          headers={"Accept": "application/sparql-results+xml"})
    assert response.mimetype == "application/sparql-results+xml"
    result = rdflib.query.Result.parse(io.BytesIO(response.data), format="xml")
    assert [str(row.label) for row in result] == ["Transformer"]


def test_select_as_csv(client):
    response = client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER},
                          headers={"Accept": "text/csv"})
    assert response.mimetype == "text/csv"
    assert list(csv.reader(io.StringIO(response.data.decode()))) == [["label"], ["Transformer"]]


def test_select_as_tsv(client):
    response = client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER},
                          headers={"Accept": "text/tab-separated-values"})
    assert response.mimetype == "text/tab-separated-values"
    assert response.data.decode().splitlines() == ["?label", '"Transformer"']


def test_accept_with_quality_values_picks_the_best(client):
    response = client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER},
                          headers={"Accept": "text/csv;q=0.5, application/sparql-results+xml"})
    assert response.mimetype == "application/sparql-results+xml"


def test_plain_json_accept_gets_sparql_json(client):
    response = client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER},
                          headers={"Accept": "application/json"})
    assert response.mimetype == "application/sparql-results+json"


@pytest.mark.parametrize(("accept", "expected"), [
    ("application/sparql-results+json", "application/sparql-results+json"),
    ("application/sparql-results+xml", "application/sparql-results+xml; charset=utf-8"),
    ("text/csv", "text/csv; charset=utf-8"),
    ("text/tab-separated-values", "text/tab-separated-values; charset=utf-8"),
])
def test_a_charset_only_where_the_media_type_defines_one(client, accept, expected):
    # The JSON types define no charset parameter (always UTF-8); text and XML types do.
    for _ in range(3):  # learned by Flask, then answered in front of it: the same header
        response = client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER},
                              headers={"Accept": accept})
        assert response.headers["Content-Type"] == expected


def test_ask(client):
    response = client.get("/sparql", query_string={
        "query": f"ASK {{ <{BASE}paper/p01> ?p ?o }}"})
    assert json.loads(response.data) == {"head": {}, "boolean": True}
    response = client.get("/sparql", query_string={"query": f"ASK {{ <{BASE}paper/p99> ?p ?o }}"},
                          headers={"Accept": "application/sparql-results+xml"})
    assert b"<boolean>false</boolean>" in response.data


@pytest.mark.parametrize(("media_type", "rdflib_format"), [
    ("text/turtle", "turtle"),
    ("application/n-triples", "nt"),
    ("application/ld+json", "json-ld"),
    ("application/rdf+xml", "xml"),
])
def test_construct_in_every_graph_format(client, media_type, rdflib_format):
    response = client.get("/sparql", query_string={"query": LABELS_OF_TASKS},
                          headers={"Accept": media_type})
    assert response.status_code == 200
    assert response.mimetype == media_type
    graph = rdflib.Graph().parse(data=response.data, format=rdflib_format)
    assert isomorphic(graph, _expected_task_graph())


def test_construct_defaults_to_turtle(client):
    response = client.get("/sparql", query_string={"query": LABELS_OF_TASKS})
    assert response.mimetype == "text/turtle"
    assert isomorphic(rdflib.Graph().parse(data=response.data, format="turtle"),
                      _expected_task_graph())


def test_describe(client):
    response = client.get("/sparql",
                          query_string={"query": f"DESCRIBE <{BASE}task/node-classification>"},
                          headers={"Accept": "application/n-triples"})
    graph = rdflib.Graph().parse(data=response.data, format="nt")
    subject = rdflib.URIRef(f"{BASE}task/node-classification")
    assert graph.value(subject, RDFS.label) == rdflib.Literal("Node Classification")
    assert set(graph.subjects()) == {subject}


def test_unmet_accept_is_406(client):
    message = _error(client.get("/sparql", query_string={"query": LABEL_OF_TRANSFORMER},
                                headers={"Accept": "image/png"}), 406)
    assert "image/png" in message
    _error(client.get("/sparql", query_string={"query": LABELS_OF_TASKS},
                      headers={"Accept": "text/csv"}), 406)


# -- the Service Description ---------------------------------------------------------------------

SD = rdflib.Namespace("http://www.w3.org/ns/sparql-service-description#")
VOID = rdflib.Namespace("http://rdfs.org/ns/void#")


def _service_graph(response, rdflib_format: str) -> rdflib.Graph:
    assert response.status_code == 200
    return rdflib.Graph().parse(data=response.data, format=rdflib_format)


@pytest.mark.parametrize(("accept", "rdflib_format"), [
    (None, "turtle"), ("application/ld+json", "json-ld"), ("application/rdf+xml", "xml")])
def test_service_description(client, accept, rdflib_format):
    headers = {"Accept": accept} if accept else {}
    graph = _service_graph(client.get("/sparql", headers=headers), rdflib_format)
    service = rdflib.URIRef("http://localhost/sparql")
    assert (service, rdflib.RDF.type, SD.Service) in graph
    assert (service, SD.supportedLanguage, SD.SPARQL11Query) in graph
    assert (service, SD.resultFormat,
            rdflib.URIRef("http://www.w3.org/ns/formats/SPARQL_Results_CSV")) in graph
    dataset = graph.value(service, SD.defaultDataset)
    default_graph = graph.value(dataset, SD.defaultGraph)
    assert graph.value(default_graph, VOID.triples).toPython() == 225
    assert graph.value(default_graph, VOID.classes).toPython() == 12
    papers = [p for p in graph.objects(default_graph, VOID.classPartition)
              if graph.value(p, VOID["class"]) == rdflib.URIRef(
                  "https://w3id.org/paperkg/ns#Paper")]
    assert [graph.value(p, VOID.entities).toPython() for p in papers] == [12]
    named = graph.value(dataset, SD.namedGraph)
    assert graph.value(named, SD.name) == rdflib.URIRef(PROVENANCE)
    assert graph.value(graph.value(named, SD.graph), VOID.triples).toPython() == 13


def test_browser_without_query_gets_the_query_page(app, client):
    response = client.get("/sparql", headers={
        "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"})
    if "pages.sparql_ui" in app.view_functions:
        assert response.status_code == 303
        assert response.headers["Location"].endswith("/sparql/ui")
    else:
        assert response.mimetype == "text/turtle"


# -- W3C protocol suite: the negative cases ------------------------------------------------------


def test_bad_query_method_put(client):
    response = client.put("/sparql", data=LABEL_OF_TRANSFORMER,
                          content_type="application/sparql-query")
    assert "PUT" in _error(response, 405)
    assert "GET" in response.headers["Allow"]


def test_bad_query_method_delete(client):
    _error(client.delete("/sparql", query_string={"query": LABEL_OF_TRANSFORMER}), 405)


def test_bad_multiple_queries_get(client):
    response = client.get("/sparql", query_string=[("query", "ASK {}"), ("query", "ASK {}")])
    assert "not 2" in _error(response, 400)


def test_bad_multiple_queries_form(client):
    _error(client.post("/sparql", data=b"query=ASK%20%7B%7D&query=ASK%20%7B%7D",
                       content_type="application/x-www-form-urlencoded"), 400)


def test_bad_query_in_url_and_direct_body(client):
    _error(client.post("/sparql?query=ASK%20%7B%7D", data="ASK {}",
                       content_type="application/sparql-query"), 400)


def test_bad_query_wrong_media_type(client):
    message = _error(client.post("/sparql", data="ASK {}", content_type="text/plain"), 400)
    assert "text/plain" in message


def test_bad_query_missing_form_type(client):
    response = client.post("/sparql", data=b"query=ASK%20%7B%7D")
    assert "Content-Type" in _error(response, 400)


def test_bad_query_missing_direct_type(client):
    _error(client.post("/sparql", data=b"ASK {}"), 400)


def test_bad_query_non_utf8_direct(client):
    body = "SELECT * WHERE { ?s ?p \"caf\u00e9\" }".encode("latin-1")
    message = _error(client.post("/sparql", data=body,
                                 content_type="application/sparql-query"), 400)
    assert "UTF-8" in message


def test_bad_query_non_utf8_form(client):
    response = client.post("/sparql", data=b"query=ASK%20%7B%3Fs%20%3Fp%20%22caf%E9%22%7D",
                           content_type="application/x-www-form-urlencoded")
    assert "UTF-8" in _error(response, 400)


def test_bad_query_non_utf8_get(client):
    assert "UTF-8" in _error(client.get("/sparql?query=ASK%20%7B%22%E9%22%7D"), 400)


def test_bad_query_declared_charset(client):
    _error(client.post("/sparql", data="ASK {}".encode("utf-16"),
                       content_type="application/sparql-query; charset=utf-16"), 400)


def test_bad_query_syntax_gives_the_position(client):
    message = _error(client.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p }"}),
                     400)
    assert message.startswith("line 1, column 25: syntax error")
    assert "\n" not in message


def test_bad_query_syntax_on_second_line(client):
    message = _error(client.get("/sparql", query_string={
        "query": "SELECT ?s\nWHERE { ?s ?p ?o . FILTER( }"}), 400)
    assert message.startswith("line 2, column ")


def test_undeclared_prefix_says_which_line_to_add(client):
    query = "SELECT ?m\nWHERE { ?m a pkg:Method }"
    message = _error(client.get("/sparql", query_string={"query": query}), 400)
    assert message == ("line 2, column 14: prefix pkg: is not declared — add PREFIX pkg: "
                       "<https://w3id.org/paperkg/ns#>")


def test_misspelt_query_form_is_named(client):
    message = _error(client.get("/sparql", query_string={"query": "SELEC * WHERE { ?s ?p ?o }"}),
                     400)
    assert message == ("line 1, column 1: expected SELECT, ASK, CONSTRUCT or DESCRIBE (after "
                       "any PREFIX and BASE lines), found 'SELEC'")


def test_update_as_a_query_is_refused_with_why(client):
    query = "PREFIX ex: <http://example.org/>\nINSERT DATA { ex:a ex:b ex:c }"
    message = _error(client.get("/sparql", query_string={"query": query}), 403)
    assert message.startswith("INSERT is an update, and this endpoint is read-only")


def test_relative_iris_resolve_against_the_endpoint(client):
    query = "SELECT ?x WHERE { BIND(<other#x> AS ?x) }"
    response = client.get("/sparql", query_string={"query": query})
    assert response.status_code == 200, response.data
    assert json.loads(response.data)["results"]["bindings"] == [
        {"x": {"type": "uri", "value": "http://localhost/other#x"}}]


def test_negative_numbers_and_a_variable_named_from(client):
    query = "# from\nSELECT ?from WHERE { ?from <http://a/b> -1.0 }"
    response = client.get("/sparql", query_string={"query": query})
    assert response.status_code == 200, response.data
    assert json.loads(response.data)["results"]["bindings"] == []


def test_form_post_without_query(client):
    assert "query" in _error(client.post("/sparql", data={"default-graph-uri": PROVENANCE}), 400)


def test_query_and_update_together(client):
    _error(client.post("/sparql", data={"query": "ASK {}", "update": "CLEAR ALL"}), 400)
    _error(client.get("/sparql", query_string={"query": "ASK {}", "update": "CLEAR ALL"}), 400)


def test_bad_update_get(client):
    _error(client.get("/sparql", query_string={"update": "CLEAR ALL"}), 403)


def test_update_by_form_post(client):
    _error(client.post("/sparql", data={"update": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}), 403)


def test_update_by_direct_post(client):
    _error(client.post("/sparql", data="DROP ALL", content_type="application/sparql-update"), 403)


@pytest.mark.parametrize("update", [
    "INSERT DATA { <urn:a> <urn:b> <urn:c> }",
    "PREFIX ex: <urn:ex:>\nDELETE WHERE { ?s ?p ?o }",
    "LOAD <http://127.0.0.1:9/data.ttl>",
    "# a comment\nCLEAR DEFAULT",
    "DROP ALL",
    "WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
])
def test_update_sent_as_query_is_403(client, update):
    assert "read-only" in _error(client.get("/sparql", query_string={"query": update}), 403)


def test_store_unchanged_after_update_attempts(client):
    client.get("/sparql", query_string={"query": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"})
    client.post("/sparql", data={"update": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"})
    assert _bindings(client.get("/sparql", query_string={"query": COUNT_ALL})) == [{"n": "225"}]


def test_unknown_api_path_is_json_404(client):
    assert "/api/nothing" in _error(client.get("/api/nothing"), 404)
