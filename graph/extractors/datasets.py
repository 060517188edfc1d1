"""Extractor "datasets.v1": datasets and benchmarks.

Candidates are shared with the other entity extractors (graph.extractors.candidates).
"""

from __future__ import annotations

from spacy.tokens import Doc

from graph.extractors.candidates import mentions
from graph.model import Mention

NAME = "datasets.v1"
TYPE = "dataset"


def extract(doc: Doc) -> list[Mention]:
    return mentions(doc, TYPE, NAME)
