"""The graph API's query parameters: integers in a range, required values, node types and
node names; a bad one is 400 naming the parameter, a name that names nothing is 404."""

from __future__ import annotations

import re
from typing import Any

import pyoxigraph
from flask import request

from api.context import services
from api.errors import ApiError
from api.graph_api.access import base, index, unavailable
from graph import lookup
from graph.errors import StoreError
from graph.network import StoreGraph
from graph.vocab import NODE_TYPES

_SAFE_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._~+%-]{0,300}$")


def int_param(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name, "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, f"parameter {name!r} must be an integer, got {raw!r}") from None
    if not low <= value <= high:
        raise ApiError(400, f"parameter {name!r} must be between {low} and {high}, got {value}")
    return value


def required(name: str) -> str:
    value = request.args.get(name, "").strip()
    if not value:
        raise ApiError(400, f"parameter {name!r} is required")
    return value


def types_param(name: str = "types") -> list[str] | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    types = [part.strip() for part in raw.split(",") if part.strip()]
    unknown = [t for t in types if t not in NODE_TYPES]
    if unknown:
        raise ApiError(400, f"parameter {name!r}: unknown type {unknown[0]!r}; known types: "
                       f"{', '.join(NODE_TYPES)}")
    return types


def resolve_node(graph: StoreGraph, value: str) -> dict[str, Any] | None:
    """The node a parameter names: an IRI, "type/slug", a paper's key, or a label or alias
    ("ResNet": the best-supported node so named); None when there is none.

    The one place node names are resolved, so another lookup (by a paper's original id, say)
    can take its place."""
    text = value.strip()
    if not text:
        return None
    if text.startswith(("http://", "https://")):
        return graph.describe([text]).get(text)
    found = graph.node(text) if "/" in text else None
    if found is None and "/" not in text:
        found = graph.node(f"paper/{text}")
        if found is None:
            named = index().by_name(text)
            found = graph.node(named) if named is not None else None
    return found


def node_param(graph: StoreGraph, name: str) -> dict[str, Any]:
    value = required(name)
    try:
        found = resolve_node(graph, value)
        if found is None:
            # an original id, a DOI or an arXiv/OpenAlex id; else "did you mean"
            iri = lookup.resolve(services().store, value, base())
            found = graph.describe([iri]).get(iri)
    except lookup.UnknownName as exc:
        raise ApiError(404, f"parameter {name!r}: {exc}") from None
    except StoreError as exc:
        raise unavailable(exc) from None
    if found is None:
        raise ApiError(404, f"parameter {name!r}: node {value!r} is not in the graph")
    return found


def paper_iri(name: str) -> str:
    """The IRI of the paper `name` names (key, original id, DOI, arXiv or OpenAlex id), or
    404 naming the closest papers."""
    try:
        return lookup.paper(services().store, name, base())
    except lookup.UnknownName as exc:
        raise ApiError(404, str(exc)) from None
    except StoreError as exc:
        raise unavailable(exc) from None


def iri_of(type_: str, part: str) -> str:
    """The IRI of `type_/part`, or 404 when the part cannot be one of ours."""
    if not _SAFE_PART.match(part):
        raise ApiError(404, f"no {type_} {part!r}")
    iri = f"{base()}{type_}/{part}"
    try:
        pyoxigraph.NamedNode(iri)
    except ValueError:
        raise ApiError(404, f"no {type_} {part!r}") from None
    return iri
