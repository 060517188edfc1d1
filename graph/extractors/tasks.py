"""Extractor "tasks.v1": tasks: the problems a paper addresses.

Candidates are shared with the other entity extractors (graph.extractors.candidates).
"""

from __future__ import annotations

from spacy.tokens import Doc

from graph.extractors.candidates import mentions
from graph.model import Mention

NAME = "tasks.v1"
TYPE = "task"


def extract(doc: Doc) -> list[Mention]:
    return mentions(doc, TYPE, NAME)
