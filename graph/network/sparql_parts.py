"""The pieces the store's graph questions are made of: IRIs in VALUES blocks of bounded size,
the link and name predicates as FILTER sets, rows read as strings, and the per-store cache of
node descriptions with the query that fills it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from graph.network.nodes import CLASS_TYPES, CONCEPT_TYPES, LINKS, node_id
from graph.store import Store, solutions
from graph.vocab import DCTERMS, PKG, RDFS, SKOS

#: IRIs per VALUES block: keeps each query's text small for any server.
CHUNK = 400
#: Node descriptions kept per store (LRU).
DESCRIBE_CACHE = 50_000

# Predicates go in FILTER(?r IN (…)), never in a second VALUES block: Oxigraph plans a join of
# two VALUES blocks as a scan (seconds on 100k triples where the FILTER takes milliseconds).
LINK_SET = ", ".join(f"<{PKG}{name}>" for name in LINKS)
LINK_IRIS = frozenset(PKG + name for name in LINKS)
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
NAME_PROPS = {DCTERMS + "title": "title", RDFS + "label": "label", SKOS + "prefLabel": "pref"}
DESCRIBE_SET = ", ".join(f"<{iri}>" for iri in [RDF_TYPE, *NAME_PROPS, PKG + "support",
                                                 *sorted(LINK_IRIS)])
PAPER = f"<{PKG}Paper>"
LINK_ORDER = {name: index for index, name in enumerate(LINKS)}


def values_block(iris: Iterable[str]) -> str:
    return " ".join(f"<{iri}>" for iri in iris)


def in_chunks(items: Sequence[str], size: int = CHUNK) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def select_rows(store: Store, sparql: str) -> Iterable[list[str | None]]:
    for row in solutions(store, sparql):
        yield [None if term is None else term.value for term in row]


def as_int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(float(value))
    except ValueError:
        return None


class Descriptions:
    """Per store: an LRU of node descriptions, dropped when the store's generation changes."""

    def __init__(self) -> None:
        self.generation = ""
        self.items: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
        self.lock = threading.Lock()


CACHES: dict[str, Descriptions] = {}
CACHES_LOCK = threading.Lock()


def descriptions_cache(store: Store, generation: str) -> Descriptions:
    with CACHES_LOCK:
        cache = CACHES.setdefault(str(store.location), Descriptions())
    with cache.lock:
        if cache.generation != generation:
            cache.generation = generation
            cache.items.clear()
    return cache


def read_nodes(store: Store, iris: Sequence[str], base: str) -> dict[str, dict[str, Any]]:
    """{iri: {id, iri, type, label, support}} of those of `iris` that are nodes, read from the
    store."""
    # One pass over each node's own triples: its classes, names, stored support and
    # links; grouped here, not by a GROUP BY.
    facts: dict[str, dict[str, Any]] = {}
    for iri, predicate, value, is_iri in select_rows(store, f"""
SELECT ?n ?p ?v (isIRI(?v) AS ?i) WHERE {{
  VALUES ?n {{ {values_block(iris)} }} ?n ?p ?v . FILTER(?p IN ({DESCRIBE_SET})) }}"""):
        fact = facts.setdefault(str(iri), {"classes": set(), "links": set()})
        predicate, value = str(predicate), str(value)
        if predicate == RDF_TYPE:
            if value in CLASS_TYPES:
                fact["classes"].add(value)
        elif predicate in LINK_IRIS:
            if is_iri in ("true", "1"):
                fact["links"].add(value)
        elif predicate == PKG + "support":
            number = as_int(value)
            if number is not None:
                fact["support"] = max(number, fact.get("support", number))
        else:
            name = NAME_PROPS[predicate]
            fact[name] = min(value, fact.get(name, value))
    nodes: dict[str, dict[str, Any]] = {}
    for iri, fact in facts.items():
        if not fact["classes"]:
            continue
        key = node_id(iri, base)
        kind = CLASS_TYPES[max(fact["classes"])]
        nodes[iri] = {"id": key, "iri": iri, "type": kind,
                      "label": (fact.get("title") or fact.get("label") or fact.get("pref")
                                or key.rsplit("/", 1)[-1]),
                      "support": len(fact["links"]) if kind == "paper"
                      else fact.get("support")}
    # Entities a paper links but the store does not describe: typed by their IRI.
    untyped = [iri for iri in iris if iri not in nodes]
    if untyped:
        for (iri,) in select_rows(store, f"""SELECT ?e WHERE {{
  VALUES ?e {{ {values_block(untyped)} }}
  FILTER EXISTS {{ ?p ?r ?e . ?p a {PAPER} FILTER(?r IN ({LINK_SET})) }} }}"""):
            key = node_id(str(iri), base)
            kind = key.split("/", 1)[0]
            nodes[str(iri)] = {"id": key, "iri": iri,
                               "type": kind if kind in CONCEPT_TYPES else "entity",
                               "label": key.rsplit("/", 1)[-1], "support": None}
    counted = [iri for iri, node in nodes.items() if node["support"] is None]
    if counted:
        linking: dict[str, set[str]] = {iri: set() for iri in counted}
        for iri, paper in select_rows(store, f"""SELECT ?n ?p WHERE {{
  VALUES ?n {{ {values_block(counted)} }} ?p ?r ?n . ?p a {PAPER} FILTER(?r IN ({LINK_SET})) }}"""):
            linking[str(iri)].add(str(paper))
        for iri in counted:
            nodes[iri]["support"] = len(linking[iri])
    return nodes
