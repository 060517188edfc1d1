"""Of overlapping typed candidates, which one stays: the best kind of evidence, then the longer."""

from __future__ import annotations

import re

from graph.extractors import classify
from graph.extractors.spans import Candidate

_TIERS = {
    "named-variant": 0, "lexicon": 2, "lexicon-variant": 2, "acronym": 2, "acronym-use": 2,
    "name": 1, "chunk": 0,
}


def _tier(c: Candidate) -> int:
    # the name a paper gives its contribution beats the known name inside it
    # ("Gumbel Tree-LSTM" over "Tree-LSTM", "Deep Gaussian Mixture Model" over "Gaussian ...")
    if c.proposed and "named-variant" in c.sources:
        return 3
    # "Semantic image segmentation", "denoising convolutional neural network": the narrower
    # task or method is the one the paper works with
    if c.type in ("task", "method") and "named-variant" in c.sources:
        return 3
    return max(_TIERS[s] for s in c.sources)


#: types whose accepted phrases win over the known name of their type inside them (datasets
#: are names, not phrases)
_NARROWING_TYPES = frozenset({"method", "metric", "task"})
_COORDINATED = re.compile(r"\s(?:and|or|&)\s|,")


def _narrower(cands: list[Candidate]) -> set[int]:
    """ids of the phrases that contain a known name of their own type: "neural network
    classifier", "multi-loss convolutional neural network", "classification accuracy", "video
    face recognition" are what the paper uses, the known name only a part of it. Each passed
    its type's threshold on its own words, so the scorer already holds it to be a name."""
    known = [c for c in cands if "lexicon" in c.sources and c.type in _NARROWING_TYPES]
    if not known:
        return set()
    return {
        id(c) for c in cands
        if c.type in _NARROWING_TYPES and "chunk" in c.sources and "lexicon" not in c.sources
        # "average or max pooling" names two methods
        and not _COORDINATED.search(c.text)
        and any(k.type == c.type and c.start <= k.start and k.end <= c.end
                and k.end - k.start < c.end - c.start
                # "the convolutional neural network architecture" is the known name's wording
                and c.text not in k.aliases
                # a task is narrowed by words in front ("video face recognition"); words after
                # it name something else ("the face recognition community")
                and (c.type != "task" or k.end == c.end)
                # "the text classifier fastText", "a vanilla Transformer": a description, then
                # the name
                and not (k.end == c.end and classify.is_name_shaped(k.text))
                for k in known)
    }


def resolve_overlaps(cands: list[Candidate]) -> list[Candidate]:
    """Within a type, of overlapping candidates keep the one with the best kind of evidence
    (a phrase that narrows a known name, a known or defined name, then a coined name, then a
    phrase), then the longer one."""
    kept: list[Candidate] = []
    taken: dict[str, list[tuple[int, int]]] = {}
    narrower = _narrower(cands)
    for c in sorted(cands, key=lambda c: (-(3 if id(c) in narrower else _tier(c)),
                                          -(c.end - c.start), -c.confidence, c.start)):
        spans = taken.setdefault(c.type, [])
        if any(c.start < e and s < c.end for s, e in spans):
            continue
        spans.append((c.start, c.end))
        kept.append(c)
    # a part of a longer known name of another type is not a name of its own: the "CNN" of
    # "CNN and Daily Mail"
    known = [(c.start, c.end, c.type) for c in kept
             if "lexicon" in c.sources or "lexicon-variant" in c.sources]
    kept = [c for c in kept
            if not any(s <= c.start and c.end <= e and e - s > c.end - c.start and t != c.type
                       for s, e, t in known)]
    kept.sort(key=lambda c: (c.start, c.end, c.type))
    return kept
