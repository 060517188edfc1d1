"""Extractions against gold papers: `score` gives the report of `paperkg eval --gold FILE`.

Entities are scored by name, per paper, micro-averaged (graph.eval.matching). Areas, claims and
the numbers in claims are scored on the papers whose gold has them; proposed names on the papers
whose gold has `proposes`. See tests/gold/README.md for the gold set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from graph.eval.area_match import Broader, ancestors_of, score_areas
from graph.eval.gold import GoldClaim, GoldPaper
from graph.eval.matching import (
    EntityMatch,
    group_names,
    match_entities,
    max_matching,
    name_keys,
    spans_match,
)
from graph.eval.scores import (
    ClaimScore,
    DomainScore,
    EvalReport,
    PaperDiff,
    ProposedScore,
    Score,
)
from graph.model import ENTITY_TYPES, Mention, PaperExtraction
from graph.resolve import resolve


def predicted_entities(
    extractions: Sequence[PaperExtraction], *, use_resolver: bool = True
) -> dict[str, dict[str, list[tuple[str, Iterable[str]]]]]:
    """paper key -> entity type -> [(label, aliases)], one record per mention.

    With the resolver, graph.resolve's canonical labels and alias tables name the mentions;
    without it, the mention's own label/text/aliases do.
    """
    out: dict[str, dict[str, list[tuple[str, Iterable[str]]]]] = {}
    if use_resolver:
        corpus = resolve(list(extractions))
        for ext in extractions:
            key = ext.paper.key
            per = out.setdefault(key, {t: [] for t in ENTITY_TYPES})
            for ref in corpus.links.get(key, []):
                if ref is None or ref not in corpus.entities:
                    continue
                entity = corpus.entities[ref]
                if entity.type in per:
                    per[entity.type].append((entity.label, sorted(entity.aliases)))
        return out
    for ext in extractions:
        per = out.setdefault(ext.paper.key, {t: [] for t in ENTITY_TYPES})
        for m in ext.mentions:
            if m.type in per:
                per[m.type].append((m.label or m.text, (m.text, *m.aliases)))
    return out


def filter_confidence(
    extractions: Sequence[PaperExtraction], threshold: float | None
) -> list[PaperExtraction]:
    if threshold is None:
        return list(extractions)
    return [
        PaperExtraction(
            paper=e.paper, mentions=[m for m in e.mentions if m.confidence >= threshold]
        )
        for e in extractions
    ]


def score(
    gold: Sequence[GoldPaper],
    extractions: Sequence[PaperExtraction],
    *,
    broader: Broader | None = None,
    use_resolver: bool = True,
    gold_name: str = "",
    extractors: Sequence[str] = (),
    threshold: float | None = None,
) -> EvalReport:
    """Compare extractions (paper key = gold id) with the gold papers."""
    by_key = {e.paper.key: e for e in extractions}
    predicted = predicted_entities(extractions, use_resolver=use_resolver)
    has_gold = {t: any(p.entities[t] for p in gold) for t in ENTITY_TYPES}
    totals = {t: Score() for t in ENTITY_TYPES}
    method_only, model_vs_methods = Score(), Score()
    domains, claims = DomainScore(), ClaimScore()
    proposed = ProposedScore()
    neutral_counts: dict[str, int] = {}
    diffs: list[PaperDiff] = []
    ancestors = ancestors_of(broader)
    for paper in gold:
        pred = predicted.get(paper.id, {t: [] for t in ENTITY_TYPES})
        diff = PaperDiff(id=paper.id)
        ext = by_key.get(paper.id)
        neutral = neutral_keys(paper, ext.mentions if ext is not None else [])
        for etype in ENTITY_TYPES:
            records = list(pred.get(etype, []))
            if etype == "model" and not paper.entities["model"]:
                # SciREX-style gold has no Model type: its Methods include named models.
                models = group_names(records)
                model_vs_methods.add(match_entities(models, paper.entities["method"]).score)
                continue
            if etype == "method" and not paper.entities["model"]:
                method_only.add(
                    match_entities(group_names(records), paper.entities["method"]).score
                )
                records += list(pred.get("model", []))
            result = match_entities(group_names(records), paper.entities[etype], neutral)
            totals[etype].add(result.score)
            neutral_counts[etype] = neutral_counts.get(etype, 0) + len(result.neutral)
            if result.missed:
                diff.missed[etype] = result.missed
            if result.spurious:
                diff.spurious[etype] = result.spurious
        mentions = ext.mentions if ext is not None else []
        if paper.domains is not None:
            got = sorted({m.label or m.text for m in mentions if m.type == "domain"})
            score_areas(domains, paper.domains, got, ancestors)
            diff.domains_predicted, diff.domains_gold = got, list(paper.domains)
        if paper.claims is not None:
            _score_claims(claims, paper.claims, [m for m in mentions if m.type == "claim"])
        if paper.proposes is not None:
            result = score_proposed(paper.proposes, mentions)
            proposed.papers += 1
            proposed.names.add(result.score)
            diff.proposed_missed, diff.proposed_spurious = result.missed, result.spurious
        diffs.append(diff)
    return EvalReport(
        gold=gold_name,
        n_papers=len(gold),
        extractors=list(extractors),
        threshold=threshold,
        resolver=use_resolver,
        entities=totals,
        no_gold=[t for t in ENTITY_TYPES if not has_gold[t]],
        method_only=method_only,
        model_vs_methods=model_vs_methods,
        domains=domains,
        claims=claims,
        papers=diffs,
        proposed=proposed,
        neutral=neutral_counts,
    )


def neutral_keys(paper: GoldPaper, mentions: Iterable[Mention]) -> frozenset[str]:
    """Match keys a prediction may have without counting against it: the texts of the gold's
    neutral spans, and the names of predicted mentions that sit on such a span."""
    if not paper.neutral:
        return frozenset()
    keys = set(name_keys(text for _, _, text in paper.neutral))
    for m in mentions:
        if m.type in ENTITY_TYPES and any(
            spans_match((m.start, m.end), (s, e), share=0.8) for s, e, _ in paper.neutral
        ):
            keys |= name_keys([m.label or m.text, m.text, *m.aliases])
    return frozenset(keys)


def _score_claims(acc: ClaimScore, gold: Sequence[GoldClaim], predicted: Sequence[Mention]) -> None:
    acc.papers += 1
    matching = max_matching(
        len(predicted),
        len(gold),
        lambda i: [
            j
            for j, g in enumerate(gold)
            if spans_match((predicted[i].start, predicted[i].end), (g.start, g.end))
        ],
    )
    acc.sentences.add(
        Score(tp=len(matching), fp=len(predicted) - len(matching), fn=len(gold) - len(matching))
    )
    acc.kind_correct += sum(predicted[i].claim_kind == gold[j].kind for i, j in matching.items())
    results = [(r.start, r.end) for m in predicted for r in m.results]
    for claim in gold:
        for start, end, _ in claim.quantities:
            acc.quantities += 1
            acc.quantities_captured += any(min(e, end) > max(s, start) for s, e in results)


def score_proposed(
    gold: Sequence[tuple[str, frozenset[str]]], mentions: Iterable[Mention]
) -> EntityMatch:
    """Match the proposed entity mentions of one paper (any type, grouped by name) to its gold
    proposed names. The mention's own label/text/aliases name it: whether a paper proposes a
    thing is a fact about that paper, not about the corpus-wide entity."""
    records = [
        (m.label or m.text, (m.text, *m.aliases))
        for m in mentions
        if m.proposed and m.type in ENTITY_TYPES
    ]
    return match_entities(group_names(records), gold)

