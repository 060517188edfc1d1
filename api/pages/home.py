"""The home page, search and the SPARQL query page."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import render_template, request, url_for

from graph.sparqltext import with_prefixes
from graph.vocab import PREFIXES

from .common import TYPE_NAMES, Node, base, bp, node, select, sparql_string

SEARCH_LIMIT = 50

EXAMPLE_QUERIES: list[tuple[str, str]] = [
    ("Methods by the number of papers that use them", """\
SELECT ?method ?label ?support WHERE {
  ?method a pkg:Method ; rdfs:label ?label ; pkg:support ?support .
}
ORDER BY DESC(?support) ?label
LIMIT 20"""),
    ("Datasets and the results reported on them", """\
SELECT ?dataset ?metric ?value ?unit ?paper WHERE {
  ?p pkg:makesClaim/pkg:result ?r ; rdfs:label ?paper .
  ?r pkg:value ?value .
  # A part is an entity with a label, or (in older graphs) a plain name.
  { ?r pkg:dataset ?d . OPTIONAL { ?d rdfs:label ?dl } } UNION { ?r pkg:datasetName ?dl }
  BIND(COALESCE(?dl, STR(?d)) AS ?dataset)
  OPTIONAL { ?r pkg:metric ?m . OPTIONAL { ?m rdfs:label ?ml } }
  OPTIONAL { ?r pkg:metricName ?mn }
  BIND(COALESCE(?ml, IF(isLiteral(?m), ?m, ?unset), ?mn) AS ?metric)
  OPTIONAL { ?r pkg:unit ?unit }
}
ORDER BY ?dataset DESC(?value)
LIMIT 50"""),
    ("Papers per research area", """\
SELECT ?area (COUNT(?paper) AS ?papers) WHERE {
  ?paper pkg:inDomain ?domain .
  ?domain skos:prefLabel ?area .
}
GROUP BY ?area
ORDER BY DESC(?papers)"""),
    ("Where a method was found in the text (provenance)", """\
SELECT ?paper ?exact ?start ?end ?confidence WHERE {
  GRAPH ?g {
    ?a oa:hasBody ?method ; oa:hasTarget ?t ; pkg:confidence ?confidence .
    ?t oa:hasSource ?paper ; oa:hasSelector ?pos, ?quote .
    ?pos oa:start ?start ; oa:end ?end .
    ?quote oa:exact ?exact .
  }
  ?method a pkg:Method .
}
LIMIT 25"""),
    ("Empirical claims and their text", """\
SELECT ?paper ?text WHERE {
  ?paper pkg:makesClaim ?claim .
  ?claim pkg:claimKind pkg:Empirical ; schema:text ?text .
}
LIMIT 25"""),
]


def counts() -> dict[str, int]:
    rows = select("""
SELECT ?cls (COUNT(DISTINCT ?s) AS ?n) WHERE {
  VALUES ?cls { pkg:Paper pkg:Method pkg:Dataset pkg:Model pkg:Task pkg:Metric pkg:Claim
                pkg:Result }
  ?s a ?cls .
} GROUP BY ?cls""")
    counts = {row["cls"].rsplit("#", 1)[-1].lower(): int(row["n"] or 0) for row in rows
              if row["cls"]}
    domain = select("SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { ?p pkg:inDomain ?d }")
    counts["domain"] = int(domain[0]["n"] or 0) if domain else 0
    return counts


def top(type_: str, limit: int) -> list[Node]:
    if type_ == "domain":
        query = f"""
SELECT ?e (MIN(STR(?l)) AS ?label) (COUNT(DISTINCT ?p) AS ?support) WHERE {{
  ?p pkg:inDomain ?e . OPTIONAL {{ ?e skos:prefLabel|rdfs:label ?l }}
}} GROUP BY ?e ORDER BY DESC(?support) ?label LIMIT {limit}"""
    else:
        cls = type_.capitalize()
        query = f"""
SELECT ?e (MIN(STR(?l)) AS ?label) (MAX(?s) AS ?support) WHERE {{
  ?e a pkg:{cls} . OPTIONAL {{ ?e rdfs:label ?l }} OPTIONAL {{ ?e pkg:support ?s }}
}} GROUP BY ?e ORDER BY DESC(?support) ?label LIMIT {limit}"""
    nodes = []
    for row in select(query):
        found = node(row["e"] or "", row["label"])
        found.extra["support"] = int(row["support"] or 0)
        nodes.append(found)
    return nodes


def recent_papers(limit: int) -> list[Node]:
    rows = select(f"""
SELECT ?p (MIN(STR(?l)) AS ?label) (MAX(STR(?y)) AS ?year) WHERE {{
  ?p a pkg:Paper . OPTIONAL {{ ?p rdfs:label|dcterms:title ?l }}
  OPTIONAL {{ ?p dcterms:issued ?y }}
}} GROUP BY ?p ORDER BY DESC(?year) ?label LIMIT {limit}""")
    papers = []
    for row in rows:
        found = node(row["p"] or "", row["label"])
        found.extra["year"] = row["year"]
        papers.append(found)
    return papers


def search_nodes(q: str) -> list[Node]:
    rows = select(f"""
SELECT ?s (MIN(STR(?l)) AS ?label) (MAX(?sup) AS ?support) WHERE {{
  ?s rdfs:label|skos:altLabel|skos:prefLabel|dcterms:title ?text .
  FILTER(CONTAINS(LCASE(STR(?text)), LCASE({sparql_string(q)})))
  FILTER(STRSTARTS(STR(?s), {sparql_string(base())}))
  OPTIONAL {{ ?s rdfs:label|skos:prefLabel|dcterms:title ?l }}
  OPTIONAL {{ ?s pkg:support ?sup }}
}} GROUP BY ?s ORDER BY DESC(?support) ?label LIMIT {SEARCH_LIMIT}""")
    nodes = []
    for row in rows:
        found = node(row["s"] or "", row["label"])
        if found.url is None:
            continue
        found.extra["support"] = int(row["support"] or 0)
        nodes.append(found)
    return nodes



def sparql_ui_link(query: str) -> str:
    return url_for("pages.sparql_ui") + "?" + urlencode({"query": query})


@bp.app_context_processor
def _template_globals() -> dict[str, Any]:
    return {"type_names": TYPE_NAMES, "sparql_ui_link": sparql_ui_link}


@bp.get("/")
def home() -> str:
    return render_template(
        "pages/home.html",
        counts=counts(),
        top={t: top(t, 8) for t in ("method", "dataset", "domain")},
        papers=recent_papers(10),
        examples=[(title, query, with_prefixes(query)) for title, query in EXAMPLE_QUERIES],
        endpoint=sparql_endpoint(),
    )


@bp.get("/search")
def search() -> str:
    q = request.args.get("q", "").strip()
    hits = search_nodes(q) if q else []
    return render_template("pages/search.html", q=q, hits=hits, limit=SEARCH_LIMIT)


@bp.get("/sparql/ui")
def sparql_ui() -> str:
    query = request.args.get("query") or EXAMPLE_QUERIES[0][1]
    return render_template(
        "pages/sparql.html",
        query=query,
        examples=EXAMPLE_QUERIES,
        prefixes=PREFIXES,
        base=base(),
        endpoint=sparql_endpoint(),
    )


def sparql_endpoint() -> str:
    try:
        return url_for("sparql.sparql")
    except Exception:  # the SPARQL blueprint names its view differently or is absent
        return "/sparql"
