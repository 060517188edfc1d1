"""What every page shares: the blueprint, the store's SELECT, node IRIs, labels and links.

Data comes from the store by SPARQL (read-only). Every string from the graph reaches HTML
through Jinja autoescaping or through `highlight`, which escapes each text segment itself;
nothing here loads anything from outside the server.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, url_for

from graph.vocab import CLASSES, CONCEPT_TYPES, DEFAULT_BASE, LINK_VERBS, PREFIXES
from graph.text_clean import readable

_API = Path(__file__).resolve().parent.parent
bp = Blueprint("pages", __name__, root_path=str(_API), template_folder="templates",
               static_folder="static")


@bp.app_template_filter("as_text")
def as_text(text: str | None) -> str:
    """Verbatim abstract text as a reader sees it: inline LaTeX read as text, whitespace one."""
    return readable(text).text if text else ""

#: Types of node with their own page, in display order.
PAGE_TYPES = CONCEPT_TYPES + ("claim",)
#: A type's name on the pages: its class's.
TYPE_NAMES = CLASSES
#: Paper -> concept links with the verb a page shows for each.
LINK_PREDICATES = LINK_VERBS
# Keys and slugs as graph.slug and graph.corpus make them; anything else is not a node here.
_SAFE_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+~-]{0,200}$")


def base() -> str:
    config = current_app.config
    return str(config.get("PAPERKG_BASE_IRI") or config.get("BASE_IRI") or DEFAULT_BASE)


def store() -> Any:
    """The app's open store (graph.store.Store): see api.create_app."""
    ext = current_app.extensions.get("paperkg")
    found = None
    if isinstance(ext, Mapping):
        found = ext.get("store")
    elif ext is not None:
        found = getattr(ext, "store", ext)
    if found is None:
        found = current_app.config.get("PAPERKG_STORE_OBJECT")
    if found is None:
        raise RuntimeError("no store: the app must put it in app.extensions['paperkg']['store']")
    return found


def _prologue() -> str:
    return "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in PREFIXES.items())


def _value(term: Any) -> str | None:
    return None if term is None else str(term.value)


def select(query: str) -> list[dict[str, str | None]]:
    """Rows of a SELECT query as {variable: lexical value or None}."""
    solutions = store().query(_prologue() + query)
    names = [v.value for v in solutions.variables]
    return [{name: _value(row[name]) for name in names} for row in solutions]


def sparql_string(text: str) -> str:
    """`text` as a SPARQL string literal."""
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    return f'"{escaped}"'


def iri(value: str) -> str:
    """`value` as a SPARQL IRI term; 404 for text that cannot be one."""
    if any(ch in value for ch in '<>"{}|^`\\ \n\r\t'):
        abort(404)
    return f"<{value}>"


def check_part(part: str) -> str:
    if not _SAFE_PART.match(part):
        abort(404, description=f"no such node: {part!r}")
    return part


def ref_of(node_iri: str) -> tuple[str, str] | None:
    """(type, slug) of a node IRI under the base, or None for other IRIs."""
    prefix = base()
    if not node_iri.startswith(prefix):
        return None
    type_, _, slug = node_iri[len(prefix):].partition("/")
    return (type_, slug) if slug else None


def page_url(node_iri: str) -> str | None:
    """This app's HTML page of a node IRI, or None if it has none."""
    ref = ref_of(node_iri)
    if ref is None:
        return None
    type_, slug = ref
    if type_ == "paper":
        return url_for("pages.paper", key=slug)
    if type_ in PAGE_TYPES:
        return url_for("pages.entity", type_=type_, slug=slug)
    return None


def labels(iris: Iterable[str]) -> dict[str, str]:
    """rdfs:label (else skos:prefLabel, dcterms:title) of each IRI."""
    wanted = sorted({i for i in iris if i})
    if not wanted:
        return {}
    values = " ".join(iri(i) for i in wanted)
    rows = select(f"""
SELECT ?s (MIN(STR(?l)) AS ?label) WHERE {{
  VALUES ?s {{ {values} }}
  ?s rdfs:label|skos:prefLabel|dcterms:title ?l .
}} GROUP BY ?s""")
    return {row["s"]: row["label"] for row in rows if row["s"] and row["label"]}


@dataclass
class Node:
    """A link to a node: what the templates need to show it."""

    iri: str
    label: str
    type: str
    url: str | None
    extra: dict[str, Any] = field(default_factory=dict)


def node(node_iri: str, label: str | None = None) -> Node:
    ref = ref_of(node_iri)
    type_ = ref[0] if ref else "other"
    return Node(iri=node_iri, label=label or (ref[1] if ref else node_iri), type=type_,
                url=page_url(node_iri))


def local_name(iri_text: str) -> str:
    return iri_text.rsplit("/", 1)[-1].rsplit("#", 1)[-1]
