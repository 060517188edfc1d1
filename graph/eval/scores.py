"""The counts a gold comparison adds up (P/R/F1 per measure, areas, claims, proposed names), the
report they make, and that report's figures held against their targets."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from graph.eval.targets import TARGETS
from graph.model import ENTITY_TYPES


@dataclass
class Score:
    """Counts for one measure; precision/recall/F1 are 0.0 when their denominator is 0."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def n_pred(self) -> int:
        return self.tp + self.fp

    @property
    def n_gold(self) -> int:
        return self.tp + self.fn

    @property
    def precision(self) -> float:
        return self.tp / self.n_pred if self.n_pred else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        # 2PR / (P + R) in counts: one division, so an F1 that is exactly a target (330/550 =
        # 0.6) is not rounded below it
        total = self.n_pred + self.n_gold
        return 2 * self.tp / total if total else 0.0

    def add(self, other: Score) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def to_dict(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }

@dataclass
class PaperDiff:
    id: str
    missed: dict[str, list[str]] = field(default_factory=dict)
    spurious: dict[str, list[str]] = field(default_factory=dict)
    domains_predicted: list[str] | None = None
    domains_gold: list[str] | None = None
    proposed_missed: list[str] | None = None
    proposed_spurious: list[str] | None = None


@dataclass
class DomainScore:
    papers: int = 0
    papers_hit: int = 0
    predicted: int = 0
    correct: int = 0

    @property
    def hit_rate(self) -> float:
        return self.papers_hit / self.papers if self.papers else 0.0

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            "papers_hit": self.papers_hit,
            "hit_rate": round(self.hit_rate, 4),
            "predicted": self.predicted,
            "correct": self.correct,
            "precision": round(self.precision, 4),
        }


@dataclass
class ClaimScore:
    papers: int = 0
    sentences: Score = field(default_factory=Score)
    kind_correct: int = 0
    quantities: int = 0
    quantities_captured: int = 0

    @property
    def kind_accuracy(self) -> float:
        return self.kind_correct / self.sentences.tp if self.sentences.tp else 0.0

    @property
    def numbers(self) -> float:
        return self.quantities_captured / self.quantities if self.quantities else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            **self.sentences.to_dict(),
            "kind_accuracy": round(self.kind_accuracy, 4),
            "quantities": self.quantities,
            "quantities_captured": self.quantities_captured,
            "numbers": round(self.numbers, 4),
        }


@dataclass
class ProposedScore:
    """Names the extractors mark `proposed`, against the gold `proposes` of annotated papers."""

    papers: int = 0
    names: Score = field(default_factory=Score)

    def to_dict(self) -> dict[str, Any]:
        return {"papers": self.papers, **self.names.to_dict()}


@dataclass
class EvalReport:
    gold: str
    n_papers: int
    extractors: list[str]
    threshold: float | None
    resolver: bool
    entities: dict[str, Score]
    #: types with no gold entity in any paper (scored n/a)
    no_gold: list[str]
    #: methods as the method extractor alone finds them (the `method` row also counts models)
    method_only: Score
    #: model predictions matched against gold methods, on papers without gold models
    model_vs_methods: Score
    domains: DomainScore
    claims: ClaimScore
    papers: list[PaperDiff]
    not_run: list[str] = field(default_factory=list)
    #: proposed names (any entity type) on the papers whose gold has `proposes`
    proposed: ProposedScore = field(default_factory=ProposedScore)
    #: per type, predicted entities that matched only a neutral span (neither right nor wrong)
    neutral: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "gold": self.gold,
            "papers": self.n_papers,
            "extractors": self.extractors,
            "not_run": self.not_run,
            "threshold": self.threshold,
            "resolver": self.resolver,
            "entities": {
                t: (None if t in self.no_gold else s.to_dict()) for t, s in self.entities.items()
            },
            "method_only": self.method_only.to_dict(),
            "model_vs_methods": self.model_vs_methods.to_dict(),
            "domains": self.domains.to_dict() if self.domains.papers else None,
            "claims": self.claims.to_dict() if self.claims.papers else None,
            "proposed": self.proposed.to_dict() if self.proposed.papers else None,
            **({"neutral": self.neutral} if any(self.neutral.values()) else {}),
            "checks": [asdict(c) for c in checks(self)],
            "per_paper": [asdict(p) for p in self.papers],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)


@dataclass
class Check:
    row: str
    measure: str
    value: float | None
    target: float | None
    passed: bool | None


def checks(report: EvalReport) -> list[Check]:
    """Every targeted figure with its target; value None where the gold has nothing to score."""
    out = []
    for etype in ENTITY_TYPES:
        s = report.entities[etype]
        for measure, target in TARGETS[etype].items():
            value = None if etype in report.no_gold else getattr(s, measure)
            out.append(
                Check(etype, measure, value, target, None if value is None else value >= target)
            )
    d = report.domains
    for measure, value in (("papers_hit", d.hit_rate), ("precision", d.precision)):
        v = value if d.papers else None
        t = TARGETS["domains"][measure]
        out.append(Check("domains", measure, v, t, None if v is None else v >= t))
    c = report.claims
    for measure, value in (
        ("recall", c.sentences.recall),
        ("precision", c.sentences.precision),
        ("numbers", c.numbers),
    ):
        v = value if c.papers and (measure != "numbers" or c.quantities) else None
        t = TARGETS["claims"][measure]
        out.append(Check("claims", measure, v, t, None if v is None else v >= t))
    return out
