"""The networkx projection of the store: papers and entities as nodes, paper→entity links as
edges, and the graph questions asked of it (neighbourhoods, shortest paths, similar papers).

Node ids are the IRI's path under the base: "paper/{key}", "method/{slug}", …; attributes are
`iri`, `type`, `label`, `support` (an entity's number of papers, `pkg:support` when the store
has it; a paper's number of linked entities) and `aliases`. An edge goes from a paper to an
entity; its `relation` holds the link's name ("usesMethod"), or several names separated by
spaces when a paper is linked to one entity in more than one way ("proposes usesMethod").
The projection is cached per store location and generation.

It holds the whole graph in memory: it is for what needs the whole graph at once (GraphML
export, drawing and ranking a bounded subgraph). The web API answers from the store
(graph.network.store_graph, graph.network.search_index) instead.
"""

from __future__ import annotations

import heapq
import itertools
import math
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from graph.network.nodes import (
    CLASS_TYPES,
    CONCEPT_TYPES,
    LINKS,
    UnknownNode,
    node_id,
)
from graph.network.sparql_parts import select_rows
from graph.slug import label_key
from graph.store import Store
from graph.vocab import DCTERMS, DEFAULT_BASE, PKG, RDFS, SKOS

# The graph's vocabulary and ids are graph.network.nodes', shared with store_graph, which
# answers the same questions from the store without this in-memory projection.
_CLASS_TYPES = CLASS_TYPES


@dataclass(frozen=True)
class Neighbourhood:
    nodes: list[dict[str, Any]]
    edges: list[dict[str, str]]
    truncated: bool


# -- ids ---------------------------------------------------------------------------------------


def resolve(graph: nx.DiGraph, node: str, base: str = DEFAULT_BASE) -> str:
    """The id of `node` (an IRI, "type/slug" or "paper/key") in `graph`; UnknownNode if none."""
    text = node.strip()
    if not text:
        raise UnknownNode("empty node: give an IRI or type/slug")
    candidate = node_id(text, base) if text.startswith(("http://", "https://")) else text
    if candidate in graph:
        return candidate
    if "/" not in text:
        # A bare name ("ResNet", "ImageNet") picks the best-supported node so labelled.
        key = label_key(text)
        named = [n for n, data in graph.nodes(data=True)
                 if label_key(data.get("label") or "") == key
                 or any(label_key(a) == key for a in data.get("aliases") or ())]
        if named:
            return min(named, key=lambda n: _rank(graph, n))
    raise UnknownNode(f"node {node!r} is not in the graph")


# -- the projection ----------------------------------------------------------------------------


def build(store: Store, base: str = DEFAULT_BASE) -> nx.DiGraph:
    """Read papers, entities and their links from the store into a directed graph."""
    graph = nx.DiGraph(base=base)
    classes = " ".join(f"<{iri}>" for iri in _CLASS_TYPES)
    for iri, cls, title, label, pref, support in select_rows(store, f"""
SELECT ?n ?c (SAMPLE(?t) AS ?title) (SAMPLE(?l) AS ?label) (SAMPLE(?pl) AS ?pref)
       (MAX(?s) AS ?support) WHERE {{
  VALUES ?c {{ {classes} }} ?n a ?c .
  OPTIONAL {{ ?n <{DCTERMS}title> ?t }} OPTIONAL {{ ?n <{RDFS}label> ?l }}
  OPTIONAL {{ ?n <{SKOS}prefLabel> ?pl }} OPTIONAL {{ ?n <{PKG}support> ?s }}
}} GROUP BY ?n ?c"""):
        key = node_id(str(iri), base)
        graph.add_node(key, iri=iri, type=_CLASS_TYPES[str(cls)],
                       label=title or label or pref or key.rsplit("/", 1)[-1],
                       support=int(float(support)) if support is not None else None,
                       aliases=[])
    for iri, alias in select_rows(store, f"SELECT ?n ?a WHERE {{ ?n <{SKOS}altLabel> ?a }}"):
        key = node_id(str(iri), base)
        if key in graph:
            graph.nodes[key]["aliases"].append(alias)
    links = " ".join(f"<{PKG}{name}>" for name in LINKS)
    order = {PKG + name: index for index, name in enumerate(LINKS)}
    for paper, relation, entity in select_rows(store, f"""
SELECT ?p ?r ?e WHERE {{ VALUES ?r {{ {links} }} ?p ?r ?e . FILTER(isIRI(?e)) }}"""):
        source, target = node_id(str(paper), base), node_id(str(entity), base)
        if source not in graph:
            continue  # a link from something that is not a paper
        if target not in graph:
            # An entity the store links to but does not describe: typed by its IRI.
            kind = target.split("/", 1)[0]
            graph.add_node(target, iri=entity, type=kind if kind in CONCEPT_TYPES else "entity",
                           label=target.rsplit("/", 1)[-1], support=None, aliases=[])
        name = str(relation)[len(PKG):]
        if graph.has_edge(source, target):
            names = graph.edges[source, target]["relation"].split() + [name]
            names.sort(key=lambda n: order[PKG + n])
            graph.edges[source, target]["relation"] = " ".join(names)
        else:
            graph.add_edge(source, target, relation=name)
    for key, attrs in graph.nodes(data=True):
        if attrs["type"] == "paper":
            attrs["support"] = graph.out_degree(key)
        elif attrs["support"] is None:
            attrs["support"] = graph.in_degree(key)
        attrs["aliases"].sort()
    return graph


_CACHE: dict[tuple[str, str], tuple[str, nx.DiGraph]] = {}
_CACHE_LOCK = threading.Lock()
_BUILD_LOCKS: dict[tuple[str, str], threading.Lock] = {}


def projection(store: Store, base: str = DEFAULT_BASE) -> nx.DiGraph:
    """The projection of `store`, built once per store generation (thread-safe)."""
    key = (str(store.location), base)
    with _CACHE_LOCK:
        build_lock = _BUILD_LOCKS.setdefault(key, threading.Lock())
    with build_lock:
        generation = str(store.generation())
        with _CACHE_LOCK:
            hit = _CACHE.get(key)
        if hit is not None and hit[0] == generation:
            return hit[1]
        graph = build(store, base)
        with _CACHE_LOCK:
            _CACHE[key] = (generation, graph)
        return graph


# -- questions ---------------------------------------------------------------------------------


def describe(graph: nx.DiGraph, node: str) -> dict[str, Any]:
    """A node as the API shows it: id, iri, type, label, support."""
    attrs = graph.nodes[node]
    return {"id": node, "iri": attrs["iri"], "type": attrs["type"], "label": attrs["label"],
            "support": attrs["support"]}


def _rank(graph: nx.DiGraph, node: str) -> tuple[int, str]:
    return (-int(graph.nodes[node]["support"] or 0), node)


def _neighbours(graph: nx.DiGraph, node: str) -> Iterable[str]:
    return itertools.chain(graph.succ[node], graph.pred[node])


def neighbourhood(graph: nx.DiGraph, centre: str, *, depth: int = 1,
                  types: Iterable[str] | None = None, limit: int = 200) -> Neighbourhood:
    """Nodes within `depth` hops of `centre` (edges either way), at most `limit` of them.

    `types` keeps only nodes of those types (the centre always stays); the walk goes through
    kept nodes only, so add "paper" to reach entities through their papers. Nearer nodes come
    first, then those with more support. Edges are those among the kept nodes.
    """
    wanted = set(types) if types else None
    kept = [centre]
    seen = {centre}
    frontier = [centre]
    truncated = False
    for _ in range(depth):
        level = set()
        for node in frontier:
            for other in _neighbours(graph, node):
                if other in seen or other in level:
                    continue
                if wanted is not None and graph.nodes[other]["type"] not in wanted:
                    continue
                level.add(other)
        if not level:
            break
        room = limit - len(kept)
        if len(level) > room:
            kept.extend(heapq.nsmallest(room, level, key=lambda n: _rank(graph, n)))
            truncated = True
            break
        ordered = sorted(level, key=lambda n: _rank(graph, n))
        kept.extend(ordered)
        seen.update(level)
        frontier = ordered
    chosen = set(kept)
    edges = []
    for node in kept:
        for target, attrs in graph.succ[node].items():
            if target in chosen:
                for relation in attrs["relation"].split():
                    edges.append({"source": node, "target": target, "relation": relation})
    edges.sort(key=lambda e: (e["source"], e["target"], e["relation"]))
    return Neighbourhood([describe(graph, n) for n in kept], edges, truncated)


def shortest_paths(graph: nx.DiGraph, source: str, target: str, *,
                   max_paths: int = 5) -> list[list[str]]:
    """Up to `max_paths` shortest paths (edges either way), in sorted order; [] if none."""
    if source == target:
        return [[source]]
    undirected = graph.to_undirected(as_view=True)
    try:
        found = list(itertools.islice(nx.all_shortest_paths(undirected, source, target), 200))
    except nx.NetworkXNoPath:
        return []
    return sorted(found)[:max_paths]


def similar_papers(graph: nx.DiGraph, paper: str, *, k: int = 10) -> list[dict[str, Any]]:
    """Papers sharing the most entities with `paper`, each shared entity weighted by
    log(papers / papers linking it), so rare entities count more than common ones."""
    if graph.nodes[paper]["type"] != "paper":
        raise UnknownNode(f"node {paper!r} is not a paper")
    papers = graph.graph.get("papers")
    if papers is None:
        papers = sum(1 for _, t in graph.nodes(data="type") if t == "paper")
        graph.graph["papers"] = papers
    scores: defaultdict[str, float] = defaultdict(float)
    shared: dict[str, list[str]] = {}
    for entity in graph.succ[paper]:
        linking = graph.pred[entity]
        weight = math.log(papers / len(linking)) if linking else 0.0
        for other in linking:
            if other != paper:
                scores[other] += weight
                shared.setdefault(other, []).append(entity)
    ranked = sorted(scores, key=lambda other: (-scores[other], other))[:k]
    return [{**describe(graph, other), "score": round(scores[other], 6),
             "shared": sorted(shared[other])} for other in ranked]


def cooccurring(graph: nx.DiGraph, entity: str, *, limit: int = 20) -> list[dict[str, Any]]:
    """Entities that share papers with `entity`, by the number of shared papers."""
    counts: Counter[str] = Counter()
    for paper in graph.pred[entity]:
        for other in graph.succ[paper]:
            if other != entity:
                counts[other] += 1
    ranked = sorted(counts, key=lambda other: (-counts[other], other))[:limit]
    return [{**describe(graph, other), "papers": counts[other]} for other in ranked]


def write_graphml(graph: nx.DiGraph, path: str | Path) -> Path:
    """The projection as GraphML (aliases joined by " | ")."""
    out = nx.DiGraph()
    for node, attrs in graph.nodes(data=True):
        out.add_node(node, iri=attrs["iri"], type=attrs["type"], label=attrs["label"],
                     support=int(attrs["support"] or 0), aliases=" | ".join(attrs["aliases"]))
    out.add_edges_from(graph.edges(data=True))
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    nx.write_graphml(out, target)
    return target
