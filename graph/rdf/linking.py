"""What the build keeps of a paper once its static lines are written: its linking part."""

from __future__ import annotations

import sys
from dataclasses import replace

from graph.model import Mention, Paper, PaperExtraction
from graph.rdf.labels import LABEL_WORDS, domain_slug


def linking_part(extraction: PaperExtraction) -> PaperExtraction:
    """What `paper_linked_lines` and the resolver still need of an extraction once its static
    lines are written: a build holds this for every paper until the resolver has seen them all
    (a third less memory). The paper keeps its key, title and first words (its label); claims
    and domains lose the words `paper_static_lines` wrote; names are interned, since the same
    few recur across a corpus. Taking the part of a part changes nothing."""
    paper = extraction.paper
    words = paper.abstract.split(maxsplit=LABEL_WORDS + 1)[: LABEL_WORDS + 1]
    kept = Paper(key=paper.key, abstract=" ".join(words), title=paper.title,
                 source=paper.source)
    return PaperExtraction(paper=kept, mentions=[_linking_mention(m) for m in extraction.mentions])


def _linking_mention(mention: Mention) -> Mention:
    extractor = sys.intern(mention.extractor)
    if mention.type == "claim":
        return replace(mention, text="", extractor=extractor)
    if mention.type == "domain":
        return replace(mention, text="", label=sys.intern(domain_slug(mention)),
                       extractor=extractor)
    return replace(mention, text=sys.intern(mention.text), extractor=extractor,
                   label=None if mention.label is None else sys.intern(mention.label))
