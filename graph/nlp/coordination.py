"""Names in a list: the tagger sometimes runs one span over several names ("IWSLT 2016
English–German and WMT 2016 English–Romanian"); each name is its own node. (Its opposite, one
name cut in two, is `graph.nlp.tagging.joined`.)
"""

from __future__ import annotations

import re

from graph.name_forms import is_name_shaped

#: what joins two names in a list: "A and B", "A, B", "A, B, or C", "A & B"
_COORDINATION = re.compile(r",?\s+(?:and|or|&)\s+|,\s+")


def coordinated_parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The names of a span that lists several ("IWSLT 2016 English–German and WMT 2016
    English–Romanian", "CIFAR-10, CIFAR-100 and SVHN"), or the span itself.

    Split only where every part is a name by its form (a digit, or a capital inside a word):
    a common phrase may hold an "and" of its own ("question answering and reasoning",
    "Vision and Language Navigation"), a part of digits alone ("VOC 2007 and 2012")
    qualifies the name before it, and a comma inside brackets is no list of names
    ("ResNet (He et al., 2016)").
    """
    name = text[start:end]
    cuts = list(_COORDINATION.finditer(name))
    if not cuts:
        return [(start, end)]
    parts, at = [], 0
    for cut in cuts:
        parts.append((at, cut.start()))
        at = cut.end()
    parts.append((at, len(name)))
    if not all(any(c.isalpha() for c in name[a:b]) and is_name_shaped(name[a:b])
               and name[a:b].count("(") == name[a:b].count(")") for a, b in parts):
        return [(start, end)]
    return [(start + a, start + b) for a, b in parts]
