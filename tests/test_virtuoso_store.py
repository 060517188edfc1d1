"""The remote store against OpenLink Virtuoso (Debian's virtuoso-opensource, started here):
build, add, remove, query and the graph API, with the login a real server needs."""

from __future__ import annotations

import json
import shutil

import pytest
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, RdfFormat, parse

from graph.build.incremental import add_papers, remove_paper
from graph.errors import StoreError
from graph.store import open_store
from graph.store.virtuoso import VirtuosoStore
from graph.vocab import PKG, provenance_graph
from tests.scale.graphs import BASE, corpus_quads, five_papers, two_papers

pytestmark = pytest.mark.remote

PROVENANCE = provenance_graph(BASE)


@pytest.fixture(scope="module")
def virtuoso(tmp_path_factory):
    from tests.scale.virtuoso import virtuoso_server

    if shutil.which("virtuoso-t") is None:
        reason = ("virtuoso-t is not installed: `make test` installs Debian's "
                  "virtuoso-opensource with apt")
        if shutil.which("apt-get") is not None:
            pytest.fail(reason)  # apt is there: the package belongs in this run
        pytest.skip(reason + ", and this machine has no apt")
    with virtuoso_server(tmp_path_factory.mktemp("virtuoso")) as server:
        yield server


@pytest.fixture
def login(virtuoso, monkeypatch):
    monkeypatch.setenv("PAPERKG_STORE_USER", virtuoso.user)
    monkeypatch.setenv("PAPERKG_STORE_PASSWORD", virtuoso.password)
    monkeypatch.setenv("PAPERKG_STORE_DIALECT", "virtuoso")
    return virtuoso


@pytest.fixture
def store(login):
    opened = open_store(login.url)
    opened.replace_all([])  # each test starts from an empty store
    yield opened
    opened.close()


def _support(store, entity: str) -> int | None:
    rows = list(store.query(f"SELECT ?n WHERE {{ <{BASE}{entity}> <{PKG}support> ?n }}"))
    return int(rows[0]["n"].value) if rows else None


def test_open_store_picks_the_dialect_and_its_endpoints(login):
    store = open_store(login.url)
    assert isinstance(store, VirtuosoStore)
    root = login.url.removesuffix("/sparql")
    assert (store.query_endpoint, store.update_endpoint, store.store_endpoint) == (
        f"{root}/sparql", f"{root}/sparql-auth", f"{root}/sparql-graph-crud-auth")
    assert login.password not in repr(store)


def test_replace_all_round_trips_and_keeps_graphs_apart(store):
    quads = corpus_quads(two_papers())
    store.replace_all(quads)
    assert set(store.quads()) == set(quads)
    assert len(store) == len(quads)
    assert store.named_graphs() == [PROVENANCE]
    # The default graph is the facts only: provenance stays in its named graph.
    facts = {q for q in quads if q.graph_name == DefaultGraph()}
    assert set(store.quads("")) == facts
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s <http://www.w3.org/ns/oa#hasSource> ?o }"
    assert int(next(iter(store.query(count)))["n"].value) == 0
    scoped = store.query(count, default_graph=[PROVENANCE])
    assert int(next(iter(scoped))["n"].value) == sum(
        1 for q in quads if q.predicate.value == "http://www.w3.org/ns/oa#hasSource")


def test_add_and_remove_equal_a_build_of_the_result(store):
    papers = five_papers()
    store.replace_all(corpus_quads(papers[:3]))
    before = store.generation()

    def extract(chosen):
        by_key = {e.paper.key: e for e in papers}
        return [by_key[p.key] for p in chosen]

    add_papers(store, [e.paper for e in papers[3:]], base=BASE, extract=extract)
    assert store.generation() != before
    assert set(store.quads()) == set(corpus_quads(papers))
    assert _support(store, "dataset/betaset") == 3
    assert remove_paper(store, "p5", base=BASE)
    assert set(store.quads()) == set(corpus_quads(papers[:4]))
    assert not remove_paper(store, "p5", base=BASE)


def test_big_adds_go_through_the_graph_store_protocol(store):
    many = [Quad(NamedNode(f"https://example.org/s{i}"), NamedNode("https://example.org/p"),
                 Literal(f"value {i}"), DefaultGraph() if i % 2 else NamedNode(PROVENANCE))
            for i in range(store.update_batch + 500)]
    store.add_quads(many)
    assert set(store.quads()) == set(many)


def test_a_build_writes_the_graph_into_virtuoso(login, tmp_path):
    from graph.build import build

    corpus = tmp_path / "papers.jsonl"
    corpus.write_text("\n".join(json.dumps(record) for record in [
        {"id": "v1", "title": "Sparse Attention for Long Documents",
         "abstract": "We propose Sparse Attention, a method for long documents. We evaluate "
                     "it on the LongDocs dataset and improve accuracy by 2.1%."},
        {"id": "v2", "title": "Graph Networks on LongDocs",
         "abstract": "We apply graph neural networks to the LongDocs dataset."},
    ]) + "\n", encoding="utf-8")
    result = build([str(corpus)], out_dir=str(tmp_path / "exports"), store=login.url,
                   base=BASE)
    assert result.papers == 2
    store = open_store(login.url)
    titles = {row["t"].value for row in store.query(
        f"SELECT ?t WHERE {{ ?p a <{PKG}Paper> ; <http://purl.org/dc/terms/title> ?t }}")}
    assert titles == {"Sparse Attention for Long Documents", "Graph Networks on LongDocs"}
    # The export read back from Virtuoso holds what the store holds.
    exported = set(parse(path=str(tmp_path / "exports" / "graph.nt"),
                         format=RdfFormat.N_TRIPLES))
    assert {q.triple for q in exported} == {q.triple for q in store.quads("")}


def test_graph_api_answers_alike_from_virtuoso_and_the_embedded_store(login, tmp_path):
    from tests.api.conftest import FIXTURE, make_store
    from tests.scale.api_answers import URLS, api_answers

    open_store(login.url).replace_all(parse(path=str(FIXTURE), format=RdfFormat.TRIG))
    remote = api_answers(login.url, tmp_path)
    assert remote == api_answers(make_store(tmp_path), tmp_path)
    assert [n["id"] for n in remote[URLS[0]]["nodes"]] == [
        "task/question-answering", "paper/p07", "paper/p08", "method/transformer",
        "domain/natural-language-processing", "model/bert", "dataset/squad", "metric/f1"]


def test_without_a_login_writes_are_refused_and_the_password_never_shows(login, monkeypatch):
    monkeypatch.delenv("PAPERKG_STORE_USER")
    monkeypatch.delenv("PAPERKG_STORE_PASSWORD")
    anonymous = open_store(login.url)
    with pytest.raises(StoreError) as refused:
        anonymous.add_quads([Quad(NamedNode("https://example.org/x"),
                                  NamedNode("https://example.org/p"), Literal("x"),
                                  DefaultGraph())])
    assert "cannot write" in str(refused.value)
    wrong = VirtuosoStore(login.url, user=login.user, password="not-" + login.password)
    with pytest.raises(StoreError, match="401") as denied:
        wrong.update("INSERT DATA { <urn:a> <urn:b> <urn:c> }")
    assert login.password not in str(denied.value)


def test_a_password_in_the_url_is_refused_without_echoing_it(login):
    with pytest.raises(StoreError, match="PAPERKG_STORE_USER") as refused:
        open_store(login.url.replace("http://", "http://paperkg:hunter2@"))
    assert "hunter2" not in str(refused.value)


def test_login_from_a_netrc_file(login, monkeypatch, tmp_path):
    monkeypatch.delenv("PAPERKG_STORE_USER")
    monkeypatch.delenv("PAPERKG_STORE_PASSWORD")
    netrc = tmp_path / "netrc"
    netrc.write_text(f"machine 127.0.0.1 login {login.user} password {login.password}\n",
                     encoding="utf-8")
    netrc.chmod(0o600)
    monkeypatch.setenv("PAPERKG_STORE_NETRC", str(netrc))
    store = open_store(login.url)
    store.replace_all([Quad(NamedNode("https://example.org/n"), NamedNode("https://example.org/p"),
                            Literal("from netrc"), DefaultGraph())])
    assert [q.object.value for q in store.quads()] == ["from netrc"]
