"""Names in a list: the tagger sometimes runs one span over several names ("IWSLT 2016
English–German and WMT 2016 English–Romanian"); each name is its own node. (Its opposite, one
name cut in two, is `graph.nlp.spans.joined`.)
"""

from __future__ import annotations

import re

from graph.generic import is_modifier_word
from graph.name_forms import is_name_shaped, singular

#: what joins two names in a list: "A and B", "A, B", "A, B, or C", "A & B"
_COORDINATION = re.compile(r",?\s+(?:and|or|&)\s+|,\s+")


def _split(name: str, separators: re.Pattern) -> list[tuple[int, int]]:
    """The (start, end) of each part of `name` between the matches of `separators`."""
    parts, at = [], 0
    for cut in separators.finditer(name):
        parts.append((at, cut.start()))
        at = cut.end()
    parts.append((at, len(name)))
    return parts


def coordinated_parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The names of a span that lists several ("IWSLT 2016 English–German and WMT 2016
    English–Romanian", "CIFAR-10, CIFAR-100 and SVHN"), or the span itself.

    Split only where every part is a name by its form (a digit, or a capital inside a word),
    or in title case in a list with a comma (below): a common phrase may hold an "and" of its
    own ("question answering and reasoning", "Vision and Language Navigation"), a part of
    digits alone ("VOC 2007 and 2012") qualifies the name before it, and a comma inside
    brackets is no list of names
    ("ResNet (He et al., 2016)").
    """
    name = text[start:end]
    parts = _split(name, _COORDINATION)
    if len(parts) == 1:
        return [(start, end)]
    shaped = [is_name_shaped(name[a:b]) for a, b in parts]
    # A comma hardly falls inside one name, where an "and" may ("Vision and Language
    # Navigation"): in a list with a comma, beside a name by its form, a part in title case is
    # a name too ("MNIST, Street View House Numbers").
    titled = any(shaped) and "(" not in name and any(name[b:b + 1] == "," for _, b in parts)
    if not all(
            any(c.isalpha() for c in name[a:b])
            and (ok or titled and all(w[:1].isupper() for w in name[a:b].split()))
            and name[a:b].count("(") == name[a:b].count(")")
            for (a, b), ok in zip(parts, shaped, strict=True)):
        return [(start, end)]
    return [(start + a, start + b) for a, b in parts]


#: a list of phrases: "A and B", "A or B", "A, B and C"
_PHRASE_LIST = re.compile(r",?\s+(?:and|or)\s+|,\s+")
#: words that tie a phrase to what follows it: "identification of X and Y" shares "of X" and Y
_TIES = frozenset({"of", "in", "for", "with", "on", "to", "from", "by", "between", "among",
                   "the", "a", "an", "its", "their"})
#: a head the last phrase may share with the others: "paraphrase extraction and ranking methods"
_SHARED_HEADS = frozenset({"task", "problem", "method", "algorithm", "approach", "technique",
                           "model", "system", "framework", "network", "setting", "benchmark",
                           "application", "module", "component"})


def listed_phrases(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The phrases of a span that lists several whole ones ("machine translation and document
    summarization", "word breaking and OOV identification"), or the span itself.

    Split only where every part has two words or more and none ties it to the rest: one word
    alone shares a head or a modifier with its neighbour ("face representation and
    recognition", "syntactic and pragmatic analysis", "multilingual, speaker-independent,
    large vocabulary speech dictation" stay whole), and so does a part with a preposition or
    an article ("identification of 2-character and 3-character names")."""
    name = text[start:end]
    parts = _split(name, _PHRASE_LIST)
    if len(parts) == 1 or "(" in name:
        return [(start, end)]
    for i, (a, b) in enumerate(parts):
        words = name[a:b].lower().split()
        if len(words) < 2 or _TIES & set(words):
            return [(start, end)]
        if i < len(parts) - 1 and is_modifier_word(words[-1]):
            return [(start, end)]  # "parsing written and spoken language"
    if singular(name.split()[-1].lower()) in _SHARED_HEADS:
        return [(start, end)]
    return [(start + a, start + b) for a, b in parts]
