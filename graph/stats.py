"""`paperkg stats`: what the graph holds, counted with SPARQL so every backend answers."""

from __future__ import annotations

from graph.namespaces import PKG
from graph.store import open_store

_CLASSES = ("Paper", "Method", "Dataset", "Model", "Task", "Metric", "Domain", "Claim", "Result")


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


def _count(store, query: str) -> int:
    for solution in store.query(query):
        return int(solution["n"].value)
    return 0
