"""`paperkg stats`: what the graph holds, counted with SPARQL so every backend answers."""

from __future__ import annotations

from typing import cast

from pyoxigraph import QuerySolutions

from graph.store import open_store
from graph.vocab import CLASSES, CONCEPT_TYPES, PKG

_CLASSES = tuple(CLASSES.values())
#: entity classes `top_entities` ranks
ENTITY_CLASSES = tuple(CLASSES[type_] for type_ in CONCEPT_TYPES)
_RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
_SKOS_PREF = "http://www.w3.org/2004/02/skos/core#prefLabel"


def store_stats(location: str | None) -> dict[str, int]:
    store = open_store(location, read_only=True)
    try:
        counts: dict[str, int] = {}
        for name in _CLASSES:
            query = f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s a <{PKG}{name}> }}"
            counts[name.lower() + ("es" if name.endswith("s") else "s")] = _count(store, query)
        counts["triples"] = _count(store, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        counts["provenance quads"] = _count(
            store, "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
        return counts
    finally:
        store.close()


def top_entities(location: str | None, top: int) -> dict[str, list[tuple[str, int]]]:
    """Per entity class (lower-case name): the `top` entities linked by the most papers, as
    (label, papers), most linked first; ties by label."""
    store = open_store(location, read_only=True)
    try:
        ranked: dict[str, list[tuple[str, int]]] = {}
        for name in ENTITY_CLASSES:
            query = (
                f"SELECT ?label ?n WHERE {{ ?e a <{PKG}{name}> ; <{PKG}support> ?n . "
                f"OPTIONAL {{ ?e <{_RDFS_LABEL}> ?l1 }} OPTIONAL {{ ?e <{_SKOS_PREF}> ?l2 }} "
                f"BIND(COALESCE(STR(?l1), STR(?l2), STR(?e)) AS ?label) }} "
                f"ORDER BY DESC(?n) ?label LIMIT {int(top)}"
            )
            ranked[name.lower()] = [
                (solution["label"].value, int(solution["n"].value))
                # a SELECT query: solutions, never a boolean or triples
                for solution in cast("QuerySolutions", store.query(query))
            ]
        return ranked
    finally:
        store.close()


def _count(store, query: str) -> int:
    for solution in store.query(query):
        return int(solution["n"].value)
    return 0
