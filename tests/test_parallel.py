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
    from graph.build import processes as parallel
    from graph.extractors.pipeline import extract_papers

    monkeypatch.setattr(parallel, "MIN_CHUNK", 2)  # several chunks per worker, even here
    assert [len(part) for part in parallel.chunks(papers, 2)] == [4, 3, 3, 2, 2, 2]
    done: list[int] = []
    result = parallel.extract_parallel(papers, workers=2, progress=done.append)
    assert result == extract_papers(papers)
    assert [e.paper.key for e in result] == [p.key for p in papers]
    assert done == [4, 3, 3, 2, 2, 2]


def test_chunks_are_contiguous_and_cover_everything(papers):
    from graph.build.processes import chunks

    parts = chunks(papers, 3)
    assert [p for part in parts for p in part] == papers
    assert chunks([], 3) == []


def test_chunks_shrink_towards_the_end_within_their_bounds():
    from graph.build.processes import MAX_CHUNK, MIN_CHUNK, chunks

    sizes = [len(part) for part in chunks(range(2000), 2)]
    assert sizes[:4] == [500, 375, 282, 211]  # a quarter of what is left, each time
    assert sizes[-4:] == [MIN_CHUNK, MIN_CHUNK, MIN_CHUNK, 7]
    assert sum(sizes) == 2000 and sizes == sorted(sizes, reverse=True)
    big = [len(part) for part in chunks(range(10_000), 2)]
    assert big[:7] == [MAX_CHUNK] * 7 and big[7] == 750  # capped while 4,000 or more are left


def test_one_worker_runs_in_process(papers):
    from graph.build.processes import extract_parallel
    from graph.extractors.pipeline import extract_papers

    assert extract_parallel(papers[:3], workers=1) == extract_papers(papers[:3])


def test_bad_arguments_are_user_errors(papers):
    from graph.build.processes import extract_parallel

    with pytest.raises(PaperkgError, match="--workers"):
        extract_parallel(papers, workers=0)
    with pytest.raises(KeyError, match="unknown extractor"):
        extract_parallel(papers, workers=2, extractors=["nope.v9"])
