"""graph.rdf's N-Quads text path: the lines a build streams to the store parse to exactly the
quads of the reference functions (corpus_quads, paper_quads, entity_quads), byte for byte in
pyoxigraph's own syntax."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyoxigraph import Literal, RdfFormat, parse
from rdf_corpus import make_corpus

from graph import rdf
from graph.model import Entity, Mention, Paper, PaperExtraction, ResolvedCorpus, Result
from graph.resolve import resolve
from tests.scale.graphs import five_papers, two_papers

OTHER_BASE = "http://example.org/kg/"


def parsed(lines) -> list:
    return list(parse("".join(lines), format=RdfFormat.N_QUADS))


def canonical(quads) -> set[str]:
    return {f"{q} .\n" for q in quads}


def test_corpus_lines_are_the_corpus_quads():
    corpus = make_corpus()
    lines = list(rdf.corpus_lines(corpus))
    assert set(parsed(lines)) == set(rdf.corpus_quads(corpus))
    # the exact bytes pyoxigraph writes for each quad
    assert set(lines) == canonical(rdf.corpus_quads(corpus))


def test_lines_under_another_base_and_from_the_resolver():
    for extractions in (two_papers(), five_papers()):
        resolved = resolve(extractions)
        lines = list(rdf.corpus_lines(resolved, base=OTHER_BASE,
                                      taxonomy="/nonexistent/taxonomy.ttl"))
        reference = rdf.corpus_quads(resolved, base=OTHER_BASE,
                                     taxonomy="/nonexistent/taxonomy.ttl")
        assert set(lines) == canonical(reference)
        assert len(set(lines)) == len(reference)


def test_paper_lines_keep_the_order_of_paper_quads():
    corpus = make_corpus()
    for key, extraction in corpus.extractions.items():
        links = corpus.links[key]
        lines = rdf.paper_lines(extraction, links, entities=corpus.entities,
                                venue_title="A Venue")
        quads = rdf.paper_quads(extraction, links, entities=corpus.entities,
                                venue_title="A Venue")
        assert parsed(lines) == quads
        assert len(lines) == len(set(lines))


def test_every_record_field_and_odd_text():
    abstract = 'We "quote"\\ back\\slash,\ttab\nnewline\r\x00\x7f\u2028 and émoji 😀.'
    paper = Paper(key="odd-1", abstract=abstract, title="T\x08\x0c", year=-44,
                  authors=("A \"B\"", " "), venue="V\\", keywords=("k1", ""),
                  url="https://example.org/a b?c=\"d\"")
    result = Result(value=Decimal("1E+3"), text="1000", start=0, end=2, unit="x\"",
                    metric="Acc\nuracy", dataset="D", model="M", baseline="B")
    mentions = [
        Mention("method", "We", 0, 2, "methods.v1", 0.12345, label="We\\", aliases=("W\t",),
                proposed=True),
        Mention("domain", "quote", 4, 9, "domains.v1", 1.0, label="machine-learning"),
        Mention("claim", abstract[:20], 0, 20, "claims.v1", 0.5, claim_kind="theoretical",
                results=(result,)),
    ]
    extraction = PaperExtraction(paper, mentions)
    entity = Entity("method", "we", "We\\", {"W\t", 'q"'}, {"odd-1"})
    corpus = ResolvedCorpus({"odd-1": extraction}, {"method/we": entity},
                            {"odd-1": ["method/we", None, None]})
    lines = list(rdf.corpus_lines(corpus, taxonomy="/nonexistent/taxonomy.ttl"))
    assert set(lines) == canonical(rdf.corpus_quads(corpus, taxonomy="/nonexistent/taxonomy.ttl"))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_string_literals_escape_as_pyoxigraph_does(value):
    assert rdf.nt_string(value) == str(Literal(value))


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=40), st.floats(0, 1), st.integers(-5000, 5000))
def test_random_mentions_give_the_reference_quads(text, confidence, year):
    abstract = f"{text} is what we study."
    paper = Paper(key="k", abstract=abstract, title=text, year=year, authors=(text,))
    mention = Mention("dataset", text, 0, len(text), "datasets.v1", confidence, label=text,
                      aliases=(text + "!",))
    claim = Mention("claim", abstract, 0, len(abstract), "claims.v1", confidence,
                    claim_kind="empirical",
                    results=(Result(Decimal(year) / 7, text, 0, 1, unit=text, dataset=text),))
    extraction = PaperExtraction(paper, [mention, claim])
    resolved = resolve([extraction])
    lines = list(rdf.corpus_lines(resolved, taxonomy="/nonexistent/taxonomy.ttl"))
    assert set(parsed(lines)) == set(rdf.corpus_quads(resolved,
                                                      taxonomy="/nonexistent/taxonomy.ttl"))


def test_records_are_slotted_and_still_replaceable():
    mention = Mention("method", "x", 0, 1, "methods.v1", 0.5)
    assert not hasattr(mention, "__dict__")
    assert dataclasses.replace(mention, text="y").text == "y"


def test_static_and_linked_parts_make_up_the_paper_lines():
    # the resolver gives every entity mention its entity, as the static part assumes
    for corpus in (resolve(list(make_corpus().extractions.values())), resolve(five_papers())):
        for key, extraction in corpus.extractions.items():
            links = corpus.links[key]
            whole = set(rdf.paper_lines(extraction, links, entities=corpus.entities,
                                        venue_title="A Venue"))
            static = set(rdf.paper_static_lines(extraction, venue_title="A Venue"))
            linked = set(rdf.paper_linked_lines(extraction, links, entities=corpus.entities))
            assert static | linked == whole
            assert not static & linked
            # the static part names no entity: it can be written before the resolver runs
            entity_iris = {f"<{rdf.entity_iri(rdf.DEFAULT_BASE, *ref.split('/'))}>"
                           for ref in links if ref is not None}
            assert entity_iris
            assert not any(iri in line for line in static for iri in entity_iris)
            assert any(iri in line for line in linked for iri in entity_iris)


def test_linked_part_refuses_an_entity_mention_without_entity():
    corpus = resolve(list(make_corpus().extractions.values()))
    key, extraction = next(
        (k, e) for k, e in corpus.extractions.items()
        if any(m.type == "method" for m in e.mentions)
    )
    links = list(corpus.links[key])
    i = next(i for i, m in enumerate(extraction.mentions) if m.type == "method")
    links[i] = None
    with pytest.raises(ValueError, match=f"paper {key}: a method mention"):
        rdf.paper_linked_lines(extraction, links, entities=corpus.entities)


def _untitled(extractions):
    return [PaperExtraction(paper=dataclasses.replace(e.paper, title=None), mentions=e.mentions)
            for e in extractions]


def test_linking_parts_resolve_and_link_as_the_whole_extractions():
    for extractions in (list(make_corpus().extractions.values()), five_papers(),
                        _untitled(five_papers())):
        whole = resolve(extractions)
        parts = [rdf.linking_part(e) for e in extractions]
        kept = resolve(parts)
        assert kept.links == whole.links
        assert kept.entities == whole.entities
        assert set(rdf.corpus_level_lines(kept)) == set(rdf.corpus_level_lines(whole))
        for part in parts:
            key = part.paper.key
            assert (rdf.paper_linked_lines(part, kept.links[key], entities=kept.entities)
                    == rdf.paper_linked_lines(whole.extractions[key], whole.links[key],
                                              entities=whole.entities))
            # what the static lines already hold is let go
            assert len(part.paper.abstract.split()) <= rdf.LABEL_WORDS + 1
            assert not part.paper.authors and part.paper.year is None
            assert all(m.text == "" for m in part.mentions if m.type in ("claim", "domain"))


def test_the_linking_part_of_a_linking_part_is_the_same():
    for extraction in five_papers():
        part = rdf.linking_part(extraction)
        assert rdf.linking_part(part) == part


def _written(quads) -> list[str]:
    return [f"{q} .\n" for q in quads]


def test_the_writer_writes_the_reference_quads_byte_for_byte_in_order():
    # graph.rdf.quads builds its Quads term by term and never reads the writer's text, so
    # this holds the writer to pyoxigraph's own serialisation of independently built facts
    for corpus in (make_corpus(), resolve(five_papers())):
        for base in (rdf.DEFAULT_BASE, OTHER_BASE):
            for key, extraction in corpus.extractions.items():
                links = corpus.links[key]
                lines = rdf.paper_lines(extraction, links, base=base, entities=corpus.entities,
                                        venue_title="A Venue")
                assert lines == _written(rdf.paper_quads(
                    extraction, links, base=base, entities=corpus.entities,
                    venue_title="A Venue"))
            for entity in corpus.entities.values():
                assert (rdf.entity_lines(entity, base=base)
                        == _written(rdf.entity_quads(entity, base=base)))
            for name in ("methods.v1", "claims.v1"):
                assert (rdf.extractor_lines(name, base=base)
                        == _written(rdf.extractor_quads(name, base=base)))


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=30), st.text(max_size=30), st.floats(0, 1),
       st.decimals(allow_nan=False, allow_infinity=False, places=4))
def test_any_text_and_number_is_written_as_the_reference_writes_it(name, other, conf, value):
    abstract = f"{name} and {other} beat it by {value}."
    paper = Paper(key="k-1", abstract=abstract, title=other or None, authors=(name, other),
                  keywords=(other,), doi=f"10.1/{len(other)}", url="https://example.org/x")
    claim = Mention("claim", abstract, 0, len(abstract), "claims.v1", conf,
                    claim_kind="empirical",
                    results=(Result(value, str(value), 0, 1, unit=other, metric=other,
                                    model=name, baseline=other),))
    mentions = [Mention("model", name, 0, len(name), "models.v1", conf, aliases=(other,)),
                Mention("domain", name, 0, len(name), "domains.v1", conf, label="vision"),
                claim]
    extraction = PaperExtraction(paper, mentions)
    resolved = resolve([extraction])
    links = resolved.links["k-1"]
    assert (rdf.paper_lines(extraction, links, entities=resolved.entities)
            == _written(rdf.paper_quads(extraction, links, entities=resolved.entities)))


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=20))
def test_any_identifier_is_written_as_a_valid_iri(value):
    # a DOI, arXiv or OpenAlex id as given (old SICI DOIs hold "<", ">", "#"): its sameAs IRI
    # is one Oxigraph takes, and the writer's line is the reference quad
    paper = Paper(key="k-1", abstract="A method.", doi=value, arxiv=value, openalex=value)
    extraction = PaperExtraction(paper, [])
    resolved = resolve([extraction])
    quads = rdf.paper_quads(extraction, resolved.links["k-1"], entities=resolved.entities)
    assert rdf.paper_lines(extraction, resolved.links["k-1"],
                           entities=resolved.entities) == _written(quads)


def test_a_sici_doi_keeps_its_characters_percent_encoded():
    doi = "10.1002/(SICI)1097-4636(199708)36:2<137::AID-JBM1>3.0.CO;2-R#x?y[1]"
    assert rdf.iri_part(doi) == (
        "10.1002/(SICI)1097-4636(199708)36:2%3C137::AID-JBM1%3E3.0.CO;2-R%23x%3Fy%5B1%5D")
