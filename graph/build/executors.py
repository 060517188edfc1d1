"""The build's executor interface, and the serial executor.

A build runs two stages per paper that can be spread over processes or machines; everything
else (reading the corpus, the resolver, the corpus-level quads, loading) runs once, in the
build's own process. An executor runs those two stages:

- `extract(papers, static=...)`: the extractions of `papers`, chunk by chunk in input order.
  With `static` (a folder and a base IRI), each paper's static RDF
  (`graph.rdf.paper_static_lines`, all that names no entity) is also written there as N-Quads
  files, which come back with their chunk so the store can load them while later papers are
  parsed;
- `write_linked(resolved, folder, base=...)`: after the resolver, each paper's linked lines
  (`graph.rdf.paper_linked_lines`) as N-Quads files in `folder`, yielded as each is finished;
  each paper's records leave `resolved` once written, so the build's memory shrinks.

SerialExecutor runs both here; graph.build.processes.ProcessExecutor extracts on local worker
processes; graph.build.cluster.DaskExecutor runs both on a Dask cluster. Each gives the same
extractions and lines as the serial one, so the graph does not depend on the executor.
A new executor implements these two methods (and `close`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph import rdf
from graph.extractors import pipeline
from graph.model import Entity, Paper, PaperExtraction, ResolvedCorpus
from graph.store import LINKED_FILE_LINES, STREAM_FILE_LINES, NQuadsFiles

T = TypeVar("T")
#: Where the static lines go: (folder, base IRI).
Static = tuple[str, str]
#: A chunk of extractions and the static N-Quads files finished with it.
Chunk = tuple[list[PaperExtraction], list[Path]]
#: One paper's share of the resolved corpus: its extraction, links and the entities it links.
PaperJob = tuple[PaperExtraction, list[str | None], dict[str, Entity]]


class Executor(Protocol):
    """Runs a build's per-paper stages: extraction, and writing the linked facts."""

    def extract(self, papers: Sequence[Paper], *, static: Static | None = None
                ) -> Iterator[Chunk]: ...

    def write_linked(self, resolved: ResolvedCorpus, folder: Path, *, base: str,
                     progress: Callable[[int], None] | None = None) -> Iterator[Path]: ...

    def close(self) -> None: ...


def limit_threads() -> None:
    """One BLAS thread: a worker process (or Dask worker thread) per core already, and a
    multithreaded BLAS on top only makes them fight over the cores."""
    try:
        from threadpoolctl import threadpool_limits  # comes with scikit-learn, may be absent

        threadpool_limits(1)
    except ImportError:  # pragma: no cover
        pass


def check_extractors(extractors: Sequence[str]) -> None:
    """An unknown extractor name fails here, not in a worker."""
    for name in extractors:
        registry.get(name)


def contiguous(items: Sequence[T], sizes: Sequence[int]) -> list[Sequence[T]]:
    """`items` cut into consecutive slices of `sizes` (the last may be shorter)."""
    parts: list[Sequence[T]] = []
    start = 0
    for size in sizes:
        if start >= len(items):
            break
        parts.append(items[start : start + size])
        start += size
    return parts


def even_sizes(count: int, parts: int) -> list[int]:
    """Sizes of at most `parts` nearly equal slices of `count` items."""
    if not count:
        return []
    size = math.ceil(count / max(1, min(parts, count)))
    return [size] * math.ceil(count / size)


def write_static(extractions: Sequence[PaperExtraction], folder: str, base: str,
                 *, stem: str) -> list[Path]:
    """The papers' static lines as N-Quads files `{folder}/{stem}-NNNN.nq`."""
    with NQuadsFiles(folder, stem, STREAM_FILE_LINES) as out:
        for extraction in extractions:
            out.write(rdf.paper_static_lines(extraction, base=base))
    return out.paths


def paper_jobs(resolved: ResolvedCorpus, keys: Sequence[str]) -> list[PaperJob]:
    """Per paper of `keys`: what `graph.rdf.paper_linked_lines` needs of it, and no more."""
    jobs: list[PaperJob] = []
    for key in keys:
        links = list(resolved.links[key])
        entities = {ref: resolved.entities[ref] for ref in links if ref is not None}
        jobs.append((resolved.extractions[key], links, entities))
    return jobs


def linked_lines(jobs: Sequence[PaperJob], *, base: str) -> list[str]:
    """The linked lines of the papers of `jobs`, in order."""
    lines: list[str] = []
    for extraction, links, entities in jobs:
        lines.extend(rdf.paper_linked_lines(extraction, links, base=base, entities=entities))
    return lines


class SerialExecutor:
    """Both stages in this process, one paper after another."""

    def __init__(self, *, spacy_model: str = nlp_loader.DEFAULT_MODEL,
                 extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
                 batch_size: int = 64) -> None:
        self.spacy_model = spacy_model
        self.extractors = tuple(extractors)
        self.batch_size = batch_size

    def extract(self, papers: Sequence[Paper], *, static: Static | None = None
                ) -> Iterator[Chunk]:
        """One paper at a time; static files are handed on as each is full."""
        extractions = pipeline.iter_extractions(
            papers, nlp=nlp_loader.load(self.spacy_model), extractors=self.extractors,
            batch_size=self.batch_size)
        if static is None:
            for extraction in extractions:
                yield [extraction], []
            return
        folder, base = static
        with NQuadsFiles(folder, "static", STREAM_FILE_LINES) as out:
            for extraction in extractions:
                out.write(rdf.paper_static_lines(extraction, base=base))
                yield [extraction], out.take_finished()
        if finished := out.take_finished():
            yield [], finished

    def write_linked(self, resolved: ResolvedCorpus, folder: Path, *, base: str,
                     progress: Callable[[int], None] | None = None) -> Iterator[Path]:
        with NQuadsFiles(folder, "linked", LINKED_FILE_LINES) as out:
            for key in sorted(resolved.extractions):
                out.write(rdf.paper_linked_lines(resolved.extractions[key], resolved.links[key],
                                                 base=base, entities=resolved.entities))
                del resolved.extractions[key]
                del resolved.links[key]
                if progress is not None:
                    progress(1)
                yield from out.take_finished()
        yield from out.take_finished()

    def close(self) -> None:
        pass
