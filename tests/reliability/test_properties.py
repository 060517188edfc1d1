"""Property tests: any text survives graph.rdf + graph.export in every format, and slugs are
deterministic, IRI-safe path segments that never merge two different names."""

from __future__ import annotations

import io
import re

import pytest
import rdflib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, parse

from graph import rdf
from graph.export import FORMATS, serialize_quads
from graph.model import Entity, Mention, Paper, PaperExtraction
from graph.vocab import DEFAULT_BASE, XSD
from graph.slug import label_key, slugify

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# Any Unicode but surrogates (not encodable): quotes, backslashes, newlines, controls, RTL...
ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=60)
# What XML 1.0 can hold and XML parsers give back unchanged: no C0 controls but tab and
# newline, no CR (XML parsers turn it into LF), no U+FFFE/U+FFFF. This is the text the corpus
# readers let through (they drop controls and CR).
XML_TEXT = st.text(
    st.characters(exclude_categories=("Cs", "Cc"), exclude_characters="\ufffe\uffff")
    | st.sampled_from("\t\n\"'\\<>&]]>"),
    min_size=1, max_size=60,
)
RDFLIB_FORMATS = {"ttl": "turtle", "nt": "nt", "jsonld": "json-ld", "rdfxml": "xml",
                  "trig": "trig", "nq": "nquads"}


def quads_for(title: str, abstract: str, label: str, alias: str) -> list[Quad]:
    """One paper with a claim (the whole abstract) and one method entity with an alias."""
    paper = Paper(key="k1", abstract=abstract, title=title)
    claim = Mention(type="claim", text=abstract, start=0, end=len(abstract),
                    extractor="claims.v1", confidence=0.5, claim_kind="empirical")
    quads = rdf.paper_quads(PaperExtraction(paper, [claim]), [None])
    entity = Entity(type="method", slug=slugify(label), label=label, aliases={alias},
                    papers={"k1"})
    return rdf.sort_quads(quads + rdf.entity_quads(entity))


def expected(quads: list[Quad], fmt: str) -> set[Quad]:
    """What a file of `fmt` holds: every quad, or the default graph's for triple formats."""
    if FORMATS[fmt][1]:
        return set(quads)
    return {q for q in quads if isinstance(q.graph_name, DefaultGraph)}


def string_values(quads: list[Quad], fmt: str) -> set[str]:
    return {t.object.value for t in expected(quads, fmt)
            if isinstance(t.object, Literal) and t.object.datatype.value == XSD + "string"}


@SETTINGS
@given(title=ANY_TEXT, abstract=ANY_TEXT, label=ANY_TEXT, alias=ANY_TEXT)
def test_any_text_round_trips_through_every_export_format(title, abstract, label, alias):
    quads = quads_for(title, abstract, label, alias)
    for fmt, (rdf_format, _, _) in FORMATS.items():
        out = io.BytesIO()
        serialize_quads(quads, fmt, out)
        back = {Quad(q.subject, q.predicate, q.object, q.graph_name)
                for q in parse(out.getvalue(), rdf_format)}
        assert back == expected(quads, fmt), fmt


@SETTINGS
@given(title=XML_TEXT, abstract=XML_TEXT, label=XML_TEXT, alias=XML_TEXT)
def test_corpus_text_reads_back_equal_in_a_second_rdf_library(title, abstract, label, alias):
    """Interoperability: the exports are standard syntax, not just what Oxigraph accepts."""
    quads = quads_for(title, abstract, label, alias)
    for fmt, name in RDFLIB_FORMATS.items():
        out = io.BytesIO()
        serialize_quads(quads, fmt, out)
        graph = rdflib.Dataset() if FORMATS[fmt][1] else rdflib.Graph()
        graph.parse(data=out.getvalue(), format=name)
        triples = graph.quads() if FORMATS[fmt][1] else ((*t, None) for t in graph)
        values = {str(o) for _, _, o, _ in triples
                  if isinstance(o, rdflib.Literal) and str(o.datatype or XSD + "string")
                  == XSD + "string"}
        assert values == string_values(quads, fmt), fmt


def test_noncharacters_from_a_corpus_keep_the_rdf_xml_export_well_formed(tmp_path):
    from xml.dom import minidom

    from graph.corpus import read_corpus

    corpus = tmp_path / "nonchar.jsonl"
    corpus.write_text('{"abstract": "Sensor logs \uffff with a noncharacter \ufffe."}\n',
                      encoding="utf-8")
    (paper,) = read_corpus([corpus]).papers
    quads = quads_for("t", paper.abstract, "m", "a")
    out = io.BytesIO()
    serialize_quads(quads, "rdfxml", out)
    minidom.parseString(out.getvalue())


# -- slugs -----------------------------------------------------------------------------------

# RFC 3987 isegment-nz: one or more ipchar (iunreserved / pct-encoded / sub-delims / ":" / "@").
_UCS = ("\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef\U00010000-\U0001fffd\U00020000-\U0002fffd"
        "\U00030000-\U0003fffd\U00040000-\U0004fffd\U00050000-\U0005fffd\U00060000-\U0006fffd"
        "\U00070000-\U0007fffd\U00080000-\U0008fffd\U00090000-\U0009fffd\U000a0000-\U000afffd"
        "\U000b0000-\U000bfffd\U000c0000-\U000cfffd\U000d0000-\U000dfffd\U000e1000-\U000efffd")
ISEGMENT_NZ = re.compile(rf"(?:[A-Za-z0-9\-._~{_UCS}!$&'()*+,;=:@]|%[0-9A-Fa-f]{{2}})+")
LABELS = st.text(st.characters(exclude_categories=("Cs",)), max_size=80) | st.sampled_from(
    ["BERT", "bert", "B.E.R.T.", "Müller-Net", "Muller Net", "GPT-4o", "C++", "k-NN", "kNN",
     "ResNet_50", "ResNet 50", "ﬁne tuning", "fine-tuning", "画像認識", "..", ".", "-", "%2e"]
)


@SETTINGS
@given(label=LABELS)
def test_slug_is_deterministic_and_an_iri_path_segment(label):
    slug = slugify(label)
    assert slug == slugify(label) == slugify(str(label))
    assert ISEGMENT_NZ.fullmatch(slug), slug
    assert slug not in (".", "..")
    assert not re.search(r"%[0-9A-Fa-f]{2}", slug)  # nothing a server would decode
    NamedNode(f"{DEFAULT_BASE}method/{slug}")  # Oxigraph checks the IRI


@SETTINGS
@given(label=LABELS)
def test_labels_with_one_key_share_the_slug(label):
    variants = [label.upper(), label.lower(), label.replace(" ", "-"), label.replace(" ", "_"),
                f"  {label}  "]
    for variant in variants:
        if label_key(variant) == label_key(label):
            assert slugify(variant) == slugify(label), variant


@SETTINGS
@given(a=LABELS, b=LABELS)
def test_labels_with_different_keys_get_different_slugs(a, b):
    if label_key(a) != label_key(b):
        assert slugify(a) != slugify(b)


@pytest.mark.parametrize("name", ["abç", "😀", "Müller Net", "a.b."])
def test_a_label_spelling_out_a_hashed_slug_is_a_different_name(name):
    hashed = slugify(name)
    assert hashed != label_key(name).replace(" ", "-")  # this one carries a digest
    mimic = hashed.replace("-", " ")  # a name whose own slug reads exactly like it
    assert label_key(mimic) != label_key(name)
    assert slugify(mimic) != hashed
