"""Extractor "mentions.v2": method, model, dataset, task and metric mentions from the learned
tagger (graph.tagger), with what the rules know added where they still help.

The tagger finds and types the spans. The rule candidates (graph.extractors.candidates) then
give, for a span they also found, the preferred label and acronym aliases, the proposed-name
flag, and the model-vs-method decision (the tagger has no model label). Rule candidates from a
lexicon or an acronym definition that no tagged span overlaps are kept too: measured on the dev
splits they add recall at little cost of precision (docs/extraction.md).
"""

from __future__ import annotations

from spacy.tokens import Doc

from graph.extractors import candidates as rules
from graph.model import Mention
from graph.tagger import runtime

NAME = "mentions.v2"
#: rule candidates kept beside the tagger's spans: found by these generators only
UNION_SOURCES = frozenset({"lexicon", "acronym", "acronym-use"})
#: tagged spans below this confidence are dropped
MIN_CONFIDENCE = 0.0
CACHE_KEY = "paperkg.tagger_spans.v1"


def tagged(doc: Doc) -> list[runtime.Span]:
    """The tagger's spans over the doc's text, computed once per Doc."""
    cached = doc.user_data.get(CACHE_KEY)
    if cached is None:
        cached = runtime.shared().tag(doc.text)
        doc.user_data[CACHE_KEY] = cached
    return cached


def _overlaps(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    return a_start < b_end and b_start < a_end


def combine(
    text: str,
    spans: list[runtime.Span],
    cands: tuple[rules.Candidate, ...],
    *,
    union: bool = True,
) -> list[Mention]:
    by_span = {(c.start, c.end): c for c in cands}
    out: list[Mention] = []
    for s in spans:
        if s.confidence < MIN_CONFIDENCE:
            continue
        rule = by_span.get((s.start, s.end))
        etype = s.type
        if etype == "method" and any(
            c.type == "model" and _overlaps(s.start, s.end, c.start, c.end) for c in cands
        ):
            etype = "model"
        out.append(
            Mention(
                type=etype,
                text=text[s.start : s.end],
                start=s.start,
                end=s.end,
                extractor=NAME,
                confidence=round(s.confidence, 4),
                label=rule.label if rule else None,
                aliases=rule.aliases if rule else (),
                proposed=rule.proposed if rule else False,
            )
        )
    if union:
        for c in cands:
            if not set(c.sources) & UNION_SOURCES:
                continue
            if any(_overlaps(c.start, c.end, s.start, s.end) for s in spans):
                continue
            out.append(c.mention(NAME))
    return out


def extract(doc: Doc) -> list[Mention]:
    return combine(doc.text, tagged(doc), rules.candidates(doc))


def extract_tagger_only(doc: Doc) -> list[Mention]:
    """The tagger's spans with the rules' labels and types, no rule-only mentions (measured
    against `extract` in docs/extraction.md)."""
    return combine(doc.text, tagged(doc), rules.candidates(doc), union=False)
