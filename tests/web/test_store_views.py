"""Neighbourhood views and `paperkg neighbours` answered from the store (StoreGraph, or
IndexGraph over the search index), never from the whole-graph projection; the same answers as
the in-memory reference, and the same page whatever Python's hash seed."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graph import network, viz
from graph.cli import cli
from graph.network import IndexGraph, SearchIndex, StoreGraph, search_index

ROOT = Path(__file__).resolve().parents[2]
BASE = "https://w3id.org/paperkg/id/"
# The module, not the function graph.network exports under the same name.
projection_module = importlib.import_module("graph.network.projection")

CASES = [
    ("paper/p01", 1, None, 150),
    ("metric/accuracy", 2, None, 5),
    ("metric/accuracy", 2, None, 150),
    ("paper/p01", 2, ["dataset", "metric"], 150),
    ("method/sparse-routing-attention", 3, None, 12),
]


@pytest.fixture()
def no_projection(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("the whole graph was projected into memory")

    monkeypatch.setattr(projection_module, "build", refuse)


@pytest.fixture(scope="module")
def index_graph(store: Any, tmp_path_factory: pytest.TempPathFactory) -> IndexGraph:
    path = search_index.build(store, tmp_path_factory.mktemp("index") / "i.sqlite", BASE)
    return IndexGraph(store, SearchIndex(path), BASE, str(store.generation()))


def test_neighbourhood_view_is_read_from_the_store(store: Any, no_projection: None) -> None:
    sub, trimmed, centre = viz.neighbourhood_subgraph(store, "paper/p01")
    assert (centre, trimmed) == ("paper/p01", False)
    # The walk's order: the centre, then by support (most first), then id.
    assert list(sub.nodes) == [
        "paper/p01", "domain/natural-language-processing", "method/sparse-routing-attention",
        "task/language-modeling", "dataset/wikitext-103", "metric/perplexity",
        "model/transformer-xl"]
    assert list(sub.edges(data="relation")) == [
        ("paper/p01", "dataset/wikitext-103", "usesDataset"),
        ("paper/p01", "domain/natural-language-processing", "inDomain"),
        ("paper/p01", "method/sparse-routing-attention", "proposes"),
        ("paper/p01", "metric/perplexity", "reportsMetric"),
        ("paper/p01", "model/transformer-xl", "usesModel"),
        ("paper/p01", "task/language-modeling", "addressesTask")]
    assert sub.nodes["paper/p01"]["iri"] == BASE + "paper/p01"


def test_trimmed_view_counts_the_whole_neighbourhood(store: Any, no_projection: None) -> None:
    sub, trimmed, _ = viz.neighbourhood_subgraph(store, "metric/accuracy", depth=2, limit=5)
    assert trimmed and sub.graph["total"] == 21
    assert list(sub.nodes) == ["metric/accuracy", "paper/p06", "paper/p02", "paper/p09",
                               "paper/hostile01"]


@pytest.mark.parametrize(("node", "depth", "types", "limit"), CASES)
def test_store_and_index_views_equal_the_in_memory_reference(
        store: Any, index_graph: IndexGraph, node: str, depth: int, types: list[str] | None,
        limit: int) -> None:
    whole = network.build(store, BASE)
    expected = network.neighbourhood(whole, node, depth=depth, types=types, limit=limit)
    reference = whole.subgraph(item["id"] for item in expected.nodes)
    for questions in (StoreGraph(store, BASE), index_graph):
        sub, trimmed, centre = viz.neighbourhood_subgraph(
            store, node, depth=depth, types=types, limit=limit, questions=questions)
        assert (centre, trimmed) == (node, expected.truncated)
        assert list(sub.nodes) == [item["id"] for item in expected.nodes]
        assert sorted(sub.edges(data="relation")) == sorted(reference.edges(data="relation"))
        for key, attrs in sub.nodes(data=True):
            assert attrs == {k: whole.nodes[key][k]
                             for k in ("iri", "type", "label", "support", "aliases")}


def test_a_name_finds_the_node_and_an_unknown_one_is_named(store: Any) -> None:
    questions = StoreGraph(store, BASE)
    assert network.find_node(questions, "Transformer-XL")["id"] == "model/transformer-xl"
    assert network.find_node(questions, BASE + "paper/p01")["id"] == "paper/p01"
    assert network.find_node(questions, "p01")["id"] == "paper/p01"
    with pytest.raises(network.UnknownNode, match="'method/nope' is not in the graph"):
        network.find_node(questions, "method/nope")


def test_cli_neighbours_answers_from_the_store(store_path: str, no_projection: None) -> None:
    out = CliRunner().invoke(cli, ["neighbours", "metric/accuracy", "--depth", "2",
                                   "--limit", "4", "--json", "--store", store_path])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [n["id"] for n in data["nodes"]] == ["metric/accuracy", "paper/p06", "paper/p02",
                                                "paper/p09"]
    assert data["edges"] == [
        {"source": p, "target": "metric/accuracy", "relation": "reportsMetric"}
        for p in ("paper/p02", "paper/p06", "paper/p09")]
    assert data["truncated"] is True
    assert list(data["nodes"][1]) == ["id", "iri", "type", "label", "support"]


def test_viz_file_is_the_same_whatever_the_hash_seed(store_path: str, tmp_path: Path) -> None:
    pages = []
    for seed in ("1", "2"):
        out = tmp_path / f"v{seed}.html"
        subprocess.run([sys.executable, "-m", "graph", "viz", "paper/p01", "--depth", "2",
                        "--store", store_path, "--out", str(out)], cwd=ROOT, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True)
        pages.append(out.read_bytes())
    assert pages[0] == pages[1]
