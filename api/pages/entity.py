"""An entity's page (method, dataset, model, task, metric, research area) and a claim's page."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from flask import abort, render_template, url_for

from .common import (
    LINK_PREDICATES,
    PAGE_TYPES,
    Node,
    base,
    bp,
    check_part,
    iri,
    labels,
    local_name,
    node,
    page_url,
    select,
)
from .paper import claims_of, paper
from .results import leaderboards, results_with


def entity_record(entity_iri: str) -> dict[str, list[str]]:
    rows = select(f"""
SELECT ?prop ?o WHERE {{
  {iri(entity_iri)} ?prop ?o .
  VALUES ?prop {{ rdf:type rdfs:label skos:prefLabel skos:altLabel pkg:support skos:broader
                 schema:text pkg:claimKind }}
}}""")
    record: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        record[local_name(row["prop"] or "")].append(row["o"] or "")
    return {k: sorted(set(v)) for k, v in record.items()}


def _squash(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words)


def _initials(text: str) -> str:
    return "".join(w[0] for w in re.findall(r"[A-Za-z0-9]+", text)).lower()


def is_alias(alt: str, label: str) -> bool:
    """Whether `alt` names the same thing as `label`: a spelling variant or an acronym.

    A research area's skos:altLabel also holds the words it is recognised by ("Q-learning"
    under reinforcement learning): those are topics it covers, not other names for it.
    """
    if _squash(alt) == _squash(label):
        return True
    short, long_ = (alt, label) if len(alt) <= len(label) else (label, alt)
    compact = re.sub(r"[^A-Za-z0-9]", "", short)
    return compact.isupper() and compact.lower() == _initials(long_)


def entity_papers(entity_iri: str) -> list[Node]:
    rows = select(f"""
SELECT ?p ?rel (MIN(STR(?l)) AS ?label) (MAX(STR(?y)) AS ?year) WHERE {{
  ?p ?rel {iri(entity_iri)} ; a pkg:Paper .
  OPTIONAL {{ ?p rdfs:label|dcterms:title ?l }} OPTIONAL {{ ?p dcterms:issued ?y }}
}} GROUP BY ?p ?rel ORDER BY DESC(?year) ?label""")
    papers: dict[str, Node] = {}
    for row in rows:
        paper_iri = row["p"] or ""
        found = papers.setdefault(paper_iri, node(paper_iri, row["label"]))
        found.extra["year"] = row["year"]
        rel = local_name(row["rel"] or "")
        found.extra.setdefault("relations", set()).add(LINK_PREDICATES.get(rel, rel))
    return list(papers.values())


def cooccurring(entity_iri: str, limit: int = 30) -> list[Node]:
    values = " ".join(f"pkg:{name}" for name in LINK_PREDICATES)
    rows = select(f"""
SELECT ?o (COUNT(DISTINCT ?p) AS ?n) WHERE {{
  VALUES ?r2 {{ {values} }}
  ?p a pkg:Paper ; ?r1 {iri(entity_iri)} ; ?r2 ?o .
  FILTER(?o != {iri(entity_iri)})
}} GROUP BY ?o ORDER BY DESC(?n) ?o LIMIT {limit}""")
    names = labels(row["o"] for row in rows if row["o"])
    nodes = []
    for row in rows:
        found = node(row["o"] or "", names.get(row["o"] or ""))
        found.extra["count"] = int(row["n"] or 0)
        nodes.append(found)
    return nodes


def claims_about(entity_iri: str, limit: int = 50) -> list[dict[str, Any]]:
    rows = select(f"""
SELECT ?c ?text ?p WHERE {{
  ?c pkg:about {iri(entity_iri)} . OPTIONAL {{ ?c schema:text ?text }}
  OPTIONAL {{ ?p pkg:makesClaim ?c }}
}} ORDER BY ?c LIMIT {limit}""")
    names = labels(row["p"] for row in rows if row["p"])
    return [
        {"iri": row["c"], "text": row["text"] or "", "url": page_url(row["c"] or ""),
         "paper": node(row["p"], names.get(row["p"])) if row["p"] else None}
        for row in rows
    ]


@bp.get("/entity/<type_>/<slug>")
def entity(type_: str, slug: str) -> str:
    if type_ == "paper":
        return paper(slug)
    if type_ not in PAGE_TYPES:
        abort(404, description=f"no entity type {type_!r}; types: {', '.join(PAGE_TYPES)}")
    entity_iri = f"{base()}{type_}/{check_part(slug)}"
    record = entity_record(entity_iri)
    if not record.get("type"):
        abort(404, description=f"no {type_} {slug!r}")
    label = (record.get("label") or record.get("prefLabel") or [slug])[0]
    others = [a for a in record.get("altLabel", []) if a != label]
    aliases = [a for a in others if type_ != "domain" or is_alias(a, label)]
    context: dict[str, Any] = {
        "type": type_, "slug": slug, "iri": entity_iri, "label": label, "record": record,
        "aliases": aliases, "topics": [a for a in others if a not in aliases],
        "viz_url": url_for("pages.viz_neighbourhood", node=f"{type_}/{slug}", depth=1, embed=1),
    }
    if type_ == "claim":
        owner = select(f"SELECT ?p WHERE {{ ?p pkg:makesClaim {iri(entity_iri)} }} LIMIT 1")
        paper_iri = owner[0]["p"] if owner else None
        claims = claims_of(paper_iri) if paper_iri else []
        context["claim"] = next((c for c in claims if c["iri"] == entity_iri), None)
        context["paper"] = node(paper_iri, labels([paper_iri]).get(paper_iri)) \
            if paper_iri else None
        return render_template("pages/claim.html", **context)
    papers = entity_papers(entity_iri)
    results = results_with(entity_iri)
    broader = [node(b, lbl) for b, lbl in labels(record.get("broader", [])).items()]
    context.update(
        papers=papers,
        support=int(record["support"][0]) if record.get("support") else len(papers),
        broader=broader,
        cooccurring=cooccurring(entity_iri),
        claims=claims_about(entity_iri),
        results=results,
        # A dataset's or metric's own boards; a model's or baseline's would be others'.
        boards=leaderboards(results) if type_ in ("dataset", "metric") else [],
    )
    return render_template("pages/entity.html", **context)
