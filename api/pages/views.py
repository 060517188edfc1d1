"""Graph views: a node's neighbourhood and the overview of the whole graph."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, request, url_for

from graph import viz
from graph.viz import overview

from .common import PAGE_TYPES, base, bp, store

MAX_DEPTH = 3
NODE_TYPES = ("paper",) + PAGE_TYPES


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        abort(400, description=f"parameter {name!r} must be an integer, not {raw!r}")
    if not low <= value <= high:
        abort(400, description=f"parameter {name!r} must be between {low} and {high}")
    return value


def _types_arg() -> list[str] | None:
    raw = request.args.get("types", "").strip()
    if not raw:
        return None
    types = [t.strip() for t in raw.split(",") if t.strip()]
    unknown = [t for t in types if t not in NODE_TYPES]
    if unknown:
        abort(400, description=f"parameter 'types': unknown {', '.join(unknown)}; "
              f"known: {', '.join(NODE_TYPES)}")
    return types


def _view_cap() -> int:
    return int(current_app.config["PAPERKG_SETTINGS"].get("viz_node_cap") or viz.DEFAULT_CAP)


def _static_url() -> str:
    return url_for("pages.static", filename="x")[: -len("x")].rstrip("/")


@bp.get("/viz/neighbourhood")
def viz_neighbourhood() -> Any:
    node = request.args.get("node", "").strip()
    if not node:
        abort(400, description="parameter 'node' is required: an IRI or type/slug")
    depth = _int_arg("depth", 1, 1, MAX_DEPTH)
    cap = _view_cap()
    limit = _int_arg("limit", cap, 1, cap)
    types = _types_arg()
    try:
        sub, trimmed, centre = viz.neighbourhood_subgraph(
            store(), node, depth=depth, types=types, limit=limit, base=base())
    except viz.UnknownNode as exc:
        abort(404, description=str(exc))
    label = str(sub.nodes[centre].get("label") or node) if centre in sub else node
    html = viz.neighbourhood_html(
        sub, title=f"Neighbourhood of {label}", cap=limit, trimmed=trimmed, centre=centre,
        static_url=_static_url(), embed=request.args.get("embed") == "1", base=base(),
    )
    return current_app.response_class(html, mimetype="text/html")


@bp.get("/viz/overview")
def viz_overview() -> Any:
    cap = _view_cap()
    limit = _int_arg("limit", cap, overview.MIN_CAP, cap)
    found = overview.overview(store(), cap=limit, base=base())
    html = overview.overview_html(
        found, title="Overview: papers linked through the entities they share",
        static_url=_static_url(), embed=request.args.get("embed") == "1", base=base(),
    )
    return current_app.response_class(html, mimetype="text/html")
