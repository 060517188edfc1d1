"""Real SPARQL clients against a live server on a loopback port: SPARQLWrapper and
rdflib's SPARQLStore, by GET and POST, in their own formats."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
import rdflib
from conftest import BASE
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import GET, JSON, POST, POSTDIRECTLY, TURTLE, URLENCODED, XML, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

PREFIXES = ("PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
            "PREFIX pkg: <https://w3id.org/paperkg/ns#> ")
DATASETS = PREFIXES + "SELECT ?d ?l WHERE { ?d a pkg:Dataset ; rdfs:label ?l } ORDER BY ?l"
EXPECTED = [("dataset/cora", "Cora"), ("dataset/imagenet", "ImageNet"), ("dataset/squad", "SQuAD")]


def _wrapper(live_server, method=GET, request_method=URLENCODED) -> SPARQLWrapper:
    wrapper = SPARQLWrapper(f"{live_server.url}/sparql")
    wrapper.setMethod(method)
    wrapper.setRequestMethod(request_method)
    return wrapper


@pytest.mark.parametrize(("method", "request_method"), [
    (GET, URLENCODED), (POST, URLENCODED), (POST, POSTDIRECTLY)])
def test_sparqlwrapper_select_json(live_server, method, request_method):
    wrapper = _wrapper(live_server, method, request_method)
    wrapper.setQuery(DATASETS)
    wrapper.setReturnFormat(JSON)
    bindings = wrapper.query().convert()["results"]["bindings"]
    assert [(b["d"]["value"][len(BASE):], b["l"]["value"]) for b in bindings] == EXPECTED


def test_sparqlwrapper_select_xml(live_server):
    wrapper = _wrapper(live_server)
    wrapper.setQuery(DATASETS)
    wrapper.setReturnFormat(XML)
    document = wrapper.query().convert()
    literals = [node.firstChild.data for node in document.getElementsByTagName("literal")]
    assert literals == ["Cora", "ImageNet", "SQuAD"]


def test_sparqlwrapper_ask(live_server):
    wrapper = _wrapper(live_server)
    wrapper.setQuery(f"ASK {{ <{BASE}model/bert> ?p ?o }}")
    wrapper.setReturnFormat(JSON)
    assert wrapper.query().convert()["boolean"] is True


def test_sparqlwrapper_construct_turtle(live_server):
    wrapper = _wrapper(live_server)
    wrapper.setQuery(PREFIXES + "CONSTRUCT { ?d rdfs:label ?l } "
                     "WHERE { ?d a pkg:Dataset ; rdfs:label ?l }")
    wrapper.setReturnFormat(TURTLE)
    graph = rdflib.Graph().parse(data=wrapper.query().convert(), format="turtle")
    assert sorted((str(s)[len(BASE):], str(o)) for s, _, o in graph) == EXPECTED


def test_sparqlwrapper_sees_bad_syntax(live_server):
    wrapper = _wrapper(live_server)
    wrapper.setQuery("SELECT * WHERE { ?s ?p }")
    wrapper.setReturnFormat(JSON)
    with pytest.raises(QueryBadFormed, match="line 1, column 25"):
        wrapper.query()


def test_sparqlwrapper_service_is_refused(live_server):
    wrapper = _wrapper(live_server)
    wrapper.setQuery("SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }")
    wrapper.setReturnFormat(JSON)
    with pytest.raises(QueryBadFormed, match="SERVICE is not allowed"):
        wrapper.query()


def test_rdflib_sparqlstore_select(live_server):
    graph = rdflib.Graph(store=SPARQLStore(f"{live_server.url}/sparql"))
    rows = list(graph.query(DATASETS))
    assert [(str(row.d)[len(BASE):], str(row.l)) for row in rows] == EXPECTED


def test_rdflib_sparqlstore_triples(live_server):
    graph = rdflib.Graph(store=SPARQLStore(f"{live_server.url}/sparql"))
    subject = rdflib.URIRef(f"{BASE}metric/f1")
    labels = set(graph.objects(subject, rdflib.RDFS.label))
    assert labels == {rdflib.Literal("F1")}
    assert len(graph) == 225


def test_rdflib_sparqlstore_construct(live_server):
    graph = rdflib.Graph(store=SPARQLStore(f"{live_server.url}/sparql"))
    result = graph.query(PREFIXES + "CONSTRUCT { ?t rdfs:label ?l } "
                         "WHERE { ?t a pkg:Task ; rdfs:label ?l }")
    assert sorted(str(o) for _, _, o in result.graph) == [
        "Image Classification", "Node Classification", "Question Answering"]


def test_rdflib_sparqlstore_refuses_updates(live_server):
    graph = rdflib.Graph(store=SPARQLStore(f"{live_server.url}/sparql"))
    with pytest.raises(TypeError):
        graph.add((rdflib.URIRef("urn:a"), rdflib.URIRef("urn:b"), rdflib.URIRef("urn:c")))


def test_plain_http_update_is_forbidden(live_server):
    request = urllib.request.Request(
        f"{live_server.url}/sparql", data=b"INSERT DATA { <urn:a> <urn:b> <urn:c> }",
        headers={"Content-Type": "application/sparql-update"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 403
    caught.value.close()
