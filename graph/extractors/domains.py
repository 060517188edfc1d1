"""Research areas of a paper, as concepts of data/taxonomy.ttl.

Each concept's labels are cue phrases (area_cues.py): prefLabel and altLabel count fully,
hiddenLabel (typical vocabulary, benchmark and metric names) counts for less. A cue weighs more
in the opening sentences, where abstracts say what field they are in, and in "for X tasks" /
"in X". Evidence then flows along skos:broader both ways: several different subfields make their
parent likely, a likely parent supports its subfields. The best one to three areas come back,
most likely first; an abstract without any cue gets machine-learning at low confidence.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import replace

from spacy.tokens import Doc

from graph.extractors.area_cues import STRONG, Hit, cues_for
from graph.extractors.areas import load as load_area_model
from graph.extractors.tokens import Tokens, table
from graph.model import Mention
from graph.taxonomy import Taxonomy
from graph.taxonomy import load as load_taxonomy

NAME = "domains.v1"
FALLBACK = "machine-learning"

#: Umbrella areas named by almost every abstract in the field; they win only on their own words.
GENERIC_PRIOR = {
    "machine-learning": 0.35,
    "deep-learning": 0.45,
    "artificial-intelligence": 0.4,
    "datasets-and-benchmarks": 0.6,
}
#: later occurrences of the same area add less (repetition is not new evidence)
REPEAT_DECAY = 0.6
FROM_CHILDREN = 0.5
FROM_PARENTS = 0.3
MAX_AREAS = 3
#: a further area must reach this share of the best one's score, and this much direct evidence
RELATIVE_FLOOR = 0.6
MIN_DIRECT = 0.7
FALLBACK_CONFIDENCE = 0.15

_FRAME_AFTER = {
    "task",
    "tasks",
    "problem",
    "problems",
    "application",
    "applications",
    "domain",
    "domains",
    "system",
    "systems",
    "settings",
    "setting",
    "benchmarks",
}
_FRAME_BEFORE = {"in", "for", "to", "of"}
_CONTRIBUTE = re.compile(
    r"\b(?:we|this paper|this work)\s+(?:also\s+)?(?:introduce|present|release|collect|construct"
    r"|create|build|propose|curate|contribute)s?\s+(?:and\s+\w+\s+)?(?:(?:a|an|the|two|three"
    r"|several|our|new|novel|first|large|large-scale|public|publicly|available|annotated|challenging"
    r"|\w+-\w+)\s+){0,4}(?:\w+\s+)?(?P<noun>datasets?|benchmarks?|corpus|corpora|test ?beds?)\b",
    re.IGNORECASE,
)
_BENCHMARK_AREA = "datasets-and-benchmarks"


def _sentence_index(tokens: Tokens) -> list[int]:
    index = [0] * tokens.n
    if not tokens.has_sents:
        return index
    for number, (start, end) in enumerate(tokens.sents):
        for i in range(start, end):
            index[i] = number
    return index


def _position_factor(sentence: int) -> float:
    return 1.5 if sentence == 0 else 1.2 if sentence == 1 else 1.0


def _frame_factor(tokens: Tokens, hit: Hit) -> float:
    factor = 1.0
    if hit.end < tokens.n and tokens.lower[hit.end] in _FRAME_AFTER:
        factor *= 1.3
    if hit.start > 0 and tokens.lower[hit.start - 1] in _FRAME_BEFORE:
        factor *= 1.15
    return factor


_BACKGROUND = re.compile(
    r"\b(?:have|has)\s+been\b|\b(?:existing|previous|prior|current|conventional|traditional"
    r"|recent|recently|however|although|typically|popular|widely)\b",
    re.IGNORECASE,
)
_OWN = re.compile(
    r"\b(?:we|our)\s+(?:\w+\s+)?(?:propose|introduce|present|develop|study|investigate|address"
    r"|tackle|focus|consider|design|describe)\w*\b|\b(?:this|the present)\s+(?:paper|work)\b",
    re.IGNORECASE,
)
_LIST_GLUE = {",", "and", "or", "etc", "etc.", "as", "such", "e.g.", "including", "/"}


def _sentence_roles(tokens: Tokens) -> list[float]:
    """Per token: how much a cue there says about the paper's own area. Background sentences
    name neighbouring fields; sentences that state the paper's aim name its own."""
    factors = [1.0] * tokens.n
    if not tokens.has_sents:
        return factors
    for start, end in tokens.sents:
        text = tokens.span_text(start, end)
        if _OWN.search(text):
            factor = 1.3
        elif _BACKGROUND.search(text) and not re.search(r"\b(?:we|our)\b", text, re.IGNORECASE):
            factor = 0.6
        else:
            continue
        for i in range(start, end):
            factors[i] = factor
    return factors


def _in_list(tokens: Tokens, hit: Hit, hits: list[Hit]) -> bool:
    """The cue is one item of an enumeration of fields ("machine translation, dialogue
    systems, image captioning, etc."), which names applications rather than the paper's area."""
    for other in hits:
        if other is hit or other.slug == hit.slug:
            continue
        lo, hi = (other.end, hit.start) if other.end <= hit.start else (hit.end, other.start)
        if hi < lo or hi - lo > 3:
            continue
        between = tokens.lower[lo:hi]
        if between and all(t in _LIST_GLUE for t in between) and "," in between:
            return True
    return False


def _confidence(score: float, rank: int) -> float:
    base = 1.0 - math.exp(-score / 1.6)
    return round(min(0.95, max(0.2, base * (1.0, 0.85, 0.75)[rank])), 3)


def _evidence(tokens: Tokens, start: int, end: int) -> tuple[str, int, int]:
    text = tokens.span_text(start, end)
    first = tokens.idx[start]
    return text, first, first + len(text)


def extract(doc: Doc) -> list[Mention]:
    """The paper's research areas: one to three domain mentions, most likely first.

    The trained classifier (graph.extractors.areas) decides the fields; the cue rules below name the
    subfield within one where they find it ("computer-vision" -> "semantic-segmentation").
    Fields the rules find outside the classifier's are not added: on AAAI 2022 train they
    never agreed with the paper's track (docs/linking.md). Without a shipped model the rules
    work alone."""
    rules = rule_areas(doc)
    model = load_area_model()
    if model is None or not rules:
        return rules
    return _combine(model.predict(doc.text), rules, doc)


def _combine(predicted: list[tuple[str, float]], rules: list[Mention], doc: Doc) -> list[Mention]:
    taxonomy = load_taxonomy()
    chosen: list[Mention] = []
    for slug, probability in predicted:
        if slug not in taxonomy:
            continue
        narrower = [m for m in rules if m.label is not None
                    and (m.label == slug or slug in taxonomy.ancestors(m.label))]
        evidence = narrower[0] if narrower else _first_sentence(doc, slug, 0.0)
        if any(m.label == evidence.label for m in chosen):
            continue
        chosen.append(replace(evidence, confidence=round(min(0.95, probability), 3)))
    return chosen


def rule_areas(doc: Doc) -> list[Mention]:
    """The cue rules alone: one to three domain mentions, most likely first."""
    tokens = table(doc)
    if not tokens.doc_text.strip():
        return []
    taxonomy = load_taxonomy()
    sentence_of = _sentence_index(tokens)
    roles = _sentence_roles(tokens)
    weighted: dict[str, list[tuple[float, Hit]]] = defaultdict(list)
    hits = [hit for hit in cues_for(doc.vocab).hits(doc) if hit.slug in taxonomy]
    for hit in hits:
        weight = hit.weight * _position_factor(sentence_of[hit.start]) * _frame_factor(tokens, hit)
        weight *= roles[hit.start] * (0.5 if _in_list(tokens, hit, hits) else 1.0)
        weighted[hit.slug].append((weight, hit))

    contributed = _benchmark_contribution(doc)
    if contributed is not None and _BENCHMARK_AREA in taxonomy:
        weighted[_BENCHMARK_AREA].append(
            (3.0 / GENERIC_PRIOR.get(_BENCHMARK_AREA, 1.0), contributed)
        )

    direct: dict[str, float] = {}
    best_hit: dict[str, tuple[float, Hit]] = {}
    for slug, items in weighted.items():
        items.sort(key=lambda item: (-item[0], item[1].start))
        direct[slug] = sum(w * REPEAT_DECAY**i for i, (w, _) in enumerate(items))
        best_hit[slug] = items[0]

    if not direct:
        return [_fallback(doc)]

    # a concept with no evidence on itself, above it or below it scores 0: skip its sums
    related: set[str] = set(direct)
    for slug in direct:
        related |= taxonomy.ancestors(slug) | taxonomy.descendants(slug)
    scores: dict[str, float] = {}
    for slug in taxonomy.concepts:
        if slug not in related:
            continue
        total = direct.get(slug, 0.0)
        total += FROM_CHILDREN * sum(direct.get(d, 0.0) for d in taxonomy.descendants(slug))
        total += FROM_PARENTS * sum(direct.get(a, 0.0) for a in taxonomy.ancestors(slug))
        if total > 0 and (
            direct.get(slug, 0.0) > 0 or _has_direct_descendant(taxonomy, slug, direct)
        ):
            scores[slug] = total * GENERIC_PRIOR.get(slug, 1.0)

    ranked = sorted(scores, key=lambda s: (-scores[s], -len(taxonomy.ancestors(s)), s))
    top = scores[ranked[0]]
    chosen: list[str] = [ranked[0]]
    for slug in ranked[1:]:
        if len(chosen) == MAX_AREAS:
            break
        if scores[slug] < RELATIVE_FLOOR * top or direct.get(slug, 0.0) < MIN_DIRECT:
            continue
        # Typical vocabulary alone ("images", "queries") is not enough for a second area.
        if not any(hit.weight >= STRONG for _, hit in weighted[slug]):
            continue
        # An area broader than one already chosen adds nothing the taxonomy does not imply.
        if any(slug in taxonomy.ancestors(c) for c in chosen):
            continue
        chosen.append(slug)

    mentions = []
    for rank, slug in enumerate(chosen):
        hit = _best_evidence(taxonomy, slug, best_hit)
        text, start, end = _evidence(tokens, hit.start, hit.end)
        mentions.append(
            Mention(
                type="domain",
                text=text,
                start=start,
                end=end,
                extractor=NAME,
                confidence=_confidence(scores[slug], rank),
                label=slug,
            )
        )
    return mentions


def _has_direct_descendant(taxonomy: Taxonomy, slug: str, direct: dict[str, float]) -> bool:
    return any(d in direct for d in taxonomy.descendants(slug))


def _best_evidence(taxonomy: Taxonomy, slug: str, best_hit: dict[str, tuple[float, Hit]]) -> Hit:
    if slug in best_hit:
        return best_hit[slug][1]
    candidates = [best_hit[d] for d in taxonomy.descendants(slug) if d in best_hit]
    return max(candidates, key=lambda item: (item[0], -item[1].start))[1]


def _benchmark_contribution(doc: Doc) -> Hit | None:
    """A paper that introduces a dataset or benchmark belongs to datasets-and-benchmarks."""
    found = _CONTRIBUTE.search(table(doc).doc_text)
    if found is None:
        return None
    span = doc.char_span(found.start("noun"), found.end("noun"), alignment_mode="expand")
    if span is None:
        return None
    return Hit(_BENCHMARK_AREA, span.start, span.end, STRONG)


def _fallback(doc: Doc) -> Mention:
    # No cue at all: the corpus is research literature, so the broadest learning area is the
    # safest guess, and the evidence is the opening sentence that failed to say more.
    return _first_sentence(doc, FALLBACK, FALLBACK_CONFIDENCE)


def _first_sentence(doc: Doc, slug: str, confidence: float) -> Mention:
    """An area whose evidence is the abstract as a whole, pointed at by its opening sentence."""
    sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    first = sents[0]
    text = first.text.rstrip()
    return Mention(
        type="domain",
        text=text,
        start=first.start_char,
        end=first.start_char + len(text),
        extractor=NAME,
        confidence=confidence,
        label=slug,
    )
