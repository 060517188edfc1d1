"""A search index of the graph's nodes, in one SQLite file per store generation.

It holds every node (papers and entities) with its label, type, support and aliases, an
FTS5 trigram index of their names (and one of the entities' alone) and an index of the
papers' titles (to rank the titles that start with a query without reading the others), so
search, entity lists, paper lists and name lookup cost an index lookup instead of a pass
over the store. It is built from the store with plain,
streamed SPARQL (no query groups the whole graph), the same way for the embedded store and a
remote SPARQL server, and kept on disk: a server's memory does not grow with the graph.

Where it lives: beside an embedded store (`<store>.search/<generation>-….sqlite`, so a
build can write it and every server process reads the same file), else (a remote store, an
in-memory store, or a store folder the process cannot write) under the temporary folder,
`paperkg-search/`. A new generation of the store gets a new file, built the first time it is
asked for (`open_index`) or ahead of time (`ensure_index`, which `paperkg build` calls), or
made from the previous generation's after `build --add` or `remove`
(graph.network.search_update); processes that ask at once wait on one builder (a file lock).

graph.network.search_queries reads the files (SearchIndex).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from graph.errors import PaperkgError, StoreError
from graph.network.nodes import CLASS_TYPES, CONCEPT_TYPES, LINKS, node_id
from graph.network.search_queries import SearchIndex
from graph.slug import label_key
from graph.store import Store, solutions
from graph.vocab import DCTERMS, DEFAULT_BASE, PKG, RDFS, SKOS

SCHEMA_VERSION = "5"
_SEPARATORS = re.compile(r"[\s\-_/]+")
_BATCH = 5000

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE typed (iri TEXT, type TEXT);
CREATE TABLE prop (iri TEXT, kind TEXT, value TEXT);
CREATE TABLE link (paper TEXT, entity TEXT, rel INTEGER);
CREATE TABLE nodes (id TEXT PRIMARY KEY, iri TEXT, type TEXT, label TEXT, support INTEGER,
                    sortlabel TEXT);
CREATE TABLE search (rowid INTEGER PRIMARY KEY, id TEXT, iri TEXT, type TEXT, label TEXT,
                     support INTEGER, sortlabel TEXT, is_paper INTEGER, field TEXT,
                     folded TEXT, spaced TEXT, aliases TEXT, afolded TEXT, aspaced TEXT);
CREATE TABLE names (key TEXT, node TEXT);
"""

_ASSEMBLE = """
CREATE INDEX typed_iri ON typed (iri);
CREATE INDEX prop_iri ON prop (iri, kind);
CREATE TABLE papers AS SELECT DISTINCT iri FROM typed WHERE type = 'paper';
CREATE UNIQUE INDEX papers_iri ON papers (iri);
CREATE TABLE edges AS SELECT paper, entity, SUM(DISTINCT 1 << rel) AS rels FROM link
    WHERE paper IN (SELECT iri FROM papers) GROUP BY paper, entity;
CREATE INDEX edges_paper ON edges (paper);
CREATE INDEX edges_entity ON edges (entity);
CREATE TABLE chosen AS SELECT iri, MAX(type) AS type FROM typed GROUP BY iri;
INSERT INTO chosen SELECT DISTINCT entity, NULL FROM edges
    WHERE entity NOT IN (SELECT iri FROM chosen);
"""


def _fold(text: str) -> str:
    return text.casefold()


def _spaced(folded: str) -> str:
    return " " + _SEPARATORS.sub(" ", folded)


def _rows(store: Store, sparql: str) -> Iterator[list[str]]:
    for row in solutions(store, sparql):
        yield [term.value for term in row]


def insert_rows(db: sqlite3.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    batch: list[Sequence[Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= _BATCH:
            db.executemany(sql, batch)
            batch.clear()
    if batch:
        db.executemany(sql, batch)


@contextlib.contextmanager
def written(path: str | os.PathLike, copy_of: Path | None = None) -> Iterator[sqlite3.Connection]:
    """A connection to a new index file at `path` (a copy of `copy_of`, or empty), put in
    place atomically when the block ends well, and removed when it does not."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    if copy_of is not None:
        shutil.copyfile(copy_of, partial)
    db = sqlite3.connect(partial)
    try:
        yield db
    except BaseException:
        db.close()
        partial.unlink(missing_ok=True)
        raise
    db.close()
    os.replace(partial, target)


def build(store: Store, path: str | os.PathLike, base: str = DEFAULT_BASE) -> Path:
    """Write the index of `store` to the file `path` (replaced atomically)."""
    with written(path) as db:
        db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + _SCHEMA)
        classes = ", ".join(f"<{iri}>" for iri in CLASS_TYPES)
        insert_rows(db, "INSERT INTO typed VALUES (?, ?)",
                ((n, CLASS_TYPES[c]) for n, c in _rows(
                    store, f"SELECT ?n ?c WHERE {{ ?n a ?c . FILTER(?c IN ({classes})) }}")))
        for kind, predicate in (("title", DCTERMS + "title"), ("label", RDFS + "label"),
                                ("pref", SKOS + "prefLabel"), ("support", PKG + "support"),
                                ("alias", SKOS + "altLabel")):
            insert_rows(db, "INSERT INTO prop VALUES (?, ?, ?)",
                    ((n, kind, v) for n, v in _rows(
                        store, f"SELECT ?n ?v WHERE {{ ?n <{predicate}> ?v }}")))
        for order, name in enumerate(LINKS):  # one plain pattern each: a predicate's scan
            insert_rows(db, "INSERT INTO link VALUES (?, ?, ?)",
                    ((p, e, order) for p, e in _rows(store, f"""SELECT ?p ?e WHERE {{
  ?p <{PKG}{name}> ?e . FILTER(isIRI(?e)) }}""")))
        db.executescript(_ASSEMBLE)
        fill_nodes(db, base)
        db.executescript("""
DROP TABLE typed; DROP TABLE prop; DROP TABLE link; DROP TABLE papers; DROP TABLE chosen;
DROP INDEX edges_paper; DROP INDEX edges_entity;
CREATE UNIQUE INDEX nodes_iri ON nodes (iri);
CREATE INDEX nodes_papers ON nodes (type, id);
CREATE TABLE ranked_edges AS SELECT e.paper, p.id AS paper_id, p.support AS paper_support,
    e.entity, n.id AS entity_id, n.type AS entity_type, n.support AS entity_support, e.rels
  FROM edges AS e JOIN nodes AS p ON p.iri = e.paper JOIN nodes AS n ON n.iri = e.entity;
DROP TABLE edges;
ALTER TABLE ranked_edges RENAME TO edges;
CREATE INDEX edges_by_entity ON edges (entity, paper_support DESC, paper_id);
CREATE INDEX edges_by_paper ON edges (paper, entity_support DESC, entity_id);
CREATE INDEX nodes_rank ON nodes (type, support DESC, sortlabel, id);
CREATE INDEX names_key ON names (key);
CREATE UNIQUE INDEX search_id ON search (id);
CREATE VIRTUAL TABLE search_fts USING fts5 (folded, afolded, content='search',
                                            content_rowid='rowid',
                                            tokenize='trigram case_sensitive 1');
INSERT INTO search_fts (search_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE entity_fts USING fts5 (folded, afolded, content='search',
                                            content_rowid='rowid',
                                            tokenize='trigram case_sensitive 1');
INSERT INTO entity_fts (rowid, folded, afolded)
    SELECT rowid, folded, afolded FROM search WHERE NOT is_paper;
CREATE INDEX search_titles ON search (folded, id) WHERE is_paper AND afolded = '';
CREATE INDEX search_aliased ON search (is_paper) WHERE afolded != '';
""")
        db.execute("INSERT INTO meta VALUES ('schema', ?), ('base', ?)", (SCHEMA_VERSION, base))
        db.execute("INSERT INTO meta SELECT 'papers', COUNT(*) FROM nodes WHERE type = 'paper'")
        db.execute("INSERT INTO meta SELECT 'title_length', COALESCE(AVG(LENGTH(folded)), 1) "
                   "FROM search WHERE is_paper")
        db.commit()
        db.execute("VACUUM")
    return Path(path)


def fill_nodes(db: sqlite3.Connection, base: str) -> None:
    """Nodes as graph.network.projection makes them: label is the title, else rdfs:label,
    else skos:prefLabel, else the IRI's last part; a paper's support is the number of
    entities it links, an entity's its pkg:support, else the number of papers linking it."""
    cursor = db.execute("""
SELECT c.iri, c.type,
  (SELECT MIN(value) FROM prop WHERE prop.iri = c.iri AND kind = 'title'),
  (SELECT MIN(value) FROM prop WHERE prop.iri = c.iri AND kind = 'label'),
  (SELECT MIN(value) FROM prop WHERE prop.iri = c.iri AND kind = 'pref'),
  (SELECT MAX(CAST(value AS REAL)) FROM prop WHERE prop.iri = c.iri AND kind = 'support'),
  (SELECT COUNT(*) FROM edges WHERE edges.paper = c.iri),
  (SELECT COUNT(*) FROM edges WHERE edges.entity = c.iri)
FROM chosen AS c""")
    nodes: list[tuple[Any, ...]] = []
    rows: list[tuple[Any, ...]] = []
    names: list[tuple[str, str]] = []
    aliases = db.cursor()
    for iri, kind, title, label, pref, support, out_degree, in_degree in cursor:
        key = node_id(iri, base)
        if kind is None:
            prefix = key.split("/", 1)[0]
            kind = prefix if prefix in CONCEPT_TYPES else "entity"
        name = title or label or pref or key.rsplit("/", 1)[-1]
        if kind == "paper":
            count = out_degree
        else:
            count = int(support) if support is not None else in_degree
        nodes.append((key, iri, kind, name, count, _fold(name)))
        known = sorted(v for (v,) in aliases.execute(
            "SELECT value FROM prop WHERE iri = ? AND kind = 'alias'", (iri,)))
        folded = _fold(name)
        # Aliases in one column each way: "\n"-delimited (whole and starting matches) and
        # spaced (word starts), so one row answers for a node and its every name.
        rows.append((key, iri, kind, name, count, folded, int(kind == "paper"),
                     "title" if kind == "paper" else "label", folded, _spaced(folded),
                     json.dumps(known, ensure_ascii=False),
                     "".join(f"\n{_fold(a)}" for a in known) + "\n" if known else "",
                     "".join(_spaced(_fold(a)) for a in known)))
        names.extend((label_key(text), key) for text in [name, *known])
        if len(nodes) >= _BATCH:
            _flush(db, nodes, rows, names)
    _flush(db, nodes, rows, names)


def _flush(db: sqlite3.Connection, nodes: list[tuple[Any, ...]], rows: list[tuple[Any, ...]],
           names: list[tuple[str, str]]) -> None:
    db.executemany("INSERT OR REPLACE INTO nodes VALUES (?, ?, ?, ?, ?, ?)", nodes)
    db.executemany("INSERT OR REPLACE INTO search (id, iri, type, label, support, sortlabel, "
                   "is_paper, field, folded, spaced, aliases, afolded, aspaced) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.executemany("INSERT INTO names VALUES (?, ?)", names)
    nodes.clear()
    rows.clear()
    names.clear()


# -- where the files live ----------------------------------------------------------------------


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def _shared_folder(store: Store) -> Path:
    folder = os.environ.get("PAPERKG_SEARCH_DIR") or os.path.join(tempfile.gettempdir(),
                                                                   "paperkg-search")
    location = str(getattr(store, "location", ""))
    if location in ("", ":memory:"):
        location = f"{location}#{os.getpid()}#{id(store)}"
    return Path(folder) / _digest(location)


def index_folder(store: Store) -> Path:
    """Where the index files of `store` go."""
    location = str(getattr(store, "location", ""))
    if location.startswith(("http://", "https://")) or location in ("", ":memory:"):
        return _shared_folder(store)
    path = Path(location)
    # Beside the store, not in its generations folder (store.d/), which holds generations only.
    folder = path.with_name(path.name + ".search")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    return _shared_folder(store)


def index_path(store: Store, generation: str, base: str = DEFAULT_BASE) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", generation)[:80]
    return index_folder(store) / f"{safe}-{_digest(base)}-v{SCHEMA_VERSION}.sqlite"


_OPEN: dict[Path, SearchIndex] = {}
_BUILDING: set[Path] = set()
_LOG = logging.getLogger(__name__)
_OPEN_LOCK = threading.Lock()
_BUILD_LOCK = threading.Lock()


def ensure_index(store: Store, base: str = DEFAULT_BASE, generation: str | None = None) -> Path:
    """The index file of the store's current generation, built first if there is none."""
    generation = generation if generation is not None else str(store.generation())
    path = index_path(store, generation, base)
    if path.exists():
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot write the search index at {path.parent}: {exc}") from None
    with _BUILD_LOCK, _file_lock(path.with_name(path.name + ".lock")):
        if not path.exists():
            build(store, path, base)
            remove_stale(path)
    return path


def open_index(store: Store, base: str = DEFAULT_BASE, generation: str | None = None
               ) -> SearchIndex:
    """The index of the store's current generation, built first (and waited for) if needed."""
    return _opened(ensure_index(store, base, generation))


def ready_index(store: Store, base: str, generation: str) -> SearchIndex | None:
    """The index of that generation if it is built; None (and its build started on a
    thread of its own) if not."""
    path = index_path(store, generation, base)
    if path.exists():
        return _opened(path)
    with _OPEN_LOCK:
        if path in _BUILDING:
            return None
        _BUILDING.add(path)

    def run() -> None:
        try:
            ensure_index(store, base, generation)
        except PaperkgError as exc:  # the next request tries again; meanwhile SPARQL answers
            _LOG.warning("could not build the search index of %s: %s", store.location, exc)
        finally:
            with _OPEN_LOCK:
                _BUILDING.discard(path)

    threading.Thread(target=run, name="paperkg-search-index", daemon=True).start()
    return None


def existing_index(store: Store, base: str, generation: str) -> SearchIndex | None:
    """The index of that generation if its file is there; None (and nothing started) if not."""
    path = index_path(store, generation, base)
    return _opened(path) if path.exists() else None


def _opened(path: Path) -> SearchIndex:
    with _OPEN_LOCK:
        index = _OPEN.get(path)
        if index is None:
            index = _OPEN[path] = SearchIndex(path)
        return index


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    try:
        handle = open(path, "wb")  # noqa: SIM115
    except OSError as exc:
        raise StoreError(f"cannot write the search index at {path.parent}: {exc}") from None
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def remove_stale(current: Path) -> None:
    """Index files of older generations in the same folder, but the newest one before this
    (a server may still read it until it sees the new generation)."""
    others = sorted((p for p in current.parent.glob("*.sqlite") if p != current),
                    key=lambda p: p.stat().st_mtime)
    for path in others[:-1]:
        with contextlib.suppress(OSError):
            path.unlink()
            path.with_name(path.name + ".lock").unlink(missing_ok=True)
