"""Export files of a build: Turtle, N-Triples, JSON-LD, RDF/XML (facts, the default graph),
TriG and N-Quads (everything, provenance included), and the build report.

Quads are deduplicated and sorted before serializing, so two builds of the same input write
byte-identical files. Every file is written to a temporary file in the output folder first and
renamed into place only once all of them have been written.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from pyoxigraph import DefaultGraph, Quad, RdfFormat, serialize

from graph.errors import PaperkgError
from graph.namespaces import DEFAULT_BASE, prefixes
from graph.rdf import sort_quads
from graph.report import render_markdown

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


def _write_all(folder: Path, writers: Mapping[str, Any]) -> list[Path]:
    """Write every file through `writers[name](handle)` to a temp file, then rename all."""
    temps: dict[str, str] = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, write in writers.items():
            with _temp_file(folder, name) as handle:
                temps[name] = handle.name
                write(handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temps[name], 0o644)
        written = []
        for name, temp in temps.items():
            target = folder / name
            os.replace(temp, target)
            written.append(target)
        temps.clear()
        return written
    except OSError as exc:
        raise ExportError(f"cannot write exports to {folder}: {exc.strerror or exc}") from None
    finally:
        for temp in temps.values():
            try:
                os.unlink(temp)
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


def export_store(store: Any, fmt: str, out_path: str | os.PathLike) -> Path:
    """Write a store's graph as `fmt` (ttl, nt, jsonld, rdfxml: the facts; trig, nq: all)."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; known formats: {', '.join(FORMATS)}")
    datasets = FORMATS[fmt][1]
    ordered = sort_quads(store.quads() if datasets else store.quads(""))
    base = infer_base(ordered) if datasets else _base_from_store(store)
    target = Path(out_path)
    folder = target.parent if str(target.parent) else Path(".")
    _write_all(
        folder, {target.name: lambda handle: serialize_quads(ordered, fmt, handle, base=base)}
    )
    return target


def _base_from_store(store: Any) -> str:
    """The instance base, from the provenance graph's name (no full scan of the facts)."""
    for solution in store.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { } }"):
        name = solution["g"].value
        if name.endswith("graph/provenance"):
            return name[: -len("graph/provenance")]
    return DEFAULT_BASE
