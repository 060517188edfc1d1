"""Extraction over worker processes gives exactly the serial output, in input order."""

from __future__ import annotations

import pytest

from graph.errors import PaperkgError
from graph.model import Paper


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    from bench.gen_corpus import generate
    from graph.corpus.records import make_paper

    return [
        make_paper(record, path="gen", line=i + 1, where=f"gen: record {i + 1}", max_chars=100_000)
        for i, record in enumerate(generate(16, seed=11))
    ]


def test_two_workers_give_the_serial_extractions(papers, monkeypatch):
    from graph import parallel
    from graph.pipeline import extract_papers

    monkeypatch.setattr(parallel, "MIN_CHUNK", 2)  # several chunks per worker, even here
    assert len(parallel.chunks(papers, 2)) == 8
    done: list[int] = []
    result = parallel.extract_parallel(papers, workers=2, progress=done.append)
    assert result == extract_papers(papers)
    assert [e.paper.key for e in result] == [p.key for p in papers]
    assert sum(done) == len(papers) and len(done) == 8


def test_chunks_are_contiguous_and_cover_everything(papers):
    from graph.parallel import chunks

    parts = chunks(papers, 3)
    assert [p for part in parts for p in part] == papers
    assert chunks([], 3) == []


def test_one_worker_runs_in_process(papers):
    from graph.parallel import extract_parallel
    from graph.pipeline import extract_papers

    assert extract_parallel(papers[:3], workers=1) == extract_papers(papers[:3])


def test_bad_arguments_are_user_errors(papers):
    from graph.parallel import extract_parallel

    with pytest.raises(PaperkgError, match="--workers"):
        extract_parallel(papers, workers=0)
    with pytest.raises(KeyError, match="unknown extractor"):
        extract_parallel(papers, workers=2, extractors=["nope.v9"])
