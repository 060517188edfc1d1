"""The graph store: embedded Oxigraph on disk (default), in memory, or a remote SPARQL server.

On disk a store is a symlink to one *generation*, a complete Oxigraph database:

    .paperkg/store -> store.d/<generation>/

Every write makes a new generation beside the current one and switches the symlink with
`os.replace`, so a failure or a kill at any point leaves the previous store readable and
unchanged, and readers (the web server, opened with `read_only=True`) never see a half-written
database. `generation()` reads the link from disk, so a reader can tell that the store changed
and reopen (`refresh()`).

A build loads with `replace_all_nquads`: the N-Quads files are written inside the new
generation's folder and bulk loaded by Oxigraph (no Python object per quad); a change
(`update`, `add_quads`, `replace_graph_of`) runs in one transaction on a backup of the current
generation, which RocksDB makes by hard-linking its files: its cost grows with the number of
files, not with the size of the graph.
"""

from __future__ import annotations

import errno
import fcntl
import os
import queue
import re
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Protocol, runtime_checkable

import pyoxigraph
from pyoxigraph import (
    DefaultGraph,
    NamedNode,
    Quad,
    QueryBoolean,
    QuerySolutions,
    QueryTriples,
    RdfFormat,
)

from graph.errors import QueryError, StoreError
from graph.vocab import (
    CLASSES,
    DEFAULT_BASE,
    ENTITY_TYPES,
    HAS_RESULT,
    LINK_IRIS,
    LINKS,
    MAKES_CLAIM,
    OA,
    PKG,
    SUPPORT,
    paper_iri,
)

STORE_ENV = "PAPERKG_STORE"
DIALECT_ENV = "PAPERKG_STORE_DIALECT"
DEFAULT_LOCATION = os.path.join(".paperkg", "store")
MEMORY = ":memory:"
#: `quads(graph=DEFAULT_GRAPH)` / `default_graph=[DEFAULT_GRAPH]` name the store's default graph.
DEFAULT_GRAPH = ""

QueryResult = QuerySolutions | QueryBoolean | QueryTriples

_MAKES_CLAIM = NamedNode(PKG + MAKES_CLAIM)
_RESULT = NamedNode(PKG + HAS_RESULT)
_SUPPORT = NamedNode(PKG + SUPPORT)
_HAS_SOURCE = NamedNode(OA + "hasSource")
_HAS_TARGET = NamedNode(OA + "hasTarget")
_HAS_SELECTOR = NamedNode(OA + "hasSelector")
_ENTITY_CLASSES = tuple(CLASSES[type_] for type_ in ENTITY_TYPES)
# LINK_IRIS: the paper -> entity links; the support of an entity is the number of papers
# linking it so (graph.vocab's, re-exported for the store's callers).


@runtime_checkable
class Store(Protocol):
    """What the rest of paperkg uses of a store; EmbeddedStore and RemoteStore implement it."""

    location: str

    def query(
        self,
        sparql: str,
        *,
        default_graph: list[str] | None = None,
        named_graphs: list[str] | None = None,
        union_default_graph: bool = False,
    ) -> QueryResult: ...

    def quads(self, graph: str | None = None) -> Iterator[Quad]: ...

    def replace_all(self, quads: Iterable[Quad]) -> None: ...

    def replace_graph_of(self, paper_iri: str, quads: Iterable[Quad]) -> None: ...

    def remove_paper(self, key: str, *, base: str = DEFAULT_BASE) -> bool: ...

    def add_quads(self, quads: Iterable[Quad]) -> None: ...

    def update(self, sparql: str) -> None: ...

    def generation(self) -> str: ...

    def __len__(self) -> int: ...

    def close(self) -> None: ...


#: Lines per N-Quads file of a load. Oxigraph's bulk loader holds a whole batch (up to a
#: million quads per thread) in memory, ~2 GB at 6.6M quads in one file; files of this size,
#: each its own bulk load, keep it near 300 MB and load as fast (bench/README.md).
LOAD_FILE_LINES = 250_000
#: Lines per file of the part of a build loaded while later papers are still being parsed:
#: smaller, so the load starts early and little is left when the parsing ends, and as cheap to
#: load (bench/README.md).
STREAM_FILE_LINES = 100_000
#: Lines per file of a build's linked lines, the part written after the resolver: the last
#: file is all that is left to load once the writing ends, so it is kept small.
LINKED_FILE_LINES = 25_000


class NQuadsFiles:
    """N-Quads lines written to numbered files `{folder}/{stem}-NNNN.nq` of at most
    LOAD_FILE_LINES lines each: what `replace_all_nquads` loads best. `paths` once closed."""

    def __init__(self, folder: str | os.PathLike, stem: str,
                 lines_per_file: int | None = None) -> None:
        self.folder = Path(folder)
        self.stem = stem
        self.limit = lines_per_file or LOAD_FILE_LINES
        self.paths: list[Path] = []
        self._out: IO[str] | None = None
        self._lines = 0
        self._taken = 0

    def write(self, lines: Sequence[str]) -> None:
        start = 0
        while start < len(lines):
            if self._out is None or self._lines >= self.limit:
                self._roll()
            assert self._out is not None
            part = lines[start : start + self.limit - self._lines]
            self._out.writelines(part)
            self._lines += len(part)
            start += len(part)

    def _roll(self) -> None:
        if self._out is not None:
            self._out.close()
        path = self.folder / f"{self.stem}-{len(self.paths):04d}.nq"
        self._out = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.paths.append(path)
        self._lines = 0

    def take_finished(self) -> list[Path]:
        """The files completed since the last call, ready to load while writing goes on."""
        done = len(self.paths) - (self._out is not None)
        finished, self._taken = self.paths[self._taken : done], max(self._taken, done)
        return finished

    def close(self) -> list[Path]:
        if self._out is not None:
            self._out.close()
            self._out = None
        return self.paths

    def __enter__(self) -> NQuadsFiles:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_store(location: str | None = None, *, read_only: bool = False,
               dialect: str | None = None) -> Store:
    """The store at `location`: a folder, ":memory:", or an http(s) URL of a SPARQL server.

    None means $PAPERKG_STORE, else `.paperkg/store` under the current folder. Opening for
    reading needs an existing store; opening for writing creates an empty one. A server's
    `dialect` (else $PAPERKG_STORE_DIALECT): "sparql" (any SPARQL 1.1 server with the
    Graph Store Protocol, the default) or "virtuoso".
    """
    if location is None:
        location = os.environ.get(STORE_ENV) or DEFAULT_LOCATION
    if location.startswith(("http://", "https://")):
        kind = (dialect or os.environ.get(DIALECT_ENV) or "sparql").strip().lower()
        if kind == "virtuoso":
            from graph.store_virtuoso import VirtuosoStore

            return VirtuosoStore(location)
        if kind != "sparql":
            raise StoreError(f"unknown store dialect {kind!r} (${DIALECT_ENV}): "
                             "use sparql or virtuoso")
        from graph.store_remote import RemoteStore

        return RemoteStore(location)
    return EmbeddedStore(location, read_only=read_only)


def _graph_term(name: str) -> NamedNode | DefaultGraph:
    return DefaultGraph() if name == DEFAULT_GRAPH else NamedNode(name)


def _bulk_load(db: pyoxigraph.Store, item: bytes | str | os.PathLike, location: str,
               lenient: bool = False) -> None:
    try:
        if isinstance(item, bytes):
            db.bulk_load(item, format=RdfFormat.N_QUADS, lenient=lenient)
        else:
            db.bulk_load(path=os.fspath(item), format=RdfFormat.N_QUADS, lenient=lenient)
    except SyntaxError as exc:
        raise StoreError(f"cannot load N-Quads into the store at {location}: {exc}") from None


def _load_while_writing(db: pyoxigraph.Store, files: Iterable[Path], location: str,
                        lenient: bool = False) -> None:
    """Bulk load each file `files` yields, and delete it, on a second thread: Oxigraph releases
    the GIL while it loads, so a generator that parses and writes (a build) keeps going on the
    other core. The thread starts with the first file, so a generator can still fork worker
    processes before that. The first error of either side stops both and is raised here."""
    pending: queue.Queue[Path | None] = queue.Queue(maxsize=8)
    failed: list[BaseException] = []

    def loader() -> None:
        while (path := pending.get()) is not None:
            if failed:
                continue
            try:
                _bulk_load(db, path, location, lenient)
                os.unlink(path)
            except BaseException as exc:  # noqa: BLE001 - handed to the writing thread
                failed.append(exc)

    thread: threading.Thread | None = None
    try:
        for path in files:
            if failed:
                break
            if thread is None:
                thread = threading.Thread(target=loader, name="paperkg-load", daemon=True)
                thread.start()
            pending.put(path)
    finally:
        close = getattr(files, "close", None)
        if close is not None:  # a generator left early: let it clean up (its worker pool)
            close()
        if thread is not None:
            pending.put(None)
            thread.join()
    if failed:
        raise failed[0]


def _error(path: str | os.PathLike, action: str, exc: BaseException) -> StoreError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        reason = "no space left on the device"
    return StoreError(f"cannot {action} the store at {path}: {reason}")


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
        self._lock: IO[bytes] | None = None
        self._memory_generation = 0
        self._store: pyoxigraph.Store | None = None
        self._opened = ""
        if location == MEMORY:
            self._store = pyoxigraph.Store()
            self._opened = self.generation()
            return
        self._path = Path(location)
        self._generations = self._path.with_name(self._path.name + ".d")
        if not read_only:
            self._prepare_writer()
        self._open_current()

    # -- opening ------------------------------------------------------------------------------

    def _open_current(self) -> None:
        if not self._path.exists():
            raise StoreError(
                f"no store at {self.location}: build one first (`paperkg build`), "
                "or name it with --store or $PAPERKG_STORE"
            )
        for attempt in range(3):
            # A build may switch generations between resolving the link and opening it.
            opened = self.generation()
            try:
                self._store = pyoxigraph.Store.read_only(str(self._path.resolve()))
                break
            except (OSError, RuntimeError) as exc:
                if attempt == 2 or not self._path.exists():
                    raise _error(self.location, "read", exc) from None
        self._opened = opened

    def _prepare_writer(self) -> None:
        try:
            self._generations.mkdir(parents=True, exist_ok=True)
            self._lock = open(self._generations / "writer.lock", "wb")
        except OSError as exc:
            raise _error(self.location, "create", exc) from None
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._release_lock()
            raise StoreError(
                f"the store at {self.location} is being written by another process"
            ) from None
        try:
            if not os.path.lexists(self._path):
                self._publish(lambda folder: pyoxigraph.Store(folder).flush())
            elif not self._path.exists():
                raise StoreError(f"the store at {self.location} is a broken link")
            else:
                self._remove_stale_generations(keep_previous=True)
        except OSError as exc:
            self._release_lock()
            raise _error(self.location, "create", exc) from None
        except StoreError:
            self._release_lock()
            raise

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # -- generations --------------------------------------------------------------------------

    def _current_name(self) -> str | None:
        """The generation the symlink points to; None for a plain folder (made elsewhere)."""
        if self._path.is_symlink():
            return Path(os.readlink(self._path)).name
        return None

    def generation(self) -> str:
        """An id of the store's content on disk now; it changes whenever the content does."""
        if self.location == MEMORY:
            return f"memory-{self._memory_generation}"
        try:
            name = self._current_name()
            if name is None:
                stat = self._path.stat()
                name = f"folder-{stat.st_ino:x}-{stat.st_mtime_ns:x}"
        except OSError as exc:
            raise _error(self.location, "read", exc) from None
        return name

    def refresh(self) -> bool:
        """Reopen when the store on disk changed since this object opened it; True if so."""
        if self.location == MEMORY or self.generation() == self._opened:
            return False
        self._store = None
        self._open_current()
        return True

    def _publish(self, fill: Callable[[str], None]) -> None:
        """Make a new generation with `fill(folder)` and switch the store to it."""
        generation = f"{time.time_ns():016x}-{uuid.uuid4().hex[:8]}"
        folder = self._generations / generation
        try:
            fill(str(folder))
            if os.path.lexists(self._path) and self._current_name() is None:
                self._adopt_folder()
            link = self._path.with_name(f".{self._path.name}.{generation}.link")
            os.symlink(os.path.join(self._generations.name, generation), link)
            try:
                os.replace(link, self._path)
            except OSError:
                os.unlink(link)
                raise
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        self._store = None
        self._remove_stale_generations(keep_previous=True)

    def _adopt_folder(self) -> None:
        """Move a plain store folder (made by `oxigraph load`, say) under store.d/ so the
        symlink can take its place. Readers opening in this instant find no store."""
        self._store = None
        os.rename(self._path, self._generations / f"{time.time_ns():016x}-adopted")

    def _remove_stale_generations(self, *, keep_previous: bool) -> None:
        """Generations no link points to (replaced, or left by a failed or killed write),
        except the newest replaced one when `keep_previous`."""
        current = self._current_name()
        others = sorted(
            (entry for entry in self._generations.iterdir()
             if entry.is_dir() and entry.name != current),
            key=lambda entry: entry.name,
        )
        if keep_previous and others:
            others.pop()
        for entry in others:
            shutil.rmtree(entry, ignore_errors=True)
        for entry in self._path.parent.glob(f".{self._path.name}.*.link"):
            entry.unlink(missing_ok=True)

    # -- reading ------------------------------------------------------------------------------

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
            raise _error(self.location, "query", exc) from None

    def quads(self, graph: str | None = None) -> Iterator[Quad]:
        """Every quad (None), the default graph's (DEFAULT_GRAPH, ""), or one named graph's."""
        graph_term = None if graph is None else _graph_term(graph)
        try:
            return iter(self._db().quads_for_pattern(None, None, None, graph_term))
        except OSError as exc:
            raise _error(self.location, "read", exc) from None

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
            self._publish(fill)
            self._open_current()
        except OSError as exc:
            raise _error(self.location, "write", exc) from None

    def replace_all(self, quads: Iterable[Quad]) -> None:
        """Make `quads` the whole content, atomically: all of them or the previous store."""
        if self.location == MEMORY and not self.read_only:
            fresh = pyoxigraph.Store()
            try:
                fresh.bulk_extend(quads)
            except OSError as exc:
                raise _error(self.location, "write", exc) from None
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
        source: Sequence[bytes | str | os.PathLike] | Callable[[Path], Iterable[Path]],  # noqa
        *,
        count: bool = True,
        before_publish: Callable[[EmbeddedStore], None] | None = None,
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
            staged: list[Path] = []
            try:
                if callable(source):
                    if folder is None:
                        folder = Path(tempfile.mkdtemp(prefix="paperkg-load-"))
                        staged.append(folder)
                    _load_while_writing(db, source(folder), self.location, lenient)
                else:
                    for item in source:
                        _bulk_load(db, item, self.location, lenient)
            finally:
                for path in staged:
                    shutil.rmtree(path, ignore_errors=True)

        if self.location == MEMORY and not self.read_only:
            fresh = pyoxigraph.Store()
            try:
                load(fresh, None)
            except OSError as exc:
                raise _error(self.location, "write", exc) from None
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

    def replace_graph_of(self, paper_iri: str, quads: Iterable[Quad]) -> None:
        """Replace one paper's facts and provenance (its claims, results, annotations) by
        `quads`, in one transaction, then recount the support of every entity it linked
        before or links now; entity nodes left with no paper are removed."""
        operations = replace_operations(paper_iri, self._owned_quads(NamedNode(paper_iri)),
                                        list(dict.fromkeys(quads)))
        if not operations:
            return
        update = " ;\n".join(operations)

        def change(db: pyoxigraph.Store) -> None:
            db.update(update)

        self._write(self._changed_copy(change), change)

    def remove_paper(self, key: str, *, base: str = DEFAULT_BASE) -> bool:
        """Remove one paper (by key, or its IRI) like `replace_graph_of(iri, [])`.

        True if the store held it.
        """
        iri = key if key.startswith(("http://", "https://")) else paper_iri(base, key)
        present = next(iter(self._db().quads_for_pattern(NamedNode(iri), None, None)), None)
        if present is None:
            return False
        self.replace_graph_of(iri, [])
        return True

    def _owned_quads(self, paper: NamedNode) -> list[Quad]:
        """Quads about the paper and the nodes only it owns: claims, results, annotations."""
        db = self._db()
        subjects: list[NamedNode] = [paper]
        claims = [q.object for q in db.quads_for_pattern(paper, _MAKES_CLAIM, None)]
        subjects += claims
        for claim in claims:
            subjects += [q.object for q in db.quads_for_pattern(claim, _RESULT, None)]
        for target_quad in db.quads_for_pattern(None, _HAS_SOURCE, paper):
            target = target_quad.subject
            subjects.append(target)
            subjects += [q.object for q in db.quads_for_pattern(target, _HAS_SELECTOR, None)]
            subjects += [q.subject for q in db.quads_for_pattern(None, _HAS_TARGET, target)]
        owned: dict[Quad, None] = {}
        for subject in dict.fromkeys(subjects):
            if isinstance(subject, NamedNode):
                owned.update(dict.fromkeys(db.quads_for_pattern(subject, None, None)))
        return list(owned)

    def close(self) -> None:
        self._store = None
        self._release_lock()

    def __enter__(self) -> EmbeddedStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = "read-only" if self.read_only else "read-write"
        return f"<EmbeddedStore {self.location} {mode}>"


def data_block(quads: Iterable[Quad]) -> str:
    """Quads as the body of INSERT DATA / DELETE DATA (default graph first, then GRAPH blocks)."""
    default: list[str] = []
    named: dict[str, list[str]] = {}
    for quad in quads:
        triple = f"{quad.subject} {quad.predicate} {quad.object} ."
        if isinstance(quad.graph_name, DefaultGraph):
            default.append(triple)
        else:
            named.setdefault(str(quad.graph_name), []).append(triple)
    parts = default + [f"GRAPH {g} {{\n{chr(10).join(ts)}\n}}" for g, ts in named.items()]
    return "\n".join(parts)


_IRI_SAFE = re.compile(r"^[^<>\"{}|^`\\\x00-\x20]*$")


def replace_operations(paper_iri: str, old: list[Quad], new: list[Quad]) -> list[str]:
    """SPARQL Update operations that swap a paper's `old` quads for `new` and move the
    support of every entity it linked before or links now (both backends run these). The
    store keeps the counts: a pkg:support in `new` is left out."""
    support = PKG + "support"
    new = [q for q in new if q.predicate.value != support]
    operations = []
    if old:
        operations.append(f"DELETE DATA {{\n{data_block(old)}\n}}")
    if new:
        operations.append(f"INSERT DATA {{\n{data_block(new)}\n}}")
    operations.extend(adjust_support(support_deltas(
        {paper_iri: links_of(old, paper_iri)}, {paper_iri: links_of(new, paper_iri)})))
    return operations


def links_of(quads: Iterable[Quad], paper: str) -> set[str]:
    """The entities (and domains) `paper` links in `quads`."""
    return {
        q.object.value for q in quads
        if q.subject.value == paper and q.predicate.value in LINK_IRIS
    }


def support_deltas(before: dict[str, set[str]], after: dict[str, set[str]]) -> dict[str, int]:
    """Per entity: papers that link it in `after` but not `before`, minus the reverse. Both
    map a paper to every entity it links (a paper absent from one side links nothing there)."""
    deltas: dict[str, int] = {}
    for paper in before.keys() | after.keys():
        old, new = before.get(paper, set()), after.get(paper, set())
        for entity in new - old:
            deltas[entity] = deltas.get(entity, 0) + 1
        for entity in old - new:
            deltas[entity] = deltas.get(entity, 0) - 1
    return {entity: delta for entity, delta in deltas.items() if delta}


def adjust_support(deltas: dict[str, int]) -> list[str]:
    """SPARQL Update operations that move pkg:support of each entity by its delta, leave no
    support on a node no paper is left in, and drop entity nodes (not taxonomy domains) that
    no paper links any more.

    Moving the stored count costs the same at any size of graph, where counting an entity's
    links again grows with its papers (2.6 s for the entities of ten papers at 10,000 papers,
    against 0.02 s; bench/README.md).
    The count stays right because every change goes through here with the paper's links
    before and after it (`replace_operations`, `graph.incremental`).
    """
    rows = " ".join(f"(<{iri}> {delta})" for iri, delta in sorted(deltas.items())
                    if delta and _IRI_SAFE.match(iri))
    if not rows:
        return []
    support = f"<{PKG}support>"
    # ?new stays unbound when nothing is left (IF's error), so no "0" is written: a build
    # writes no support for a domain without papers.
    operations = [
        f"""DELETE {{ ?e {support} ?old }} INSERT {{ ?e {support} ?new }} WHERE {{
  VALUES (?e ?delta) {{ {rows} }}
  OPTIONAL {{ ?e {support} ?old }}
  BIND(COALESCE(?old, 0) + ?delta AS ?sum)
  BIND(IF(?sum > 0, ?sum, ?none) AS ?new) }}"""
    ]
    fewer = " ".join(f"<{iri}>" for iri, delta in sorted(deltas.items())
                     if delta < 0 and _IRI_SAFE.match(iri))
    if fewer:
        classes = ", ".join(f"<{PKG}{name}>" for name in _ENTITY_CLASSES)
        links = ", ".join(f"<{PKG}{name}>" for name in LINKS)
        # The links as a FILTER on `?paper ?link ?e`, not a VALUES list: with ?e bound,
        # Oxigraph reads each entity's incoming links from its object index and stops at the
        # first. Full IRIs: Oxigraph wants a request's prefixes before its first operation.
        operations.append(f"""DELETE {{ ?e ?p ?o }} WHERE {{
  VALUES ?e {{ {fewer} }} ?e a ?class . FILTER(?class IN ({classes}))
  FILTER NOT EXISTS {{ ?paper ?link ?e . FILTER(?link IN ({links}))
    FILTER EXISTS {{ ?paper a <{PKG}Paper> }} }}
  ?e ?p ?o }}""")
    return operations


# Earlier names, for callers that use them.
_LINK_IRIS = LINK_IRIS
_data_block = data_block
