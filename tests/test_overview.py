"""graph.network.overview on a small store: shared entities only, the cap, communities, the
notice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import networkx as nx
import pyoxigraph
import pytest

from graph.store import open_store
from graph.viz import overview
from graph.vocab import DEFAULT_BASE

ID = DEFAULT_BASE
# Two clusters: papers a1-a3 share method/m1 and dataset/d1, papers b1-b2 share task/t1;
# metric/x is named by a3 and b1 (a bridge), method/solo by one paper only.
LINKS = [
    ("a1", "usesMethod", "method/m1"), ("a2", "usesMethod", "method/m1"),
    ("a3", "proposes", "method/m1"), ("a1", "usesDataset", "dataset/d1"),
    ("a2", "usesDataset", "dataset/d1"), ("b1", "addressesTask", "task/t1"),
    ("b2", "addressesTask", "task/t1"), ("a3", "reportsMetric", "metric/x"),
    ("b1", "reportsMetric", "metric/x"), ("b2", "usesMethod", "method/solo"),
]
CLASSES = {"method": "Method", "dataset": "Dataset", "task": "Task", "metric": "Metric"}


def _turtle() -> str:
    lines = ["@prefix pkg: <https://w3id.org/paperkg/ns#> .",
             "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    papers = sorted({p for p, _, _ in LINKS} | {"lonely"})
    for paper in papers:
        lines.append(f'<{ID}paper/{paper}> a pkg:Paper ; rdfs:label "Paper {paper}" .')
    entities = sorted({e for _, _, e in LINKS})
    for entity in entities:
        support = sum(1 for _, _, e in LINKS if e == entity)
        cls = CLASSES[entity.split("/")[0]]
        lines.append(f'<{ID}{entity}> a pkg:{cls} ; rdfs:label "{entity.split("/")[1].upper()}" ;'
                     f" pkg:support {support} .")
    for paper, rel, entity in LINKS:
        lines.append(f"<{ID}paper/{paper}> pkg:{rel} <{ID}{entity}> .")
    return "\n".join(lines)


@pytest.fixture()
def store() -> Iterator[Any]:
    target = open_store(":memory:")
    target.replace_all(pyoxigraph.Quad(t.subject, t.predicate, t.object)
                       for t in pyoxigraph.parse(_turtle(), format=pyoxigraph.RdfFormat.TURTLE))
    yield target
    target.close()


def _names(graph: nx.Graph) -> set[str]:
    return {n.removeprefix(ID) for n in graph}


def test_papers_are_linked_through_the_entities_they_share(store: Any) -> None:
    found = overview.overview(store, cap=50)
    assert _names(found.graph) == {
        "paper/a1", "paper/a2", "paper/a3", "paper/b1", "paper/b2",
        "method/m1", "dataset/d1", "task/t1", "metric/x",
    }
    assert nx.is_connected(found.graph)
    assert (found.papers_total, found.entities_total) == (6, 4)
    # The paper that shares nothing is left out, and the notice says so.
    assert found.trimmed
    assert overview.notice(found).startswith("Showing 5 of 6 papers and 4 of 4 entities")


def test_communities_are_named_by_their_best_connected_entities(store: Any) -> None:
    found = overview.overview(store, cap=50)
    names = [c.name for c in found.communities]
    assert names[0] == "M1 · D1"
    assert "T1" in " ".join(names)
    assert sum(c.papers for c in found.communities) == 5
    assert all(found.graph.nodes[n]["community"] >= 0 for n in found.graph)
    again = overview.overview(store, cap=50)
    assert [c.name for c in again.communities] == names


def test_an_entity_is_drawn_with_all_its_papers_or_not_at_all(store: Any) -> None:
    # Under a cap of 5 no entity may have more than 2 papers: method/m1 (3) is out.
    found = overview.overview(store, cap=5)
    assert _names(found.graph) == {"paper/a1", "paper/a2", "dataset/d1"}
    assert overview.notice(found).startswith("Showing 2 of 6 papers and 1 of 4 entities")
    html = overview.overview_html(found)
    assert 'id="trim-notice"' in html and "capped at 5 nodes" in html


def test_entities_that_link_to_the_picture_come_first(store: Any) -> None:
    # dataset/d1 first (a1, a2); nothing shares a paper with it, so metric/x starts a second
    # group (a3, b1); task/t1 shares b1 and joins that group with b2.
    found = overview.overview(store, cap=10)
    assert _names(found.graph) == {"dataset/d1", "metric/x", "task/t1", "paper/a1",
                                   "paper/a2", "paper/a3", "paper/b1", "paper/b2"}
    parts = sorted(sorted(_names(found.graph.subgraph(c))) for c in
                   nx.connected_components(found.graph))
    assert parts == [["dataset/d1", "paper/a1", "paper/a2"],
                     ["metric/x", "paper/a3", "paper/b1", "paper/b2", "task/t1"]]


def test_the_page_is_the_same_for_the_same_graph(store: Any) -> None:
    first = overview.overview_html(overview.overview(store, cap=50))
    assert first == overview.overview_html(overview.overview(store, cap=50))


def test_an_empty_store_draws_nothing() -> None:
    target = open_store(":memory:")
    try:
        found = overview.overview(target, cap=10)
    finally:
        target.close()
    assert found.graph.number_of_nodes() == 0 and not found.trimmed
    assert "Nothing to show." in overview.overview_html(found)


def test_a_cap_below_three_is_refused(store: Any) -> None:
    with pytest.raises(ValueError, match="at least 3"):
        overview.overview(store, cap=2)


def test_choose_prefers_an_entity_that_shares_a_paper() -> None:
    papers_of = {"big": ["p1", "p2", "p3"], "other": ["q1", "q2", "q3"], "link": ["p3", "q9"]}
    # After "big" (4 nodes) both others fit under 9; "link" shares p3, so it goes first,
    # and then "other" no longer fits.
    chosen, shown = overview._choose(papers_of, 9)
    assert chosen == ["big", "link"]
    assert shown == {"p1", "p2", "p3", "q9"}
