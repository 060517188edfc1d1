"""graph.rdf: the exact triples DESIGN §3 asks for, built from a hand-made ResolvedCorpus."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad
from rdf_corpus import ABSTRACT_A, BASE, PKG, make_corpus

from graph.model import Entity, Mention, Paper, PaperExtraction, ResolvedCorpus
from graph.vocab import (
    annotation_iri,
    claim_iri,
    entity_iri,
    extractor_iri,
    paper_iri,
    provenance_graph,
    rebase,
    result_iri,
)
from graph.rdf import (
    canonical_decimal,
    corpus_quads,
    entity_quads,
    paper_quads,
    taxonomy_quads,
)

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
DC = "http://purl.org/dc/terms/"
SCHEMA = "https://schema.org/"
OA = "http://www.w3.org/ns/oa#"
PROV = "http://www.w3.org/ns/prov#"
PROVENANCE = provenance_graph(BASE)
KEY = "a1b2c3d4e5f6"


def n(iri: str) -> NamedNode:
    return NamedNode(iri)


def lit(value: str, datatype: str | None = None) -> Literal:
    return Literal(value, datatype=n(datatype)) if datatype else Literal(value)


def fact(s: str, p: str, o: NamedNode | Literal) -> Quad:
    return Quad(n(s), n(p), o, DefaultGraph())


def prov(s: str, p: str, o: NamedNode | Literal) -> Quad:
    return Quad(n(s), n(p), o, n(PROVENANCE))


def about(quads: list[Quad], subject: str) -> set[Quad]:
    return {q for q in quads if q.subject.value == subject}


@pytest.fixture(scope="module")
def quads() -> list[Quad]:
    return corpus_quads(make_corpus(), taxonomy="/nonexistent/taxonomy.ttl")


def test_paper_record_and_links(quads):
    paper = paper_iri(BASE, KEY)
    assert about(quads, paper) == {
        fact(paper, RDF_TYPE, n(PKG + "Paper")),
        fact(paper, RDF_TYPE, n(SCHEMA + "ScholarlyArticle")),
        fact(paper, DC + "title", lit("Sparse Echo Routing for Graphs")),
        fact(paper, DC + "abstract", lit(ABSTRACT_A)),
        fact(paper, DC + "identifier", lit(KEY)),
        fact(paper, DC + "issued", lit("2024", XSD + "gYear")),
        fact(paper, DC + "creator", lit("Ada Lovelace")),
        fact(paper, DC + "creator", lit("Alan Turing")),
        fact(paper, SCHEMA + "isPartOf", lit("TestConf 2024")),
        fact(paper, RDFS + "label", lit("Sparse Echo Routing for Graphs")),
        fact(paper, PKG + "proposes", n(BASE + "method/sparse-echo-routing")),
        fact(paper, PKG + "usesMethod", n(BASE + "method/dense-routing")),
        fact(paper, PKG + "addressesTask", n(BASE + "task/graph-clustering")),
        fact(paper, PKG + "reportsMetric", n(BASE + "metric/normalized-mutual-information")),
        fact(paper, PKG + "usesDataset", n(BASE + "dataset/orchard")),
        fact(paper, PKG + "inDomain", n(BASE + "domain/machine-learning")),
        fact(paper, PKG + "makesClaim", n(claim_iri(BASE, KEY, 1))),
    }


def test_untitled_paper_is_labelled_by_first_words(quads):
    paper = paper_iri(BASE, "survey-1")
    labels = {q.object for q in about(quads, paper) if q.predicate.value == RDFS + "label"}
    assert labels == {lit("This survey reviews graph clustering with Dense Routing…")}
    assert not any(q.predicate.value == DC + "title" for q in about(quads, paper))


def test_untitled_paper_is_labelled_by_what_it_proposes():
    corpus = make_corpus()
    extraction = corpus.extractions[KEY]
    untitled = PaperExtraction(
        Paper(key=KEY, abstract=extraction.paper.abstract), extraction.mentions
    )
    quads = paper_quads(untitled, corpus.links[KEY], entities=corpus.entities)
    assert fact(paper_iri(BASE, KEY), RDFS + "label", lit("Sparse Echo Routing")) in quads


def test_entities(quads):
    metric = BASE + "metric/normalized-mutual-information"
    assert about(quads, metric) == {
        fact(metric, RDF_TYPE, n(PKG + "Metric")),
        fact(metric, RDF_TYPE, n(SKOS + "Concept")),
        fact(metric, RDFS + "label", lit("normalized mutual information")),
        fact(metric, SKOS + "altLabel", lit("NMI")),
        fact(metric, PKG + "support", lit("1", XSD + "integer")),
    }
    dense = BASE + "method/dense-routing"
    assert fact(dense, PKG + "support", lit("2", XSD + "integer")) in quads


def test_claim_and_result(quads):
    claim = claim_iri(BASE, KEY, 1)
    result = result_iri(BASE, KEY, 1, 1)
    assert about(quads, claim) == {
        fact(claim, RDF_TYPE, n(PKG + "Claim")),
        fact(claim, RDF_TYPE, n(SCHEMA + "Claim")),
        fact(claim, SCHEMA + "text",
             lit("SER improves NMI by 4.20% on the Orchard benchmark over Dense Routing.")),
        fact(claim, PKG + "claimKind", n(PKG + "Empirical")),
        # entities whose mentions fall inside the sentence; not the task of the first one
        fact(claim, PKG + "about", n(BASE + "metric/normalized-mutual-information")),
        fact(claim, PKG + "about", n(BASE + "dataset/orchard")),
        fact(claim, PKG + "about", n(BASE + "method/dense-routing")),
        fact(claim, PKG + "result", n(result)),
    }
    assert about(quads, result) == {
        fact(result, RDF_TYPE, n(PKG + "Result")),
        fact(result, PKG + "value", lit("4.2", XSD + "decimal")),
        # NMI: higher is better
        fact(result, PKG + "higherIsBetter", lit("true", XSD + "boolean")),
        fact(result, PKG + "unit", lit("%")),
        fact(result, SCHEMA + "text", lit("4.20%")),
        # "nmi" resolves through the metric's alias, case-insensitively
        fact(result, PKG + "metric", n(BASE + "metric/normalized-mutual-information")),
        fact(result, PKG + "dataset", n(BASE + "dataset/orchard")),
        fact(result, PKG + "baseline", n(BASE + "method/dense-routing")),
        # no entity of the paper is called so: kept as words
        fact(result, PKG + "modelName", lit("Echo-XL")),
    }


def test_annotation_of_a_mention(quads):
    ann = annotation_iri(BASE, KEY, 1)
    target, position, quote = ann + "#target", ann + "#position", ann + "#quote"
    start = ABSTRACT_A.index("Sparse Echo Routing")
    got = {q for q in quads if q.subject.value in (ann, target, position, quote)}
    assert got == {
        prov(ann, RDF_TYPE, n(OA + "Annotation")),
        prov(ann, OA + "hasBody", n(BASE + "method/sparse-echo-routing")),
        prov(ann, OA + "hasTarget", n(target)),
        prov(ann, PKG + "confidence", lit("0.9", XSD + "decimal")),
        prov(ann, PROV + "wasGeneratedBy", n(PKG + "extractor/methods-v1")),
        prov(target, RDF_TYPE, n(OA + "SpecificResource")),
        prov(target, OA + "hasSource", n(paper_iri(BASE, KEY))),
        prov(target, OA + "hasSelector", n(position)),
        prov(target, OA + "hasSelector", n(quote)),
        prov(position, RDF_TYPE, n(OA + "TextPositionSelector")),
        prov(position, OA + "start", lit(str(start), XSD + "integer")),
        prov(position, OA + "end", lit(str(start + 19), XSD + "integer")),
        prov(quote, RDF_TYPE, n(OA + "TextQuoteSelector")),
        prov(quote, OA + "exact", lit("Sparse Echo Routing")),
    }


def test_annotations_cover_linked_mentions_only(quads):
    bodies = {
        q.object.value for q in quads
        if q.predicate.value == OA + "hasBody" and f"annotation/{KEY}-" in q.subject.value
    }
    assert bodies == {
        BASE + "method/sparse-echo-routing", BASE + "task/graph-clustering",
        BASE + "metric/normalized-mutual-information", BASE + "dataset/orchard",
        BASE + "method/dense-routing", BASE + "domain/machine-learning",
        claim_iri(BASE, KEY, 1), result_iri(BASE, KEY, 1, 1),
    }
    # the dropped model mention (no link) left nothing behind
    assert not any(q.object.value == BASE + "model/method" for q in quads)


def test_confidence_rounded_to_three_places(quads):
    confidences = {q.object.value for q in quads if q.predicate.value == PKG + "confidence"}
    assert "0.812" in confidences and "0.667" in confidences


def test_extractors_are_agents_in_the_provenance_graph(quads):
    node = extractor_iri("methods.v1")
    assert node == PKG + "extractor/methods-v1"
    assert about(quads, node) == {
        prov(node, RDF_TYPE, n(PROV + "Activity")),
        prov(node, RDF_TYPE, n(PROV + "SoftwareAgent")),
        prov(node, RDFS + "label", lit("methods.v1")),
    }


def test_no_blank_nodes_and_facts_in_the_default_graph(quads):
    from pyoxigraph import BlankNode

    assert not any(isinstance(t, BlankNode) for q in quads for t in (q.subject, q.object))
    graphs = {q.graph_name.value for q in quads if not isinstance(q.graph_name, DefaultGraph)}
    assert graphs == {PROVENANCE}
    assert not any(
        q.predicate.value.startswith(OA) and isinstance(q.graph_name, DefaultGraph)
        for q in quads
    )


def test_deterministic_sorted_and_deduplicated():
    first = corpus_quads(make_corpus(), taxonomy="/nonexistent/taxonomy.ttl")
    corpus = make_corpus()
    # the same papers given in another order
    corpus.extractions = dict(reversed(list(corpus.extractions.items())))
    second = corpus_quads(corpus, taxonomy="/nonexistent/taxonomy.ttl")
    assert first == second
    assert len(set(first)) == len(first)


def test_other_base():
    base = "http://example.org/kg/"
    quads = corpus_quads(make_corpus(), base=base, taxonomy="/nonexistent/taxonomy.ttl")
    assert all(
        not q.subject.value.startswith(BASE) for q in quads
    )
    assert {q.graph_name.value for q in quads if not isinstance(q.graph_name, DefaultGraph)} == {
        base + "graph/provenance"
    }
    with pytest.raises(ValueError, match="base IRI"):
        corpus_quads(make_corpus(), base="not-an-iri")


def test_entity_quads_skips_alias_equal_to_label():
    entity = Entity("dataset", "orchard", "Orchard", {"Orchard", "ORC"}, {"k"})
    quads = entity_quads(entity)
    alt = {q.object.value for q in quads if q.predicate.value == SKOS + "altLabel"}
    assert alt == {"ORC"}


def test_unknown_claim_kind_is_an_error():
    paper = Paper(key="k", abstract="We show that it works.")
    mention = Mention("claim", "We show that it works.", 0, 22, "claims.v1", 0.5,
                      claim_kind="anecdotal")
    with pytest.raises(ValueError, match="anecdotal"):
        paper_quads(PaperExtraction(paper, [mention]), [None])


def test_domains_get_support_and_labels(tmp_path):
    taxonomy = tmp_path / "taxonomy.ttl"
    taxonomy.write_text(
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
        "@prefix pkg: <https://w3id.org/paperkg/ns#> .\n"
        "<https://w3id.org/paperkg/id/domain/machine-learning> a pkg:Domain, skos:Concept ;\n"
        "  skos:inScheme pkg:Domains ; skos:prefLabel \"Machine learning\"@en .\n"
    )
    quads = corpus_quads(make_corpus(), taxonomy=taxonomy)
    domain = BASE + "domain/machine-learning"
    assert about(quads, domain) == {
        fact(domain, RDF_TYPE, n(PKG + "Domain")),
        fact(domain, RDF_TYPE, n(SKOS + "Concept")),
        fact(domain, SKOS + "inScheme", n(PKG + "Domains")),
        fact(domain, SKOS + "prefLabel", Literal("Machine learning", language="en")),
        fact(domain, RDFS + "label", Literal("Machine learning", language="en")),
        fact(domain, PKG + "support", lit("1", XSD + "integer")),
    }
    # under another base the taxonomy's IRIs move with the instances
    other = "http://example.org/kg/"
    moved = taxonomy_quads(taxonomy, base=other)
    assert {q.subject.value for q in moved} == {other + "domain/machine-learning"}
    assert rebase(domain, other) == other + "domain/machine-learning"


def test_repository_taxonomy_loads():
    quads = taxonomy_quads()
    assert quads, "data/taxonomy.ttl gives quads"
    assert any(q.object.value == PKG + "Domains" for q in quads)


@pytest.mark.parametrize(
    ("value", "lexical"),
    [(Decimal("4.20"), "4.2"), (Decimal("100"), "100"), (Decimal("1E+2"), "100"),
     (Decimal("-0.0"), "0"), (0.5, "0.5"), (Decimal("0.0010"), "0.001")],
)
def test_decimals_in_the_form_a_store_keeps(value, lexical):
    assert canonical_decimal(value) == lexical


def test_nan_is_not_a_decimal():
    with pytest.raises(ValueError):
        canonical_decimal(Decimal("NaN"))


def test_iri_helpers():
    assert entity_iri(BASE, "method", "x") == BASE + "method/x"
    assert paper_iri(BASE, "k") == BASE + "paper/k"
    assert claim_iri(BASE, "k", 2) == BASE + "claim/k-2"
    assert result_iri(BASE, "k", 2, 1) == BASE + "result/k-2-1"
    assert annotation_iri(BASE, "k", 3) == BASE + "annotation/k-3"
    assert provenance_graph(BASE) == BASE + "graph/provenance"


def test_empty_corpus_has_only_the_taxonomy():
    empty = ResolvedCorpus(extractions={}, entities={}, links={})
    assert corpus_quads(empty, taxonomy="/nonexistent/taxonomy.ttl") == []
