"""The numbers gold (`tests/gold/results.json`): numeric quantities in result sentences of paper
lists abstracts (train venues), annotated by hand, scored against the Results of the claims.

The file holds ids, a SHA-256 of each abstract and the annotations; the abstracts are read from
the paper lists file when scored, and a changed text is an error (the offsets would be wrong).
Each quantity: `start`/`end` (characters in the abstract), `text`, `result` (false for a count
of things: "8 tasks", "three datasets"), and for results `value`, `unit` (None for a bare
number), `metric`, `dataset`, `baseline` (None where the sentence does not say them).

Measures (on the quantities marked as results):
- with unit: a predicted Result overlaps the quantity and has its unit;
- with metric: of those, where the gold names a metric, the predicted metric has its name;
- counts taken: quantities marked as counts that a predicted Result overlaps.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph.errors import InputError
from graph.eval.gold_areas import records_by_id
from graph.eval.matching import match_key
from graph.model import PaperExtraction, Result

_UNIT_FORMS = {"x": "×", "percent": "%", "per cent": "%", "point": "points", "pp": "points"}


def unit_key(unit: str | None) -> str | None:
    if unit is None or not unit.strip():
        return None
    u = unit.strip()
    return _UNIT_FORMS.get(u.lower(), u)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class GoldQuantity:
    start: int
    end: int
    text: str
    result: bool
    unit: str | None = None
    metric: str | None = None
    metric_aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResultsPaper:
    id: str
    title: str | None
    abstract: str
    quantities: tuple[GoldQuantity, ...]


def load(path: str | Path, shared: str | Path | None = None) -> list[ResultsPaper]:
    """The numbers gold with its abstracts from the paper lists; checks every text and span."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: gold file not found") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable JSON gold file: {exc}") from None
    records = data.get("papers") if isinstance(data, dict) else None
    if not isinstance(records, list):
        raise InputError(f"{path}: expected a JSON object with a 'papers' list")
    texts = records_by_id([str(r.get("id")) for r in records], shared)
    papers = []
    for n, rec in enumerate(records):
        where = f"{path}: papers[{n}] ({rec.get('id')})"
        source = texts[str(rec["id"])]
        abstract = source.get("abstract") or ""
        if text_hash(abstract) != rec.get("sha256"):
            raise InputError(f"{where}: the paper lists abstract differs from the annotated one")
        try:
            quantities = tuple(_quantity(q) for q in rec["quantities"])
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{where}: bad quantity ({exc!r})") from None
        for q in quantities:
            if abstract[q.start:q.end] != q.text:
                raise InputError(f"{where}: {q.text!r} is not at {q.start}:{q.end}")
        papers.append(ResultsPaper(str(rec["id"]), source.get("title"), abstract, quantities))
    return papers


def _quantity(q: dict) -> GoldQuantity:
    return GoldQuantity(
        start=int(q["start"]), end=int(q["end"]), text=str(q["text"]), result=bool(q["result"]),
        unit=q.get("unit"), metric=q.get("metric"),
        metric_aliases=tuple(q.get("metric_aliases", ())),
    )


@dataclass
class NumbersScore:
    papers: int = 0
    quantities: int = 0
    with_unit: int = 0
    named_metric: int = 0
    with_metric: int = 0
    counts: int = 0
    counts_taken: int = 0
    errors: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def unit_share(self) -> float:
        return self.with_unit / self.quantities if self.quantities else 0.0

    @property
    def metric_share(self) -> float:
        return self.with_metric / self.named_metric if self.named_metric else 0.0

    @property
    def counts_share(self) -> float:
        return self.counts_taken / self.counts if self.counts else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers, "quantities": self.quantities, "with_unit": self.with_unit,
            "unit_share": round(self.unit_share, 4), "named_metric": self.named_metric,
            "with_metric": self.with_metric, "metric_share": round(self.metric_share, 4),
            "counts": self.counts, "counts_taken": self.counts_taken,
            "counts_share": round(self.counts_share, 4),
        }


def _overlaps(q: GoldQuantity, r: Result) -> bool:
    return min(q.end, r.end) > max(q.start, r.start)


def score_paper(acc: NumbersScore, paper: ResultsPaper, results: Sequence[Result]) -> None:
    acc.papers += 1
    for q in paper.quantities:
        hits = [r for r in results if _overlaps(q, r)]
        if not q.result:
            acc.counts += 1
            if hits:
                acc.counts_taken += 1
                acc.errors.append((paper.id, q.text, "count taken as a result"))
            continue
        acc.quantities += 1
        right = [r for r in hits if unit_key(r.unit) == unit_key(q.unit)]
        if not right:
            why = "not a result" if not hits else f"unit {hits[0].unit!r}, gold {q.unit!r}"
            acc.errors.append((paper.id, q.text, why))
            continue
        acc.with_unit += 1
        if q.metric:
            acc.named_metric += 1
            names = {match_key(n) for n in (q.metric, *q.metric_aliases)}
            if any(r.metric and match_key(r.metric) in names for r in right):
                acc.with_metric += 1
            else:
                why = f"metric {right[0].metric!r}, gold {q.metric!r}"
                acc.errors.append((paper.id, q.text, why))


def score(papers: Iterable[ResultsPaper], extractions: Iterable[PaperExtraction]) -> NumbersScore:
    by_key = {e.paper.key: e for e in extractions}
    acc = NumbersScore()
    for paper in papers:
        ext = by_key.get(paper.id)
        results = [r for m in ext.mentions for r in m.results] if ext is not None else []
        score_paper(acc, paper, results)
    return acc
