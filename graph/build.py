"""`paperkg build`: corpus -> extractions -> entities -> RDF -> store and exports.

Nothing is replaced until everything before it succeeded: a bad input stops the build before
the store is touched, the store switches to the new graph atomically, and exports are
serialized in full before any file is replaced.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph.corpus import read_corpus
from graph.model import Paper, PaperExtraction
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
    if workers > 1 and len(papers) > workers:
        from graph.parallel import extract_parallel

        return extract_parallel(papers, workers=workers, spacy_model=spacy_model,
                                extractors=extractors)
    from graph.pipeline import iter_extractions

    stream = iter_extractions(papers, nlp=nlp_loader.load(spacy_model), extractors=extractors)
    if progress and len(papers) >= PROGRESS_MIN_PAPERS:
        from tqdm import tqdm

        stream = tqdm(stream, total=len(papers), unit="paper", desc="extracting", file=sys.stderr)
    return list(stream)


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
    from graph import export, rdf
    from graph.namespaces import DEFAULT_BASE
    from graph.report import build_report
    from graph.resolve import resolve
    from graph.store import open_store

    base = base or DEFAULT_BASE
    corpus = read_corpus(list(inputs) if inputs else [DEFAULT_CORPUS])
    warnings = [
        f"{d.source}: paper {d.key} appears again with a different abstract; kept the first"
        f" ({d.kept_source})"
        for d in corpus.duplicates
        if d.differed
    ]
    extractions = extract(corpus.papers, workers=workers, scheduler=scheduler,
                          spacy_model=spacy_model, extractors=extractors, progress=progress)
    resolved = resolve(extractions)
    resolved.duplicates = [(d.key, d.source) for d in corpus.duplicates]
    quads = rdf.corpus_quads(resolved, base=base)
    report = build_report(resolved, quads)

    target = open_store(store)
    try:
        target.replace_all(quads)
        location = target.location
    finally:
        target.close()
    written = export.write_exports(quads, out_dir, report=report) if out_dir is not None else []
    return BuildResult(
        papers=len(resolved.extractions),
        entities=len(resolved.entities),
        quads=len(quads),
        store=location,
        exports=written,
        report=report,
        warnings=warnings,
    )
