"""`paperkg eval --gold FILE`: run the extractors on a gold file's abstracts and score them
(one report, or one per confidence threshold), and the text the command prints."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from graph import extractors as registry
from graph.errors import PaperkgError
from graph.eval.area_match import Broader, taxonomy_broader
from graph.eval.gold import GoldPaper, load_gold
from graph.eval.gold_report import format_sweep, format_table
from graph.eval.scores import EvalReport
from graph.eval.scoring import filter_confidence, score
from graph.extractors.pipeline import extract_papers
from graph.model import Paper, PaperExtraction

if TYPE_CHECKING:
    from spacy.language import Language

DEFAULT_EXTRACTORS: tuple[str, ...] = registry.DEFAULT_EXTRACTORS


def available_extractors(names: Iterable[str] = DEFAULT_EXTRACTORS) -> tuple[list[str], list[str]]:
    """(importable, missing) extractor names: a half-built pipeline can still be measured."""
    ok, missing = [], []
    for name in names:
        try:
            registry.get(name)
        except ModuleNotFoundError:
            missing.append(name)
        else:
            ok.append(name)
    return ok, missing


def extract_gold(
    gold: Sequence[GoldPaper], *, extractors: Sequence[str], nlp: Language | None = None
) -> list[PaperExtraction]:
    papers = [Paper(key=g.id, abstract=g.abstract, title=g.title, id=g.id) for g in gold]
    return extract_papers(papers, nlp=nlp, extractors=tuple(extractors))


def _prepare(
    gold_path: str | Path, extractors: Sequence[str] | None, limit: int | None
) -> tuple[list[GoldPaper], list[str], list[str]]:
    gold = load_gold(gold_path, limit=limit)
    if extractors is None or extractors is DEFAULT_EXTRACTORS:
        names, missing = available_extractors(DEFAULT_EXTRACTORS)
    else:
        names, missing = list(extractors), []
        unknown = [n for n in names if n not in registry.names()]
        if unknown:
            raise PaperkgError(
                f"unknown extractor(s) {', '.join(unknown)}; known: {', '.join(registry.names())}"
            )
    return gold, names, missing


def evaluate(
    gold_path: str | Path,
    *,
    extractors: Sequence[str] | None = DEFAULT_EXTRACTORS,
    nlp: Language | None = None,
    limit: int | None = None,
    threshold: float | None = None,
    broader: Broader | None = None,
    use_resolver: bool = True,
) -> EvalReport:
    """Run the pipeline on the gold abstracts and score it.

    With the default extractors, those whose module is not there yet are left out and listed in
    `report.not_run`; an extractor named explicitly must exist. `threshold` drops mentions with a
    lower confidence. `broader` defaults to the taxonomy in data/taxonomy.ttl when present.
    """
    return sweep(
        gold_path, [threshold], extractors=extractors, nlp=nlp, limit=limit, broader=broader,
        use_resolver=use_resolver,
    )[0]


def sweep(
    gold_path: str | Path,
    thresholds: Sequence[float | None],
    *,
    extractors: Sequence[str] | None = DEFAULT_EXTRACTORS,
    nlp: Language | None = None,
    limit: int | None = None,
    broader: Broader | None = None,
    use_resolver: bool = True,
) -> list[EvalReport]:
    """One report per confidence threshold, extracting once (a precision/recall curve)."""
    gold, names, missing = _prepare(gold_path, extractors, limit)
    extractions = extract_gold(gold, extractors=names, nlp=nlp)
    broader = broader if broader is not None else taxonomy_broader()
    reports = []
    for t in thresholds:
        report = score(
            gold,
            filter_confidence(extractions, t),
            broader=broader,
            use_resolver=use_resolver,
            gold_name=str(gold_path),
            extractors=names,
            threshold=t,
        )
        report.not_run = missing
        reports.append(report)
    return reports


def run_eval(
    gold: str | Path,
    *,
    as_json: bool = False,
    limit: int | None = None,
    threshold: float | None = None,
    thresholds: Sequence[float] | None = None,
) -> str:
    """The text `paperkg eval` prints: the table, the JSON report, or a threshold sweep."""
    if thresholds:
        reports = sweep(gold, thresholds, limit=limit)
        if as_json:
            return json.dumps([r.to_dict() for r in reports], indent=2, ensure_ascii=False)
        return format_sweep(reports)
    report = evaluate(gold, limit=limit, threshold=threshold)
    return report.to_json() if as_json else format_table(report)
