"""Builds past one machine: the executor that runs extraction and the linked lines on Dask.

The build is map -> reduce -> map:

1. `DaskExecutor.extract`: each partition of the corpus is parsed and extracted on a worker
   (the spaCy pipeline is loaded once per worker process and cached there), which also writes
   the partition's static lines as text; extractions come back in input order, and the text is
   written here into the build's N-Quads files as each partition is back.
2. `graph.resolve.resolve` runs once, in the build's process, over *all* extractions.
   Cross-corpus linking (acronyms, aliases, support counts) is a reduce: it sees the whole
   corpus, so how the corpus was partitioned cannot change a single entity.
3. `DaskExecutor.write_linked`: each partition's papers (with only the entities they link) are
   turned into their linked N-Quads lines on a worker; the text is written into files here.

The lines are those of the serial executor, so a distributed build gives the same graph as a
serial one (tests/test_distributed.py).

`scheduler` is an address ("tcp://host:8786") or, in tests and notebooks, a
`distributed.Client` / `LocalCluster` object. Workers need the `graph` package and the spaCy
pipeline installed; nothing is shipped to them but records.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from spacy.language import Language

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph import rdf
from graph.build.executors import (
    Chunk,
    PaperJob,
    Static,
    check_extractors,
    contiguous,
    even_sizes,
    limit_threads,
    linked_lines,
    paper_jobs,
)
from graph.errors import PaperkgError
from graph.extractors import pipeline
from graph.model import Paper, PaperExtraction, ResolvedCorpus
from graph.store import LINKED_FILE_LINES, STREAM_FILE_LINES, NQuadsFiles

#: Partition sizes: big enough to amortise a task's scheduling and pipeline warm-up, small
#: enough to keep every worker busy and a lost task cheap to redo.
MIN_PARTITION = 16
MAX_PARTITION = 2000
PARTITIONS_PER_THREAD = 4
CONNECT_TIMEOUT = "20s"


@contextmanager
def connect(scheduler: Any) -> Iterator[Any]:
    """A Client for `scheduler`; one this function opened is closed on exit, a given one is not."""
    from distributed import Client  # Dask is an optional dependency, loaded only for a cluster

    if isinstance(scheduler, Client):
        yield scheduler
        return
    if not isinstance(scheduler, str) and hasattr(scheduler, "scheduler_address"):
        target = scheduler  # a LocalCluster or any other cluster object
        label = scheduler.scheduler_address
    elif isinstance(scheduler, str) and scheduler.strip():
        target = scheduler.strip()
        label = target
    else:
        raise PaperkgError(
            f"--scheduler must be an address like tcp://host:8786, not {scheduler!r}"
        )
    try:
        client = Client(target, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise PaperkgError(f"cannot reach the Dask scheduler at {label}: {exc}") from exc
    try:
        yield client
    finally:
        client.close()


def _threads(client: Any) -> int:
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - a scheduler that cannot say: assume a small cluster
        return 2


def _default_parts(count: int, threads: int) -> int:
    size = math.ceil(count / (threads * PARTITIONS_PER_THREAD)) if count else 1
    size = max(MIN_PARTITION, min(MAX_PARTITION, size))
    return max(1, math.ceil(count / size))


@lru_cache(maxsize=4)
def _pipeline(spacy_model: str) -> Language:
    """The pipeline of this worker process, loaded on its first partition only."""
    limit_threads()
    return nlp_loader.load(spacy_model)


def _extract_partition(
    papers: Sequence[Paper], *, spacy_model: str, extractors: tuple[str, ...], batch_size: int,
    base: str | None,
) -> tuple[list[PaperExtraction], bytes]:
    extractions = pipeline.extract_papers(papers, nlp=_pipeline(spacy_model),
                                          extractors=extractors, batch_size=batch_size)
    if base is None:
        return extractions, b""
    # Written as text directly: no Quad object per quad on the worker.
    text = "".join(line for e in extractions for line in rdf.paper_static_lines(e, base=base))
    return [rdf.linking_part(e) for e in extractions], text.encode("utf-8")


def _linked_partition(jobs: Sequence[PaperJob], *, base: str) -> bytes:
    return "".join(linked_lines(jobs, base=base)).encode("utf-8")


class DaskExecutor:
    """Both stages on the Dask cluster at `scheduler`, in `partitions` parts (else sized for
    the cluster's threads). Use it as a context manager, or `close` it: one client serves both
    stages, so the workers keep their loaded pipelines in between."""

    def __init__(self, scheduler: Any, *, partitions: int | None = None,
                 spacy_model: str = nlp_loader.DEFAULT_MODEL,
                 extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
                 batch_size: int = 64) -> None:
        check_extractors(extractors)
        if partitions is not None and partitions < 1:
            raise PaperkgError(f"partitions must be at least 1, not {partitions}")
        self.partitions = partitions
        self.spacy_model = spacy_model
        self.extractors = tuple(extractors)
        self.batch_size = batch_size
        self._connection = connect(scheduler)
        self.client = self._connection.__enter__()

    def _parts(self, items: Sequence[Any]) -> list[Sequence[Any]]:
        parts = self.partitions or _default_parts(len(items), _threads(self.client))
        return contiguous(items, even_sizes(len(items), parts))

    def _map(self, fn: Callable[..., Any], parts: list[Sequence[Any]], **kwargs: Any
             ) -> Iterator[Any]:
        """fn(part, **kwargs) of each part on the cluster, in order, each let go once read."""
        # Scatter first: partitions passed inline would be embedded in the task graph itself.
        data = self.client.scatter(parts)
        # Bound with partial: Client.map keeps some keywords (batch_size, key...) for itself.
        futures = self.client.map(partial(fn, **kwargs), data, pure=False)
        del data
        try:
            for future in futures:
                yield future.result()
                future.release()
        except PaperkgError:
            raise
        except (OSError, TimeoutError) as exc:
            raise PaperkgError(f"the Dask cluster failed during the build: {exc}") from exc

    def extract(self, papers: Sequence[Paper], *, static: Static | None = None
                ) -> Iterator[Chunk]:
        if not papers:
            return
        folder, base = static if static is not None else ("", None)
        results = self._map(_extract_partition, self._parts(papers), spacy_model=self.spacy_model,
                            extractors=self.extractors, batch_size=self.batch_size, base=base)
        for n, (extractions, text) in enumerate(results):
            if static is None:
                yield extractions, []
                continue
            with NQuadsFiles(folder, f"static-{n:05d}", STREAM_FILE_LINES) as out:
                out.write(text.decode("utf-8").splitlines(keepends=True))
            yield extractions, out.paths

    def write_linked(self, resolved: ResolvedCorpus, folder: Path, *, base: str,
                     progress: Callable[[int], None] | None = None) -> Iterator[Path]:
        parts = self._parts(paper_jobs(resolved, sorted(resolved.extractions)))
        resolved.extractions.clear()  # the jobs hold what is left to write
        resolved.links.clear()
        sizes = [len(part) for part in parts]
        for n, (text, size) in enumerate(zip(self._map(_linked_partition, parts, base=base),
                                             sizes, strict=True)):
            with NQuadsFiles(folder, f"linked-{n:05d}", LINKED_FILE_LINES) as out:
                out.write(text.decode("utf-8").splitlines(keepends=True))
            if progress is not None:
                progress(size)
            yield from out.paths

    def close(self) -> None:
        self._connection.__exit__(None, None, None)

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def extract_dask(
    papers: Sequence[Paper],
    *,
    scheduler: Any,
    partitions: int | None = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    batch_size: int = 64,
) -> list[PaperExtraction]:
    """Extractions of `papers`, in input order, computed on the Dask cluster at `scheduler`."""
    check_extractors(extractors)
    if partitions is not None and partitions < 1:
        raise PaperkgError(f"partitions must be at least 1, not {partitions}")
    if not papers:
        return []
    with DaskExecutor(scheduler, partitions=partitions, spacy_model=spacy_model,
                      extractors=extractors, batch_size=batch_size) as executor:
        return [e for part, _ in executor.extract(papers) for e in part]
