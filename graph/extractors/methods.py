"""Extractor "methods.v1": methods: architectures, algorithms, losses, layers and learning
techniques.

Candidates are shared with the other entity extractors (graph.extractors.candidates).
"""

from __future__ import annotations

from spacy.tokens import Doc

from graph.extractors.candidates import mentions
from graph.model import Mention

NAME = "methods.v1"
TYPE = "method"


def extract(doc: Doc) -> list[Mention]:
    return mentions(doc, TYPE, NAME)
