"""The cue phrases of the research areas: each taxonomy concept's labels (and their plural and
hyphenation variants) matched in a Doc, a cue inside a longer cue dropped.

prefLabel and altLabel count fully (STRONG), hiddenLabel (typical vocabulary, benchmark and
metric names) counts for less (WEAK).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import spacy
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc
from spacy.vocab import Vocab

from graph.taxonomy import Taxonomy
from graph.taxonomy import load as load_taxonomy

STRONG, WEAK = 1.0, 0.35


@dataclass(frozen=True)
class Hit:
    slug: str
    start: int  # token offsets
    end: int
    weight: float


def _plural(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es" if not word.endswith("s") else word
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _variants(cue: str) -> set[str]:
    """Inflection and hyphenation variants, so "graph neural network" also finds "...networks"."""
    forms = {cue}
    head, _, last = cue.rpartition(" ")
    if last.isalpha() and len(last) > 2:
        joined = (head + " ") if head else ""
        if last.lower() == last:
            forms.add(joined + _plural(last))
            if last.endswith("ies"):
                forms.add(joined + last[:-3] + "y")
            elif last.endswith("s") and not last.endswith("ss"):
                forms.add(joined + last[:-1])
        elif last.isupper():
            forms.add(joined + last + "s")
    forms |= {form.replace("-", " ") for form in forms if "-" in form}
    return forms


class Cues:
    """Phrase matchers over one vocab: lower-case cues by LOWER, cased cues by ORTH."""

    def __init__(self, vocab: Vocab, taxonomy: Taxonomy) -> None:
        make_doc = _tokenizer()
        self.lower = PhraseMatcher(vocab, attr="LOWER")
        self.orth = PhraseMatcher(vocab, attr="ORTH")
        self.weights: dict[str, tuple[str, float]] = {}
        seen: set[str] = set()
        for concept in taxonomy:
            labelled = [(concept.pref_label.lower(), STRONG)]
            labelled += [(label, STRONG) for label in concept.alt_labels]
            labelled += [(label, WEAK) for label in concept.hidden_labels]
            for label, weight in labelled:
                for form in sorted(_variants(label)):
                    cased = form != form.lower()
                    key = form if cased else form.lower()
                    if key in seen:
                        continue
                    seen.add(key)
                    match_id = f"{concept.slug}\t{weight}\t{key}"
                    self.weights[match_id] = (concept.slug, weight)
                    matcher = self.orth if cased else self.lower
                    matcher.add(match_id, [make_doc(form)])

    def hits(self, doc: Doc) -> list[Hit]:
        raw = []
        for matcher in (self.lower, self.orth):
            for match_id, start, end in matcher(doc):
                slug, weight = self.weights[doc.vocab.strings[match_id]]
                raw.append(Hit(slug, start, end, weight))
        # A cue inside a longer cue is part of that phrase: "neural network" in
        # "graph neural network" says graph learning, not deep learning.
        raw.sort(key=lambda h: (h.start, -(h.end - h.start)))
        kept: list[Hit] = []
        for hit in raw:
            if any(
                k.start <= hit.start
                and hit.end <= k.end
                and (k.end - k.start) > (hit.end - hit.start)
                for k in kept
            ):
                continue
            kept.append(hit)
        return kept


@lru_cache(maxsize=1)
def _tokenizer():
    return spacy.blank("en").make_doc


_CUES: dict[int, tuple[Vocab, Cues]] = {}


def cues_for(vocab: Vocab) -> Cues:
    entry = _CUES.get(id(vocab))
    if entry is None or entry[0] is not vocab:
        entry = (vocab, Cues(vocab, load_taxonomy()))
        _CUES[id(vocab)] = entry
    return entry[1]
