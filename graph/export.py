"""Export files of a build: Turtle, N-Triples, JSON-LD, RDF/XML (facts, the default graph),
TriG and N-Quads (everything, provenance included), and the build report.

Quads are deduplicated and sorted before serializing, so two builds of the same input write
byte-identical files: the default graph first, then each named graph by name, each in the order
of its N-Triples lines. Every file is written to a temporary file in the output folder first and
renamed into place only once all of them have been written.

A build does not hold its quads in Python: `write_store_exports` dumps each graph of the store
as N-Triples (Oxigraph writes the same canonical lines pyoxigraph does), sorts the lines in
bounded chunks merged from disk, writes N-Triples and N-Quads from the sorted lines and streams
them through pyoxigraph's serializers for the other formats. `export_store` does the same for
one format, and `write_exports` for a list of quads gives the same bytes.
"""

from __future__ import annotations

import heapq
import itertools
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from pyoxigraph import DefaultGraph, Quad, RdfFormat, parse, serialize

from graph.errors import PaperkgError
from graph.rdf import sort_quads
from graph.report import render_markdown
from graph.store import Store
from graph.vocab import DEFAULT_BASE, prefixes

#: `paperkg export --format` name -> (format, whether it holds named graphs, file suffix).
FORMATS: dict[str, tuple[RdfFormat, bool, str]] = {
    "ttl": (RdfFormat.TURTLE, False, ".ttl"),
    "nt": (RdfFormat.N_TRIPLES, False, ".nt"),
    "jsonld": (RdfFormat.JSON_LD, False, ".jsonld"),
    "rdfxml": (RdfFormat.RDF_XML, False, ".rdf"),
    "trig": (RdfFormat.TRIG, True, ".trig"),
    "nq": (RdfFormat.N_QUADS, True, ".nq"),
}
#: What `write_exports` writes, in order: file name -> format name.
GRAPH_FILES: dict[str, str] = {
    "graph.ttl": "ttl",
    "graph.nt": "nt",
    "graph.jsonld": "jsonld",
    "graph.rdf": "rdfxml",
    "graph.trig": "trig",
    "graph.nq": "nq",
}
REPORT_FILES = ("report.json", "report.md")
#: Lines sorted in memory at once (~100-200 MB of text) before runs are merged from disk.
SORT_CHUNK_LINES = 500_000
#: Bytes copied per read when a sorted file becomes an export.
_COPY = 1 << 20


class ExportError(PaperkgError):
    """An export file could not be written."""


def infer_base(quads: Sequence[Quad]) -> str:
    """The instance base of a build's quads, from its provenance graph's name."""
    for quad in quads:
        graph = quad.graph_name
        if not isinstance(graph, DefaultGraph) and graph.value.endswith("graph/provenance"):
            return graph.value[: -len("graph/provenance")]
    return DEFAULT_BASE


def serialize_quads(
    quads: Sequence[Quad], fmt: str, output: IO[bytes], *, base: str = DEFAULT_BASE
) -> None:
    """Write sorted `quads` as `fmt` (a FORMATS name); graph formats get the default graph."""
    try:
        rdf_format, datasets, _ = FORMATS[fmt]
    except KeyError:
        raise ExportError(
            f"unknown export format {fmt!r}; known formats: {', '.join(FORMATS)}"
        ) from None
    items: Iterable = (
        quads if datasets else (q.triple for q in quads if isinstance(q.graph_name, DefaultGraph))
    )
    # Prefixes only where the syntax has them; N-Triples/N-Quads stay one statement per line.
    names = prefixes(base) if rdf_format in (RdfFormat.TURTLE, RdfFormat.TRIG,
                                             RdfFormat.RDF_XML) else None
    serialize(items, output, rdf_format, prefixes=names)


def _temp_file(folder: Path, name: str) -> IO[bytes]:
    return tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed by the caller
        mode="wb", dir=folder, prefix=f".{name}.", suffix=".tmp", delete=False
    )


class PendingFiles:
    """Files written in full to temporary names in one folder, not yet in place: `commit()`
    renames them all, `discard()` deletes them."""

    def __init__(self, folder: Path, temps: dict[str, str]) -> None:
        self.folder = folder
        self.temps = temps

    def commit(self) -> list[Path]:
        try:
            written = []
            for name, temp in list(self.temps.items()):
                target = self.folder / name
                os.replace(temp, target)
                del self.temps[name]
                written.append(target)
            return written
        except OSError as exc:
            raise ExportError(
                f"cannot write exports to {self.folder}: {exc.strerror or exc}"
            ) from None
        finally:
            self.discard()

    def discard(self) -> None:
        for temp in self.temps.values():
            try:
                os.unlink(temp)
            except OSError:
                pass
        self.temps.clear()


def _prepare_all(folder: Path, writers: Mapping[str, Any]) -> PendingFiles:
    """Write every file through `writers[name](handle)` to a temp file in `folder`."""
    pending = PendingFiles(folder, {})
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(folder, writers)
        for name, write in writers.items():
            with _temp_file(folder, name) as handle:
                pending.temps[name] = handle.name
                write(handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(pending.temps[name], 0o644)
        return pending
    except OSError as exc:
        pending.discard()
        raise ExportError(f"cannot write exports to {folder}: {exc.strerror or exc}") from None
    except BaseException:
        pending.discard()
        raise


def _write_all(folder: Path, writers: Mapping[str, Any]) -> list[Path]:
    """Write every file through `writers[name](handle)` to a temp file, then rename all."""
    return _prepare_all(folder, writers).commit()


def _remove_stale_temps(folder: Path, names: Iterable[str]) -> None:
    """Temporary files a killed earlier write left behind (a finished write leaves none)."""
    for name in names:
        for stale in folder.glob(f".{name}.*.tmp"):
            try:
                stale.unlink()
            except OSError:
                pass


def report_json(report: Mapping[str, Any]) -> bytes:
    return (json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def write_exports(
    quads: Iterable[Quad],
    out_dir: str | os.PathLike,
    *,
    report: Mapping[str, Any],
    base: str | None = None,
) -> list[Path]:
    """Write graph.ttl, graph.nt, graph.jsonld, graph.rdf (facts), graph.trig, graph.nq
    (with provenance), report.json and report.md into `out_dir`; returns their paths.

    Nothing in `out_dir` changes unless every file could be serialized.
    """
    ordered = sort_quads(quads)
    base = base or infer_base(ordered)
    writers: dict[str, Any] = {
        name: (lambda handle, fmt=fmt: serialize_quads(ordered, fmt, handle, base=base))
        for name, fmt in GRAPH_FILES.items()
    }
    writers["report.json"] = lambda handle: handle.write(report_json(report))
    writers["report.md"] = lambda handle: handle.write(render_markdown(report).encode())
    return _write_all(Path(out_dir), writers)


# -- exports from a store, without holding its quads -------------------------------------------


def _sorted_runs(path: Path, work: Path) -> Iterator[str]:
    """The distinct lines of `path` in sorted order, SORT_CHUNK_LINES at a time in memory."""
    runs: list[Path] = []
    with open(path, encoding="utf-8", newline="\n") as source:
        while True:
            chunk = list(itertools.islice(source, SORT_CHUNK_LINES))
            if not chunk:
                break
            chunk = sorted(set(chunk))
            if not runs and len(chunk) < SORT_CHUNK_LINES and not source.readline():
                yield from chunk  # the common case: one chunk, no run files
                return
            run = work / f"{path.name}.run{len(runs)}"
            with open(run, "w", encoding="utf-8", newline="\n") as out:
                out.writelines(chunk)
            runs.append(run)
            del chunk
    handles = [open(run, encoding="utf-8", newline="\n") for run in runs]  # noqa: SIM115
    try:
        previous = None
        for line in heapq.merge(*handles):
            if line != previous:
                yield line
                previous = line
    finally:
        for handle in handles:
            handle.close()


class SortedGraphs:
    """A store's graphs as sorted N-Triples files in a work folder: the default graph
    (`facts`), and `dataset`, N-Quads of every graph in export order."""

    def __init__(self, store: Store, work: Path, *, dataset: bool = True) -> None:
        self.work = work
        self.names = sorted(store.named_graphs()) if dataset else []
        self.facts = work / "facts.nt"
        self.dataset = work / "dataset.nq" if dataset else None
        self.base = _base_of(self.names)
        raw = work / "raw.nt"
        store.dump_graph(raw, "")
        dataset_out: IO[str] | None = None
        if self.dataset is not None:
            dataset_out = open(self.dataset, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        try:
            with open(self.facts, "w", encoding="utf-8", newline="\n") as facts:
                for line in _sorted_runs(raw, work):
                    facts.write(line)
                    if dataset_out is not None:
                        dataset_out.write(line)
            # names are only listed when the dataset is written
            for name in self.names:
                store.dump_graph(raw, name)
                suffix = f" <{name}> .\n"
                if dataset_out is not None:
                    dataset_out.writelines(line[:-3] + suffix
                                           for line in _sorted_runs(raw, work))
        finally:
            if dataset_out is not None:
                dataset_out.close()
            for leftover in work.glob("raw.nt*"):
                leftover.unlink()

    def writer(self, fmt: str) -> Callable[[IO[bytes]], None]:
        """Writes the export in `fmt` (a FORMATS name) to a binary handle."""
        rdf_format, datasets, _ = FORMATS[fmt]
        source = self.dataset if datasets else self.facts
        if source is None:
            raise ValueError(f"{fmt} needs the named graphs, which were not sorted")

        def write(handle: IO[bytes]) -> None:
            if rdf_format in (RdfFormat.N_TRIPLES, RdfFormat.N_QUADS):
                with open(source, "rb") as lines:
                    shutil.copyfileobj(lines, handle, _COPY)
                return
            quads = parse(path=str(source), format=RdfFormat.N_QUADS if datasets
                          else RdfFormat.N_TRIPLES)
            names = prefixes(self.base) if rdf_format in (RdfFormat.TURTLE, RdfFormat.TRIG,
                                                          RdfFormat.RDF_XML) else None
            serialize(quads, handle, rdf_format, prefixes=names)

        return write


def _base_of(graph_names: Iterable[str]) -> str:
    for name in graph_names:
        if name.endswith("graph/provenance"):
            return name[: -len("graph/provenance")]
    return DEFAULT_BASE


def _work_folder(folder: Path) -> Path:
    """A fresh sort folder beside the exports (same disk); a killed run's are removed first."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(".paperkg-sort-*"):
        shutil.rmtree(stale, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=".paperkg-sort-", dir=folder))


def prepare_store_exports(
    store: Store, out_dir: str | os.PathLike, *, report: Mapping[str, Any]
) -> PendingFiles:
    """Every export file of `store` written in full beside its place; `commit()` puts them
    there. A build prepares them before it switches the store, so a failed export (a full
    or read-only folder) leaves both the store and the exports as they were."""
    folder = Path(out_dir)
    try:
        work = _work_folder(folder)
    except OSError as exc:
        raise ExportError(f"cannot write exports to {folder}: {exc.strerror or exc}") from None
    try:
        try:
            graphs = SortedGraphs(store, work)
        except OSError as exc:
            raise ExportError(
                f"cannot write exports to {folder}: {exc.strerror or exc}"
            ) from None
        writers: dict[str, Any] = {name: graphs.writer(fmt) for name, fmt in GRAPH_FILES.items()}
        writers["report.json"] = lambda handle: handle.write(report_json(report))
        writers["report.md"] = lambda handle: handle.write(render_markdown(report).encode())
        return _prepare_all(folder, writers)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_store_exports(
    store: Store, out_dir: str | os.PathLike, *, report: Mapping[str, Any]
) -> list[Path]:
    """`write_exports` of everything in `store`, with its quads sorted on disk, not in memory.

    Gives the same bytes as `write_exports(store.quads(), ...)`.
    """
    return prepare_store_exports(store, out_dir, report=report).commit()


def export_store(store: Store, fmt: str, out_path: str | os.PathLike) -> Path:
    """Write a store's graph as `fmt` (ttl, nt, jsonld, rdfxml: the facts; trig, nq: all),
    byte for byte as a build exports it; the quads are sorted on disk, not in memory."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; known formats: {', '.join(FORMATS)}")
    datasets = FORMATS[fmt][1]
    target = Path(out_path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        work = _work_folder(folder)
    except OSError as exc:
        raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        try:
            graphs = SortedGraphs(store, work, dataset=datasets)
            if not datasets:
                # The facts formats want the base only, from the graph names.
                graphs.base = _base_of(store.named_graphs())
        except OSError as exc:
            raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from None
        _write_all(folder, {target.name: graphs.writer(fmt)})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target
