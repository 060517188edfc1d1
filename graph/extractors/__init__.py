"""Extractor registry: versioned names -> functions `Doc -> list[Mention]`.

Registrations live here and only here, as "module:function" strings, so importing the
registry stays cheap and a test can pin the list.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

from graph.errors import UnknownExtractorError
from graph.model import Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc

# Doc by name only: the registry, and the light modules of this package that other stages use
# (metric_direction for rdf, areas for training), import without spaCy
Extractor = Callable[["Doc"], list[Mention]]

_REGISTRY: dict[str, str] = {
    "mentions.v2": "graph.extractors.mentions:extract",
    "methods.v1": "graph.extractors.methods:extract",
    "datasets.v1": "graph.extractors.datasets:extract",
    "models.v1": "graph.extractors.models:extract",
    "tasks.v1": "graph.extractors.tasks:extract",
    "metrics.v1": "graph.extractors.metrics:extract",
    "domains.v1": "graph.extractors.domains:extract",
    "claims.v1": "graph.extractors.claims:extract",
}

#: The rule-based entity extractors, one per type; mentions.v2 replaces them in a default build
#: (docs/extraction.md has the comparison) and reads their candidates.
RULE_ENTITY_EXTRACTORS: tuple[str, ...] = (
    "methods.v1", "datasets.v1", "models.v1", "tasks.v1", "metrics.v1",
)

#: What a build runs unless told otherwise.
DEFAULT_EXTRACTORS: tuple[str, ...] = ("mentions.v2", "domains.v1", "claims.v1")


def names() -> list[str]:
    return sorted(_REGISTRY)


def get(name: str) -> Extractor:
    """The extractor registered as `name`; an unknown name lists the known ones."""
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise UnknownExtractorError(
            f"unknown extractor {name!r}; known extractors: {', '.join(names())}"
        ) from None
    module_name, _, attr = target.partition(":")
    return getattr(import_module(module_name), attr)
