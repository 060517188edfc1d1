"""The search index of a new store generation made from the previous one, after `paperkg build
--add` or `remove` changed a few papers, instead of rebuilt from the whole store.

What a changed paper can change in the index: the paper itself, the entities it links before
and after (their labels, aliases, support, and whether they are still nodes), the domains
(a new domain brings its parents, which no paper links), the edges of the paper and the
denormalised ranks (support, id, type) of every edge of those nodes, and the counts in
`meta`. `follow` copies the previous file, deletes those rows and writes them again from the
store with the queries and the code a full build uses (graph.network.search_index), and the
FTS5 indexes with them. The result holds the same rows as a rebuild
(tests/test_search_index.py checks it); only rowids differ.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from graph.errors import PaperkgError
from graph.network import search_index
from graph.network.nodes import CLASS_TYPES, LINKS, is_safe_iri
from graph.network.sparql_parts import in_chunks, select_rows, values_block
from graph.store import Store
from graph.vocab import CLASSES, DCTERMS, PKG, RDFS, SKOS

_LOG = logging.getLogger(__name__)
_PROPS = (("title", DCTERMS + "title"), ("label", RDFS + "label"), ("pref", SKOS + "prefLabel"),
          ("support", PKG + "support"), ("alias", SKOS + "altLabel"))
_LINK_BIT = {PKG + name: order for order, name in enumerate(LINKS)}


@contextlib.contextmanager
def follow(store: Store, base: str, papers: Iterable[str]) -> Iterator[None]:
    """Around a write that changes the papers `papers` (IRIs): afterwards, the index of the
    new generation is made from the previous generation's, if that one is on disk. A failure
    here loses nothing: the index is then built whole when it is next asked for."""
    try:
        before = str(store.generation())
    except PaperkgError:
        before = None
    yield
    if before is None:
        return
    try:
        after = str(store.generation())
        old = search_index.index_path(store, before, base)
        new = search_index.index_path(store, after, base)
        if after != before and old.exists() and not new.exists():
            update(store, old, new, base, list(papers))
            search_index.remove_stale(new)
    except (PaperkgError, sqlite3.Error, OSError) as exc:
        _LOG.warning("could not update the search index of %s: %s", store.location, exc)


def update(store: Store, old: Path, new: Path, base: str, papers: Sequence[str]) -> Path:
    """Write at `new` the index `old` with the papers `papers` (IRIs) read again from `store`."""
    with search_index.written(new, copy_of=old) as db:
        _refresh(db, store, base, [p for p in dict.fromkeys(papers) if is_safe_iri(p)])
        db.commit()
    return new


def _marks(items: Sequence[Any]) -> str:
    return ", ".join("?" * len(items))


def _column(db: sqlite3.Connection, sql: str, items: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for part in in_chunks(items, 500):
        found.update(row[0] for row in db.execute(sql.format(_marks(part)), list(part)))
    return found


def _refresh(db: sqlite3.Connection, store: Store, base: str, papers: list[str]) -> None:
    domains = f"<{PKG}{CLASSES['domain']}>"
    touched = set(papers)
    touched |= _column(db, "SELECT entity FROM edges WHERE paper IN ({})", papers)
    touched |= {row[0] for row in db.execute("SELECT iri FROM nodes WHERE type = 'domain'")}
    touched |= {str(d) for (d,) in select_rows(store, f"SELECT ?d WHERE {{ ?d a {domains} }}")}
    # The papers' edges, as the build makes them: links of typed papers to IRIs.
    for part in in_chunks(papers, 500):
        db.execute(f"DELETE FROM edges WHERE paper IN ({_marks(part)})", list(part))
    kept = {str(p) for part in in_chunks(papers) for (p,) in select_rows(store, f"""
SELECT ?p WHERE {{ VALUES ?p {{ {values_block(part)} }} ?p a <{PKG}Paper> }}""")}
    rels: dict[tuple[str, str], int] = {}
    for part in in_chunks(sorted(kept)):
        for paper, relation, entity in select_rows(store, f"""SELECT ?p ?r ?e WHERE {{
  VALUES ?p {{ {values_block(part)} }} ?p ?r ?e . FILTER(isIRI(?e)) }}"""):
            if relation in _LINK_BIT:
                key = (str(paper), str(entity))
                rels[key] = rels.get(key, 0) | (1 << _LINK_BIT[str(relation)])
    db.executemany("INSERT INTO edges (paper, entity, rels) VALUES (?, ?, ?)",
                   [(p, e, r) for (p, e), r in rels.items()])
    touched |= {entity for _, entity in rels}
    nodes = sorted(touched)
    _delete_nodes(db, nodes)
    _read_facts(db, store, nodes)
    search_index.fill_nodes(db, base)
    _index_nodes(db, nodes)
    db.executescript("""
DROP TABLE temp.typed; DROP TABLE temp.prop; DROP TABLE temp.chosen;
UPDATE meta SET value = (SELECT COUNT(*) FROM nodes WHERE type = 'paper') WHERE key = 'papers';
UPDATE meta SET value = (SELECT COALESCE(AVG(LENGTH(folded)), 1) FROM search WHERE is_paper)
  WHERE key = 'title_length';
""")


def _delete_nodes(db: sqlite3.Connection, nodes: list[str]) -> None:
    for part in in_chunks(nodes, 500):
        marks, items = _marks(part), list(part)
        for rowid, is_paper, folded, afolded in db.execute(
                f"SELECT rowid, is_paper, folded, afolded FROM search WHERE iri IN ({marks})",
                items).fetchall():
            # External-content FTS5 tables forget a row when told its old text.
            tables = ("search_fts",) if is_paper else ("search_fts", "entity_fts")
            for table in tables:
                db.execute(f"INSERT INTO {table} ({table}, rowid, folded, afolded) "
                           "VALUES ('delete', ?, ?, ?)", (rowid, folded, afolded))
        db.execute(f"DELETE FROM names WHERE node IN "
                   f"(SELECT id FROM nodes WHERE iri IN ({marks}))", items)
        db.execute(f"DELETE FROM search WHERE iri IN ({marks})", items)
        db.execute(f"DELETE FROM nodes WHERE iri IN ({marks})", items)


def _read_facts(db: sqlite3.Connection, store: Store, nodes: list[str]) -> None:
    """The build's `typed`, `prop` and `chosen` tables, for `nodes` only (temporary)."""
    db.executescript("""
CREATE TEMP TABLE typed (iri TEXT, type TEXT);
CREATE TEMP TABLE prop (iri TEXT, kind TEXT, value TEXT);
CREATE INDEX temp.prop_iri ON prop (iri, kind);
""")
    classes = ", ".join(f"<{iri}>" for iri in CLASS_TYPES)
    safe = [iri for iri in nodes if is_safe_iri(iri)]
    for part in in_chunks(safe):
        block = values_block(part)
        db.executemany("INSERT INTO typed VALUES (?, ?)", [
            (str(n), CLASS_TYPES[str(c)]) for n, c in select_rows(store, f"""SELECT ?n ?c WHERE {{
  VALUES ?n {{ {block} }} ?n a ?c . FILTER(?c IN ({classes})) }}""")])
        for kind, predicate in _PROPS:
            db.executemany("INSERT INTO prop VALUES (?, ?, ?)", [
                (str(n), kind, str(v)) for n, v in select_rows(store, f"""SELECT ?n ?v WHERE {{
  VALUES ?n {{ {block} }} ?n <{predicate}> ?v }}""")])
    db.execute("CREATE TEMP TABLE chosen AS SELECT iri, MAX(type) AS type FROM typed GROUP BY iri")
    for part in in_chunks(nodes, 500):
        db.execute(f"""INSERT INTO chosen SELECT DISTINCT entity, NULL FROM edges
WHERE entity IN ({_marks(part)}) AND entity NOT IN (SELECT iri FROM chosen)""", list(part))


def _index_nodes(db: sqlite3.Connection, nodes: list[str]) -> None:
    """The FTS5 rows and the edges' ranks of the nodes written again."""
    for part in in_chunks(nodes, 500):
        marks, items = _marks(part), list(part)
        db.execute(f"""INSERT INTO search_fts (rowid, folded, afolded)
SELECT rowid, folded, afolded FROM search WHERE iri IN ({marks})""", items)
        db.execute(f"""INSERT INTO entity_fts (rowid, folded, afolded)
SELECT rowid, folded, afolded FROM search WHERE iri IN ({marks}) AND NOT is_paper""", items)
        db.execute(f"""UPDATE edges SET (paper_id, paper_support) =
  (SELECT id, support FROM nodes WHERE nodes.iri = edges.paper) WHERE paper IN ({marks})""",
                   items)
        db.execute(f"""UPDATE edges SET (entity_id, entity_type, entity_support) =
  (SELECT id, type, support FROM nodes WHERE nodes.iri = edges.entity)
WHERE entity IN ({marks})""", items)
