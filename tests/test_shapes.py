"""data/shapes.ttl and data/ontology.ttl: a build conforms; broken graphs do not; every term a
build uses is declared."""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad
from pyshacl import validate
from rdf_corpus import BASE, PKG, make_corpus
from rdflib.namespace import OWL, RDF, RDFS

from graph.vocab import annotation_iri, claim_iri, paper_iri, result_iri
from graph.rdf import corpus_quads

ROOT = Path(__file__).resolve().parent.parent
SHAPES = rdflib.Graph().parse(ROOT / "data" / "shapes.ttl")
ONTOLOGY = rdflib.Graph().parse(ROOT / "data" / "ontology.ttl")
XSD = "http://www.w3.org/2001/XMLSchema#"
NO_TAXONOMY = "/nonexistent/taxonomy.ttl"
KEY = "a1b2c3d4e5f6"


def union(quads) -> rdflib.Graph:
    """Default and provenance graph together: annotations point at papers."""
    graph = rdflib.Graph()
    for q in quads:
        graph.add(tuple(_term(t) for t in (q.subject, q.predicate, q.object)))
    return graph


def _term(term):
    if isinstance(term, NamedNode):
        return rdflib.URIRef(term.value)
    if term.language:
        return rdflib.Literal(term.value, lang=term.language)
    return rdflib.Literal(term.value, datatype=rdflib.URIRef(term.datatype.value))


def check(quads) -> tuple[bool, str]:
    conforms, _, text = validate(union(quads), shacl_graph=SHAPES, inference="none",
                                 allow_warnings=False)
    return conforms, text


@pytest.fixture(scope="module")
def quads() -> list[Quad]:
    return corpus_quads(make_corpus(), taxonomy=NO_TAXONOMY)


def replace(quads, subject: str, predicate: str, new_object=None) -> list[Quad]:
    """`quads` with (subject, predicate, *) removed, and (subject, predicate, new) added."""
    kept = [q for q in quads if not (q.subject.value == subject and q.predicate.value == predicate)]
    if new_object is not None:
        kept.append(Quad(NamedNode(subject), NamedNode(predicate), new_object, DefaultGraph()))
    return kept


def test_build_conforms(quads):
    conforms, text = check(quads)
    assert conforms, text


def test_build_with_the_taxonomy_conforms():
    conforms, text = check(corpus_quads(make_corpus()))
    assert conforms, text


def test_missing_abstract(quads):
    broken = replace(quads, paper_iri(BASE, KEY), "http://purl.org/dc/terms/abstract")
    conforms, text = check(broken)
    assert not conforms
    assert "abstract" in text


def test_two_abstracts(quads):
    paper = paper_iri(BASE, KEY)
    broken = quads + [Quad(NamedNode(paper), NamedNode("http://purl.org/dc/terms/abstract"),
                           Literal("Another abstract."), DefaultGraph())]
    assert not check(broken)[0]


def test_paper_without_label(quads):
    broken = replace(quads, paper_iri(BASE, "survey-1"), str(RDFS.label))
    assert not check(broken)[0]


def test_wrong_claim_kind(quads):
    broken = replace(quads, claim_iri(BASE, KEY, 1), PKG + "claimKind",
                     NamedNode(PKG + "Anecdotal"))
    conforms, text = check(broken)
    assert not conforms
    assert "claimKind" in text


def test_claim_without_kind(quads):
    assert not check(replace(quads, claim_iri(BASE, KEY, 1), PKG + "claimKind"))[0]


def test_string_support(quads):
    broken = replace(quads, BASE + "dataset/orchard", PKG + "support", Literal("1"))
    conforms, text = check(broken)
    assert not conforms
    assert "support" in text


def test_zero_support(quads):
    broken = replace(quads, BASE + "dataset/orchard", PKG + "support",
                     Literal("0", datatype=NamedNode(XSD + "integer")))
    assert not check(broken)[0]


def test_two_labels_on_an_entity(quads):
    broken = quads + [Quad(NamedNode(BASE + "dataset/orchard"), NamedNode(str(RDFS.label)),
                           Literal("Orchard benchmark"), DefaultGraph())]
    assert not check(broken)[0]


def test_link_to_the_wrong_class(quads):
    broken = quads + [Quad(NamedNode(paper_iri(BASE, KEY)), NamedNode(PKG + "usesMethod"),
                           NamedNode(BASE + "dataset/orchard"), DefaultGraph())]
    conforms, text = check(broken)
    assert not conforms
    assert "usesMethod" in text


def test_result_value_not_decimal(quads):
    broken = replace(quads, result_iri(BASE, KEY, 1, 1), PKG + "value", Literal("4.2"))
    assert not check(broken)[0]


def test_annotation_start_after_end(quads):
    position = annotation_iri(BASE, KEY, 1) + "#position"
    graph = quads[0].graph_name
    for q in quads:
        if q.subject.value == position and q.predicate.value.endswith("#start"):
            graph = q.graph_name
    broken = [q for q in quads
              if not (q.subject.value == position and q.predicate.value.endswith("#start"))]
    broken.append(Quad(NamedNode(position), NamedNode("http://www.w3.org/ns/oa#start"),
                       Literal("500", datatype=NamedNode(XSD + "integer")), graph))
    assert not check(broken)[0]


def test_annotation_without_extractor(quads):
    ann = annotation_iri(BASE, KEY, 1)
    broken = [q for q in quads
              if not (q.subject.value == ann and q.predicate.value.endswith("wasGeneratedBy"))]
    assert not check(broken)[0]


def test_every_term_a_build_uses_is_declared():
    graph = union(corpus_quads(make_corpus()))
    declared = set(ONTOLOGY.subjects(RDF.type, None))
    predicates = set(graph.predicates()) - {RDF.type}
    classes = set(graph.objects(None, RDF.type))
    assert predicates - declared == set()
    assert classes - declared == set()


def test_own_terms_are_documented():
    pkg_terms = {s for s in ONTOLOGY.subjects(RDF.type, None)
                 if isinstance(s, rdflib.URIRef) and str(s).startswith(PKG)}
    assert {rdflib.URIRef(PKG + name) for name in
            ("Paper", "Claim", "Result", "proposes", "support", "confidence")} <= pkg_terms
    for term in pkg_terms:
        assert ONTOLOGY.value(term, RDFS.label) is not None, term
        assert ONTOLOGY.value(term, RDFS.comment) is not None, term
        kinds = set(ONTOLOGY.objects(term, RDF.type))
        if kinds & {OWL.ObjectProperty, OWL.DatatypeProperty}:
            assert ONTOLOGY.value(term, RDFS.domain) is not None, term
            assert ONTOLOGY.value(term, RDFS.range) is not None, term
    kinds = {rdflib.URIRef(PKG + k) for k in ("Empirical", "Theoretical", "Contribution")}
    assert kinds <= set(ONTOLOGY.subjects(RDF.type, rdflib.URIRef(PKG + "ClaimKind")))
