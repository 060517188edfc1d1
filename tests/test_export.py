"""graph.export and graph.report: every format round-trips, builds are byte-identical, writes
are all-or-nothing, and the report counts what the graph holds."""

from __future__ import annotations

import dataclasses
import json

import pytest
import rdflib
from pyoxigraph import DefaultGraph, Quad, RdfFormat, parse
from rdf_corpus import BASE, PKG, make_corpus
from rdflib.compare import isomorphic

from graph import export
from graph.export import (
    FORMATS,
    GRAPH_FILES,
    ExportError,
    export_store,
    write_exports,
)
from graph.vocab import provenance_graph
from graph.rdf import corpus_quads
from graph.report import build_report, render_markdown
from graph.store import open_store

RDFLIB_FORMAT = {"ttl": "turtle", "nt": "nt", "jsonld": "json-ld", "rdfxml": "xml",
                 "trig": "trig", "nq": "nquads"}
OX_FORMAT = {"ttl": RdfFormat.TURTLE, "nt": RdfFormat.N_TRIPLES, "jsonld": RdfFormat.JSON_LD,
             "rdfxml": RdfFormat.RDF_XML, "trig": RdfFormat.TRIG, "nq": RdfFormat.N_QUADS}
FILE_OF = {fmt: name for name, fmt in GRAPH_FILES.items()}


@pytest.fixture(scope="module")
def quads() -> list[Quad]:
    # with the repository's taxonomy: language-tagged labels, many subjects
    return corpus_quads(make_corpus())


@pytest.fixture(scope="module")
def report(quads):
    return build_report(make_corpus(), quads)


@pytest.fixture(scope="module")
def exports(tmp_path_factory, quads, report):
    out = tmp_path_factory.mktemp("exports")
    write_exports(quads, out, report=report)
    return out


def to_rdflib_term(term):
    from pyoxigraph import Literal, NamedNode

    if isinstance(term, NamedNode):
        return rdflib.URIRef(term.value)
    if isinstance(term, Literal):
        if term.language:
            return rdflib.Literal(term.value, lang=term.language)
        if term.datatype.value == str(rdflib.XSD.string):
            return rdflib.Literal(term.value)
        return rdflib.Literal(term.value, datatype=rdflib.URIRef(term.datatype.value))
    raise AssertionError(f"unexpected term {term!r}")


def facts_graph(quads) -> rdflib.Graph:
    graph = rdflib.Graph()
    for q in quads:
        if isinstance(q.graph_name, DefaultGraph):
            graph.add((to_rdflib_term(q.subject), to_rdflib_term(q.predicate),
                       to_rdflib_term(q.object)))
    return graph


def quad_set(quads) -> set[tuple]:
    return {
        (to_rdflib_term(q.subject), to_rdflib_term(q.predicate), to_rdflib_term(q.object),
         None if isinstance(q.graph_name, DefaultGraph) else rdflib.URIRef(q.graph_name.value))
        for q in quads
    }


def test_writes_every_file(exports):
    names = sorted(p.name for p in exports.iterdir())
    assert names == sorted([*GRAPH_FILES, "report.json", "report.md"])


@pytest.mark.parametrize("fmt", ["ttl", "nt", "jsonld", "rdfxml"])
def test_graph_formats_round_trip_through_rdflib(exports, quads, fmt):
    parsed = rdflib.Graph().parse(exports / FILE_OF[fmt], format=RDFLIB_FORMAT[fmt])
    expected = facts_graph(quads)
    assert len(parsed) == len(expected)
    assert isomorphic(parsed, expected)


@pytest.mark.parametrize("fmt", ["trig", "nq"])
def test_dataset_formats_round_trip_through_rdflib(exports, quads, fmt):
    dataset = rdflib.Dataset()
    dataset.parse(exports / FILE_OF[fmt], format=RDFLIB_FORMAT[fmt])
    got = set()
    for s, p, o, g in dataset.quads((None, None, None, None)):
        name = g.identifier if hasattr(g, "identifier") else g
        default = name is None or name == rdflib.graph.DATASET_DEFAULT_GRAPH_ID
        got.add((s, p, o, None if default else rdflib.URIRef(name)))
    assert got == quad_set(quads)
    provenance = dataset.graph(rdflib.URIRef(provenance_graph(BASE)))
    assert len(provenance) == sum(1 for q in quads if not isinstance(q.graph_name, DefaultGraph))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_round_trips_through_pyoxigraph(exports, quads, fmt):
    with open(exports / FILE_OF[fmt], "rb") as handle:
        parsed = set(parse(handle, format=OX_FORMAT[fmt]))
    datasets = FORMATS[fmt][1]
    expected = set(quads) if datasets else {
        q for q in quads if isinstance(q.graph_name, DefaultGraph)
    }
    assert parsed == expected


def test_jsonld_has_no_remote_context(exports):
    data = json.loads((exports / "graph.jsonld").read_text())

    def contexts(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "@context":
                    yield value
                yield from contexts(value)
        elif isinstance(node, list):
            for item in node:
                yield from contexts(item)

    for context in contexts(data):
        assert isinstance(context, dict), f"remote or referenced context: {context!r}"
    assert "http" not in json.dumps(list(contexts(data)))


def test_turtle_uses_the_prefixes(exports):
    text = (exports / "graph.ttl").read_text()
    assert "@prefix pkg: <https://w3id.org/paperkg/ns#> ." in text
    assert "@prefix paper: <https://w3id.org/paperkg/id/paper/> ." in text
    assert "paper:a1b2c3d4e5f6 " in text
    # facts only: no annotation in the Turtle, all of them in TriG
    assert "oa:Annotation" not in text
    assert "oa:Annotation" in (exports / "graph.trig").read_text()


def test_two_builds_are_byte_identical(tmp_path, quads, report):
    first, second = tmp_path / "one", tmp_path / "two"
    write_exports(quads, first, report=report)
    write_exports(list(reversed(quads)) + quads[:10], second, report=report)
    for name in [*GRAPH_FILES, "report.json", "report.md"]:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_failed_serialization_changes_nothing(tmp_path, quads, report, monkeypatch):
    out = tmp_path / "out"
    write_exports(quads[:50], out, report=report)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = export.serialize_quads

    def failing(items, fmt, handle, *, base):
        if fmt == "rdfxml":
            raise OSError(28, "No space left on device")
        real(items, fmt, handle, base=base)

    monkeypatch.setattr(export, "serialize_quads", failing)
    with pytest.raises(ExportError, match=str(out)):
        write_exports(quads, out, report=report)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_other_base_gets_its_prefixes(tmp_path):
    base = "http://example.org/kg/"
    quads = corpus_quads(make_corpus(), base=base, taxonomy="/nonexistent/taxonomy.ttl")
    write_exports(quads, tmp_path, report={})
    text = (tmp_path / "graph.ttl").read_text()
    assert f"@prefix paper: <{base}paper/> ." in text


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_export_store_matches_the_build_exports(tmp_path, exports, quads, fmt):
    store = open_store(":memory:")
    store.replace_all(quads)
    target = tmp_path / f"graph.{fmt}"
    assert export_store(store, fmt, target) == target
    assert target.read_bytes() == (exports / FILE_OF[fmt]).read_bytes()


def test_export_store_unknown_format(tmp_path):
    with pytest.raises(ExportError, match="graphml"):
        export_store(open_store(":memory:"), "graphml", tmp_path / "x")


def test_report_counts(report):
    assert report["papers"] == 2
    assert report["entities"] == {"dataset": 1, "method": 2, "metric": 1, "task": 1}
    assert report["classes"]["pkg:Paper"] == 2
    assert report["classes"]["pkg:Method"] == 2
    assert report["classes"]["pkg:Claim"] == 1
    assert report["links"] == {
        "pkg:addressesTask": 2, "pkg:inDomain": 1, "pkg:makesClaim": 1, "pkg:proposes": 1,
        "pkg:reportsMetric": 1, "pkg:usesDataset": 1, "pkg:usesMethod": 2,
    }
    assert report["claims"] == {"empirical": 1}
    assert report["results"] == 1
    untitled = {"key": "survey-1",
                "title": "This survey reviews graph clustering with Dense Routing…"}
    assert report["papers_without"] == {"methods": [], "domains": [untitled],
                                        "claims": [untitled]}
    assert report["duplicates"] == [{"kept": "survey-1", "dropped": "corpus.jsonl:7"}]
    assert report["quads"] == report["facts"] + report["provenance"]


def test_report_files(exports, report):
    assert json.loads((exports / "report.json").read_text()) == report
    markdown = (exports / "report.md").read_text()
    assert markdown.startswith("# Build report\n")
    assert "## Papers without claims (1)" in markdown
    assert "- `survey-1` This survey reviews" in markdown
    assert "| pkg:usesMethod | 2 |" in markdown


def test_report_markdown_escapes_table_cells():
    text = render_markdown({"papers": 1, "links": {"a|b": 1}, "papers_without": {},
                            "duplicates": [], "extra": {"when": "now"}})
    assert "| a\\|b | 1 |" in text
    assert "## extra" in text


def test_claim_without_kind_is_reported_unknown():
    corpus = make_corpus()
    paper = corpus.extractions["a1b2c3d4e5f6"]
    paper.mentions = [
        m if m.type != "claim" else dataclasses.replace(m, claim_kind=None)
        for m in paper.mentions
    ]
    quads = corpus_quads(corpus, taxonomy="/nonexistent/taxonomy.ttl")
    assert build_report(corpus, quads)["claims"] == {"unknown": 1}
    assert not any(q.predicate.value == PKG + "claimKind" for q in quads)
