"""`paperkg build`: corpus -> extractions -> entities -> RDF -> store and exports.

Nothing is replaced until everything before it succeeded: a bad input stops the build before
the store is touched, the store switches to the new graph atomically, and exports are
serialized in full before any file is replaced.

The graph is streamed, never held as quads. An executor (graph.build.executors: serial, local
processes or Dask) extracts the papers and writes each paper's static RDF
(`graph.rdf.paper_static_lines`: everything that names no entity) as N-Quads files into the
folder the store gives (for the embedded store, the new store generation's own folder), and
the store loads those files while later papers are parsed. After the resolver (the one step
that needs every mention at once) come the corpus-level lines and each paper's linked lines
(written by the executor), and each paper's records are dropped once written. The report is
counted in the loaded graph and the exports are dumped from it and sorted on disk
(graph.export.prepare_store_exports), all before the embedded store switches to it, so a
failed export keeps the previous store; the export files are renamed into place after the
switch. The bytes are those of `graph.rdf.corpus_quads` written by `graph.export.write_exports`.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph import export, rdf
from graph import extractors as registry
from graph import nlp as nlp_loader
from graph import resolve as resolver
from graph.build.cluster import DaskExecutor
from graph.build.executors import Executor, SerialExecutor
from graph.build.processes import ProcessExecutor
from graph.corpus import read_corpus
from graph.errors import PaperkgError
from graph.model import Paper, PaperExtraction, ResolvedCorpus
from graph.paths import DEFAULT_CORPUS, DEFAULT_EXPORTS
from graph.report import ReportBuilder, corpus_report
from graph.store import NQuadsFiles, Store, open_store
from graph.vocab import DEFAULT_BASE, check_base

log = logging.getLogger(__name__)

#: Below this many papers a progress bar is more noise than help.
PROGRESS_MIN_PAPERS = 20


@dataclass
class BuildResult:
    papers: int
    entities: int
    quads: int
    store: str
    exports: list[Path]
    report: dict
    warnings: list[str] = field(default_factory=list)


@contextmanager
def _progress(total: int, desc: str, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A tqdm bar on stderr for builds of PROGRESS_MIN_PAPERS papers or more; else a no-op."""
    if not enabled or total < PROGRESS_MIN_PAPERS:
        yield lambda n: None
        return
    from tqdm import tqdm  # only when a bar is shown

    # No monitor thread: worker pools fork only from a single-threaded process
    # (graph.build.processes), and a forked pool starts much faster than a spawned one.
    tqdm.monitor_interval = 0
    with tqdm(total=total, unit="paper", desc=desc, file=sys.stderr) as bar:
        yield bar.update


def executor_for(
    *,
    workers: int = 1,
    scheduler: Any = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
) -> Executor:
    """The executor a build's options ask for: Dask with a scheduler, local processes with
    several workers, else serial."""
    if scheduler:
        return DaskExecutor(scheduler, spacy_model=spacy_model, extractors=extractors)
    if workers != 1:
        return ProcessExecutor(workers, spacy_model=spacy_model, extractors=extractors)
    return SerialExecutor(spacy_model=spacy_model, extractors=extractors)


def extract(
    papers: Sequence[Paper],
    *,
    workers: int = 1,
    scheduler: Any = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    progress: bool = False,
) -> list[PaperExtraction]:
    """Run the extractors serially, over local processes, or on a Dask cluster."""
    executor = executor_for(workers=workers, scheduler=scheduler, spacy_model=spacy_model,
                            extractors=extractors)
    results: list[PaperExtraction] = []
    try:
        with _progress(len(papers), "extracting", progress) as advance:
            for part, _ in executor.extract(papers):
                results.extend(part)
                advance(len(part))
    finally:
        executor.close()
    return results


class _Summary:
    """What the report needs from the resolved corpus, kept once its records are released."""

    def __init__(self, duplicates: list[tuple[str, str]], read: dict | None = None) -> None:
        self.reporter = ReportBuilder()
        self.duplicates = duplicates
        self.read = read
        self.entity_types: Counter[str] = Counter()
        self.entities = 0

    def take(self, resolved: ResolvedCorpus) -> None:
        resolved.duplicates = self.duplicates
        for key in sorted(resolved.extractions):
            self.reporter.add_paper(resolved.extractions[key], resolved.links.get(key, []),
                                    resolved.entities)
        self.entity_types = Counter(entity.type for entity in resolved.entities.values())
        self.entities = len(resolved.entities)

    def report(self, view: Store) -> dict:
        self.reporter.count_store(view)
        return self.reporter.finish(entities=self.entity_types, duplicates=self.duplicates,
                                    corpus=self.read)


def build(
    inputs: Sequence[str | os.PathLike] | None = None,
    *,
    out_dir: str | os.PathLike | None = DEFAULT_EXPORTS,
    store: str | None = None,
    base: str | None = None,
    workers: int = 1,
    scheduler: Any = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    progress: bool = False,
) -> BuildResult:
    base = base or DEFAULT_BASE
    try:
        check_base(base)
    except ValueError as exc:
        raise PaperkgError(f"--base-iri: {exc}") from None
    corpus = read_corpus(list(inputs) if inputs else [DEFAULT_CORPUS])
    warnings = [
        f"{d.source}: paper {d.key} appears again with a different abstract; kept the first"
        f" ({d.kept_source})"
        for d in corpus.duplicates
        if d.differed
    ]
    duplicates = [(d.key, d.source) for d in corpus.duplicates]
    read, read_warnings = corpus_report(corpus)
    warnings += read_warnings
    papers = corpus.papers
    del corpus
    summary = _Summary(duplicates, read)
    executor = executor_for(workers=workers, scheduler=scheduler, spacy_model=spacy_model,
                            extractors=extractors)
    try:
        target = open_store(store)
        try:
            fill = graph_files(papers, executor, summary, base=base, progress=progress)
            del papers
            report, written = _load_and_export(target, fill, summary, out_dir)
            location = target.location
        finally:
            target.close()
    finally:
        executor.close()
    return BuildResult(
        papers=report["papers"],
        entities=summary.entities,
        quads=report["quads"],
        store=location,
        exports=written,
        report=report,
        warnings=warnings,
    )


def graph_files(
    papers: Sequence[Paper], executor: Executor, summary: _Summary | None = None, *, base: str,
    progress: bool = False,
) -> Callable[[Path], Iterator[Path]]:
    """The build's graph as a generator of N-Quads files, for a store's `replace_all_nquads`
    (which loads each as it comes). Each paper's static lines are written as soon as it is
    extracted, so most of the graph is loaded while later papers are still being parsed; the
    rest waits for the resolver. `summary`, if given, takes what the report needs."""
    todo = [papers]

    def fill(folder: Path) -> Iterator[Path]:
        # The papers are let go once parsed: the resolver and the rest need only the
        # extractions' linking parts (`graph.rdf.linking_part`).
        papers = todo.pop()
        extractions: list[PaperExtraction] = []
        with _progress(len(papers), "extracting", progress) as advance:
            chunks = executor.extract(papers, static=(str(folder), base))
            del papers  # the executor lets each chunk's papers go once it is back
            for part, paths in chunks:
                # again here: the names a worker's chunk brings are interned in this process
                extractions.extend(map(rdf.linking_part, part))
                advance(len(part))
                yield from paths
        resolved = resolver.resolve(extractions)
        del extractions
        if summary is not None:
            summary.take(resolved)
        with NQuadsFiles(folder, "corpus") as out:
            out.write(list(dict.fromkeys(rdf.corpus_level_lines(resolved, base=base))))
        yield from out.paths
        with _progress(len(resolved.extractions), "writing", progress) as advance:
            yield from executor.write_linked(resolved, folder, base=base, progress=advance)

    return fill


def _load_and_export(target: Store, fill: Callable[[Path], Iterator[Path]], summary: _Summary,
                     out_dir: str | os.PathLike | None) -> tuple[dict, list[Path]]:
    """Load the files `fill` writes into `target`; count the report and write the exports
    from the loaded graph *before* the store switches to it (where the store can: see its
    `replace_all_nquads`), and put the exports in place after: a failed export leaves the
    previous store, a failed load the previous exports."""
    result: dict = {}

    def before_publish(view: Store) -> None:
        result["report"] = summary.report(view)
        if out_dir is not None:
            result["pending"] = export.prepare_store_exports(view, out_dir,
                                                             report=result["report"])

    try:
        target.replace_all_nquads(fill, count=False, before_publish=before_publish, lenient=True)
    except BaseException:
        if "pending" in result:
            result["pending"].discard()
        raise
    written = result["pending"].commit() if "pending" in result else []
    return result["report"], written
