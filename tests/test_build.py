"""End-to-end builds: the demo corpus, determinism, stale exports, SHACL, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from graph.build import build
from graph.cli import cli
from graph.store import open_store
from graph.vocab import PKG

ROOT = Path(__file__).resolve().parent.parent
EXPORTS = ROOT / "exports"
EXPORT_FILES = ["graph.ttl", "graph.nt", "graph.jsonld", "graph.rdf", "graph.trig", "graph.nq",
                "report.json", "report.md"]


def select(store_path, query):
    store = open_store(str(store_path), read_only=True)
    try:
        return [{k: s[k].value for k in (v.value for v in r.variables)}
                for r in [store.query(query)] for s in r]
    finally:
        store.close()


def papers_without(store_path, predicate):
    return select(store_path, f"""
        SELECT ?p WHERE {{ ?p a <{PKG}Paper> FILTER NOT EXISTS {{ ?p <{PKG}{predicate}> ?x }} }}""")


def test_demo_build_counts(demo_build):
    result, _ = demo_build
    assert result.papers == 19
    assert result.entities > 50


@pytest.mark.parametrize("predicate", ["usesMethod", "inDomain", "makesClaim"])
def test_every_demo_paper_has_a_method_a_domain_and_a_claim(demo_build, predicate):
    _, work = demo_build
    # A paper whose only method is its own contribution links it with pkg:proposes.
    missing = papers_without(work / "store", predicate)
    if predicate == "usesMethod":
        missing = [m for m in missing if not select(work / "store", f"""
            SELECT ?x WHERE {{ <{m['p']}> <{PKG}proposes> ?x . ?x a <{PKG}Method> }}""")]
    assert missing == []


def test_most_demo_papers_name_their_contribution(demo_build):
    _, work = demo_build
    rows = select(work / "store", f"SELECT DISTINCT ?p WHERE {{ ?p <{PKG}proposes> ?x }}")
    # 12 of the 19 name their contribution in a way the extractors recognise (closing note).
    assert len(rows) >= 12


def test_build_is_deterministic(demo_build, tmp_path):
    _, work = demo_build
    build([ROOT / "data" / "corpus"], out_dir=tmp_path / "again", store=str(tmp_path / "store"))
    for name in EXPORT_FILES:
        again = (tmp_path / "again" / name).read_bytes()
        assert again == (work / "exports" / name).read_bytes(), name


def test_committed_exports_are_fresh(demo_build):
    """Regenerate with `paperkg build` when this fails."""
    _, work = demo_build
    for name in EXPORT_FILES:
        committed = EXPORTS / name
        assert committed.exists(), f"exports/{name} is missing: run `paperkg build`"
        assert committed.read_bytes() == (work / "exports" / name).read_bytes(), \
            f"exports/{name} is stale: run `paperkg build`"


def test_build_passes_shacl(demo_build):
    pyshacl = pytest.importorskip("pyshacl")
    import rdflib

    _, work = demo_build
    data = rdflib.Graph().parse(work / "exports" / "graph.nt", format="nt")
    shapes = rdflib.Graph().parse(ROOT / "data" / "shapes.ttl", format="turtle")
    ontology = rdflib.Graph().parse(ROOT / "data" / "ontology.ttl", format="turtle")
    conforms, _, text = pyshacl.validate(data, shacl_graph=shapes, ont_graph=ontology)
    assert conforms, text


def test_contribution_is_linked_with_proposes(tmp_path):
    corpus = tmp_path / "one.jsonl"
    corpus.write_text(json.dumps({"id": "w1", "abstract": (
        "Sparse attention is expensive on long sequences. We propose Strided Lattice "
        "Attention (SLA), a linear-time attention mechanism. Experiments on WikiText-103 show "
        "that SLA reduces perplexity by 2.1 points over Transformer-XL.")}) + "\n")
    build([corpus], out_dir=None, store=str(tmp_path / "store"))
    rows = select(tmp_path / "store", f"""
        SELECT ?label WHERE {{ ?p <{PKG}proposes> ?e .
                               ?e <http://www.w3.org/2000/01/rdf-schema#label> ?label }}""")
    assert {"label": "Strided Lattice Attention"} in rows


def test_bad_input_exits_2_and_leaves_store_and_exports_intact(demo_build, tmp_path):
    _, work = demo_build
    store_dir, exports = tmp_path / "store", tmp_path / "exports"
    runner = CliRunner()
    ok = runner.invoke(cli, ["build", str(ROOT / "data" / "corpus"), "--store", str(store_dir),
                             "--out", str(exports), "--no-progress"])
    assert ok.exit_code == 0, ok.output
    before = {p.name: p.read_bytes() for p in exports.iterdir()}
    triples_before = select(store_dir, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"abstract": "fine"}\n{"abstract": broken\n', encoding="utf-8")
    failed = runner.invoke(cli, ["build", str(bad), "--store", str(store_dir),
                                 "--out", str(exports), "--no-progress"])
    assert failed.exit_code == 2
    assert "bad.jsonl" in failed.output and "line 2" in failed.output
    assert "Traceback" not in failed.output
    assert {p.name: p.read_bytes() for p in exports.iterdir()} == before
    assert select(store_dir, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }") == triples_before


def test_scirex_abstracts_build(tmp_path):
    gold = json.loads((ROOT / "tests" / "gold" / "dev.json").read_text(encoding="utf-8"))
    corpus = tmp_path / "scirex.jsonl"
    with corpus.open("w", encoding="utf-8") as out:
        for paper in gold["papers"]:
            out.write(json.dumps({"id": paper["id"], "title": paper.get("title"),
                                  "abstract": paper["abstract"]}) + "\n")
    result = build([corpus], out_dir=tmp_path / "exports", store=str(tmp_path / "store"))
    assert result.papers == len(gold["papers"]) > 300
    assert (tmp_path / "exports" / "graph.ttl").stat().st_size > 0


def test_cli_query_prints_a_table(demo_build):
    _, work = demo_build
    runner = CliRunner()
    out = runner.invoke(cli, ["query", f"SELECT (COUNT(?p) AS ?n) WHERE {{ ?p a <{PKG}Paper> }}",
                              "--store", str(work / "store")])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[2].strip() == "19"


def test_cli_stats_counts_papers(demo_build):
    _, work = demo_build
    out = CliRunner().invoke(cli, ["stats", "--json", "--store", str(work / "store")])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["papers"] == 19


def test_cli_unknown_store_for_query_is_a_user_error(tmp_path):
    out = CliRunner().invoke(cli, ["query", "ASK {}", "--store", str(tmp_path / "nothing")])
    assert out.exit_code == 2
    assert "nothing" in out.output


def test_cli_export_graphml(demo_build, tmp_path):
    _, work = demo_build
    target = tmp_path / "g.graphml"
    out = CliRunner().invoke(cli, ["export", "--format", "graphml", "--out", str(target),
                                   "--store", str(work / "store")])
    assert out.exit_code == 0, out.output
    import networkx as nx

    graph = nx.read_graphml(target)
    assert sum(1 for _, d in graph.nodes(data=True) if d.get("type") == "paper") == 19


def test_cli_neighbours_by_type_slug_and_by_name(demo_build):
    _, work = demo_build
    runner = CliRunner()
    by_id = runner.invoke(cli, ["neighbours", "domain/generative-models", "--json",
                                "--store", str(work / "store")])
    assert by_id.exit_code == 0, by_id.output
    data = json.loads(by_id.output)
    assert data["nodes"][0]["id"] == "domain/generative-models"
    assert {n["type"] for n in data["nodes"][1:]} == {"paper"}
    label = data["nodes"][0]["label"]
    by_name = runner.invoke(cli, ["neighbours", label.upper(), "--json",
                                  "--store", str(work / "store")])
    assert json.loads(by_name.output)["nodes"][0]["id"] == "domain/generative-models"
    missing = runner.invoke(cli, ["neighbours", "method/no-such-thing",
                                  "--store", str(work / "store")])
    assert missing.exit_code == 2 and "method/no-such-thing" in missing.output


# -- the streamed build against the reference path ---------------------------------------------


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """24 generated papers (enough for a progress bar), with their serial extractions."""
    from bench.gen_corpus import generate, write_jsonl
    from graph.build import extract
    from graph.corpus import read_corpus

    folder = tmp_path_factory.mktemp("generated")
    corpus = folder / "corpus.jsonl"
    write_jsonl(generate(24, seed=11), corpus)
    return corpus, extract(read_corpus([corpus]).papers)


def reference_exports(extractions, folder, base=None):
    """What the build used to do: every quad as a Python object, sorted in memory."""
    from graph.export import write_exports
    from graph.rdf import corpus_quads
    from graph.report import build_report
    from graph.resolve import resolve

    resolved = resolve(extractions)
    quads = corpus_quads(resolved, **({"base": base} if base else {}))
    write_exports(quads, folder, report=build_report(resolved, quads))
    return quads


@pytest.mark.parametrize("workers", [1, 2])
def test_streamed_build_is_the_reference_graph(generated, tmp_path, workers, monkeypatch):
    import graph.build as build_module
    from graph.build import processes as parallel

    corpus, extractions = generated
    monkeypatch.setattr(build_module, "extract", lambda papers, **_: extractions)
    monkeypatch.setattr(parallel, "MIN_CHUNK", 4)  # several chunks over the worker processes
    result = build([corpus], out_dir=tmp_path / "out", store=str(tmp_path / "store"),
                   workers=workers)
    quads = reference_exports(extractions, tmp_path / "reference")
    store = open_store(str(tmp_path / "store"), read_only=True)
    try:
        assert set(store.quads()) == set(quads)
    finally:
        store.close()
    assert result.quads == len(quads) and result.papers == 24
    for name in EXPORT_FILES:
        assert (tmp_path / "out" / name).read_bytes() == \
            (tmp_path / "reference" / name).read_bytes(), name
    # no load files in the store, no sort files beside the exports
    assert not list((tmp_path / "store.d").rglob("*.nq"))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(EXPORT_FILES)


def test_exports_sorted_in_many_runs_are_the_same_bytes(generated, tmp_path, monkeypatch):
    """Chunks of 1,000 lines force the merge of sorted runs from disk; load files of 500
    lines, many bulk loads into one generation."""
    import graph.build as build_module
    from graph import export
    from graph.store import bulk as store

    corpus, extractions = generated
    monkeypatch.setattr(build_module, "extract", lambda papers, **_: extractions)
    monkeypatch.setattr(export, "SORT_CHUNK_LINES", 1000)
    monkeypatch.setattr(store, "LOAD_FILE_LINES", 500)
    base = "http://example.org/kg/"
    build([corpus], out_dir=tmp_path / "out", store=str(tmp_path / "store"), base=base)
    reference_exports(extractions, tmp_path / "reference", base=base)
    for name in EXPORT_FILES:
        assert (tmp_path / "out" / name).read_bytes() == \
            (tmp_path / "reference" / name).read_bytes(), name
    store = open_store(str(tmp_path / "store"), read_only=True)
    try:
        assert export.export_store(store, "trig", tmp_path / "x.trig").read_bytes() == \
            (tmp_path / "reference" / "graph.trig").read_bytes()
    finally:
        store.close()


def test_progress_bar_on_stderr_for_more_than_20_papers(generated, tmp_path, capsys):
    corpus, _ = generated
    build([corpus], out_dir=None, store=str(tmp_path / "store"), progress=True)
    err = capsys.readouterr().err
    assert "extracting" in err and "24/24" in err and "writing" in err


def test_no_progress_bar_for_a_few_papers(tmp_path, capsys):
    corpus = tmp_path / "one.jsonl"
    corpus.write_text(json.dumps({"id": "p1", "abstract": "We propose Gated Nets."}) + "\n")
    build([corpus], out_dir=None, store=str(tmp_path / "store"), progress=True)
    assert "paper/s" not in capsys.readouterr().err


def test_stale_temporary_files_of_a_killed_build_are_removed(generated, tmp_path, monkeypatch):
    import graph.build as build_module
    from graph.build import processes as parallel

    corpus, extractions = generated
    monkeypatch.setattr(build_module, "extract", lambda papers, **_: extractions)
    monkeypatch.setattr(parallel, "MIN_CHUNK", 4)  # several chunks over the worker processes
    out = tmp_path / "out"
    (out / ".paperkg-sort-abc").mkdir(parents=True)
    (out / ".paperkg-sort-abc" / "facts.nt").write_text("x")
    (out / ".graph.ttl.k2j3.tmp").write_text("half")
    build([corpus], out_dir=out, store=str(tmp_path / "store"))
    assert sorted(p.name for p in out.iterdir()) == sorted(EXPORT_FILES)


def test_failed_export_keeps_the_previous_store_and_exports(generated, tmp_path, monkeypatch):
    import graph.build as build_module
    from graph import export

    corpus, extractions = generated
    monkeypatch.setattr(build_module, "extract", lambda papers, **_: extractions[:5])
    out, store_path = tmp_path / "out", str(tmp_path / "store")
    build([corpus], out_dir=out, store=store_path)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    reader = open_store(store_path, read_only=True)
    generation, quads = reader.generation(), set(reader.quads())
    reader.close()

    monkeypatch.setattr(build_module, "extract", lambda papers, **_: extractions)
    real = export.SortedGraphs.writer

    def failing(self, fmt):
        if fmt == "rdfxml":
            def write(handle):
                raise OSError(28, "No space left on device")
            return write
        return real(self, fmt)

    monkeypatch.setattr(export.SortedGraphs, "writer", failing)
    with pytest.raises(export.ExportError, match="No space left"):
        build([corpus], out_dir=out, store=store_path)
    reader = open_store(store_path, read_only=True)
    assert reader.generation() == generation and set(reader.quads()) == quads
    reader.close()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
