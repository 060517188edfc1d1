"""Adding, re-ingesting and removing papers gives the graph a full build of the result gives."""

from __future__ import annotations

import dataclasses

import pytest

from graph.build.incremental import add_papers, known_entities, remove_paper, store_base
from graph.store import EmbeddedStore
from graph.vocab import PKG
from tests.scale.graphs import BASE, corpus_quads, five_papers


def _extract_from(extractions):
    by_key = {e.paper.key: e for e in extractions}

    def extract(papers):
        return [by_key[p.key] for p in papers]

    return extract


@pytest.fixture
def store(tmp_path):
    opened = EmbeddedStore(str(tmp_path / "store"))
    yield opened
    opened.close()


def support(store, ref: str) -> int | None:
    rows = list(store.query(f"SELECT ?n WHERE {{ <{BASE}{ref}> <{PKG}support> ?n }}"))
    return int(rows[0]["n"].value) if rows else None


def test_adding_papers_equals_building_them_all(store):
    papers = five_papers()
    store.replace_all(corpus_quads(papers[:3]))
    before = store.generation()

    result = add_papers(store, [e.paper for e in papers[3:]], base=BASE,
                        extract=_extract_from(papers))

    assert result.added == ["p4", "p5"] and not result.replaced and not result.unchanged
    assert sorted(result.new_entities) == [
        "dataset/epsilonset", "method/zeta-search", "task/protein-folding"
    ]
    assert store.generation() != before
    assert set(store.quads()) == set(corpus_quads(papers))
    assert support(store, "method/alpha-network") == 3
    assert support(store, "dataset/betaset") == 3
    assert support(store, "metric/accuracy") == 2
    assert support(store, "domain/computational-biology") == 1


def test_adding_the_same_papers_again_changes_nothing(store):
    papers = five_papers()
    store.replace_all(corpus_quads(papers))
    before = store.generation()
    result = add_papers(store, [e.paper for e in papers], base=BASE,
                        extract=_extract_from([]))  # nothing may be extracted
    assert result.unchanged == ["p1", "p2", "p3", "p4", "p5"]
    assert store.generation() == before


def test_changed_abstract_with_same_id_replaces_the_paper(store):
    papers = five_papers()
    store.replace_all(corpus_quads(papers[:4]))
    # p4 corrected: it no longer mentions BetaSet or EpsilonSet, but GammaSet.
    text = "Alpha Network (AN) transfers well to GammaSet."
    old = papers[3]
    changed = dataclasses.replace(
        old,
        paper=dataclasses.replace(old.paper, abstract=text),
        mentions=[
            dataclasses.replace(old.mentions[0]),
            dataclasses.replace(old.mentions[1], text="GammaSet", start=text.index("GammaSet"),
                                end=text.index("GammaSet") + len("GammaSet")),
        ],
    )
    result = add_papers(store, [changed.paper], base=BASE, extract=_extract_from([changed]))

    assert result.replaced == ["p4"] and not result.added
    assert set(store.quads()) == set(corpus_quads(papers[:3] + [changed]))
    assert support(store, "dataset/betaset") == 2
    assert support(store, "dataset/gammaset") == 2
    assert support(store, "dataset/epsilonset") is None  # no paper left: entity removed


def test_remove_paper_equals_building_without_it(store):
    papers = five_papers()
    store.replace_all(corpus_quads(papers))
    assert remove_paper(store, "p5", base=BASE) is True
    assert set(store.quads()) == set(corpus_quads(papers[:4]))
    assert support(store, "metric/accuracy") == 1
    assert support(store, "method/zeta-search") is None
    assert remove_paper(store, "p5", base=BASE) is False


def test_remove_then_add_back_round_trips(store):
    papers = five_papers()
    full = set(corpus_quads(papers))
    store.replace_all(full)
    assert remove_paper(store, "p2", base=BASE)
    assert support(store, "model/delta-model") == 1
    add_papers(store, [papers[1].paper], base=BASE, extract=_extract_from(papers))
    assert set(store.quads()) == full


def test_known_entities_and_base_are_read_back(store):
    papers = five_papers()
    store.replace_all(corpus_quads(papers))
    assert store_base(store) == BASE
    known = known_entities(store, base=BASE)
    alpha = known["method/alpha-network"]
    assert (alpha.type, alpha.label, alpha.aliases) == ("method", "Alpha Network", {"AN"})
    assert set(known) == {
        "method/alpha-network", "method/zeta-search", "dataset/betaset", "dataset/gammaset",
        "dataset/epsilonset", "model/delta-model", "task/image-segmentation",
        "task/protein-folding", "metric/accuracy",
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from tests.scale.server import server_fixture

    yield from server_fixture(tmp_path_factory)


@pytest.mark.remote
def test_add_and_remove_through_a_remote_store(server):
    from graph.store.remote import RemoteStore

    papers = five_papers()
    store = RemoteStore(server)
    store.replace_all(corpus_quads(papers[:3]))
    add_papers(store, [e.paper for e in papers[3:]], base=BASE, extract=_extract_from(papers))
    assert set(store.quads()) == set(corpus_quads(papers))
    assert remove_paper(store, "p5", base=BASE)
    assert set(store.quads()) == set(corpus_quads(papers[:4]))


def test_an_extractor_no_annotation_names_is_dropped(store):
    papers = five_papers()
    # p5 is the only paper whose mentions come from the "domains.v1"-like extractor here.
    only = dataclasses.replace(papers[4], mentions=[
        dataclasses.replace(m, extractor="special.v1") for m in papers[4].mentions
    ])
    store.replace_all(corpus_quads(papers[:4] + [only]))
    agent = f"{PKG}extractor/special-v1"
    assert any(q.subject.value == agent for q in store.quads())
    assert remove_paper(store, "p5", base=BASE)
    assert not any(q.subject.value == agent for q in store.quads())
    assert set(store.quads()) == set(corpus_quads(papers[:4]))
