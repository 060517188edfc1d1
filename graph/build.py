"""`paperkg build`: corpus -> extractions -> entities -> RDF -> store and exports.

Nothing is replaced until everything before it succeeded: a bad input stops the build before
the store is touched, the store switches to the new graph atomically, and exports are
serialized in full before any file is replaced.

The graph is streamed, never held as quads. Into an embedded store: each paper's static RDF
(`graph.rdf.paper_static_lines`: everything that names no entity) is written as N-Quads text
into the new store generation's folder as soon as the paper is extracted (by the worker
process that extracted it under `--workers`), and Oxigraph bulk loads those files on a second
thread while later papers are parsed. After the resolver (the one step that needs every
mention at once) come the corpus-level lines and each paper's linked lines, and each paper's
records are dropped once written. The report is counted in the loaded graph and the exports
are dumped from it and sorted on disk (graph.export.prepare_store_exports), all before the
store switches to it, so a failed export keeps the previous store; the export files are
renamed into place after the switch. A remote store gets the same lines after the resolver.
The bytes are those of `graph.rdf.corpus_quads` written by `graph.export.write_exports`.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph.corpus import read_corpus
from graph.model import Paper, PaperExtraction, ResolvedCorpus
from graph.paths import DEFAULT_CORPUS, DEFAULT_EXPORTS

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
    from tqdm import tqdm

    # No monitor thread: worker pools fork only from a single-threaded process
    # (graph.parallel), and a forked pool starts much faster than a spawned one.
    tqdm.monitor_interval = 0
    with tqdm(total=total, unit="paper", desc=desc, file=sys.stderr) as bar:
        yield bar.update


def extract(
    papers: Sequence[Paper],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    progress: bool = False,
) -> list[PaperExtraction]:
    """Run the extractors serially, over local processes, or on a Dask cluster."""
    if scheduler:
        from graph.distributed import extract_dask

        return extract_dask(papers, scheduler=scheduler, spacy_model=spacy_model,
                            extractors=extractors)
    with _progress(len(papers), "extracting", progress) as advance:
        if workers > 1 and len(papers) > workers:
            from graph.parallel import extract_parallel

            return extract_parallel(papers, workers=workers, spacy_model=spacy_model,
                                    extractors=extractors, progress=advance)
        from graph.extractors.pipeline import iter_extractions

        results = []
        for extraction in iter_extractions(papers, nlp=nlp_loader.load(spacy_model),
                                           extractors=extractors):
            results.append(extraction)
            advance(1)
        return results


def write_nquads(
    resolved: ResolvedCorpus,
    folder: Path,
    *,
    base: str,
    workers: int = 1,
    venue_titles: Mapping[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
    release: bool = True,
) -> list[Path]:
    """Write the build's quads as N-Quads files in `folder`; returns their paths.

    The corpus-level quads (entities, taxonomy, domains) first, then the papers' in key order,
    by `workers` processes when there are several. With `release`, each paper's extraction and
    links leave `resolved` once its quads are written, so the build's memory shrinks as the
    files grow.
    """
    from graph import rdf
    from graph.store import NQuadsFiles

    with NQuadsFiles(folder, "corpus") as out:
        out.write(list(dict.fromkeys(rdf.corpus_level_lines(resolved, base=base))))
    files = list(out.paths)
    keys = sorted(resolved.extractions)
    if workers > 1 and len(keys) > workers:
        from graph.parallel import write_papers_parallel

        files += write_papers_parallel(resolved, keys, folder, base=base, workers=workers,
                                       venue_titles=venue_titles, progress=progress)
        if release:
            resolved.extractions.clear()
            resolved.links.clear()
        return files
    venue_titles = venue_titles or {}
    with NQuadsFiles(folder, "papers") as out:
        for key in keys:
            extraction = resolved.extractions[key]
            out.write(rdf.paper_lines(extraction, resolved.links.get(key, []), base=base,
                                      entities=resolved.entities,
                                      venue_title=venue_titles.get(key)))
            if release:
                del resolved.extractions[key]
                resolved.links.pop(key, None)
            if progress is not None:
                progress(1)
    return files + out.paths


def write_linked(resolved: ResolvedCorpus, folder: Path, *, base: str,
                 progress: Callable[[int], None] | None = None) -> Iterator[Path]:
    """What the static part of a streamed build leaves: the corpus-level lines and each
    paper's `graph.rdf.paper_linked_lines`, as N-Quads files in `folder`, yielded as each is
    finished. Each paper's records leave `resolved` once its lines are written."""
    from graph import rdf
    from graph.store import LINKED_FILE_LINES, NQuadsFiles

    with NQuadsFiles(folder, "corpus") as out:
        out.write(list(dict.fromkeys(rdf.corpus_level_lines(resolved, base=base))))
    yield from out.paths
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


class _Summary:
    """What the report needs from the resolved corpus, kept once its records are released."""

    def __init__(self, duplicates: list[tuple[str, str]], read: dict | None = None) -> None:
        from graph.report import ReportBuilder

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

    def report(self, view) -> dict:
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
    scheduler: str | None = None,
    spacy_model: str = nlp_loader.DEFAULT_MODEL,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    progress: bool = False,
) -> BuildResult:
    from graph.errors import PaperkgError
    from graph.vocab import DEFAULT_BASE, check_base
    from graph.store import open_store

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
    from graph.report import corpus_report

    read, read_warnings = corpus_report(corpus)
    warnings += read_warnings
    if scheduler:
        return _build_dask(corpus.papers, scheduler=scheduler, out_dir=out_dir, store=store,
                           base=base, spacy_model=spacy_model, extractors=extractors,
                           duplicates=duplicates, warnings=warnings, read=read)
    papers = corpus.papers
    del corpus
    summary = _Summary(duplicates, read)
    target = open_store(store)
    try:
        if getattr(target, "replace_all_nquads", None) is not None:
            fill = _streamed_fill(papers, summary, base=base, workers=workers,
                                  spacy_model=spacy_model, extractors=extractors,
                                  progress=progress)
            del papers
            report, written = _load_and_export(target, fill, summary, out_dir)
        else:
            report, written = _build_then_load(target, papers, summary, out_dir, base=base,
                                               workers=workers, spacy_model=spacy_model,
                                               extractors=extractors, progress=progress)
        location = target.location
    finally:
        target.close()
    return BuildResult(
        papers=report["papers"],
        entities=summary.entities,
        quads=report["quads"],
        store=location,
        exports=written,
        report=report,
        warnings=warnings,
    )


def _streamed_fill(
    papers: Sequence[Paper], summary: _Summary, *, base: str, workers: int, spacy_model: str,
    extractors: Sequence[str], progress: bool,
) -> Callable[[Path], Iterator[Path]]:
    """The embedded store's build, as a generator of N-Quads files for `replace_all_nquads`,
    which loads each on a second thread as it comes. Each paper's static lines
    (`graph.rdf.paper_static_lines`) are written as soon as it is extracted, so most of the
    graph is loaded while later papers are still being parsed; the rest waits for the resolver.
    """
    from graph import rdf
    from graph.resolve import resolve
    from graph.store import STREAM_FILE_LINES, NQuadsFiles

    todo = [papers]

    def fill(folder: Path) -> Iterator[Path]:
        # The papers are let go once parsed: the resolver and the rest need only the
        # extractions' linking parts (`graph.rdf.linking_part`).
        papers = todo.pop()
        extractions: list[PaperExtraction] = []
        with _progress(len(papers), "extracting", progress) as advance:
            if workers > 1 and len(papers) > workers:
                from graph.parallel import iter_parallel

                chunks = iter_parallel(papers, workers=workers, spacy_model=spacy_model,
                                       extractors=extractors, static=(str(folder), base))
                del papers  # the generator lets each chunk's papers go once it is back
                for part, paths in chunks:
                    # again here: the names each chunk brings are interned in this process
                    extractions.extend(map(rdf.linking_part, part))
                    advance(len(part))
                    yield from map(Path, paths)
            else:
                from graph.extractors.pipeline import iter_extractions

                with NQuadsFiles(folder, "static", STREAM_FILE_LINES) as out:
                    for extraction in iter_extractions(
                        papers, nlp=nlp_loader.load(spacy_model), extractors=extractors
                    ):
                        out.write(rdf.paper_static_lines(extraction, base=base))
                        extractions.append(rdf.linking_part(extraction))
                        advance(1)
                        yield from out.take_finished()
                yield from out.take_finished()
                del papers
        resolved = resolve(extractions)
        del extractions
        summary.take(resolved)
        with _progress(len(resolved.extractions), "writing", progress) as advance:
            yield from write_linked(resolved, folder, base=base, progress=advance)

    return fill


def _build_then_load(target, papers: Sequence[Paper], summary: _Summary, out_dir, *,
                     base: str, workers: int, spacy_model: str, extractors: Sequence[str],
                     progress: bool) -> tuple[dict, list[Path]]:
    """A remote store's build: extract and resolve everything, then write and load."""
    from graph.resolve import resolve

    resolved = resolve(extract(papers, workers=workers, spacy_model=spacy_model,
                               extractors=extractors, progress=progress))
    summary.take(resolved)
    with _progress(len(resolved.extractions), "writing", progress) as advance:
        def fill(folder: Path) -> list[Path]:
            return write_nquads(resolved, folder, base=base, workers=workers,
                                progress=advance)

        return _load_and_export(target, fill, summary, out_dir)


def _load_and_export(target, fill: Callable[[Path], Iterable[Path]], summary: _Summary,
                     out_dir) -> tuple[dict, list[Path]]:
    """Load the files `fill` writes into `target`; count the report and write the exports
    from the loaded graph *before* the store switches to it, and put the exports in place
    after: a failed export leaves the previous store, a failed load the previous exports."""
    from graph import export

    result: dict = {}

    def before_publish(view) -> None:
        result["report"] = summary.report(view)
        if out_dir is not None:
            result["pending"] = export.prepare_store_exports(view, out_dir,
                                                             report=result["report"])

    replace_text = getattr(target, "replace_all_nquads", None)
    try:
        if replace_text is not None:
            replace_text(fill, count=False, before_publish=before_publish, lenient=True)
        else:  # a remote store: load, then count and export from it
            _replace(target, fill)
            before_publish(target)
    except BaseException:
        if "pending" in result:
            result["pending"].discard()
        raise
    written = result["pending"].commit() if "pending" in result else []
    return result["report"], written


def _replace(target, fill: Callable[[Path], list[Path]]) -> None:
    """Load the files `fill` writes into `target`, a store that takes no N-Quads text (a
    remote one), as parsed quads."""
    import tempfile

    from pyoxigraph import RdfFormat, parse

    with tempfile.TemporaryDirectory(prefix="paperkg-build-") as folder:
        files = fill(Path(folder))

        def quads():
            for path in files:
                yield from parse(path=str(path), format=RdfFormat.N_QUADS)

        target.replace_all(quads())


def _build_dask(
    papers: Sequence[Paper], *, scheduler, out_dir, store, base, spacy_model, extractors,
    duplicates, warnings, read=None,
) -> BuildResult:
    """`--scheduler`: extract on the cluster, resolve here, write N-Quads per partition on the
    cluster into the new store generation, bulk load them."""
    from graph.distributed import connect, extract_dask, write_nquads_dask
    from graph.resolve import resolve
    from graph.store import open_store

    summary = _Summary(duplicates, read)
    with connect(scheduler) as client:
        resolved = resolve(extract_dask(papers, scheduler=client, spacy_model=spacy_model,
                                        extractors=extractors))
        summary.take(resolved)
        target = open_store(store)
        try:
            report, written = _load_and_export(
                target,
                lambda folder: write_nquads_dask(resolved, folder, scheduler=client, base=base),
                summary, out_dir)
            location = target.location
        finally:
            target.close()
    return BuildResult(papers=report["papers"], entities=summary.entities,
                       quads=report["quads"], store=location, exports=written, report=report,
                       warnings=warnings)
