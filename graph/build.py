"""`paperkg build`: corpus -> extractions -> entities -> RDF -> store and exports.

Nothing is replaced until everything before it succeeded: a bad input stops the build before
the store is touched, the store switches to the new graph atomically, and exports are
serialized in full before any file is replaced.

The graph is streamed, never held as quads: after the resolver (the one step that needs every
mention at once), each paper's quads are written as N-Quads text into the new store
generation's folder, by `--workers` processes when there are several, and the paper's records
are dropped; Oxigraph bulk loads the files; the report is counted in the loaded graph and the
exports are dumped from it and sorted on disk (graph.export.prepare_store_exports), all before
the store switches to it, so a failed export keeps the previous store; the export files are
renamed into place after the switch. The bytes are those of `graph.rdf.corpus_quads` written
by `graph.export.write_exports`.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
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
        from graph.pipeline import iter_extractions

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
    from graph.namespaces import DEFAULT_BASE, check_base
    from graph.report import ReportBuilder
    from graph.resolve import resolve
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
    if scheduler:
        return _build_dask(corpus.papers, scheduler=scheduler, out_dir=out_dir, store=store,
                           base=base, spacy_model=spacy_model, extractors=extractors,
                           duplicates=duplicates, warnings=warnings)
    papers = corpus.papers
    del corpus
    extractions = extract(papers, workers=workers, spacy_model=spacy_model,
                          extractors=extractors, progress=progress)
    del papers
    resolved = resolve(extractions)
    del extractions
    resolved.duplicates = duplicates

    reporter = ReportBuilder()
    for key in sorted(resolved.extractions):
        reporter.add_paper(resolved.extractions[key], resolved.links.get(key, []),
                           resolved.entities)
    entity_types = Counter(entity.type for entity in resolved.entities.values())
    entities = len(resolved.entities)

    target = open_store(store)
    try:
        with _progress(len(resolved.extractions), "writing", progress) as advance:
            def fill(folder: Path) -> list[Path]:
                return write_nquads(resolved, folder, base=base, workers=workers,
                                    progress=advance)

            report, written = _load_and_export(target, fill, reporter, out_dir,
                                               entities=entity_types, duplicates=duplicates)
        location = target.location
    finally:
        target.close()
    return BuildResult(
        papers=report["papers"],
        entities=entities,
        quads=report["quads"],
        store=location,
        exports=written,
        report=report,
        warnings=warnings,
    )


def _load_and_export(target, fill: Callable[[Path], list[Path]], reporter, out_dir, *,
                     entities, duplicates) -> tuple[dict, list[Path]]:
    """Load the files `fill` writes into `target`; count the report and write the exports
    from the loaded graph *before* the store switches to it, and put the exports in place
    after: a failed export leaves the previous store, a failed load the previous exports."""
    from graph import export

    result: dict = {}

    def before_publish(view) -> None:
        reporter.count_store(view)
        result["report"] = reporter.finish(entities=entities, duplicates=duplicates)
        if out_dir is not None:
            result["pending"] = export.prepare_store_exports(view, out_dir,
                                                             report=result["report"])

    replace_text = getattr(target, "replace_all_nquads", None)
    try:
        if replace_text is not None:
            replace_text(fill, count=False, before_publish=before_publish)
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
    """Load the files `fill` writes into `target`: as text where the store takes N-Quads."""
    replace_text = getattr(target, "replace_all_nquads", None)
    if replace_text is not None:
        replace_text(fill, count=False)
        return
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
    duplicates, warnings,
) -> BuildResult:
    """`--scheduler`: extract on the cluster, resolve here, write N-Quads per partition on the
    cluster into the new store generation, bulk load them."""
    from graph.distributed import connect, extract_dask, write_nquads_dask
    from graph.report import ReportBuilder
    from graph.resolve import resolve
    from graph.store import open_store

    with connect(scheduler) as client:
        resolved = resolve(extract_dask(papers, scheduler=client, spacy_model=spacy_model,
                                        extractors=extractors))
        resolved.duplicates = duplicates
        reporter = ReportBuilder()
        for key in sorted(resolved.extractions):
            reporter.add_paper(resolved.extractions[key], resolved.links.get(key, []),
                               resolved.entities)
        target = open_store(store)
        try:
            report, written = _load_and_export(
                target,
                lambda folder: write_nquads_dask(resolved, folder, scheduler=client, base=base),
                reporter, out_dir, entities=resolved.entities, duplicates=duplicates)
            location = target.location
        finally:
            target.close()
    return BuildResult(papers=report["papers"], entities=len(resolved.entities),
                       quads=report["quads"], store=location, exports=written, report=report,
                       warnings=warnings)
