"""Extractor "metrics.v1": metrics: what results are measured in.

Candidates are shared with the other entity extractors (graph.extractors.candidates).
"""

from __future__ import annotations

from spacy.tokens import Doc

from graph.extractors.candidates import mentions
from graph.model import Mention

NAME = "metrics.v1"
TYPE = "metric"


def extract(doc: Doc) -> list[Mention]:
    return mentions(doc, TYPE, NAME)
