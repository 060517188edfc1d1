"""Bulk loading: N-Quads text written to files sized for Oxigraph's bulk loader, and loaded
into a pyoxigraph database, on a second thread while the files are still being written.

A build writes its graph as N-Quads lines (graph.rdf) into `NQuadsFiles`; the embedded store's
`replace_all_nquads` loads them with `load_nquads` (no Python object per quad), and a remote
store parses them into the quads it sends (`nquads_quads`).
"""

from __future__ import annotations

import os
import queue
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO

import pyoxigraph
from pyoxigraph import Quad, RdfFormat

from graph.errors import StoreError
from graph.store.protocol import NQuadsSource

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
            out = self._out
            if out is None or self._lines >= self.limit:
                out = self._roll()
            part = lines[start : start + self.limit - self._lines]
            out.writelines(part)
            self._lines += len(part)
            start += len(part)

    def _roll(self) -> IO[str]:
        if self._out is not None:
            self._out.close()
        path = self.folder / f"{self.stem}-{len(self.paths):04d}.nq"
        self._out = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.paths.append(path)
        self._lines = 0
        return self._out

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


def load_nquads(db: pyoxigraph.Store, source: NQuadsSource, folder: Path | None,
               location: str, lenient: bool = False) -> None:
    """Load `source` (see graph.store.protocol.NQuadsSource) into `db`. A function source
    writes into `folder` (a temporary folder, removed after, when None), and its files are
    loaded on a second thread as it yields them."""
    staged: list[Path] = []
    try:
        if callable(source):
            if folder is None:
                folder = Path(tempfile.mkdtemp(prefix="paperkg-load-"))
                staged.append(folder)
            _load_while_writing(db, source(folder), location, lenient)
        else:
            for item in source:
                _bulk_load(db, item, location, lenient)
    finally:
        for path in staged:
            shutil.rmtree(path, ignore_errors=True)


def nquads_quads(items: Iterable[bytes | str | os.PathLike], location: str, lenient: bool = False,
                 *, delete: bool = False) -> Iterator[Quad]:
    """The quads of N-Quads documents (bytes) and files (paths), parsed one after another, for
    a store without a bulk loader of its own; each file is deleted once read with `delete`."""
    for item in items:
        try:
            if isinstance(item, bytes):
                yield from pyoxigraph.parse(item, RdfFormat.N_QUADS, lenient=lenient)
            else:
                yield from pyoxigraph.parse(path=os.fspath(item), format=RdfFormat.N_QUADS,
                                            lenient=lenient)
        except SyntaxError as exc:
            raise StoreError(f"cannot load N-Quads into the store at {location}: {exc}") from None
        if delete and not isinstance(item, bytes):
            os.unlink(item)
