"""The graph of papers and entities derived from the store, and the questions asked of it.

- `nodes`: the node types, link names and ids ("type/slug" under the base) every part shares.
- `store_graph` (with `sparql_parts`): neighbourhoods, paths, similar papers and co-occurring
  entities answered from the store by bounded SPARQL queries, on any backend.
- `search_index` writes, and `search_queries` reads, the SQLite search index built with each
  store generation (`search_update` makes the next generation's from it after `build --add`
  or `remove`); `index_graph` answers `store_graph`'s questions from it; `questions`
  picks one of the two for a store (the index when it is built) and finds the node a name
  names: what `paperkg neighbours`, `paperkg viz` and the neighbourhood views ask.
- `projection`: the whole graph as a networkx DiGraph, cached per store generation, for what
  needs all of it at once (GraphML export), and the in-memory reference the store's answers
  are tested against.
- `stats`: `paperkg stats`. (The drawing of the whole graph's shared entities is
  `graph.viz.overview`.)

The names below are the package's public ones.
"""

from graph.network.index_graph import IndexGraph
from graph.network.nodes import (
    CLASS_TYPES,
    CONCEPT_TYPES,
    LINKS,
    NODE_TYPES,
    UnknownNode,
    node_id,
    node_iri,
)
from graph.network.projection import (
    Neighbourhood,
    build,
    cooccurring,
    describe,
    neighbourhood,
    projection,
    resolve,
    shortest_paths,
    similar_papers,
    write_graphml,
)
from graph.network.questions import find_node, questions_for
from graph.network.search_queries import SearchIndex
from graph.network.stats import store_stats, top_entities
from graph.network.store_graph import StoreGraph

__all__ = [
    "CLASS_TYPES", "CONCEPT_TYPES", "LINKS", "NODE_TYPES", "IndexGraph", "Neighbourhood",
    "SearchIndex", "StoreGraph", "UnknownNode", "build", "cooccurring", "describe",
    "find_node", "neighbourhood", "node_id", "node_iri", "projection", "questions_for",
    "resolve", "shortest_paths",
    "similar_papers", "store_stats", "top_entities", "write_graphml",
]
