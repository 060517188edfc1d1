"""The store contract, run against the embedded store and a real Oxigraph server alike."""

from __future__ import annotations

import pytest
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, QueryBoolean, QuerySolutions

from graph.build.incremental import remove_paper
from graph.errors import QueryError, StoreError
from graph.store import EmbeddedStore
from graph.store.remote import RemoteStore
from graph.vocab import PKG, XSD, provenance_graph
from tests.scale.graphs import BASE, corpus_quads, two_papers
from tests.scale.server import free_port, oxigraph_binary, oxigraph_server

PAPER_A = f"{BASE}paper/paper-a"
PAPER_B = f"{BASE}paper/paper-b"
PROVENANCE = provenance_graph(BASE)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if oxigraph_binary() is None:
        pytest.skip("the oxigraph server is not installed")
    with oxigraph_server(tmp_path_factory.mktemp("oxigraph")) as url:
        yield url


@pytest.fixture(params=["embedded", pytest.param("remote", marks=pytest.mark.remote)])
def store(request, tmp_path):
    if request.param == "embedded":
        opened = EmbeddedStore(str(tmp_path / "store"))
    else:
        opened = RemoteStore(request.getfixturevalue("server"), timeout=20)
        opened.replace_all([])  # each test starts from an empty server
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def graph_quads():
    return corpus_quads(two_papers())


def support(store, entity: str) -> int | None:
    rows = list(store.query(f"SELECT ?n WHERE {{ <{BASE}{entity}> <{PKG}support> ?n }}"))
    return int(rows[0]["n"].value) if rows else None


def test_replace_all_round_trips_every_quad(store, graph_quads):
    store.replace_all(graph_quads)
    assert set(store.quads()) == set(graph_quads)
    assert len(store) == len(graph_quads)
    assert set(store.quads("")) == {q for q in graph_quads if q.graph_name == DefaultGraph()}
    provenance = set(store.quads(PROVENANCE))
    assert provenance and provenance == {
        q for q in graph_quads if q.graph_name == NamedNode(PROVENANCE)
    }
    assert store.named_graphs() == [PROVENANCE]


def test_replace_all_replaces_everything(store, graph_quads):
    store.replace_all(graph_quads)
    other = Quad(NamedNode("https://example.org/x"), NamedNode("https://example.org/p"),
                 Literal("only"), NamedNode("https://example.org/g"))
    store.replace_all([other])
    assert list(store.quads()) == [other]
    assert store.named_graphs() == ["https://example.org/g"]


def test_select_ask_construct_return_pyoxigraph_types(store, graph_quads):
    store.replace_all(graph_quads)
    rows = store.query(
        f"SELECT ?paper ?title WHERE {{ ?paper a <{PKG}Paper> ; "
        "<http://purl.org/dc/terms/title> ?title } ORDER BY ?paper"
    )
    assert isinstance(rows, QuerySolutions)
    assert [v.value for v in rows.variables] == ["paper", "title"]
    assert [(r["paper"], r["title"]) for r in rows] == [
        (NamedNode(PAPER_A), Literal("Alpha Network")),
        (NamedNode(PAPER_B), Literal("On Alpha")),
    ]
    asked = store.query(f"ASK {{ <{PAPER_A}> <{PKG}proposes> <{BASE}method/alpha-network> }}")
    assert isinstance(asked, QueryBoolean) and bool(asked) is True
    assert bool(store.query(f"ASK {{ <{PAPER_B}> <{PKG}proposes> ?x }}")) is False
    triples = store.query(
        f"CONSTRUCT {{ ?p <{PKG}usesDataset> ?d }} WHERE {{ ?p <{PKG}usesDataset> ?d }}"
    )
    assert {(t.subject.value, t.object.value) for t in triples} == {
        (PAPER_A, f"{BASE}dataset/betaset"),
        (PAPER_B, f"{BASE}dataset/betaset"),
        (PAPER_B, f"{BASE}dataset/gammaset"),
    }


def test_query_graph_options(store, graph_quads):
    store.replace_all(graph_quads)
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s <http://www.w3.org/ns/oa#hasSource> ?o }"
    in_provenance = sum(
        1 for q in graph_quads if q.predicate.value == "http://www.w3.org/ns/oa#hasSource"
    )
    assert in_provenance > 0
    assert int(next(iter(store.query(count)))["n"].value) == 0
    scoped = store.query(count, default_graph=[PROVENANCE])
    assert int(next(iter(scoped))["n"].value) == in_provenance
    union = store.query(count, union_default_graph=True)
    assert int(next(iter(union))["n"].value) == in_provenance


def test_bad_query_is_a_query_error(store):
    with pytest.raises(QueryError):
        store.query("SELECT ?x WHERE { ?x ")


def test_generation_changes_with_every_write(store, graph_quads):
    first = store.generation()
    store.replace_all(graph_quads)
    second = store.generation()
    assert second != first
    assert store.generation() == second  # reading does not change it
    store.add_quads([Quad(NamedNode(PAPER_A), NamedNode(f"{PKG}note"), Literal("x"),
                          DefaultGraph())])
    third = store.generation()
    assert third not in (first, second)
    assert remove_paper(store, "paper-b", base=BASE)
    assert store.generation() not in (first, second, third)


def test_remove_paper_drops_facts_provenance_and_orphans(store, graph_quads):
    store.replace_all(graph_quads)
    assert support(store, "dataset/betaset") == 2
    assert remove_paper(store, "paper-b", base=BASE) is True
    left = set(store.quads())
    assert not any(PAPER_B in (q.subject.value, q.object.value) for q in left
                   if isinstance(q.object, NamedNode))
    assert not any("annotation/paper-b" in q.subject.value for q in left)
    # Shared entities lose one paper; GammaSet had only paper b and is gone.
    assert support(store, "dataset/betaset") == 1
    assert support(store, "method/alpha-network") == 1
    assert not any(q.subject.value == f"{BASE}dataset/gammaset" for q in left)
    # Paper a is untouched.
    assert {q for q in graph_quads if "paper-a" in q.subject.value} <= left
    assert remove_paper(store, "paper-b", base=BASE) is False


def test_support_is_only_on_entities_after_remove(store, graph_quads):
    store.replace_all(graph_quads)
    remove_paper(store, "paper-a", base=BASE)
    holders = {
        r["x"].value for r in store.query(f"SELECT ?x WHERE {{ ?x <{PKG}support> ?n }}")
    }
    assert holders == {
        f"{BASE}method/alpha-network", f"{BASE}dataset/betaset", f"{BASE}dataset/gammaset",
    } | {h for h in holders if h.startswith(f"{BASE}domain/")}
    # Paper a's claim and result went with it.
    assert not any("paper-a" in q.subject.value for q in store.quads())


@pytest.mark.remote
def test_connection_refused_is_a_store_error_naming_the_url():
    url = f"http://127.0.0.1:{free_port()}"
    store = RemoteStore(url, timeout=2)
    with pytest.raises(StoreError, match=r"127\.0\.0\.1"):
        store.query("ASK {}")
    with pytest.raises(StoreError, match=r"127\.0\.0\.1"):
        store.replace_all([])


@pytest.mark.remote
def test_remote_store_hides_its_bookkeeping_graphs(server, graph_quads):
    store = RemoteStore(server)
    store.replace_all(graph_quads)
    assert "urn:paperkg" not in " ".join(store.named_graphs())
    assert all("urn:paperkg" not in str(q.graph_name) for q in store.quads())
    # The token lives in the server, so a second client sees the same generation.
    assert RemoteStore(server).generation() == store.generation()


@pytest.mark.remote
def test_decimal_literal_round_trips_remote(server):
    store = RemoteStore(server)
    value = Quad(NamedNode(f"{BASE}result/x"), NamedNode(f"{PKG}value"),
                 Literal("3.2", datatype=NamedNode(f"{XSD}decimal")), DefaultGraph())
    store.replace_all([value])
    assert list(store.quads()) == [value]


def test_timeout_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("PAPERKG_STORE_TIMEOUT", "7.5")
    assert RemoteStore("http://127.0.0.1:1").timeout == 7.5
    assert RemoteStore("http://127.0.0.1:1", timeout=3).timeout == 3
    monkeypatch.setenv("PAPERKG_STORE_TIMEOUT", "soon")
    with pytest.raises(StoreError, match="PAPERKG_STORE_TIMEOUT"):
        RemoteStore("http://127.0.0.1:1")


def test_endpoints_follow_the_url():
    plain = RemoteStore("http://db.example:7878/")
    assert (plain.query_endpoint, plain.update_endpoint, plain.store_endpoint) == (
        "http://db.example:7878/query", "http://db.example:7878/update",
        "http://db.example:7878/store",
    )
    named = RemoteStore("http://db.example/ds/sparql", store_endpoint="http://db.example/ds/data")
    assert named.query_endpoint == "http://db.example/ds/sparql"
    assert named.update_endpoint == "http://db.example/ds/update"
    assert named.store_endpoint == "http://db.example/ds/data"


@pytest.mark.remote
def test_graph_api_answers_alike_from_a_server_and_the_embedded_store(server, tmp_path):
    from pyoxigraph import RdfFormat, parse

    from tests.api.conftest import FIXTURE, make_store
    from tests.scale.api_answers import URLS, api_answers

    RemoteStore(server).replace_all(parse(path=str(FIXTURE), format=RdfFormat.TRIG))
    remote = api_answers(server, tmp_path)
    assert remote == api_answers(make_store(tmp_path), tmp_path)
    assert [r["id"] for r in remote["/api/search?q=bert"]["results"]] == [
        "model/bert", "paper/p08", "paper/p07"]
    assert remote[URLS[4]]["length"] == 4
    assert remote[URLS[4]]["paths"][:2] == [
        ["dataset/squad", "paper/p07", "method/transformer", "paper/p04", "dataset/cora"],
        ["dataset/squad", "paper/p08", "method/transformer", "paper/p04", "dataset/cora"]]


def test_replace_all_nquads_loads_what_a_build_writes(store, graph_quads):
    """The build's one way into any store: N-Quads files a generator writes as it goes, and
    a check of the loaded graph (`before_publish`) before the build goes on."""
    lines = [f"{q} .\n" for q in graph_quads]
    half = len(lines) // 2
    written = []

    def fill(folder):
        for n, part in enumerate((lines[:half], lines[half:] + lines[:5])):
            path = folder / f"part-{n}.nq"
            path.write_text("".join(part), encoding="utf-8")
            written.append(path)
            yield path

    seen = []
    assert store.replace_all_nquads(fill, before_publish=lambda view: seen.append(len(view))) \
        == len(graph_quads)
    assert seen == [len(graph_quads)]
    assert set(store.quads()) == set(graph_quads)
    assert not any(path.exists() for path in written)  # each file goes once it is loaded
    assert store.replace_all_nquads([lines[0].encode(), lines[1].encode()], count=False) is None
    assert set(store.quads()) == set(graph_quads[:2])


def test_bad_nquads_are_a_store_error_and_keep_the_graph(store, graph_quads):
    store.replace_all(graph_quads)
    with pytest.raises(StoreError, match="cannot load N-Quads"):
        store.replace_all_nquads([b"<not an iri> <p> <o> .\n"])
    assert set(store.quads()) == set(graph_quads)


def test_dump_graph_writes_one_graph_as_n_triples(store, graph_quads, tmp_path):
    from pyoxigraph import RdfFormat, parse

    store.replace_all(graph_quads)
    for name, graph in (("", DefaultGraph()), (PROVENANCE, NamedNode(PROVENANCE))):
        out = tmp_path / "graph.nt"
        store.dump_graph(out, name)
        dumped = {q.triple for q in parse(path=str(out), format=RdfFormat.N_TRIPLES)}
        assert dumped == {q.triple for q in graph_quads if q.graph_name == graph}


@pytest.mark.remote
def test_a_build_into_a_server_is_the_embedded_build(server, tmp_path):
    """`paperkg build --store URL` goes the embedded build's way: the same graph, report and
    export bytes."""
    import json

    from graph.build import build
    from graph.store import open_store

    corpus = tmp_path / "papers.jsonl"
    corpus.write_text("\n".join(json.dumps(record) for record in [
        {"id": "r1", "title": "Sparse Attention for Long Documents",
         "abstract": "We propose Sparse Attention, a method for long documents. We evaluate "
                     "it on the LongDocs dataset and improve accuracy by 2.1%."},
        {"id": "r2", "title": "Graph Networks on LongDocs",
         "abstract": "We apply graph neural networks to the LongDocs dataset."},
    ]) + "\n", encoding="utf-8")
    into_server = build([str(corpus)], out_dir=tmp_path / "server", store=server, base=BASE)
    embedded = build([str(corpus)], out_dir=tmp_path / "embedded", store=str(tmp_path / "s"),
                     base=BASE)
    assert into_server.quads == embedded.quads and into_server.report == embedded.report
    for name in ("graph.trig", "graph.ttl", "report.json"):
        assert (tmp_path / "server" / name).read_bytes() == \
            (tmp_path / "embedded" / name).read_bytes(), name
    remote, local = RemoteStore(server, timeout=20), open_store(str(tmp_path / "s"),
                                                                read_only=True)
    try:
        assert set(remote.quads()) == set(local.quads())
    finally:
        remote.close()
        local.close()
