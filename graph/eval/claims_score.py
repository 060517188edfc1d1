"""Claims against sentence roles (CSAbstruct): which sentences the extractors take as claims.

A gold sentence is taken as a claim when a predicted claim mention overlaps it by at least half
of the shorter of the two (graph.eval.matching.spans_match): the extractors cut sentences with their
own parser, so the spans rarely coincide to the character.

- result recall: result sentences with annotator confidence >= MIN_CONF that are taken;
- background taken: background sentences (any confidence) that are taken;
- precision: predicted claims whose sentence (the one they overlap most) is a result, objective
  or method sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from graph.eval.gold import GoldPaper, GoldSentence
from graph.eval.matching import spans_match
from graph.model import Mention, PaperExtraction

#: result sentences the annotators agreed on at least this much are the recall's gold
MIN_CONF = 0.7
CLAIM_LABELS = frozenset({"result", "objective", "method"})


@dataclass
class SentenceClaims:
    papers: int = 0
    results: int = 0
    results_taken: int = 0
    background: int = 0
    background_taken: int = 0
    claims: int = 0
    claims_right: int = 0
    #: per paper: (id, missed result sentence texts, background sentence texts taken)
    errors: list[tuple[str, list[str], list[str]]] = field(default_factory=list)

    @property
    def result_recall(self) -> float:
        return self.results_taken / self.results if self.results else 0.0

    @property
    def background_share(self) -> float:
        return self.background_taken / self.background if self.background else 0.0

    @property
    def precision(self) -> float:
        return self.claims_right / self.claims if self.claims else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            "results": self.results,
            "results_taken": self.results_taken,
            "result_recall": round(self.result_recall, 4),
            "background": self.background,
            "background_taken": self.background_taken,
            "background_share": round(self.background_share, 4),
            "claims": self.claims,
            "claims_right": self.claims_right,
            "precision": round(self.precision, 4),
        }


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def score_paper(
    acc: SentenceClaims, paper: GoldPaper, claims: Sequence[Mention], *, min_conf: float = MIN_CONF
) -> None:
    sentences: Sequence[GoldSentence] = paper.sentences or ()
    spans = [(c.start, c.end) for c in claims]

    def taken(s: GoldSentence) -> bool:
        return any(spans_match(span, (s.start, s.end)) for span in spans)

    acc.papers += 1
    missed, leaked = [], []
    for s in sentences:
        if s.label == "result" and s.conf >= min_conf:
            acc.results += 1
            if taken(s):
                acc.results_taken += 1
            else:
                missed.append(paper.abstract[s.start:s.end])
        elif s.label == "background":
            acc.background += 1
            if taken(s):
                acc.background_taken += 1
                leaked.append(paper.abstract[s.start:s.end])
    for span in spans:
        best = max(sentences, key=lambda s: _overlap(span, (s.start, s.end)), default=None)
        acc.claims += 1
        if best is not None and best.label in CLAIM_LABELS:
            acc.claims_right += bool(_overlap(span, (best.start, best.end)))
    if missed or leaked:
        acc.errors.append((paper.id, missed, leaked))


def score(gold: Iterable[GoldPaper], extractions: Iterable[PaperExtraction]) -> SentenceClaims:
    by_key = {e.paper.key: e for e in extractions}
    acc = SentenceClaims()
    for paper in gold:
        if paper.sentences is None:
            continue
        ext = by_key.get(paper.id)
        claims = [m for m in ext.mentions if m.type == "claim"] if ext is not None else []
        score_paper(acc, paper, claims)
    return acc
