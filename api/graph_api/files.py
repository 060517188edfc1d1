"""Export files (`/exports/`) and the health check (`/healthz`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from flask import Response, jsonify, send_from_directory, url_for

from api.context import services
from api.errors import ApiError
from graph.errors import StoreError

EXPORT_TYPES = {
    ".ttl": "text/turtle", ".nt": "application/n-triples", ".jsonld": "application/ld+json",
    ".rdf": "application/rdf+xml", ".trig": "application/trig", ".nq": "application/n-quads",
    ".graphml": "application/graphml+xml", ".json": "application/json",
    ".html": "text/html", ".txt": "text/plain", ".md": "text/markdown",
}


def _exports_dir() -> Path:
    return Path(services().settings["exports_dir"]).resolve()


def _export_files(folder: Path) -> Iterable[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*")
                  if p.is_file() and not any(part.startswith(".")
                                             for part in p.relative_to(folder).parts))


def exports() -> Response:
    folder = _exports_dir()
    return jsonify({"files": [
        {"name": p.relative_to(folder).as_posix(), "bytes": p.stat().st_size,
         "url": url_for("graph.export_file", name=p.relative_to(folder).as_posix())}
        for p in _export_files(folder)]})


def export_file(name: str) -> Response:
    if any(part.startswith(".") for part in name.replace("\\", "/").split("/")):
        raise ApiError(404, f"no export file {name!r}")
    folder = _exports_dir()
    suffix = Path(name).suffix.lower()
    response = send_from_directory(folder, name, mimetype=EXPORT_TYPES.get(suffix),
                                   max_age=0)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def healthz() -> Response:
    state = services()
    try:
        generation = state.generation()
    except StoreError as exc:
        response = jsonify({"status": "unavailable", "message": str(exc)})
        response.status_code = 503
        return response
    return jsonify({"status": "ok", "store": str(state.settings["store"]),
                    "generation": generation})
