"""The embedded store: an Oxigraph database on disk (the default store), or in memory.

On disk a store is a symlink to one *generation*, a complete Oxigraph database
(graph.store.generations: the layout, the writer's lock, publishing a generation):

    .paperkg/store -> store.d/<generation>/

Every write makes a new generation beside the current one and switches the symlink with
`os.replace`, so a failure or a kill at any point leaves the previous store readable and
unchanged, and readers (the web server, opened with `read_only=True`) never see a half-written
database. `generation()` reads the link from disk, so a reader can tell that the store changed
and reopen (`refresh()`).

A build loads with `replace_all_nquads`: the N-Quads files are written inside the new
generation's folder and bulk loaded by Oxigraph (no Python object per quad); a change
(`update`, `add_quads`) runs in one transaction on a backup of the current
generation, which RocksDB makes by hard-linking its files: its cost grows with the number of
files, not with the size of the graph.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pyoxigraph
from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat

from graph.errors import QueryError, StoreError
from graph.store.bulk import load_nquads
from graph.store.generations import Generations, store_error
from graph.store.protocol import DEFAULT_GRAPH, NQuadsSource, QueryResult, Store

MEMORY = ":memory:"


def _graph_term(name: str) -> NamedNode | DefaultGraph:
    return DefaultGraph() if name == DEFAULT_GRAPH else NamedNode(name)


class EmbeddedStore:
    """An Oxigraph database in a folder (generations behind a symlink), or in memory.

    A published generation is never opened for writing: the writer, like every reader, reads
    it through `pyoxigraph.Store.read_only`, and each write makes a new generation (a hard-link
    backup of the current one, changed in one transaction, or a fresh bulk load) and switches to
    it. So a reader never opens a database another process is writing, which Oxigraph leaves
    undefined, and a crash at any point leaves the last published generation as it was.
    The generation replaced last is kept until the next switch, for readers that still use it.
    """

    def __init__(self, location: str, *, read_only: bool = False) -> None:
        self.location = location
        self.read_only = read_only
        self._memory_generation = 0
        self._store: pyoxigraph.Store | None = None
        self._opened = ""
        if location == MEMORY:
            self._store = pyoxigraph.Store()
            self._opened = self.generation()
            return
        self._layout = Generations(location)
        if not read_only:
            self._layout.lock_for_writing(lambda folder: pyoxigraph.Store(folder).flush())
        self._open_current()

    # -- opening ------------------------------------------------------------------------------

    def _open_current(self) -> None:
        if not self._layout.path.exists():
            raise StoreError(
                f"no store at {self.location}: build one first (`paperkg build`), "
                "or name it with --store or $PAPERKG_STORE"
            )
        for attempt in range(3):
            # A build may switch generations between resolving the link and opening it.
            opened = self.generation()
            try:
                self._store = pyoxigraph.Store.read_only(str(self._layout.path.resolve()))
                break
            except (OSError, RuntimeError) as exc:
                if attempt == 2 or not self._layout.path.exists():
                    raise store_error(self.location, "read", exc) from None
        self._opened = opened

    # -- generations --------------------------------------------------------------------------

    def generation(self) -> str:
        """An id of the store's content on disk now; it changes whenever the content does."""
        if self.location == MEMORY:
            return f"memory-{self._memory_generation}"
        return self._layout.generation()

    @property
    def opened(self) -> str:
        """The generation this object opened (what its queries read)."""
        return self._opened

    def refresh(self) -> bool:
        """Reopen when the store on disk changed since this object opened it; True if so."""
        if self.location == MEMORY or self.generation() == self._opened:
            return False
        self._store = None
        self._open_current()
        return True

    # -- reading ------------------------------------------------------------------------------

    @property
    def engine(self) -> pyoxigraph.Store:
        """The pyoxigraph store this object reads now, for a caller that runs a query on it
        directly (api.hot_path), without this class's error messages."""
        return self._db()

    def _db(self) -> pyoxigraph.Store:
        if self._store is None:
            raise StoreError(f"the store at {self.location} is closed")
        return self._store

    def query(
        self,
        sparql: str,
        *,
        default_graph: list[str] | None = None,
        named_graphs: list[str] | None = None,
        union_default_graph: bool = False,
    ) -> QueryResult:
        """Run a SPARQL 1.1 query. Graph names are IRIs; DEFAULT_GRAPH ("") is the default graph."""
        kwargs: dict = {"use_default_graph_as_union": union_default_graph}
        if default_graph is not None:
            kwargs["default_graph"] = [_graph_term(name) for name in default_graph]
        if named_graphs is not None:
            kwargs["named_graphs"] = [NamedNode(name) for name in named_graphs]
        try:
            return self._db().query(sparql, **kwargs)
        except SyntaxError as exc:
            raise QueryError(f"invalid SPARQL query: {exc}") from None
        except ValueError as exc:
            raise QueryError(str(exc)) from None
        except OSError as exc:
            raise store_error(self.location, "query", exc) from None

    def quads(self, graph: str | None = None) -> Iterator[Quad]:
        """Every quad (None), the default graph's (DEFAULT_GRAPH, ""), or one named graph's."""
        graph_term = None if graph is None else _graph_term(graph)
        try:
            return iter(self._db().quads_for_pattern(None, None, None, graph_term))
        except OSError as exc:
            raise store_error(self.location, "read", exc) from None

    def named_graphs(self) -> list[str]:
        return sorted(g.value for g in self._db().named_graphs() if isinstance(g, NamedNode))

    def __len__(self) -> int:
        return len(self._db())

    # -- writing ------------------------------------------------------------------------------

    def _write(self, fill: Callable[[str], None], change: Callable[[pyoxigraph.Store], None]
               ) -> None:
        """On disk: publish a new generation; in memory: `change` the store in place."""
        if self.read_only:
            raise StoreError(f"the store at {self.location} was opened read-only")
        db = self._db()
        try:
            if self.location == MEMORY:
                change(db)
                self._memory_generation += 1
                return
            self._layout.publish(fill)
            self._store = None
            self._open_current()
        except OSError as exc:
            raise store_error(self.location, "write", exc) from None

    def replace_all(self, quads: Iterable[Quad]) -> None:
        """Make `quads` the whole content, atomically: all of them or the previous store."""
        if self.location == MEMORY and not self.read_only:
            fresh = pyoxigraph.Store()
            try:
                fresh.bulk_extend(quads)
            except OSError as exc:
                raise store_error(self.location, "write", exc) from None
            self._store = fresh
            self._memory_generation += 1
            return

        def fill(folder: str) -> None:
            fresh = pyoxigraph.Store(folder)
            fresh.bulk_extend(quads)
            fresh.flush()

        self._write(fill, lambda db: None)

    def replace_all_nquads(
        self,
        source: NQuadsSource,
        *,
        count: bool = True,
        before_publish: Callable[[Store], None] | None = None,
        lenient: bool = False,
    ) -> int | None:
        """Make the N-Quads in `source` the whole content, atomically; returns the quad count
        (None with `count=False`, which saves a scan of the whole store).

        `before_publish(view)`, if given, runs on the loaded graph (a read-only EmbeddedStore
        of it) before the store switches to it: an error there leaves the store as it was.

        `source` is a list of documents (bytes) and files (paths), or a function that writes
        N-Quads files into the folder it is given and returns their paths: on disk that folder
        is the new generation itself, so the text never needs to be held in memory, and the
        files go once they are loaded (or with the generation, if the load fails). Files are
        bulk loaded by Oxigraph, parsed and indexed without a Python object per quad; the files
        of a function are loaded on a second thread as it yields them, so a function that is
        a generator goes on working while they load.

        `lenient` skips Oxigraph's check of each IRI while parsing (about a fifth of the load's
        time: bench/bench_build.py's load stage): only for text `graph.rdf` wrote, whose IRIs
        were checked as they were made.
        """
        def load(db: pyoxigraph.Store, folder: Path | None) -> None:
            load_nquads(db, source, folder, self.location, lenient)

        if self.location == MEMORY and not self.read_only:
            fresh = pyoxigraph.Store()
            try:
                load(fresh, None)
            except OSError as exc:
                raise store_error(self.location, "write", exc) from None
            if before_publish is not None:
                view = EmbeddedStore(MEMORY)
                view._store, view.read_only = fresh, True
                before_publish(view)
            self._store = fresh
            self._memory_generation += 1
            return len(fresh) if count else None

        def fill(folder: str) -> None:
            os.makedirs(folder)
            fresh = pyoxigraph.Store(folder)
            load(fresh, Path(folder))
            fresh.flush()
            if before_publish is not None:
                del fresh  # closed, so the folder opens read-only like any reader's
                view = EmbeddedStore(folder, read_only=True)
                try:
                    before_publish(view)
                finally:
                    view.close()

        self._write(fill, lambda db: None)
        return len(self._db()) if count else None

    def dump_graph(self, output: str | os.PathLike, graph: str = DEFAULT_GRAPH) -> None:
        """Write one graph's triples to the file `output` as N-Triples (store order).

        An OSError (the output's disk full, say) is the caller's to word: it concerns the
        output far more often than the store."""
        self._db().dump(os.fspath(output), format=RdfFormat.N_TRIPLES,
                        from_graph=_graph_term(graph))

    def update(self, sparql: str) -> None:
        """Run a SPARQL Update request as one write: one transaction, one new generation."""
        if not sparql.strip():
            return

        def change(db: pyoxigraph.Store) -> None:
            try:
                db.update(sparql)
            except SyntaxError as exc:
                raise QueryError(f"invalid SPARQL update: {exc}") from None

        self._write(self._changed_copy(change), change)

    def _changed_copy(self, change: Callable[[pyoxigraph.Store], None]) -> Callable[[str], None]:
        def fill(folder: str) -> None:
            # A backup beside the current generation shares its files by hard links.
            self._db().backup(folder)
            copy = pyoxigraph.Store(folder)
            change(copy)
            copy.flush()

        return fill

    def add_quads(self, quads: Iterable[Quad]) -> None:
        """Add quads in one transaction."""
        batch = list(quads)

        def change(db: pyoxigraph.Store) -> None:
            db.extend(batch)

        self._write(self._changed_copy(change), change)

    def close(self) -> None:
        self._store = None
        if self.location != MEMORY:
            self._layout.release()

    def __enter__(self) -> EmbeddedStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = "read-only" if self.read_only else "read-write"
        return f"<EmbeddedStore {self.location} {mode}>"
