"""The NLP stage: an abstract's text as extraction reads it (text_clean) and the spaCy pipeline
that parses it (loader, whose attribute rules are matched through attribute_rules' index), and
the learned mention tagger run on the same text (tagging, with the confidence cutoffs of
tagging_cutoffs; graph.tagger trains it).

`load` and the loader's other names are importable from here as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graph.nlp.loader import (
        DEFAULT_MODEL,
        DISABLED,
        NAME_FINAL_PERIOD,
        load,
        load_with_spacy_rules,
    )

__all__ = ["DEFAULT_MODEL", "DISABLED", "NAME_FINAL_PERIOD", "load", "load_with_spacy_rules"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Deferred heavy import: the loader imports spaCy, which text_clean's users (the corpus
    # readers, rdf, the web pages) never need; they import this package without paying for it.
    from graph.nlp import loader

    return getattr(loader, name)
