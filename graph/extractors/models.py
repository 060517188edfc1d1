"""Extractor "models.v1": models: named checkpoints and model families (GPT-4, ResNet-50,
Llama-2-7B).

Candidates are shared with the other entity extractors (graph.extractors.candidates).
"""

from __future__ import annotations

from spacy.tokens import Doc

from graph.extractors.candidates import mentions
from graph.model import Mention

NAME = "models.v1"
TYPE = "model"


def extract(doc: Doc) -> list[Mention]:
    return mentions(doc, TYPE, NAME)
