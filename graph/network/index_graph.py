"""The graph questions of graph.network.store_graph, answered from the search index's tables.

The index (graph.network.search_index) holds, per store generation, every node with its label, type
and support and every paper → entity edge with its link names, on disk and indexed both ways.
IndexGraph reads those instead of sending SPARQL: the same walks (it inherits them), the same
answers, but a hop is an indexed SQLite lookup, ordered by the neighbours' rank, so that even
a hub's thousands of papers cost milliseconds, and the first `cap` links of a hop are the best
ranked ones. The web API uses it whenever the index of the store's current generation is
there, and StoreGraph (SPARQL) while it is being built.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from graph.network import store_graph
from graph.network.nodes import LINKS
from graph.network.search_index import SearchIndex
from graph.network.store_graph import StoreGraph
from graph.store import Store

_BATCH = 500


def _chunks(items: Sequence[str]) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), _BATCH):
        yield items[start:start + _BATCH]


def _marks(items: Sequence[Any]) -> str:
    return ", ".join("?" * len(items))


def _names(rels: int) -> list[str]:
    return [name for bit, name in enumerate(LINKS) if rels & (1 << bit)]


class IndexGraph(StoreGraph):
    """StoreGraph's questions over one generation's index file."""

    def __init__(self, store: Store, index: SearchIndex, base: str, generation: str) -> None:
        super().__init__(store, base, generation)
        self.index = index
        self._seen: dict[str, dict[str, Any]] = {}  # ranks of the nodes links() met

    def _db(self) -> sqlite3.Connection:
        return self.index._db()

    @staticmethod
    def _node(row: sqlite3.Row) -> dict[str, Any]:
        return {"id": row["id"], "iri": row["iri"], "type": row["type"], "label": row["label"],
                "support": row["support"]}

    def describe(self, iris: Iterable[str]) -> dict[str, dict[str, Any]]:
        wanted = list(dict.fromkeys(iris))
        found: dict[str, dict[str, Any]] = {}
        for part in _chunks(wanted):
            for row in self._db().execute(
                    f"SELECT * FROM nodes WHERE iri IN ({_marks(part)})", list(part)):
                found[row["iri"]] = self._node(row)
        return found

    def aliases(self, iris: Iterable[str]) -> dict[str, list[str]]:
        wanted = list(dict.fromkeys(iris))
        keys = {iri: node["id"] for iri, node in self.describe(wanted).items()}
        names = self.index.aliases(keys.values())
        return {iri: names.get(keys.get(iri, ""), []) for iri in wanted}

    def links(self, iris: Sequence[str], cap: int | None = None, per_node: int | None = None
              ) -> tuple[list[tuple[str, str, str]], bool]:
        """The links touching `iris` either way, ranked by the far node (most supported,
        then id), at most `cap` (HOP_CAP), the best `per_node` of each node; and whether
        there were more than `cap`. One indexed, ordered query per node, so a hub's hop
        reads what it keeps, not all its links."""
        cap = store_graph.HOP_CAP if cap is None else cap
        each = cap + 1 if per_node is None else min(per_node, cap + 1)
        ranked: list[tuple[int, str, str, str, int]] = []
        db = self._db()
        for iri in dict.fromkeys(iris):
            for row in db.execute("""SELECT paper_support, paper_id, paper, entity, rels
FROM edges WHERE entity = ? ORDER BY paper_support DESC, paper_id LIMIT ?""", (iri, each)):
                ranked.append((-row[0], row[1], row[2], row[3], row[4]))
                self._seen[row[2]] = {"id": row[1], "type": "paper", "support": row[0]}
            for row in db.execute("""SELECT entity_support, entity_id, paper, entity, rels,
  entity_type FROM edges WHERE paper = ? ORDER BY entity_support DESC, entity_id LIMIT ?""",
                                  (iri, each)):
                ranked.append((-row[0], row[1], row[2], row[3], row[4]))
                self._seen[row[3]] = {"id": row[1], "type": row[5], "support": row[0]}
        ranked.sort()
        found = [(paper, name, entity) for _, _, paper, entity, rels in ranked[:cap]
                 for name in _names(rels)]
        return found, len(ranked) > cap

    def _ranks(self, iris: Sequence[str]) -> dict[str, dict[str, Any]]:
        known = {iri: self._seen[iri] for iri in iris if iri in self._seen}
        missing = [iri for iri in iris if iri not in known]
        return {**known, **(self.describe(missing) if missing else {})}

    def edges_among(self, iris: Iterable[str]) -> list[dict[str, str]]:
        chosen = list(dict.fromkeys(iris))
        kept = set(chosen)
        edges = set()
        for part in _chunks(chosen):
            for paper, entity, rels in self._db().execute(
                    f"SELECT paper, entity, rels FROM edges WHERE paper IN ({_marks(part)})",
                    list(part)):
                if entity in kept:
                    for name in _names(rels):
                        edges.add((paper, entity, name))
        described = self.describe({iri for edge in edges for iri in edge[:2]})
        return [{"source": described[p]["id"], "target": described[e]["id"], "relation": r}
                for p, e, r in sorted(edges, key=lambda x: (described[x[0]]["id"],
                                                            described[x[1]]["id"], x[2]))]

    def _bridge(self, first: list[str], second: list[str], *, papers: bool
                ) -> dict[str, tuple[list[str], list[str]]] | None:
        """Nodes linked to a node of each frontier, found in SQLite: for papers, the
        entities both sides link; for entities, one join from the frontier with fewer links
        to its papers and, through each paper's own links, to the other frontier (the first
        10 × PATHS_FOUND of them: every one gives a shortest path)."""
        if len(first) > _BATCH or len(second) > _BATCH:
            return None
        db = self._db()
        if papers:
            sides: list[dict[str, set[str]]] = []
            for frontier in (first, second):
                linked: dict[str, set[str]] = {}
                for entity, paper in db.execute(
                        f"SELECT entity, paper FROM edges WHERE paper IN ({_marks(frontier)})",
                        frontier):
                    linked.setdefault(entity, set()).add(paper)
                sides.append(linked)
            return {m: (sorted(sides[0][m]), sorted(sides[1][m]))
                    for m in sides[0].keys() & sides[1].keys()}

        def links(entities: list[str]) -> int:
            return sum(int(n["support"] or 0) for n in self.describe(entities).values())

        swap = links(first) > links(second)
        driver, other = (second, first) if swap else (first, second)
        found: dict[str, tuple[set[str], set[str]]] = {}
        for middle, a, b in db.execute(f"""
SELECT a.paper, a.entity, b.entity FROM edges AS a JOIN edges AS b ON b.paper = a.paper
WHERE a.entity IN ({_marks(driver)}) AND b.entity IN ({_marks(other)})
LIMIT {store_graph.PATHS_FOUND * 10}""", [*driver, *other]):
            ends = found.setdefault(middle, (set(), set()))
            ends[0].add(a)
            ends[1].add(b)
        return {m: ((sorted(b), sorted(a)) if swap else (sorted(a), sorted(b)))
                for m, (a, b) in found.items()}

    def paper_count(self) -> int:
        row = self._db().execute("SELECT value FROM meta WHERE key = 'papers'").fetchone()
        return int(row[0]) if row else 0

    def _linked(self, paper: str) -> list[str]:
        return [row[0] for row in self._db().execute(
            "SELECT entity FROM edges WHERE paper = ?", (paper,))]

    def _papers_linking(self, entity: str) -> list[str]:
        return [row[0] for row in self._db().execute(
            "SELECT paper FROM edges WHERE entity = ?", (entity,))]

    def _shared(self, papers: list[str], weights: dict[str, float]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {p: [] for p in papers}
        for part in _chunks(papers):
            for paper, entity in self._db().execute(
                    f"SELECT paper, entity FROM edges WHERE paper IN ({_marks(part)})",
                    list(part)):
                if entity in weights:
                    out[paper].append(entity)
        return {p: sorted(es) for p, es in out.items()}

    def papers_of(self, entity: str) -> list[tuple[str, list[str]]]:
        rows = self._db().execute(
            "SELECT paper, rels FROM edges WHERE entity = ? ORDER BY paper_id", (entity,))
        return [(paper, _names(rels)) for paper, rels in rows]

    def _cooccurring_rows(self, entity: str, limit: int) -> list[tuple[str, int]]:
        return [(row[0], int(row[1])) for row in self._db().execute("""
SELECT other.entity, COUNT(*) AS n FROM edges AS mine
JOIN edges AS other ON other.paper = mine.paper AND other.entity != mine.entity
WHERE mine.entity = ? GROUP BY other.entity ORDER BY n DESC, other.entity_id LIMIT ?""",
                                                                (entity, limit))]
