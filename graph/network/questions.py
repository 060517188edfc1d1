"""The graph questions of one store, for every caller that is not the web API's request cycle:
`paperkg neighbours`, `paperkg viz` and the neighbourhood views.

`questions_for` answers from the search index's tables when the index of the store's current
generation is already on disk (IndexGraph), else by SPARQL (StoreGraph): the same answers
either way, and neither reads the whole graph. It never starts building an index (a command
that exits would leave it half-written); `paperkg build` writes it. `find_node` turns a name
into the node it names, as graph.network.projection.resolve did over the in-memory graph.
"""

from __future__ import annotations

from typing import Any

from graph import lookup
from graph.network.index_graph import IndexGraph
from graph.network.nodes import UnknownNode
from graph.network.search_index import existing_index
from graph.network.store_graph import StoreGraph
from graph.store import Store
from graph.vocab import DEFAULT_BASE


def questions_for(store: Store, base: str = DEFAULT_BASE,
                  generation: str | None = None) -> StoreGraph:
    """The graph questions of `store` at its current generation (or `generation`)."""
    current = generation if generation is not None else str(store.generation())
    index = existing_index(store, base, current)
    if index is not None:
        return IndexGraph(store, index, base, current)
    return StoreGraph(store, base, current)


def find_node(questions: StoreGraph, name: str) -> dict[str, Any]:
    """The description of the node `name` names: an IRI, "type/slug", a paper's key, or a
    label or alias (of several nodes so named, the best supported); UnknownNode if none."""
    text = name.strip()
    if not text:
        raise UnknownNode("empty node: give an IRI or type/slug")
    found = questions.node(text) if text.startswith(("http://", "https://")) or "/" in text \
        else questions.node(f"paper/{text}")
    if found is None and "/" not in text:
        try:
            iri = lookup.resolve(questions.store, text, questions.base)
        except lookup.UnknownName:
            iri = None
        found = questions.describe([iri]).get(iri) if iri is not None else None
    if found is None:
        raise UnknownNode(f"node {name!r} is not in the graph")
    return found
