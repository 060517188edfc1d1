"""The type, confidence, label and aliases of a candidate span: by the learned scorer where one
is shipped, else by the rules' evidence alone."""

from __future__ import annotations

from graph.extractors import classify
from graph.extractors.features import features
from graph.extractors.generate import KIND_WORDS, is_coined, kind_word_after
from graph.extractors.proposed import in_contribution_context, is_proposed
from graph.extractors.scorer import NONE, Scorer
from graph.extractors.spans import Candidate, Draft, combine

#: below this a candidate is not emitted at all
MIN_CONFIDENCE = 0.35
_ACRONYM_STRENGTH = 0.25


def decide(d: Draft, scorer: Scorer | None) -> Candidate | None:
    """The draft as a typed candidate, or None where it is no entity: by `scorer`, or by the
    rules' evidence alone when `scorer` is None."""
    if scorer is not None:
        return _decide_learned(d, scorer)
    span = d.span
    named = is_coined(d)
    # a proper name with no other evidence: most coined names in abstracts are methods
    if named and not d.evidence:
        # ... and one the abstract presents as its own almost always is
        d.add({"method": 0.6 if in_contribution_context(d) else 0.3})
    scores = {etype: combine(vals) for etype, vals in d.evidence.items()}
    if not scores:
        return None
    if "acronym" in d.sources:
        best = max(scores, key=scores.__getitem__)
        scores[best] = combine([scores[best], _ACRONYM_STRENGTH])
    # a named variant of a model family, or a lexicon model, is a model rather than a method
    if scores.get("model", 0) and scores.get("method", 0) and scores["model"] >= 0.75:
        scores["model"] = max(scores["model"], scores.pop("method"))
    etype = max(scores, key=lambda t: (scores[t], t == d.lexicon_type))
    conf = scores[etype]
    if "chunk" in d.sources and "lexicon" not in d.sources and "acronym" not in d.sources:
        # descriptions, not names: the longer, the less likely an entity
        conf *= 1.0 - 0.06 * max(0, len(span) - 2)
        if etype == "dataset" and not any(
            classify.is_name_shaped(t.text) or t.pos_ == "PROPN" for t in span
        ):
            # "a large-scale dataset", "training data": a dataset is named by a proper name
            conf *= 0.35
    if conf < MIN_CONFIDENCE:
        return None
    label = label_as(d, etype)
    aliases = aliases_as(d, etype)
    return Candidate(
        type=etype,
        start=span.start_char,
        end=span.end_char,
        text=span.text,
        confidence=min(conf, 0.99),
        label=label,
        aliases=aliases,
        proposed=is_proposed(d),
        sources=tuple(sorted(d.sources)),
        evidence=tuple(sorted(scores.items())),
    )


#: types whose known names may stand for each other (SciREX files models under Method)
_MODEL_KINDS = frozenset({"method", "model"})


def label_as(d: Draft, etype: str) -> str | None:
    """The draft's preferred name as an entity of type `etype`: a lexicon's name for it only
    where the lexicon is of that kind. "VQA" typed as a dataset is not named "visual question
    answering", the task it abbreviates."""
    kind = d.lexicon_type
    if kind is None or kind == etype or {kind, etype} <= _MODEL_KINDS:
        return d.label
    return None


#: the kind words a name of each type may be written with (methods and models share theirs)
_OWN_KIND_WORDS = {
    etype: KIND_WORDS["method"] | KIND_WORDS["model"] if etype in _MODEL_KINDS else words
    for etype, words in KIND_WORDS.items()
}
_ANY_KIND_WORD = frozenset().union(*KIND_WORDS.values())


def _worded_as_another_kind(wording: str, etype: str) -> bool:
    """"VQA dataset" is no name of the task VQA: the wording ends in a word for another kind."""
    last = wording.rsplit(" ", 1)[-1].lower()
    words = {last, last[:-1]} if last.endswith("s") else {last}
    return bool(words & _ANY_KIND_WORD) and not words & _OWN_KIND_WORDS.get(etype, frozenset())


def aliases_as(d: Draft, etype: str) -> tuple[str, ...]:
    """The names a candidate of type `etype` goes by besides its label: defined short forms,
    the paper's longer wordings, and its text when the label is another name."""
    text = d.text
    label = label_as(d, etype)
    surface = d.surface
    t, end = d.tokens, d.end
    # "the MARS datasets", "the AFLW database": the wording with the word for the kind the
    # name was typed as (known names have theirs already, from their lexicon's type)
    if kind_word_after(t, end, etype):
        wording = t.span_text(d.start, end + 1)
        if wording not in surface:
            surface = [*surface, wording]
    aliases = tuple(a for a in (*d.aliases, *surface)
                    if a != (label or text) and not _worded_as_another_kind(a, etype))
    if label and text != label and text not in aliases:
        aliases = (text,) + aliases
    return aliases


# confidence of a coined name the abstract presents as its own, when nothing else types it
_COINED_CONTRIBUTION = 0.6


def _decide_learned(d: Draft, scorer: Scorer) -> Candidate | None:
    probs = scorer.probabilities(features(d))
    typed = {t: p for t, p in probs.items() if t != NONE}
    if d.partner is not None:
        # "Margin Drift Loss (MDL)": either form may be the better known
        partner = scorer.probabilities(features(d.partner))
        typed = {t: max(p, partner[t]) for t, p in typed.items()}
    etype = max(typed, key=typed.__getitem__)
    conf = typed[etype]
    proposed: bool | None = None
    if conf < scorer.thresholds.get(etype, MIN_CONFIDENCE) and (proposed := is_proposed(d)):
        # a name the abstract coins for its own contribution is an entity, whatever the
        # training papers (which never saw it) suggest; its type comes from the rules
        rule_scores = {t: combine(v) for t, v in d.evidence.items() if t != "model"}
        etype = max(rule_scores, key=rule_scores.__getitem__) if rule_scores else "method"
        conf = max(conf, _COINED_CONTRIBUTION)
    # SciREX, the training data, files named models under Method, and its papers predate most
    # of today's model names: a name of a model family, or a checkpoint's shape, decides the
    # type, and the rule evidence is averaged into the learned probability
    # (also where another type came out on top too weakly to be kept: "BERT-base", which no
    # training paper wrote, is a model whatever its words suggest)
    ev_model = combine(d.evidence.get("model", []))
    if (ev_model >= 0.75 or d.lexicon_type == "model") and (
        etype == "method" or conf < scorer.thresholds.get(etype, MIN_CONFIDENCE)
    ):
        learned = conf if etype == "method" else typed.get("method", 0.0)
        etype, conf = "model", (learned + ev_model) / 2
    if conf < scorer.thresholds.get(etype, MIN_CONFIDENCE):
        return None
    text = d.text
    label = label_as(d, etype)
    aliases = aliases_as(d, etype)
    return Candidate(
        type=etype,
        start=d.tokens.idx[d.start],
        end=d.tokens.end_char(d.end - 1),
        text=text,
        confidence=min(conf, 0.99),
        label=label,
        aliases=aliases,
        proposed=is_proposed(d) if proposed is None else proposed,
        sources=tuple(sorted(d.sources)),
        evidence=tuple(sorted((t, round(p, 4)) for t, p in typed.items())),
    )
