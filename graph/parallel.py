"""Extraction, and writing the graph as N-Quads, over local worker processes, with the same
output as a serial run.

spaCy's own `nlp.pipe(n_process=N)` parallelises only the pipeline: every Doc is serialised
back to the parent, where the extractors then run on one core, so the rule-based extractors
(about half the time per paper) stay serial and the Doc round trip costs more than it saves.
Here each worker process loads the pipeline once and runs parsing *and* extractors on
contiguous chunks of the corpus, sending back only the small PaperExtraction records.
Chunks are returned in input order, and a chunk's output does not depend on which process ran
it or on its neighbours, so the result equals `graph.extractors.pipeline.extract_papers` exactly.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph.errors import PaperkgError
from graph.model import Paper, PaperExtraction, ResolvedCorpus

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


def _init_worker(spacy_model: str, extractors: tuple[str, ...], batch_size: int,
                 static: tuple[str, str] | None = None) -> None:
    # Two processes each using a multithreaded BLAS on two cores only fight each other.
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        pass
    _worker_options.update(spacy_model=spacy_model, extractors=extractors, batch_size=batch_size,
                           static=static)
    nlp_loader.load(spacy_model)  # once per process; cached by graph.nlp


def _extract_chunk(job: tuple[Sequence[Paper], str]) -> tuple[list[PaperExtraction], list[str]]:
    from graph.extractors.pipeline import extract_papers

    papers, stem = job
    extractions = extract_papers(
        papers,
        nlp=nlp_loader.load(_worker_options["spacy_model"]),
        extractors=_worker_options["extractors"],
        batch_size=_worker_options["batch_size"],
    )
    static = _worker_options["static"]
    if static is None:
        return extractions, []
    return _written_static(extractions, static, stem)


def _written_static(extractions: list[PaperExtraction], static: tuple[str, str],
                    stem: str) -> tuple[list[PaperExtraction], list[str]]:
    """Write the static RDF; what goes back is only what the linking still needs (less to
    pickle, and less for the parent to hold until the resolver runs)."""
    from graph.rdf import linking_part

    paths = write_static(extractions, *static, stem=stem)
    return [linking_part(extraction) for extraction in extractions], paths


def write_static(extractions: Sequence[PaperExtraction], folder: str | os.PathLike, base: str,
                 *, stem: str) -> list[str]:
    """The papers' `graph.rdf.paper_static_lines` as N-Quads files `{folder}/{stem}-NNNN.nq`,
    written by the process that extracted them, so the parent only has to load them."""
    from graph.rdf import paper_static_lines
    from graph.store import STREAM_FILE_LINES, NQuadsFiles

    with NQuadsFiles(folder, stem, STREAM_FILE_LINES) as out:
        for extraction in extractions:
            out.write(paper_static_lines(extraction, base=base))
    return [str(path) for path in out.paths]


def chunks(papers: Sequence, workers: int) -> list[Sequence]:
    """Contiguous slices of `papers`, in order, sized for `workers` processes: each is
    1/(workers x CHUNKS_PER_WORKER) of the papers still left, within MIN_CHUNK..MAX_CHUNK."""
    parts = []
    start = 0
    while start < len(papers):
        left = len(papers) - start
        size = max(MIN_CHUNK, min(MAX_CHUNK, math.ceil(left / (workers * CHUNKS_PER_WORKER))))
        parts.append(papers[start : start + size])
        start += size
    return parts


def start_context() -> multiprocessing.context.BaseContext:
    # fork shares the already imported modules (and a pipeline the parent has loaded) for free,
    # but forking a process that runs other threads can deadlock a child on a held lock; such
    # a parent (a Flask server, a Dask client) gets clean spawned workers instead.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def iter_parallel(
    papers: Sequence[Paper],
    *,
    workers: int,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    batch_size: int = 64,
    static: tuple[str, str] | None = None,
) -> Iterator[tuple[list[PaperExtraction], list[str]]]:
    """Yield the extractions chunk by chunk, in input order (for progress reporting).

    With `static` (a folder and a base IRI), each chunk's process also writes the chunk's
    static RDF into the folder (`write_static`); each chunk comes with those files' paths."""
    if workers < 1:
        raise PaperkgError(f"--workers must be at least 1, not {workers}")
    for name in extractors:
        registry.get(name)  # an unknown name fails here, not in a worker
    parts = chunks(papers, workers)
    if not parts:
        return
    if workers == 1 or len(parts) == 1:
        from graph.extractors.pipeline import extract_papers

        nlp = nlp_loader.load(spacy_model)
        for n, part in enumerate(parts):
            extractions = extract_papers(part, nlp=nlp, extractors=tuple(extractors),
                                         batch_size=batch_size)
            if static is None:
                yield extractions, []
            else:
                yield _written_static(extractions, static, f"static-{n:05d}")
        return
    with ProcessPoolExecutor(
        max_workers=min(workers, len(parts)),
        mp_context=start_context(),
        initializer=_init_worker,
        initargs=(spacy_model, tuple(extractors), batch_size, static),
    ) as pool:
        try:
            jobs = [(part, f"static-{n:05d}") for n, part in enumerate(parts)]
            # Once submitted, each chunk's papers are held by its pending job alone, and let go
            # when it is back (if the caller holds no other reference to them).
            del papers, parts
            results = pool.map(_extract_chunk, jobs)
            del jobs
            yield from results
        except BrokenProcessPool as exc:
            # A worker killed from outside (out of memory, most often) takes the pool with it.
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
    results: list[PaperExtraction] = []
    for part, _ in iter_parallel(papers, workers=workers, spacy_model=spacy_model,
                                 extractors=extractors, batch_size=batch_size):
        results.extend(part)
        if progress is not None:
            progress(len(part))
    return results


# -- writing N-Quads ----------------------------------------------------------------------------

#: A chunk of papers to write: what `graph.rdf.paper_lines` needs for each, and the file.
_WriteJob = tuple[list[tuple[PaperExtraction, list, dict, str | None]], str, str, str]


def _write_chunk(job: _WriteJob) -> list[str]:
    from graph.rdf import paper_lines
    from graph.store import NQuadsFiles

    papers, stem, folder, base = job
    with NQuadsFiles(folder, stem) as out:
        for extraction, links, entities, venue in papers:
            out.write(paper_lines(extraction, links, base=base, entities=entities,
                                  venue_title=venue))
    return [str(path) for path in out.paths]


def write_papers_parallel(
    resolved: ResolvedCorpus,
    keys: Sequence[str],
    folder: Path,
    *,
    base: str,
    workers: int,
    venue_titles: Mapping[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """The papers `keys` of `resolved` as N-Quads files in `folder` (graph.store.NQuadsFiles),
    written by `workers` processes; the files in key order. Each chunk ships only its papers
    and the entities they link (the resolve step stays here), and comes back as paths.
    """
    venue_titles = venue_titles or {}

    def jobs() -> Iterator[_WriteJob]:
        for n, part in enumerate(chunks(keys, workers)):
            papers = []
            for key in part:
                links = list(resolved.links.get(key, []))
                entities = {ref: resolved.entities[ref] for ref in links if ref is not None}
                papers.append((resolved.extractions[key], links, entities,
                               venue_titles.get(key)))
            yield papers, f"papers-{n:05d}", str(folder), base

    sizes = [len(part) for part in chunks(keys, workers)]
    paths: list[Path] = []
    with ProcessPoolExecutor(max_workers=min(workers, len(sizes)),
                             mp_context=start_context()) as pool:
        try:
            for written, size in zip(pool.map(_write_chunk, jobs()), sizes, strict=True):
                paths.extend(Path(path) for path in written)
                if progress is not None:
                    progress(size)
        except BrokenProcessPool as exc:
            raise PaperkgError(
                f"a worker process writing the graph died ({exc}); try fewer --workers"
            ) from None
    return paths


def default_workers() -> int:
    """The CPUs this process may use (its affinity mask, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
