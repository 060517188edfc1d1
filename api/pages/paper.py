"""A paper's page: its record, the abstract with mentions marked, its entities and claims."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from flask import abort, render_template, url_for

from graph import lookup
from graph.vocab import CLAIM_KIND_CLASSES, CONCEPT_TYPES, PKG, paper_key_of
from graph.text_clean import readable

from .common import (
    LINK_PREDICATES,
    Node,
    base,
    bp,
    iri,
    labels,
    local_name,
    node,
    page_url,
    select,
    store,
)
from .highlight import highlight, mention_spans
from .results import results_of

#: Class (local name) -> claim kind.
CLAIM_KINDS = {cls: kind for kind, cls in CLAIM_KIND_CLASSES.items()}


def paper_record(paper: str) -> dict[str, list[str]] | None:
    rows = select(f"""
SELECT ?prop ?o WHERE {{
  {iri(paper)} ?prop ?o .
  VALUES ?prop {{ rdf:type dcterms:title dcterms:abstract dcterms:identifier dcterms:issued
                 dcterms:creator schema:isPartOf schema:url schema:keywords rdfs:label }}
}}""")
    record: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        record[local_name(row["prop"] or "")].append(row["o"] or "")
    if PKG + "Paper" not in record.get("type", []):
        return None
    return {k: sorted(v) if k != "abstract" else v for k, v in record.items()}


def paper_links(paper: str) -> dict[str, list[Node]]:
    """The paper's entities by type, each once: a proposed one is also used, not listed twice."""
    values = " ".join(f"pkg:{name}" for name in LINK_PREDICATES)
    rows = select(f"""
SELECT ?e (MIN(STR(?l)) AS ?label) (MAX(?s) AS ?support)
       (MAX(IF(?rel = pkg:proposes, 1, 0)) AS ?proposed) WHERE {{
  VALUES ?rel {{ {values} }}
  {iri(paper)} ?rel ?e .
  OPTIONAL {{ ?e rdfs:label|skos:prefLabel ?l }}
  OPTIONAL {{ ?e pkg:support ?s }}
}} GROUP BY ?e ORDER BY ?label""")
    by_type: dict[str, list[Node]] = defaultdict(list)
    for row in rows:
        found = node(row["e"] or "", row["label"])
        found.extra["proposed"] = row["proposed"] == "1"
        found.extra["support"] = int(row["support"] or 0)
        by_type[found.type].append(found)
    return {t: by_type[t] for t in CONCEPT_TYPES if t in by_type}


def _claim_number(claim_iri: str) -> tuple[int, str]:
    tail = claim_iri.rsplit("-", 1)[-1]
    return (int(tail), claim_iri) if tail.isdigit() else (1 << 30, claim_iri)


def claims_of(paper: str) -> list[dict[str, Any]]:
    rows = select(f"""
SELECT ?c ?text ?kind WHERE {{
  {iri(paper)} pkg:makesClaim ?c .
  OPTIONAL {{ ?c schema:text ?text }} OPTIONAL {{ ?c pkg:claimKind ?kind }}
}}""")
    about = select(f"""
SELECT ?c ?e WHERE {{ {iri(paper)} pkg:makesClaim ?c . ?c pkg:about ?e . }}""")
    names = labels(row["e"] for row in about if row["e"])
    claims: dict[str, dict[str, Any]] = {}
    for row in rows:
        claim_iri = row["c"] or ""
        claim = claims.setdefault(claim_iri, {"iri": claim_iri, "text": row["text"] or "",
                                              "kind": None, "about": [], "results": [],
                                              "url": page_url(claim_iri)})
        if row["kind"]:
            claim["kind"] = CLAIM_KINDS.get(local_name(row["kind"]), "other")
    for row in about:
        if row["c"] in claims and row["e"]:
            claims[row["c"]]["about"].append(node(row["e"], names.get(row["e"])))
    for result in results_of(paper):
        if result.claim in claims:
            claims[result.claim]["results"].append(result)
    for claim in claims.values():
        claim["about"].sort(key=lambda n: n.label.lower())
    return [claims[k] for k in sorted(claims, key=_claim_number)]


@bp.get("/paper/<path:key>")
def paper(key: str) -> str:
    try:
        paper_iri = lookup.paper(store(), key, base())
    except lookup.UnknownName as exc:
        abort(404, description=str(exc))
    key = paper_key_of(paper_iri, base()) or key
    record = paper_record(paper_iri)
    if record is None:
        abort(404, description=f"no paper with key {key!r}")
    abstract = (record.get("abstract") or [""])[0]
    spans = mention_spans(paper_iri)
    # LaTeX shows as text ("$44$\\%" as "44%"); the marks move with it
    view = readable(abstract)
    shown = [replace(s, start=a, end=b) for s in spans for a, b in [view.find(s.start, s.end)]]
    return render_template(
        "pages/paper.html",
        key=key,
        iri=paper_iri,
        record=record,
        title=(record.get("title") or record.get("label") or [key])[0],
        abstract=highlight(view.text, shown),
        span_types=sorted({s.type for s in spans}),
        links=paper_links(paper_iri),
        claims=claims_of(paper_iri),
        viz_url=url_for("pages.viz_neighbourhood", node=f"paper/{key}", depth=1, embed=1),
    )
