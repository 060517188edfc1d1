"""Entity candidates of one abstract, computed once and shared by the five entity extractors.

Candidates come from lexicon hits, acronym definitions (and later uses of the acronym),
trimmed noun chunks and coined names (ResNet-50, ViT-B/16, GPT-4o). Each gets one type from
the evidence classify.py finds, a confidence, the preferred label and aliases, and whether the
abstract presents it as its own contribution. methods.py, datasets.py ... pick their type.

The stage in order: generate.py finds the spans and their evidence (phrases.py gives the shapes
of phrases and names), decide.py types each one (features.py for the learned scorer,
proposed.py for the contribution cues), tidy.py cleans its text and overlaps.py keeps one of
overlapping candidates. This module runs them and caches the result on the Doc.
"""

from __future__ import annotations

from spacy.tokens import Doc

from graph.extractors import scorer as scorer_mod
from graph.extractors.decide import decide
from graph.extractors.features import features
from graph.extractors.generate import drafts_of
from graph.extractors.overlaps import resolve_overlaps
from graph.extractors.phrases import trim
from graph.extractors.proposed import is_proposed
from graph.extractors.scorer import Scorer
from graph.extractors.spans import Candidate
from graph.extractors.tidy import tidy
from graph.model import Mention

#: what callers of the candidate stage use, wherever it is computed
__all__ = [
    "CACHE_KEY", "Candidate", "candidates", "compute", "drafts_of", "features", "mentions",
    "tidy", "trim",
]

CACHE_KEY = "paperkg.entity_candidates.v1"


def candidates(doc: Doc) -> tuple[Candidate, ...]:
    """The doc's candidates, every type, computed on first use and cached on the Doc."""
    cached = doc.user_data.get(CACHE_KEY)
    if cached is None:
        cached = compute(doc, scorer_mod.default())
        doc.user_data[CACHE_KEY] = cached
    return cached


def compute(doc: Doc, scorer: Scorer | None) -> tuple[Candidate, ...]:
    """The doc's candidates typed by `scorer`, or by the rules alone when it is None (no cache)."""
    return tuple(_generate(doc, scorer))


def mentions(doc: Doc, etype: str, extractor: str) -> list[Mention]:
    """The doc's mentions of one type, as the extractor named `extractor` reports them."""
    return [c.mention(extractor) for c in candidates(doc) if c.type == etype]


def _generate(doc: Doc, scorer: Scorer | None) -> list[Candidate]:
    d_list, short_forms = drafts_of(doc)
    # type each draft
    by_short: dict[str, tuple[str, float]] = {}
    long_proposed: dict[int, bool] = {}
    out: list[Candidate] = []
    for d in d_list:
        if "acronym-use" in d.sources and "lexicon" not in d.sources:
            continue  # typed after their long forms
        cand = decide(d, scorer)
        long_proposed[id(d)] = cand is not None and cand.proposed
        if cand is not None:
            out.append(cand)
            for alias in cand.aliases:
                by_short[alias] = (cand.type, cand.confidence)
    for d in d_list:
        if "acronym-use" not in d.sources or "lexicon" in d.sources:
            continue
        text = d.text
        long = short_forms.get(text) or short_forms.get(text[:-1])
        if long is None:
            continue
        long_alias = long.aliases[0] if long.aliases else text
        typed = by_short.get(long_alias)
        if typed is None:
            continue
        etype, conf = typed
        out.append(
            Candidate(
                type=etype,
                start=d.tokens.idx[d.start],
                end=d.tokens.end_char(d.end - 1),
                text=text,
                confidence=conf,
                label=long.label or long.text,
                aliases=(long_alias,),
                # the "(ACR)" of a definition is as proposed as its long form; a later use
                # may be proposed on its own ("our ACR", "ACR achieves")
                proposed=long_proposed.get(id(long), False)
                or (d.start > long.end + 1 and is_proposed(d)),
                sources=tuple(sorted(d.sources)),
                evidence=((etype, conf),),
            )
        )
    return resolve_overlaps([t for t in (tidy(c) for c in out) if t is not None])
