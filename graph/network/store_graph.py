"""Graph questions answered from the store itself, by bounded SPARQL queries.

The graph is the one graph.network.projection describes: papers and entities as nodes, a paper
→ entity link as an edge (several link names on one edge when a paper links an entity more than
one way), node ids "type/slug" under the base. Nothing here reads the whole graph: a
neighbourhood walks breadth-first with one query per hop (VALUES of the frontier), a path walks
from both ends, similar papers and co-occurring entities are aggregates the store computes. So
the cost of a question grows with the part of the graph it touches, not with the store, and the
same queries run on the embedded store and on a remote SPARQL server.

A hop reads at most HOP_CAP links; past that the walk stops there and says it was truncated
(a hub such as a metric that thousands of papers report). Node descriptions (label, type,
support) are cached per store generation in a bounded LRU, so a warm question costs its link
queries only.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

from graph.network.nodes import (
    is_safe_iri,
    node_id,
    node_iri,
)
from graph.network.sparql_parts import (
    DESCRIBE_CACHE,
    LINK_ORDER,
    LINK_SET,
    PAPER,
    as_int,
    descriptions_cache,
    in_chunks,
    read_nodes,
    select_rows,
    values_block,
)
from graph.store import Store
from graph.vocab import DEFAULT_BASE, PKG, SKOS

#: Links one hop may read; a walk that meets more stops there, truncated.
HOP_CAP = 5000
#: Nodes a path search may visit from both ends together before it gives up.
PATH_VISIT_CAP = 20000
#: Shortest paths enumerated before the first `max_paths` in sorted order are kept (as
#: networkx's all_shortest_paths was cut at 200 before).
PATHS_FOUND = 200
#: Longest path looked for (hops).
PATH_MAX_HOPS = 8


class StoreGraph:
    """The graph of one store at one generation: node descriptions and walks, by SPARQL."""

    def __init__(self, store: Store, base: str = DEFAULT_BASE,
                 generation: str | None = None) -> None:
        self.store = store
        self.base = base
        self.generation = generation if generation is not None else str(store.generation())
        self._cache = descriptions_cache(store, self.generation)

    # -- nodes --------------------------------------------------------------------------------

    def describe(self, iris: Iterable[str]) -> dict[str, dict[str, Any]]:
        """{iri: {id, iri, type, label, support}} for the IRIs that are nodes of the graph
        (typed papers and entities, and entities a paper links without describing them)."""
        wanted = [iri for iri in dict.fromkeys(iris) if is_safe_iri(iri)]
        found: dict[str, dict[str, Any]] = {}
        missing = []
        with self._cache.lock:
            for iri in wanted:
                if iri in self._cache.items:
                    self._cache.items.move_to_end(iri)
                    hit = self._cache.items[iri]
                    if hit is not None:
                        found[iri] = hit
                else:
                    missing.append(iri)
        fresh: dict[str, dict[str, Any] | None] = dict.fromkeys(missing)
        for part in in_chunks(missing):
            fresh.update(self._read_nodes(part))
        with self._cache.lock:
            for iri, value in fresh.items():
                self._cache.items[iri] = value
                if value is not None:
                    found[iri] = value
            while len(self._cache.items) > DESCRIBE_CACHE:
                self._cache.items.popitem(last=False)
        return found

    def _read_nodes(self, iris: Sequence[str]) -> dict[str, dict[str, Any]]:
        return read_nodes(self.store, iris, self.base)

    def _ranks(self, iris: Sequence[str]) -> dict[str, dict[str, Any]]:
        """What a walk ranks and filters the nodes of a level by: id, type, support."""
        return self.describe(iris)

    def node(self, key: str) -> dict[str, Any] | None:
        """The description of a node id ("type/slug") or IRI; None when it is not a node."""
        iri = node_iri(key, self.base)
        return self.describe([iri]).get(iri)

    def aliases(self, iris: Iterable[str]) -> dict[str, list[str]]:
        wanted = [iri for iri in dict.fromkeys(iris) if is_safe_iri(iri)]
        out: dict[str, list[str]] = {iri: [] for iri in wanted}
        for part in in_chunks(wanted):
            for iri, alias in select_rows(self.store, f"""SELECT ?n ?a WHERE {{
  VALUES ?n {{ {values_block(part)} }} ?n <{SKOS}altLabel> ?a }}"""):
                out[str(iri)].append(str(alias))
        return {iri: sorted(names) for iri, names in out.items()}

    # -- links --------------------------------------------------------------------------------

    def links(self, iris: Sequence[str], cap: int | None = None, per_node: int | None = None
              ) -> tuple[list[tuple[str, str, str]], bool]:
        """The links (paper, relation name, entity) touching `iris` either way, at most `cap`
        (HOP_CAP) of them; and whether the cap cut them short. (`per_node` is for sources
        that rank each node's links; here links come in store order and it is not used.)"""
        cap = HOP_CAP if cap is None else cap
        wanted = [iri for iri in iris if is_safe_iri(iri)]
        found: list[tuple[str, str, str]] = []
        # Two plain queries rather than a UNION with BIND: every server plans these well.
        patterns = (f"VALUES ?p {{ {{}} }} ?p ?r ?e . ?p a {PAPER} "
                    f"FILTER(?r IN ({LINK_SET}) && isIRI(?e))",
                    f"VALUES ?e {{ {{}} }} ?p ?r ?e . ?p a {PAPER} FILTER(?r IN ({LINK_SET}))")
        for pattern in patterns:
            for part in in_chunks(wanted):
                where = pattern.replace("{}", values_block(part), 1)
                rows = select_rows(self.store, f"""SELECT ?p ?r ?e WHERE {{ {where} }}
LIMIT {cap + 1 - len(found)}""")
                found.extend((str(p), str(r)[len(PKG):], str(e)) for p, r, e in rows)
                if len(found) > cap:
                    return found[:cap], True
        return found, False

    def edges_among(self, iris: Iterable[str]) -> list[dict[str, str]]:
        """Edges between the given nodes, one per link name, sorted."""
        chosen = set(iris)
        papers = [iri for iri in chosen if is_safe_iri(iri)]
        edges = set()
        for part in in_chunks(sorted(papers)):
            for paper, relation, entity in select_rows(self.store, f"""SELECT ?p ?r ?e WHERE {{
  VALUES ?p {{ {values_block(part)} }} ?p ?r ?e . ?p a {PAPER} FILTER(?r IN ({LINK_SET})) }}"""):
                if entity in chosen:
                    edges.add((node_id(str(paper), self.base), node_id(str(entity), self.base),
                               str(relation)[len(PKG):]))
        return [{"source": s, "target": t, "relation": r} for s, t, r in sorted(edges)]

    # -- questions ----------------------------------------------------------------------------

    def neighbourhood(self, centre: str, *, depth: int = 1,
                      types: Iterable[str] | None = None,
                      limit: int = 200) -> tuple[list[dict[str, Any]], list[dict[str, str]], bool]:
        """(nodes, edges, truncated): nodes within `depth` hops of the node `centre` (an IRI),
        edges either way, at most `limit` nodes, as projection.neighbourhood walks them:
        `types` keeps only nodes of those types (the centre stays) and the walk goes through
        kept nodes only; nearer nodes first, then more support, then id."""
        wanted = set(types) if types else None
        kept = [centre]
        seen = {centre}
        frontier = [centre]
        truncated = False
        for _ in range(depth):
            # A node of the level's best `room` is within the best room + |seen| of each
            # frontier node linking it: a source that ranks its links reads no more. (Not
            # with a type filter: the nodes it drops would take places in that count.)
            each = limit - len(kept) + 1 + len(seen) if wanted is None else None
            found, capped = self.links(frontier, per_node=each)
            level_iris = set()
            for paper, _relation, entity in found:
                for other in (paper, entity):
                    if other not in seen:
                        level_iris.add(other)
            described = self._ranks(sorted(level_iris))
            level = [iri for iri in level_iris if iri in described
                     and (wanted is None or described[iri]["type"] in wanted)]
            if not level:
                truncated = truncated or capped
                break
            ranked = sorted(level, key=lambda iri: (-int(described[iri]["support"] or 0),
                                                    described[iri]["id"]))
            room = limit - len(kept)
            if len(ranked) > room:
                kept.extend(ranked[:room])
                truncated = True
                break
            kept.extend(ranked)
            seen.update(ranked)
            frontier = ranked
            if capped:
                truncated = True
                break
        nodes = self.describe(kept)
        return ([nodes[iri] for iri in kept], self.edges_among(kept), truncated)

    def shortest_paths(self, source: str, target: str, *, max_paths: int = 5) -> list[list[str]]:
        """Up to `max_paths` shortest paths between two node IRIs (edges either way), as lists
        of node ids in sorted order; [] when there is none within PATH_MAX_HOPS hops or the
        search would visit more than PATH_VISIT_CAP nodes."""
        if source == target:
            return [[node_id(source, self.base)]]
        # Each side: node -> its parents one hop nearer to that side's start.
        parents: tuple[dict[str, list[str]], dict[str, list[str]]] = ({source: []}, {target: []})
        frontiers = ([source], [target])
        ends = self.describe([source, target])
        is_paper = [ends.get(end, {}).get("type") == "paper" for end in (source, target)]
        depths = [0, 0]
        for _ in range(PATH_MAX_HOPS):
            # Frontiers of one kind (papers, or entities) have no edge between them: the
            # shortest path left goes through one node linked to both, if any is.
            same = (is_paper[0] ^ depths[0] % 2) == (is_paper[1] ^ depths[1] % 2)
            bridge = self._bridge(*frontiers, papers=bool(is_paper[0] ^ depths[0] % 2)) \
                if same and all(depths) else None
            if bridge:
                for middle, (near0, near1) in bridge.items():
                    parents[0][middle], parents[1][middle] = sorted(near0), sorted(near1)
                return self._join(sorted(bridge), parents, max_paths)
            side = 0 if len(frontiers[0]) <= len(frontiers[1]) else 1
            depths[side] += 1
            if not frontiers[side]:
                return []
            found, capped = self.links(frontiers[side], cap=PATH_VISIT_CAP)
            if capped:
                return []
            mine, other = parents[side], parents[1 - side]
            frontier = set(frontiers[side])
            level: dict[str, list[str]] = {}
            for paper, _relation, entity in found:
                for near, far in ((paper, entity), (entity, paper)):
                    if near in frontier and far not in mine:
                        level.setdefault(far, []).append(near)
            if not level:
                return []
            for node, nears in level.items():
                mine[node] = sorted(set(nears))
            meeting = [node for node in level if node in other]
            if meeting:
                return self._join(meeting, parents, max_paths)
            if sum(len(p) for p in parents) > PATH_VISIT_CAP:
                return []
            next_level = sorted(level)
            frontiers = (next_level, frontiers[1]) if side == 0 else (frontiers[0], next_level)
        return []

    def _bridge(self, first: list[str], second: list[str], *, papers: bool
                ) -> dict[str, tuple[list[str], list[str]]] | None:
        """Nodes linked to a node of each frontier (both `papers`, or both entities), with
        those nodes; None where the source has no cheaper way than expanding a frontier."""
        del first, second, papers
        return None

    def _join(self, meeting: list[str], parents: tuple[dict[str, list[str]], ...],
              max_paths: int) -> list[list[str]]:
        def walks(node: str, tree: dict[str, list[str]]) -> list[list[str]]:
            if not tree[node]:
                return [[node]]
            return [[*walk, node] for parent in tree[node] for walk in walks(parent, tree)]

        def depth(node: str, tree: dict[str, list[str]]) -> int:
            steps = 0
            while tree[node]:
                node, steps = tree[node][0], steps + 1
            return steps

        best = min(depth(m, parents[0]) + depth(m, parents[1]) for m in meeting)
        paths: list[list[str]] = []
        for middle in meeting:
            if len(paths) >= PATHS_FOUND:
                break
            if depth(middle, parents[0]) + depth(middle, parents[1]) != best:
                continue
            for head, tail in itertools.product(walks(middle, parents[0]),
                                                walks(middle, parents[1])):
                paths.append([node_id(n, self.base) for n in [*head, *reversed(tail[:-1])]])
                if len(paths) >= PATHS_FOUND:
                    break
        return sorted(paths)[:max_paths]

    def paper_count(self) -> int:
        rows = list(select_rows(self.store, f"SELECT (COUNT(?p) AS ?n) WHERE {{ ?p a {PAPER} }}"))
        return as_int(rows[0][0]) or 0 if rows else 0

    def similar_papers(self, paper: str, *, k: int = 10,
                       papers: int | None = None) -> list[dict[str, Any]]:
        """Papers sharing the most entities with the paper IRI `paper`, each shared entity
        weighted by log(papers / papers linking it) (rare entities count more).

        Exact, without scoring every paper that shares a common entity: entities are taken
        rarest first, and once the k-th best score of the papers met so far beats what the
        entities not yet taken could add up to, no other paper can enter the top k."""
        total = papers if papers is not None else self.paper_count()
        # An entity's support is the number of papers linking it (stored, or counted).
        degrees = {e: int(node["support"] or 0)
                   for e, node in self.describe(self._linked(paper)).items()}
        weights = {e: math.log(total / n) if n else 0.0 for e, n in degrees.items()}
        order = sorted(weights, key=lambda e: (-weights[e], e))
        shared: dict[str, list[str]] = {}
        scores: dict[str, float] = {}
        for taken, entity in enumerate(order, start=1):
            met = [o for o in self._papers_linking(entity) if o != paper and o not in shared]
            for other, entities in self._shared(met, weights).items():
                shared[other] = entities
                scores[other] = sum(weights[e] for e in entities)
            left = math.fsum(max(weights[e], 0.0) for e in order[taken:])
            best = heapq.nlargest(k, scores.values())
            if len(best) == k and best[-1] > left + 1e-9:
                break
        ranked = sorted(scores, key=lambda o: (-scores[o], node_id(o, self.base)))[:k]
        nodes = self.describe(ranked)
        return [{**nodes[o], "score": round(scores[o], 6),
                 "shared": sorted(node_id(e, self.base) for e in shared[o])} for o in ranked]

    def _linked(self, paper: str) -> list[str]:
        return [str(e) for (e,) in select_rows(self.store, f"""SELECT DISTINCT ?e WHERE {{
  <{paper}> ?r ?e . FILTER(?r IN ({LINK_SET}) && isIRI(?e)) }}""")]

    def _papers_linking(self, entity: str) -> list[str]:
        return [str(p) for (p,) in select_rows(self.store, f"""SELECT DISTINCT ?p WHERE {{
  ?p ?r <{entity}> . ?p a {PAPER} FILTER(?r IN ({LINK_SET})) }}""")]

    def _shared(self, papers: list[str], weights: dict[str, float]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {p: [] for p in papers}
        for part in in_chunks(papers):
            for paper, entity in select_rows(self.store, f"""SELECT DISTINCT ?p ?e WHERE {{
  VALUES ?p {{ {values_block(part)} }} ?p ?r ?e . FILTER(?r IN ({LINK_SET})) }}"""):
                if entity in weights:
                    out[str(paper)].append(str(entity))
        return {p: sorted(es) for p, es in out.items()}

    def papers_of(self, entity: str) -> list[tuple[str, list[str]]]:
        """(paper IRI, link names in link order) of every paper linking the entity IRI."""
        relations: dict[str, list[str]] = {}
        for paper, relation in select_rows(self.store, f"""SELECT ?p ?r WHERE {{
  ?p ?r <{entity}> . ?p a {PAPER} FILTER(?r IN ({LINK_SET})) }}"""):
            relations.setdefault(str(paper), []).append(str(relation)[len(PKG):])
        return sorted(((p, sorted(set(r), key=LINK_ORDER.__getitem__))
                       for p, r in relations.items()), key=lambda x: node_id(x[0], self.base))

    def cooccurring(self, entity: str, *, limit: int = 20) -> list[dict[str, Any]]:
        """Entities that share papers with the entity IRI, by the number of shared papers."""
        rows = self._cooccurring_rows(entity, limit)
        rows.sort(key=lambda row: (-row[1], node_id(row[0], self.base)))
        nodes = self.describe(o for o, _ in rows)
        return [{**nodes[o], "papers": n} for o, n in rows if o in nodes]

    def _cooccurring_rows(self, entity: str, limit: int) -> list[tuple[str, int]]:
        return [(str(o), as_int(n) or 0) for o, n in select_rows(self.store, f"""
SELECT ?o (COUNT(DISTINCT ?p) AS ?n) WHERE {{
  ?p ?r <{entity}> . ?p a {PAPER} FILTER(?r IN ({LINK_SET}))
  ?p ?r2 ?o . FILTER(?r2 IN ({LINK_SET}) && isIRI(?o) && ?o != <{entity}>)
}} GROUP BY ?o ORDER BY DESC(?n) ?o LIMIT {int(limit)}""")]
