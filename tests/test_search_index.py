"""The search index's ranking against a reference written from its documented rule, on a
generated graph where a word is in a third of the titles (so the ranked-prefix path and the
full path are both taken), with aliases on entities and on a paper."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pyoxigraph
import pytest

from graph.network import SearchIndex, search_index
from graph.network.search_queries import KINDS, _kind
from graph.vocab import PKG, SKOS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_sparql import generate  # noqa: E402

BASE = "https://w3id.org/paperkg/id/"
EXTRA = f"""
<{BASE}method/method-3> <{SKOS}altLabel> "Graph Kernel Net" .
<{BASE}method/method-3> <{SKOS}altLabel> "GKN" .
<{BASE}dataset/dataset-1> <{SKOS}altLabel> "graph" .
<{BASE}paper/p0000007> <{SKOS}altLabel> "Graph paper alias" .
<{BASE}paper/p0000007> <{PKG}usesMethod> <{BASE}method/orphan-graph-net> .
"""
QUERIES = ["graph", "Graph", "diff", "contrastive graph", "raph", "me", "gr", "method 1",
           "gkn", "graph kernel", "orphan", "zebra", "learning kernel", "method"]
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
