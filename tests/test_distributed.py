"""A build partitioned over a Dask cluster gives exactly the graph of a serial build."""

from __future__ import annotations

import pytest

from graph.errors import PaperkgError
from graph.model import Paper

pytest.importorskip("distributed")

BASE = "https://example.org/kg/"


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    from bench.gen_corpus import generate
    from graph.corpus.records import make_paper

    return [
        make_paper(record, path="gen", line=i + 1, where=f"gen: record {i + 1}", max_chars=100_000)
        for i, record in enumerate(generate(6, seed=3))
    ]


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as local:
        yield local


@pytest.fixture(scope="module")
def serial(papers):
    from graph.extractors.pipeline import extract_papers
    from graph.rdf import corpus_quads
    from graph.resolve import resolve

    extractions = extract_papers(papers)
    return extractions, corpus_quads(resolve(extractions), base=BASE)


def dask_graph(papers, cluster, partitions=None, store=None):
    """The build's graph of `papers`, extracted and written on the cluster, loaded into
    `store` (a new in-memory one by default); what replace_all_nquads returned with it."""
    from graph.build import graph_files
    from graph.build.cluster import DaskExecutor
    from graph.store import open_store

    store = open_store(":memory:") if store is None else store
    with DaskExecutor(cluster, partitions=partitions) as executor:
        count = store.replace_all_nquads(graph_files(papers, executor, base=BASE), lenient=True)
    return store, count


def test_partitioned_build_is_the_serial_graph(papers, cluster, serial):
    extractions, quads = serial
    store, _ = dask_graph(papers, cluster, partitions=3)
    assert set(store.quads()) == set(quads)
    assert len(store) == len(quads)


def test_extract_dask_keeps_input_order_and_output(papers, cluster, serial):
    from graph.build.cluster import extract_dask

    assert extract_dask(papers, scheduler=cluster, partitions=4) == serial[0]


def test_partitioning_does_not_change_the_graph(papers, cluster, serial):
    one = dask_graph(papers, cluster, partitions=1)[0].quads()
    many = dask_graph(papers, cluster, partitions=10)[0].quads()
    assert set(one) == set(many) == set(serial[1])


def test_write_nquads_replaces_an_embedded_store(tmp_path, cluster, papers, serial):
    from graph.store import EmbeddedStore

    store = EmbeddedStore(str(tmp_path / "store"))
    try:
        assert dask_graph(papers, cluster, store=store)[1] == len(serial[1])
        assert set(store.quads()) == set(serial[1])
    finally:
        store.close()


def test_build_with_a_scheduler_is_the_serial_build(tmp_path, papers, cluster, serial):
    """`paperkg build --scheduler`: the same store and byte-identical exports as serial."""
    import json

    from graph.build import build
    from graph.store import open_store

    corpus = tmp_path / "corpus.jsonl"
    with corpus.open("w", encoding="utf-8") as out:
        for paper in papers:
            out.write(json.dumps({"id": paper.key, "title": paper.title,
                                  "abstract": paper.abstract}) + "\n")
    with_dask = build([corpus], out_dir=tmp_path / "dask", store=str(tmp_path / "s1"),
                      base=BASE, scheduler=cluster)
    plain = build([corpus], out_dir=tmp_path / "serial", store=str(tmp_path / "s2"), base=BASE)
    store = open_store(str(tmp_path / "s1"), read_only=True)
    try:
        assert set(store.quads()) == set(open_store(str(tmp_path / "s2"),
                                                    read_only=True).quads())
    finally:
        store.close()
    assert with_dask.quads == plain.quads and with_dask.report == plain.report
    for name in ("graph.trig", "graph.ttl", "report.json"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "serial" / name).read_bytes()


def test_unreachable_scheduler_is_a_user_error(monkeypatch):
    from graph.build import cluster as distributed
    from tests.scale.server import free_port

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT", "1s")
    paper = Paper(key="x", abstract="We study graphs.")
    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(PaperkgError, match="127.0.0.1"):
        distributed.extract_dask([paper], scheduler=address)


def test_bad_scheduler_value_is_a_user_error():
    from graph.build.cluster import extract_dask

    with pytest.raises(PaperkgError, match="--scheduler"):
        extract_dask([Paper(key="x", abstract="x")], scheduler="")
