"""Extraction over local worker processes, with the same output as a serial run.

spaCy's own `nlp.pipe(n_process=N)` parallelises only the pipeline: every Doc is serialised
back to the parent, where the extractors then run on one core, so the rule-based extractors
(about half the time per paper) stay serial and the Doc round trip costs more than it saves.
Here each worker process loads the pipeline once and runs parsing *and* extractors on
contiguous chunks of the corpus, writes the chunk's static RDF itself, and sends back only
the small records the resolver needs. Chunks are returned in input order, and a chunk's output
does not depend on which process ran it or on its neighbours, so the result equals
`graph.extractors.pipeline.extract_papers` exactly. The linked lines, written after the
resolver, are written here as the serial executor does.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph import rdf
from graph.build.executors import (
    Chunk,
    SerialExecutor,
    Static,
    check_extractors,
    contiguous,
    limit_threads,
    write_static,
)
from graph.errors import PaperkgError
from graph.extractors import pipeline
from graph.model import Paper, PaperExtraction

#: Bounds of one chunk: small enough to balance the workers and stream results, large enough
#: that the per-chunk overhead stays small. Each chunk's static N-Quads are their own bulk
#: loads, and many small loads cost the parent more CPU than a few large ones.
MIN_CHUNK = 64
MAX_CHUNK = 1000
#: Each chunk takes this share of what is left per worker, so chunks shrink towards the end:
#: the workers finish together, and the last chunks' N-Quads, which the parent can only load
#: once the workers are done, are small (bench/README.md).
CHUNKS_PER_WORKER = 2

_worker_options: dict[str, object] = {}


def chunk_sizes(count: int, workers: int) -> list[int]:
    """Each chunk 1/(workers x CHUNKS_PER_WORKER) of the papers still left, within
    MIN_CHUNK..MAX_CHUNK."""
    sizes = []
    left = count
    while left > 0:
        size = max(MIN_CHUNK, min(MAX_CHUNK, math.ceil(left / (workers * CHUNKS_PER_WORKER))))
        sizes.append(min(size, left))
        left -= size
    return sizes


def chunks(papers: Sequence, workers: int) -> list[Sequence]:
    """Contiguous slices of `papers`, in order, sized for `workers` processes (chunk_sizes)."""
    return contiguous(papers, chunk_sizes(len(papers), workers))


def start_context() -> multiprocessing.context.BaseContext:
    # fork shares the already imported modules (and a pipeline the parent has loaded) for free,
    # but forking a process that runs other threads can deadlock a child on a held lock; such
    # a parent (a Flask server, a Dask client) gets clean spawned workers instead.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def default_workers() -> int:
    """The CPUs this process may use (its affinity mask, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _init_worker(spacy_model: str, extractors: tuple[str, ...], batch_size: int,
                 static: Static | None) -> None:
    limit_threads()
    _worker_options.update(spacy_model=spacy_model, extractors=extractors, batch_size=batch_size,
                           static=static)
    nlp_loader.load(spacy_model)  # once per process; cached by graph.nlp


def _extract_chunk(job: tuple[Sequence[Paper], str]) -> Chunk:
    papers, stem = job
    extractions = pipeline.extract_papers(
        papers,
        nlp=nlp_loader.load(str(_worker_options["spacy_model"])),
        extractors=_worker_options["extractors"],
        batch_size=_worker_options["batch_size"],
    )
    static = _worker_options["static"]
    if static is None:
        return extractions, []
    return _written_static(extractions, static, stem)  # type: ignore[arg-type]


def _written_static(extractions: list[PaperExtraction], static: Static,
                    stem: str) -> Chunk:
    """Write the static RDF; what goes back is only what the linking still needs (less to
    pickle, and less for the parent to hold until the resolver runs)."""
    paths = write_static(extractions, *static, stem=stem)
    return [rdf.linking_part(extraction) for extraction in extractions], paths


class ProcessExecutor(SerialExecutor):
    """Extraction (and the static lines) on `workers` local processes."""

    def __init__(self, workers: int, *, spacy_model: str = nlp_loader.DEFAULT_MODEL,
                 extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
                 batch_size: int = 64) -> None:
        if workers < 1:
            raise PaperkgError(f"--workers must be at least 1, not {workers}")
        super().__init__(spacy_model=spacy_model, extractors=extractors, batch_size=batch_size)
        self.workers = workers

    def extract(self, papers: Sequence[Paper], *, static: Static | None = None
                ) -> Iterator[Chunk]:
        """Chunk by chunk, in input order."""
        check_extractors(self.extractors)
        parts = chunks(papers, self.workers)
        if not parts:
            return
        if self.workers == 1 or len(parts) == 1:
            yield from super().extract(papers, static=static)
            return
        with ProcessPoolExecutor(
            max_workers=min(self.workers, len(parts)),
            mp_context=start_context(),
            initializer=_init_worker,
            initargs=(self.spacy_model, self.extractors, self.batch_size, static),
        ) as pool:
            try:
                jobs = [(part, f"static-{n:05d}") for n, part in enumerate(parts)]
                # Once submitted, each chunk's papers are held by its pending job alone, and
                # let go when it is back (if the caller holds no other reference to them).
                del papers, parts
                results = pool.map(_extract_chunk, jobs)
                del jobs
                yield from results
            except BrokenProcessPool as exc:
                # A worker killed from outside (out of memory, most often) takes the pool.
                raise PaperkgError(
                    f"an extraction worker process died ({exc}); try fewer --workers"
                ) from None


def extract_parallel(
    papers: Sequence[Paper],
    *,
    workers: int,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    batch_size: int = 64,
    progress: Callable[[int], None] | None = None,
) -> list[PaperExtraction]:
    """Extractions of `papers` in input order, computed by `workers` processes.

    `progress`, if given, is called with the number of papers finished after each chunk.
    """
    executor = ProcessExecutor(workers, spacy_model=spacy_model, extractors=extractors,
                               batch_size=batch_size)
    results: list[PaperExtraction] = []
    for part, _ in executor.extract(papers):
        results.extend(part)
        if progress is not None:
            progress(len(part))
    return results
