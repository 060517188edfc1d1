"""`paperkg eval --corpus NAME [--split S]` and `paperkg eval --all`: run today's extractors on
a corpus's gold abstracts and score them as rows of one table (graph.eval.table)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph.eval import claims_score, gold_results
from graph.eval.area_match import ancestors_of, score_areas, taxonomy_broader
from graph.eval.corpora import (
    GOLD_DIR,
    Corpus,
    check_errors_allowed,
    corpus,
    load_papers,
)
from graph.eval.gold_run import DEFAULT_EXTRACTORS, available_extractors, extract_gold
from graph.eval.scores import DomainScore
from graph.eval.scoring import score
from graph.eval.targets import ENTITY_TARGETS, MEASURE_TARGETS
from graph.model import PaperExtraction

ENTITY_ROWS = ("method", "dataset", "task", "metric")


@dataclass
class Row:
    corpus: str
    split: str
    row: str
    #: how many gold items the row is over (entities, sentences, papers, quantities)
    n: int
    precision: float | None = None
    recall: float | None = None
    f1: float | None = None
    #: the figure of a row that is one share, not P/R/F1
    value: float | None = None
    #: measure -> target text, and whether each is met
    targets: dict[str, str] = field(default_factory=dict)
    met: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        for k in ("precision", "recall", "f1", "value"):
            if out[k] is not None:
                out[k] = round(out[k], 4)
        return out


@dataclass
class CorpusResult:
    corpus: str
    split: str
    papers: int
    rows: list[Row]
    #: per-paper error lines (train splits only)
    errors: list[str] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)


def _extract(papers: Sequence, nlp=None) -> tuple[list[PaperExtraction], list[str]]:
    """Today's extractors (those present) on the gold papers' titles and abstracts (a
    ResultsPaper has the id, title and abstract extract_gold reads)."""
    names, missing = available_extractors(DEFAULT_EXTRACTORS)
    return extract_gold(papers, extractors=names, nlp=nlp), missing


def _share_row(c: Corpus, split: str, name: str, n: int, value: float, **pr) -> Row:
    target = MEASURE_TARGETS.get(name)
    row = Row(c.name, split, name, n, value=value if n else None, **pr)
    if target is not None:
        row.targets = {"value": str(target)}
        row.met = target.met(value) if n else None
    return row


def run_corpus(
    name: str, split: str = "dev", *, shared: str | Path | None = None, errors: bool = False,
    gold_dir: Path = GOLD_DIR, limit: int | None = None, nlp=None,
) -> CorpusResult:
    c = corpus(name)
    if errors:
        check_errors_allowed(c, split)
    papers = load_papers(c, split, shared=shared, gold_dir=gold_dir, limit=limit)
    extractions, missing = _extract(papers, nlp)
    result = CorpusResult(c.name, split, len(papers), [], not_run=missing)
    if c.kind == "entities":
        _entity_rows(c, split, papers, extractions, result, errors)
    elif c.kind == "claims":
        acc = claims_score.score(papers, extractions)
        result.rows += [
            _share_row(c, split, "result recall", acc.results, acc.result_recall),
            _share_row(c, split, "background taken", acc.background, acc.background_share),
            _share_row(c, split, "claim precision", acc.claims, acc.precision),
        ]
        if errors:
            for pid, missed, leaked in acc.errors:
                result.errors += [f"{pid}\tresult missed\t{s}" for s in missed]
                result.errors += [f"{pid}\tbackground taken\t{s}" for s in leaked]
    elif c.kind == "areas":
        _area_rows(c, split, papers, extractions, result, errors)
    else:
        numbers = gold_results.score(papers, extractions)
        result.rows += [
            _share_row(c, split, "with unit", numbers.quantities, numbers.unit_share),
            _share_row(c, split, "with metric", numbers.named_metric, numbers.metric_share),
            _share_row(c, split, "counts taken", numbers.counts, numbers.counts_share),
        ]
    return result


def _entity_rows(c, split, papers, extractions, result, errors) -> None:
    report = score(papers, extractions, gold_name=c.files[split])
    for etype in ENTITY_ROWS:
        s = report.entities[etype]
        row = Row(c.name, split, etype, s.n_gold, s.precision, s.recall, s.f1)
        targets = ENTITY_TARGETS.get(etype, {})
        row.targets = {m: str(t) for m, t in targets.items()}
        row.met = all(t.met(getattr(s, m)) for m, t in targets.items()) if s.n_gold else None
        result.rows.append(row)
    if errors:
        for diff in report.papers:
            for etype in ENTITY_ROWS:
                for name in diff.missed.get(etype, []):
                    result.errors.append(f"{diff.id}\t{etype} missed\t{name}")
                for name in diff.spurious.get(etype, []):
                    result.errors.append(f"{diff.id}\t{etype} spurious\t{name}")


def _area_rows(c, split, papers, extractions, result, errors) -> None:
    ancestors = ancestors_of(taxonomy_broader())
    by_key = {e.paper.key: e for e in extractions}
    acc = DomainScore()
    for paper in papers:
        ext = by_key.get(paper.id)
        mentions = ext.mentions if ext is not None else []
        got = sorted({m.label or m.text for m in mentions if m.type == "domain"})
        right = score_areas(acc, paper.domains or (), got, ancestors)
        if errors and (not right or len(right) < len(got)):
            result.errors.append(f"{paper.id}\tareas {got}\tgold {list(paper.domains or ())}")
    result.rows += [
        _share_row(c, split, "agreeing area", len(papers), acc.hit_rate),
        _share_row(c, split, "area precision", acc.predicted, acc.precision),
    ]
