"""The build report: what a build put in the graph and what it could not find.

`build_report` gives a JSON-ready dict (report.json); `render_markdown` the same for people
(report.md). Both are deterministic: no times, sorted lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from pyoxigraph import DefaultGraph, NamedNode, Quad

from graph.model import ResolvedCorpus
from graph.namespaces import PKG, PREFIXES, RDF
from graph.rdf import LINK_PREDICATE, PROPOSES, paper_label

_TYPE = RDF + "type"
_CLAIM_KIND = PKG + "claimKind"
_LINKS = {p.value for p in LINK_PREDICATE.values()} | {PROPOSES.value, PKG + "makesClaim"}


def curie(iri: str) -> str:
    """`pkg:Paper` for the IRI, if a known prefix covers it."""
    for name, namespace in sorted(PREFIXES.items(), key=lambda item: -len(item[1])):
        if iri.startswith(namespace) and "/" not in iri[len(namespace):]:
            return f"{name}:{iri[len(namespace):]}"
    return iri


def build_report(resolved: ResolvedCorpus, quads: Iterable[Quad]) -> dict[str, Any]:
    classes: Counter[str] = Counter()
    links: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    facts = provenance = 0
    claims: set[str] = set()
    for quad in quads:
        if not isinstance(quad.graph_name, DefaultGraph):
            provenance += 1
            continue
        facts += 1
        predicate = quad.predicate.value
        if predicate == _TYPE and isinstance(quad.object, NamedNode):
            classes[curie(quad.object.value)] += 1
            if quad.object.value == PKG + "Claim":
                claims.add(quad.subject.value)
        elif predicate in _LINKS:
            links[curie(predicate)] += 1
        elif predicate == _CLAIM_KIND:
            kinds[quad.object.value.removeprefix(PKG).lower()] += 1
    unknown_kind = len(claims) - sum(kinds.values())
    if unknown_kind > 0:
        kinds["unknown"] = unknown_kind

    without: dict[str, list[dict[str, str]]] = {"methods": [], "domains": [], "claims": []}
    for key in sorted(resolved.extractions):
        extraction = resolved.extractions[key]
        refs = resolved.links.get(key, [])
        types = {ref.partition("/")[0] for ref in refs if ref}
        mention_types = {m.type for m in extraction.mentions}
        entry = {"key": key, "title": paper_label(extraction, refs, resolved.entities)}
        if "method" not in types:
            without["methods"].append(entry)
        if "domain" not in mention_types and "domain" not in types:
            without["domains"].append(entry)
        if "claim" not in mention_types:
            without["claims"].append(entry)

    entities = Counter(entity.type for entity in resolved.entities.values())
    return {
        "papers": len(resolved.extractions),
        "entities": dict(sorted(entities.items())),
        "quads": facts + provenance,
        "facts": facts,
        "provenance": provenance,
        "classes": dict(sorted(classes.items())),
        "links": dict(sorted(links.items())),
        "claims": dict(sorted(kinds.items())),
        "results": classes.get("pkg:Result", 0),
        "papers_without": without,
        "duplicates": [
            {"kept": kept, "dropped": dropped} for kept, dropped in sorted(resolved.duplicates)
        ],
    }


def _escape(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(rows: Mapping[str, Any], header: tuple[str, str]) -> list[str]:
    lines = [f"| {header[0]} | {header[1]} |", "| --- | ---: |"]
    lines += [f"| {_escape(k)} | {_escape(v)} |" for k, v in rows.items()]
    return lines


def render_markdown(report: Mapping[str, Any]) -> str:
    """report.md: the report as headed tables and lists."""
    lines = ["# Build report", ""]
    summary = {
        key: report[key]
        for key in ("papers", "quads", "facts", "provenance", "results")
        if key in report
    }
    lines += _table(summary, ("", "count")) + [""]
    for key, title, header in (
        ("entities", "Entities", ("type", "entities")),
        ("classes", "Nodes by class", ("class", "nodes")),
        ("links", "Links", ("property", "links")),
        ("claims", "Claims by kind", ("kind", "claims")),
    ):
        if report.get(key):
            lines += [f"## {title}", ""] + _table(report[key], header) + [""]
    for kind, papers in (report.get("papers_without") or {}).items():
        lines += [f"## Papers without {kind} ({len(papers)})", ""]
        lines += [f"- `{_escape(p['key'])}` {_escape(p['title'])}" for p in papers] or ["none"]
        lines.append("")
    duplicates = report.get("duplicates") or []
    lines += [f"## Duplicates ({len(duplicates)})", ""]
    lines += [f"- `{_escape(d['kept'])}` kept; dropped {_escape(d['dropped'])}"
              for d in duplicates] or ["none"]
    lines.append("")
    known = {"papers", "quads", "facts", "provenance", "results", "entities", "classes", "links",
             "claims", "papers_without", "duplicates"}
    for key in sorted(set(report) - known):
        lines += [f"## {key}", "", "```", _escape_block(report[key]), "```", ""]
    return "\n".join(lines)


def _escape_block(value: Any) -> str:
    import json

    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)
