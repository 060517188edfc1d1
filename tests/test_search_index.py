"""The search index's ranking against a reference written from its documented rule, on a
generated graph where a word is in a third of the titles (so the ranked-prefix path and the
full path are both taken), with aliases on entities and on a paper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyoxigraph
import pytest

from bench.bench_sparql import generate
from graph.network import SearchIndex, search_index
from graph.network.search_queries import KINDS, _kind
from graph.vocab import PKG, SKOS

BASE = "https://w3id.org/paperkg/id/"
EXTRA = f"""
<{BASE}method/method-3> <{SKOS}altLabel> "Graph Kernel Net" .
<{BASE}method/method-3> <{SKOS}altLabel> "GKN" .
<{BASE}dataset/dataset-1> <{SKOS}altLabel> "graph" .
<{BASE}paper/p0000007> <{SKOS}altLabel> "Graph paper alias" .
<{BASE}paper/p0000007> <{PKG}usesMethod> <{BASE}method/orphan-graph-net> .
"""
QUERIES = ["graph", "Graph", "diff", "contrastive graph", "raph", "me", "gr", "method 1",
           "gkn", "graph kernel", "orphan", "zebra", "learning kernel", "method", "a", "zq", "1"]
TYPES = [None, ["paper"], ["method"], ["method", "paper"], ["dataset", "task"], ["entity"]]


@pytest.fixture(scope="module")
def store() -> pyoxigraph.Store:
    target = pyoxigraph.Store()
    text = "\n".join(generate(300, seed=5)) + "\n" + EXTRA
    target.bulk_load(input=text.encode("utf-8"), format=pyoxigraph.RdfFormat.N_TRIPLES)
    return target


@pytest.fixture(scope="module")
def index(store: pyoxigraph.Store, tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    return SearchIndex(search_index.build(store, tmp_path_factory.mktemp("s") / "i.sqlite"))


def reference(index: SearchIndex, q: str, types: list[str] | None,
              limit: int) -> tuple[int, list[tuple[str, str]]]:
    """Every node read and ranked in Python, by the rule search_queries' docstring gives."""
    db = index._db()
    mean = float(db.execute("SELECT value FROM meta WHERE key = 'title_length'").fetchone()[0])
    needle = q.casefold()
    ranked = []
    for row in db.execute("SELECT * FROM search"):
        if types and row["type"] not in types:
            continue
        names = [row["label"], *json.loads(row["aliases"])]
        kind = min(_kind(name, needle) for name in names)
        if kind == 9:
            continue
        folded = row["folded"]
        tf = (len(folded) - len(folded.replace(needle, ""))) // len(needle)
        score = tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(folded) / mean))
        rank = -score if row["is_paper"] else -row["support"]
        ranked.append(((kind, row["is_paper"], rank, row["sortlabel"], row["id"]),
                       (row["id"], KINDS[kind])))
    ranked.sort()
    return len(ranked), [item for _, item in ranked[:limit]]


@pytest.mark.parametrize("q", QUERIES)
def test_search_equals_the_reference_ranking(index: SearchIndex, q: str) -> None:
    for types in TYPES:
        for limit in (1, 3, 20, 100):
            total, results = index.search(q, types, limit)
            assert (total, [(r["id"], r["match"]) for r in results]) == \
                reference(index, q, types, limit), (q, types, limit)


def test_a_common_word_ranks_titles_that_start_with_it_first(index: SearchIndex) -> None:
    total, results = index.search("graph", None, 4)
    assert total == 81
    # Entities first within a kind; papers of one kind by BM25 (two "graph"s beat one).
    assert [(r["id"], r["match"], r["matched"], r["text"]) for r in results] == [
        ("dataset/dataset-1", "exact", "alias", "graph"),
        ("method/method-3", "prefix", "alias", "Graph Kernel Net"),
        ("paper/p0000216", "prefix", "title", "Graph attention sparse scale scale graph"),
        ("paper/p0000126", "prefix", "title", "Graph efficient multi graph attention deep")]


def test_an_alias_match_names_the_alias(index: SearchIndex) -> None:
    _, results = index.search("gkn", None, 5)
    assert [(r["id"], r["matched"], r["text"]) for r in results] == [
        ("method/method-3", "alias", "GKN")]


# -- the index of the next generation, made from the previous one --------------------------------


def _contents(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in a fixed order, rowids left out (an update gives new ones)."""
    import sqlite3

    db = sqlite3.connect(path)
    try:
        search = [c for (_, c, *_) in db.execute("PRAGMA table_info(search)") if c != "rowid"]
        out = {
            "meta": db.execute("SELECT * FROM meta ORDER BY key").fetchall(),
            "nodes": db.execute("SELECT * FROM nodes ORDER BY id").fetchall(),
            "search": db.execute(f"SELECT {', '.join(search)} FROM search ORDER BY id").fetchall(),
            "names": db.execute("SELECT * FROM names ORDER BY key, node").fetchall(),
            "edges": db.execute("SELECT * FROM edges ORDER BY paper, entity").fetchall(),
        }
        for table in ("search_fts", "entity_fts"):
            db.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
        return out
    finally:
        db.close()


class Generations:
    """An in-memory store that counts its writes as generations, as the real ones do."""

    def __init__(self, text: str, folder: Path) -> None:
        self.db = pyoxigraph.Store()
        self.db.bulk_load(input=text.encode("utf-8"), format=pyoxigraph.RdfFormat.N_TRIPLES)
        self.location = str(folder / "store")
        self.writes = 0

    def generation(self) -> str:
        return f"g{self.writes}"

    def query(self, sparql: str) -> Any:
        return self.db.query(sparql)

    def update(self, sparql: str) -> None:
        self.db.update(sparql)
        self.writes += 1


def test_an_updated_index_equals_a_rebuilt_one(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from graph.network import search_update

    monkeypatch.setenv("PAPERKG_SEARCH_DIR", str(tmp_path / "indexes"))
    text = "\n".join(generate(200, seed=3)) + "\n" + EXTRA.replace("p0000007", "p0000008")
    store = Generations(text, tmp_path)
    first = search_index.ensure_index(store, BASE)
    p, m = BASE + "paper/", BASE + "method/"
    changes = [
        # a paper's title, links and alias change; a new method with an alias appears
        ([p + "p0000012"], f"""
DELETE {{ <{p}p0000012> ?r ?o }} WHERE {{ <{p}p0000012> ?r ?o }} ;
INSERT DATA {{ <{p}p0000012> a <{PKG}Paper> ; <http://purl.org/dc/terms/title> "Graph zebra" ;
  <{PKG}usesMethod> <{m}method-0>, <{m}zebra-net> ; <{PKG}proposes> <{m}zebra-net> ;
  <{SKOS}altLabel> "Zebra graph paper" .
  <{m}zebra-net> a <{PKG}Method> ; <http://www.w3.org/2000/01/rdf-schema#label> "Zebra Net" ;
  <{SKOS}altLabel> "ZN" ; <{PKG}support> 1 . }}"""),
        # a paper removed: its methods lose support, one is no longer a node at all
        ([p + "p0000008"], f"""
DELETE {{ <{p}p0000008> ?r ?o }} WHERE {{ <{p}p0000008> ?r ?o }}"""),
        # a new paper linking an entity the store does not describe, in a domain whose new
        # parent no paper links
        ([p + "p9999999"], f"""
INSERT DATA {{ <{p}p9999999> a <{PKG}Paper> ; <http://purl.org/dc/terms/title> "New one" ;
  <{PKG}usesDataset> <{BASE}dataset/undescribed> ; <{PKG}inDomain> <{BASE}domain/domain-1> .
  <{BASE}domain/parent-area> a <{PKG}Domain> ; <{SKOS}prefLabel> "Parent area" . }}"""),
    ]
    previous = first
    for papers, sparql in changes:
        with search_update.follow(store, BASE, papers):
            store.update(sparql)
        updated = search_index.index_path(store, store.generation(), BASE)
        assert updated.exists() and updated != previous
        rebuilt = search_index.build(store, tmp_path / f"rebuilt-{store.writes}.sqlite", BASE)
        assert _contents(updated) == _contents(rebuilt)
        new, again = SearchIndex(updated), SearchIndex(rebuilt)
        for q in ("graph", "zebra", "zn", "method 1", "undescribed", "me"):
            assert new.search(q, None, 50) == again.search(q, None, 50), q
        previous = updated
    last = SearchIndex(previous)
    assert last.search("zebra", ["method"], 5)[1][0]["id"] == "method/zebra-net"
    assert last.search("orphan", None, 5) == (0, [])  # linked by the removed paper only
    assert [r["id"] for r in last.search("undescribed", None, 5)[1]] == ["dataset/undescribed"]


def test_build_add_and_remove_update_the_index_as_a_rebuild_would(tmp_path: Path) -> None:
    from graph.build.incremental import add_papers, remove_paper
    from graph.store import EmbeddedStore
    from tests.scale.graphs import BASE as GRAPHS_BASE
    from tests.scale.graphs import corpus_quads, five_papers

    papers = five_papers()
    by_key = {e.paper.key: e for e in papers}
    store = EmbeddedStore(str(tmp_path / "store"))
    try:
        store.replace_all(corpus_quads(papers[:3]))
        search_index.ensure_index(store, GRAPHS_BASE)
        steps = [
            lambda: add_papers(store, [e.paper for e in papers[3:]], base=GRAPHS_BASE,
                               extract=lambda todo: [by_key[p.key] for p in todo]),
            lambda: remove_paper(store, "p5", base=GRAPHS_BASE),
            lambda: remove_paper(store, "p1", base=GRAPHS_BASE),
        ]
        for step in steps:
            step()
            updated = search_index.index_path(store, str(store.generation()), GRAPHS_BASE)
            assert updated.exists()  # made from the previous generation's, not built here
            rebuilt = search_index.build(store, tmp_path / "rebuilt.sqlite", GRAPHS_BASE)
            assert _contents(updated) == _contents(rebuilt)
        final = SearchIndex(updated)
        assert [n["id"] for n in final.papers(0, 10)[1]] == ["paper/p2", "paper/p3", "paper/p4"]
        assert final.search("zeta", None, 5) == (0, [])  # p5's method went with it
    finally:
        store.close()
