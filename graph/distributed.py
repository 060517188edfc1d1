"""Builds past one machine: extraction and RDF serialization on a Dask cluster.

The build is map -> reduce -> map:

1. `extract_dask`: each partition of the corpus is parsed and extracted on a worker (the spaCy
   pipeline is loaded once per worker process and cached there); extractions come back in
   input order.
2. `graph.resolve.resolve` runs once, on the driver, over *all* extractions. Cross-corpus
   linking (acronyms, aliases, support counts) is a reduce: it sees the whole corpus, so how
   the corpus was partitioned cannot change a single entity.
3. `quads_dask`: each partition's papers are turned into N-Quads text on a worker with
   `graph.rdf.paper_lines` (given only the entities its papers link to); the corpus-level
   quads (entities with their support, the domain taxonomy) are one more document. The
   documents are then bulk loaded (`load_nquads`, `write_nquads`). `paperkg build
   --scheduler` writes them as files into the new store generation as the partitions finish
   (`write_nquads_dask`) and bulk loads those.

The union of the documents is exactly `graph.rdf.corpus_quads` of the same resolved corpus,
so a distributed build gives the same graph as a serial one (tests/test_distributed.py).

`scheduler` is an address ("tcp://host:8786") or, in tests and notebooks, a
`distributed.Client` / `LocalCluster` object. Workers need the `graph` package and the spaCy
pipeline installed; nothing is shipped to them but records.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph.errors import PaperkgError
from graph.model import Entity, Paper, PaperExtraction, ResolvedCorpus

#: Partition sizes: big enough to amortise a task's scheduling and pipeline warm-up, small
#: enough to keep every worker busy and a lost task cheap to redo.
MIN_PARTITION = 16
MAX_PARTITION = 2000
PARTITIONS_PER_THREAD = 4
CONNECT_TIMEOUT = "20s"


# -- connecting -------------------------------------------------------------------------------


@contextmanager
def connect(scheduler: Any) -> Iterator[Any]:
    """A Client for `scheduler`; one this function opened is closed on exit, a given one is not."""
    from distributed import Client

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


def partition(items: Sequence[Any], parts: int) -> list[Sequence[Any]]:
    """`items` cut into at most `parts` contiguous, nearly equal slices, in order."""
    if not items:
        return []
    parts = max(1, min(parts, len(items)))
    size = math.ceil(len(items) / parts)
    return [items[i : i + size] for i in range(0, len(items), size)]


def _default_parts(count: int, threads: int) -> int:
    size = math.ceil(count / (threads * PARTITIONS_PER_THREAD)) if count else 1
    size = max(MIN_PARTITION, min(MAX_PARTITION, size))
    return max(1, math.ceil(count / size))


def _run(client: Any, fn: Any, parts: Sequence[Any], **kwargs: Any) -> list[Any]:
    # Scatter first: partitions passed inline would be embedded in the task graph itself.
    data = client.scatter(list(parts))
    # Bound with partial: Client.map keeps some keywords (batch_size, key...) for itself.
    futures = client.map(partial(fn, **kwargs), data, pure=False)
    try:
        return client.gather(futures)
    except PaperkgError:
        raise
    except (OSError, TimeoutError) as exc:
        raise PaperkgError(f"the Dask cluster failed during the build: {exc}") from exc


# -- map 1: extraction ------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _pipeline(spacy_model: str):
    """The pipeline of this worker process, loaded on its first partition only."""
    try:
        from threadpoolctl import threadpool_limits

        # A worker thread per core already; a multithreaded BLAS on top only oversubscribes.
        threadpool_limits(1)
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        pass
    return nlp_loader.load(spacy_model)


def _extract_partition(
    papers: Sequence[Paper], *, spacy_model: str, extractors: tuple[str, ...], batch_size: int
) -> list[PaperExtraction]:
    from graph.extractors.pipeline import extract_papers

    return extract_papers(papers, nlp=_pipeline(spacy_model), extractors=extractors,
                          batch_size=batch_size)


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
    for name in extractors:
        registry.get(name)  # an unknown name fails here, not on a worker
    if partitions is not None and partitions < 1:
        raise PaperkgError(f"partitions must be at least 1, not {partitions}")
    if not papers:
        return []
    with connect(scheduler) as client:
        parts = partition(papers, partitions or _default_parts(len(papers), _threads(client)))
        results = _run(client, _extract_partition, parts, spacy_model=spacy_model,
                       extractors=tuple(extractors), batch_size=batch_size)
    return [extraction for part in results for extraction in part]


# -- map 2: RDF -------------------------------------------------------------------------------

#: One paper's share of the reduce result: what `paper_quads` needs and nothing more.
PaperJob = tuple[PaperExtraction, list[str | None], dict[str, Entity], str | None]


def paper_jobs(
    resolved: ResolvedCorpus, venue_titles: Mapping[str, str] | None = None
) -> list[PaperJob]:
    """Per paper, in key order: extraction, links, the entities it links to, venue title."""
    venue_titles = venue_titles or {}
    jobs: list[PaperJob] = []
    for key in sorted(resolved.extractions):
        links = list(resolved.links.get(key, []))
        entities = {ref: resolved.entities[ref] for ref in links if ref is not None}
        jobs.append((resolved.extractions[key], links, entities, venue_titles.get(key)))
    return jobs


def _partition_nquads(jobs: Sequence[PaperJob], *, base: str) -> bytes:
    # Written as text directly (graph.rdf.paper_lines): no Quad object per quad on the worker.
    from graph.rdf import paper_lines

    lines: dict[str, None] = {}
    for extraction, links, entities, venue in jobs:
        lines.update(dict.fromkeys(paper_lines(extraction, links, base=base, entities=entities,
                                               venue_title=venue)))
    return "".join(lines).encode("utf-8")


def corpus_level_quads(
    resolved: ResolvedCorpus, *, base: str, taxonomy: str | Path | None = None
) -> list[Any]:
    """The quads no single paper owns: entities (labels, aliases, support), taxonomy, domains."""
    from graph import rdf

    quads = []
    for ref in sorted(resolved.entities):
        quads.extend(rdf.entity_quads(resolved.entities[ref], base=base))
    taxonomy_part = rdf.taxonomy_quads(taxonomy, base=base)
    quads.extend(taxonomy_part)
    quads.extend(rdf.domain_quads(resolved, taxonomy_part, base))
    return quads


def corpus_level_nquads(
    resolved: ResolvedCorpus, *, base: str, taxonomy: str | Path | None = None
) -> bytes:
    """`corpus_level_quads` as one N-Quads document."""
    from graph.rdf import corpus_level_lines

    lines = dict.fromkeys(corpus_level_lines(resolved, base=base, taxonomy=taxonomy))
    return "".join(lines).encode("utf-8")


def quads_dask(
    resolved: ResolvedCorpus,
    *,
    scheduler: Any,
    base: str,
    partitions: int | None = None,
    venue_titles: Mapping[str, str] | None = None,
    taxonomy: str | Path | None = None,
) -> list[bytes]:
    """N-Quads documents whose union is `graph.rdf.corpus_quads(resolved, ...)`.

    One document per partition of the papers (made on the workers), and last the corpus-level
    document (entities, taxonomy, domains; made here, from the reduce result).
    """
    from graph.vocab import check_base

    try:
        check_base(base)
    except ValueError as exc:
        raise PaperkgError(str(exc)) from None
    if partitions is not None and partitions < 1:
        raise PaperkgError(f"partitions must be at least 1, not {partitions}")
    jobs = paper_jobs(resolved, venue_titles)
    documents: list[bytes] = []
    if jobs:
        with connect(scheduler) as client:
            parts = partition(jobs, partitions or _default_parts(len(jobs), _threads(client)))
            documents = _run(client, _partition_nquads, parts, base=base)
    documents.append(corpus_level_nquads(resolved, base=base, taxonomy=taxonomy))
    return documents


def write_nquads_dask(
    resolved: ResolvedCorpus,
    folder: str | Path,
    *,
    scheduler: Any,
    base: str,
    partitions: int | None = None,
    venue_titles: Mapping[str, str] | None = None,
    taxonomy: str | Path | None = None,
) -> list[Path]:
    """`quads_dask` written to N-Quads files in `folder` as the partitions finish, so the
    driver holds one partition's text at a time; returns the files (corpus-level one first)."""
    from graph.vocab import check_base

    try:
        check_base(base)
    except ValueError as exc:
        raise PaperkgError(str(exc)) from None
    if partitions is not None and partitions < 1:
        raise PaperkgError(f"partitions must be at least 1, not {partitions}")
    from graph.store import NQuadsFiles

    folder = Path(folder)
    with NQuadsFiles(folder, "corpus") as out:
        out.write(corpus_level_nquads(resolved, base=base, taxonomy=taxonomy)
                  .decode("utf-8").splitlines(keepends=True))
    files = list(out.paths)
    jobs = paper_jobs(resolved, venue_titles)
    if not jobs:
        return files
    with connect(scheduler) as client:
        parts = partition(jobs, partitions or _default_parts(len(jobs), _threads(client)))
        del jobs
        data = client.scatter(list(parts))
        futures = client.map(partial(_partition_nquads, base=base), data, pure=False)
        del parts, data
        try:
            for n, future in enumerate(futures):
                # Files of graph.store.LOAD_FILE_LINES lines: the bulk loader's memory.
                with NQuadsFiles(folder, f"part-{n:05d}") as out:
                    out.write(future.result().decode("utf-8").splitlines(keepends=True))
                future.release()
                files.extend(out.paths)
        except PaperkgError:
            raise
        except (OSError, TimeoutError) as exc:
            raise PaperkgError(f"the Dask cluster failed during the build: {exc}") from exc
    return files


# -- loading ----------------------------------------------------------------------------------


def load_nquads(documents: Sequence[bytes], store: Any = None) -> Any:
    """Bulk load N-Quads documents the workers wrote with `graph.rdf` into a pyoxigraph Store
    (a new in-memory one by default); leniently, as their IRIs were checked when made."""
    from pyoxigraph import RdfFormat, Store

    store = Store() if store is None else store
    for document in documents:
        if document:
            store.bulk_load(document, format=RdfFormat.N_QUADS, lenient=True)
    return store


def write_nquads(target: Any, documents: Sequence[bytes]) -> int:
    """Replace the content of a paperkg store (embedded or remote) with the quads of the
    documents the workers wrote with `graph.rdf` (loaded leniently, as `load_nquads` does).

    A store that takes N-Quads directly (`replace_all_nquads`) gets the text as is; any other
    gets parsed quads through `replace_all`. Returns the number of quads written.
    """
    replace_text = getattr(target, "replace_all_nquads", None)
    if replace_text is not None:
        return replace_text(documents, lenient=True)
    staged = load_nquads(documents)
    quads = list(staged)
    target.replace_all(quads)
    return len(quads)


def build_graph_dask(
    papers: Sequence[Paper],
    *,
    scheduler: Any,
    base: str,
    partitions: int | None = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    venue_titles: Mapping[str, str] | None = None,
) -> tuple[ResolvedCorpus, list[bytes]]:
    """Extract on the cluster, resolve here, serialize on the cluster: (resolved, documents).

    One Client serves both maps, so the workers keep their loaded pipelines in between.
    """
    from graph.resolve import resolve

    with connect(scheduler) as client:
        extractions = extract_dask(papers, scheduler=client, partitions=partitions,
                                   spacy_model=spacy_model, extractors=extractors)
        resolved = resolve(extractions)
        documents = quads_dask(resolved, scheduler=client, base=base, partitions=partitions,
                               venue_titles=venue_titles)
    return resolved, documents
