"""HTML pages: home, search, paper and entity views, results table, SPARQL UI, graph views.

Data comes from the store by SPARQL (read-only) and, for graph views, from graph.network's
projection. Every string from the graph reaches HTML through Jinja autoescaping or through
`highlight`, which escapes each text segment itself; nothing here loads anything from outside
the server.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, render_template, request, url_for
from markupsafe import Markup, escape

from graph import viz
from graph.namespaces import DEFAULT_BASE, PKG, PREFIXES

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static")

#: Entity types with their own page, in display order.
ENTITY_TYPES = ("method", "dataset", "model", "task", "metric", "domain")
PAGE_TYPES = ENTITY_TYPES + ("claim",)
TYPE_NAMES = {
    "paper": "Paper", "method": "Method", "dataset": "Dataset", "model": "Model",
    "task": "Task", "metric": "Metric", "domain": "Domain", "claim": "Claim",
    "result": "Result",
}
LINK_PREDICATES = {
    "proposes": "proposes", "usesMethod": "uses", "usesDataset": "uses",
    "usesModel": "uses", "addressesTask": "addresses", "reportsMetric": "reports",
    "inDomain": "in",
}
CLAIM_KINDS = {"Empirical": "empirical", "Theoretical": "theoretical",
               "Contribution": "contribution"}
# Keys and slugs as graph.slug and graph.corpus make them; anything else is not a node here.
_SAFE_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+~-]{0,200}$")
SEARCH_LIMIT = 50
RESULTS_LIMIT = 5000

EXAMPLE_QUERIES: list[tuple[str, str]] = [
    ("Methods by the number of papers that use them", """\
SELECT ?method ?label ?support WHERE {
  ?method a pkg:Method ; rdfs:label ?label ; pkg:support ?support .
}
ORDER BY DESC(?support) ?label
LIMIT 20"""),
    ("Datasets and the results reported on them", """\
SELECT ?dataset ?metric ?value ?unit ?paper WHERE {
  ?paper pkg:makesClaim/pkg:result ?r .
  ?r pkg:value ?value ; pkg:dataset/rdfs:label ?dataset .
  OPTIONAL { ?r pkg:metric/rdfs:label ?metric }
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


# -- store access ---------------------------------------------------------------------------


def _settings() -> Mapping[str, Any]:
    return current_app.config


def _base() -> str:
    return str(_settings().get("PAPERKG_BASE_IRI") or _settings().get("BASE_IRI") or DEFAULT_BASE)


def _store() -> Any:
    """The app's open store (graph.store.Store): see api.create_app."""
    ext = current_app.extensions.get("paperkg")
    store = None
    if isinstance(ext, Mapping):
        store = ext.get("store")
    elif ext is not None:
        store = getattr(ext, "store", ext)
    if store is None:
        store = current_app.config.get("PAPERKG_STORE_OBJECT")
    if store is None:
        raise RuntimeError("no store: the app must put it in app.extensions['paperkg']['store']")
    return store


def _prologue() -> str:
    return "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in PREFIXES.items())


def _value(term: Any) -> str | None:
    return None if term is None else str(term.value)


def select(query: str) -> list[dict[str, str | None]]:
    """Rows of a SELECT query as {variable: lexical value or None}."""
    solutions = _store().query(_prologue() + query)
    names = [v.value for v in solutions.variables]
    return [{name: _value(row[name]) for name in names} for row in solutions]


def sparql_string(text: str) -> str:
    """`text` as a SPARQL string literal."""
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    return f'"{escaped}"'


def _iri(value: str) -> str:
    if any(ch in value for ch in '<>"{}|^`\\ \n\r\t'):
        abort(404)
    return f"<{value}>"


def _check_part(part: str) -> str:
    if not _SAFE_PART.match(part):
        abort(404, description=f"no such node: {part!r}")
    return part


def ref_of(iri: str) -> tuple[str, str] | None:
    """(type, slug) of a node IRI under the base, or None for other IRIs."""
    base = _base()
    if not iri.startswith(base):
        return None
    type_, _, slug = iri[len(base):].partition("/")
    return (type_, slug) if slug else None


def page_url(iri: str) -> str | None:
    """This app's HTML page of a node IRI, or None if it has none."""
    ref = ref_of(iri)
    if ref is None:
        return None
    type_, slug = ref
    if type_ == "paper":
        return url_for("pages.paper", key=slug)
    if type_ in PAGE_TYPES:
        return url_for("pages.entity", type_=type_, slug=slug)
    return None


def _labels(iris: Iterable[str]) -> dict[str, str]:
    """rdfs:label (else skos:prefLabel, dcterms:title) of each IRI."""
    wanted = sorted({i for i in iris if i})
    if not wanted:
        return {}
    values = " ".join(_iri(i) for i in wanted)
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


def _node(iri: str, label: str | None = None) -> Node:
    ref = ref_of(iri)
    type_ = ref[0] if ref else "other"
    return Node(iri=iri, label=label or (ref[1] if ref else iri), type=type_,
                url=page_url(iri))


# -- highlighted abstracts ------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    type: str
    title: str
    ref: str = ""


def highlight(text: str, spans: Sequence[Span]) -> Markup:
    """`text` escaped, each span wrapped in `<mark class="m-{type}">`, nested properly.

    Spans may nest or cross: a span that crosses a boundary of a span opened after it is
    closed there and reopened, so the HTML is always well formed. Spans outside the text or
    empty are left out.
    """
    good = sorted(
        (s for s in spans if 0 <= s.start < s.end <= len(text)),
        key=lambda s: (s.start, -s.end, s.type, s.ref),
    )
    bounds = sorted({0, len(text)} | {s.start for s in good} | {s.end for s in good})
    starts: dict[int, list[Span]] = defaultdict(list)
    for span in good:
        starts[span.start].append(span)
    out: list[str] = []
    stack: list[Span] = []

    def open_tag(span: Span) -> str:
        return (
            f'<mark class="m m-{escape(span.type)}" data-type="{escape(span.type)}"'
            f' data-ref="{escape(span.ref)}" title="{escape(span.title)}">'
        )

    for i, pos in enumerate(bounds):
        ending = [k for k, s in enumerate(stack) if s.end <= pos]
        if ending:
            lowest = ending[0]
            reopen = [s for s in stack[lowest:] if s.end > pos]
            out.append("</mark>" * (len(stack) - lowest))
            del stack[lowest:]
            for span in reopen:
                out.append(open_tag(span))
                stack.append(span)
        for span in starts.get(pos, ()):  # longest first: it nests the others
            out.append(open_tag(span))
            stack.append(span)
        if i + 1 < len(bounds):
            out.append(str(escape(text[pos : bounds[i + 1]])))
    out.append("</mark>" * len(stack))
    return Markup("".join(out))


def _mention_spans(paper: str) -> list[Span]:
    rows = select(f"""
SELECT ?body ?start ?end ?confidence ?label WHERE {{
  GRAPH ?g {{
    ?a a oa:Annotation ; oa:hasBody ?body ; oa:hasTarget ?t .
    ?t oa:hasSource {_iri(paper)} ; oa:hasSelector ?s .
    ?s a oa:TextPositionSelector ; oa:start ?start ; oa:end ?end .
    OPTIONAL {{ ?a pkg:confidence ?confidence }}
  }}
  OPTIONAL {{ ?body rdfs:label ?label }}
}}""")
    spans: dict[tuple[str, int, int], Span] = {}
    for row in rows:
        try:
            start, end = int(row["start"] or ""), int(row["end"] or "")
        except ValueError:
            continue
        body = row["body"] or ""
        ref = ref_of(body)
        type_ = ref[0] if ref else "other"
        name = TYPE_NAMES.get(type_, "Mention")
        label = row["label"] if type_ not in ("claim", "result") else None
        title = f"{name}: {label}" if label else name
        if row["confidence"]:
            title += f" (confidence {row['confidence']})"
        spans.setdefault((body, start, end),
                         Span(start, end, type_, title, f"{ref[0]}/{ref[1]}" if ref else ""))
    return list(spans.values())


# -- queries for pages ------------------------------------------------------------------------


def _counts() -> dict[str, int]:
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


def _top(type_: str, limit: int) -> list[Node]:
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
        node = _node(row["e"] or "", row["label"])
        node.extra["support"] = int(row["support"] or 0)
        nodes.append(node)
    return nodes


def _recent_papers(limit: int) -> list[Node]:
    rows = select(f"""
SELECT ?p (MIN(STR(?l)) AS ?label) (MAX(STR(?y)) AS ?year) WHERE {{
  ?p a pkg:Paper . OPTIONAL {{ ?p rdfs:label|dcterms:title ?l }}
  OPTIONAL {{ ?p dcterms:issued ?y }}
}} GROUP BY ?p ORDER BY DESC(?year) ?label LIMIT {limit}""")
    papers = []
    for row in rows:
        node = _node(row["p"] or "", row["label"])
        node.extra["year"] = row["year"]
        papers.append(node)
    return papers


def _paper_record(paper: str) -> dict[str, list[str]] | None:
    rows = select(f"""
SELECT ?prop ?o WHERE {{
  {_iri(paper)} ?prop ?o .
  VALUES ?prop {{ rdf:type dcterms:title dcterms:abstract dcterms:identifier dcterms:issued
                 dcterms:creator schema:isPartOf schema:url schema:keywords rdfs:label }}
}}""")
    record: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        name = (row["prop"] or "").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
        record[name].append(row["o"] or "")
    if PKG + "Paper" not in record.get("type", []):
        return None
    return {k: sorted(v) if k != "abstract" else v for k, v in record.items()}


def _paper_links(paper: str) -> dict[str, list[Node]]:
    values = " ".join(f"pkg:{name}" for name in LINK_PREDICATES)
    rows = select(f"""
SELECT ?rel ?e (MIN(STR(?l)) AS ?label) (MAX(?s) AS ?support) WHERE {{
  VALUES ?rel {{ {values} }}
  {_iri(paper)} ?rel ?e .
  OPTIONAL {{ ?e rdfs:label|skos:prefLabel ?l }}
  OPTIONAL {{ ?e pkg:support ?s }}
}} GROUP BY ?rel ?e ORDER BY ?label""")
    by_type: dict[str, list[Node]] = defaultdict(list)
    for row in rows:
        node = _node(row["e"] or "", row["label"])
        node.extra["proposed"] = (row["rel"] or "").endswith("#proposes")
        node.extra["support"] = int(row["support"] or 0)
        by_type[node.type].append(node)
    return {t: by_type[t] for t in ENTITY_TYPES if t in by_type}


def _claim_number(iri: str) -> tuple[int, str]:
    tail = iri.rsplit("-", 1)[-1]
    return (int(tail), iri) if tail.isdigit() else (1 << 30, iri)


def _results_where(subject_pattern: str) -> str:
    return f"""
  {subject_pattern}
  ?r pkg:value ?value .
  OPTIONAL {{ ?r pkg:unit ?unit }}
  OPTIONAL {{ ?r schema:text ?text }}
  OPTIONAL {{ ?r pkg:metric ?metric }} OPTIONAL {{ ?r pkg:metricName ?metricName }}
  OPTIONAL {{ ?r pkg:dataset ?dataset }} OPTIONAL {{ ?r pkg:datasetName ?datasetName }}
  OPTIONAL {{ ?r pkg:model ?model }} OPTIONAL {{ ?r pkg:modelName ?modelName }}
  OPTIONAL {{ ?r pkg:baseline ?baseline }} OPTIONAL {{ ?r pkg:baselineName ?baselineName }}"""


_RESULT_VARS = ("?r ?value ?unit ?text ?metric ?metricName ?dataset ?datasetName ?model "
                "?modelName ?baseline ?baselineName")


@dataclass
class ResultRow:
    iri: str
    value: str
    unit: str | None
    text: str | None
    metric: Node | None
    dataset: Node | None
    model: Node | None
    baseline: Node | None
    claim: str | None = None
    paper: Node | None = None

    @property
    def number(self) -> str:
        try:
            return format(Decimal(self.value).normalize(), "f")
        except InvalidOperation:
            return self.value


def _result_rows(rows: list[dict[str, str | None]]) -> list[ResultRow]:
    iris = [row[k] for row in rows for k in ("metric", "dataset", "model", "baseline", "paper")
            if row.get(k)]
    labels = _labels(i for i in iris if i)

    def part(row: Mapping[str, str | None], name: str) -> Node | None:
        iri = row.get(name)
        if iri:
            return _node(iri, labels.get(iri))
        literal = row.get(name + "Name")
        return Node(iri="", label=literal, type=name, url=None) if literal else None

    results: dict[str, ResultRow] = {}
    for row in rows:
        key = row["r"] or ""
        if key in results:
            continue
        results[key] = ResultRow(
            iri=key, value=row["value"] or "", unit=row.get("unit"), text=row.get("text"),
            metric=part(row, "metric"), dataset=part(row, "dataset"),
            model=part(row, "model"), baseline=part(row, "baseline"),
            claim=row.get("c"),
            paper=_node(row["paper"], labels.get(row["paper"] or "")) if row.get("paper")
            else None,
        )
    return list(results.values())


def _claims_of(paper: str) -> list[dict[str, Any]]:
    rows = select(f"""
SELECT ?c ?text ?kind WHERE {{
  {_iri(paper)} pkg:makesClaim ?c .
  OPTIONAL {{ ?c schema:text ?text }} OPTIONAL {{ ?c pkg:claimKind ?kind }}
}}""")
    about = select(f"""
SELECT ?c ?e WHERE {{ {_iri(paper)} pkg:makesClaim ?c . ?c pkg:about ?e . }}""")
    where = _results_where(f"{_iri(paper)} pkg:makesClaim ?c . ?c pkg:result ?r .")
    results = _result_rows(select(f"SELECT ?c {_RESULT_VARS} WHERE {{ {where} }}"))
    labels = _labels(row["e"] for row in about if row["e"])
    claims: dict[str, dict[str, Any]] = {}
    for row in rows:
        iri = row["c"] or ""
        claim = claims.setdefault(iri, {"iri": iri, "text": row["text"] or "",
                                        "kind": None, "about": [], "results": [],
                                        "url": page_url(iri)})
        if row["kind"]:
            claim["kind"] = CLAIM_KINDS.get(row["kind"].rsplit("#", 1)[-1], "other")
    for row in about:
        if row["c"] in claims and row["e"]:
            claims[row["c"]]["about"].append(_node(row["e"], labels.get(row["e"])))
    for result in results:
        if result.claim in claims:
            claims[result.claim]["results"].append(result)
    for claim in claims.values():
        claim["about"].sort(key=lambda n: n.label.lower())
        claim["results"].sort(key=lambda r: r.iri)
    return [claims[k] for k in sorted(claims, key=_claim_number)]


def _entity_record(iri: str) -> dict[str, list[str]]:
    rows = select(f"""
SELECT ?prop ?o WHERE {{
  {_iri(iri)} ?prop ?o .
  VALUES ?prop {{ rdf:type rdfs:label skos:prefLabel skos:altLabel pkg:support skos:broader
                 schema:text pkg:claimKind }}
}}""")
    record: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        name = (row["prop"] or "").rsplit("/", 1)[-1].rsplit("#", 1)[-1]
        record[name].append(row["o"] or "")
    return {k: sorted(set(v)) for k, v in record.items()}


def _entity_papers(iri: str) -> list[Node]:
    rows = select(f"""
SELECT ?p ?rel (MIN(STR(?l)) AS ?label) (MAX(STR(?y)) AS ?year) WHERE {{
  ?p ?rel {_iri(iri)} ; a pkg:Paper .
  OPTIONAL {{ ?p rdfs:label|dcterms:title ?l }} OPTIONAL {{ ?p dcterms:issued ?y }}
}} GROUP BY ?p ?rel ORDER BY DESC(?year) ?label""")
    papers: dict[str, Node] = {}
    for row in rows:
        iri_p = row["p"] or ""
        node = papers.setdefault(iri_p, _node(iri_p, row["label"]))
        node.extra["year"] = row["year"]
        rel = (row["rel"] or "").rsplit("#", 1)[-1]
        node.extra.setdefault("relations", set()).add(LINK_PREDICATES.get(rel, rel))
    return list(papers.values())


def _cooccurring(iri: str, limit: int = 30) -> list[Node]:
    values = " ".join(f"pkg:{name}" for name in LINK_PREDICATES)
    rows = select(f"""
SELECT ?o (COUNT(DISTINCT ?p) AS ?n) WHERE {{
  VALUES ?r2 {{ {values} }}
  ?p a pkg:Paper ; ?r1 {_iri(iri)} ; ?r2 ?o .
  FILTER(?o != {_iri(iri)})
}} GROUP BY ?o ORDER BY DESC(?n) ?o LIMIT {limit}""")
    labels = _labels(row["o"] for row in rows if row["o"])
    nodes = []
    for row in rows:
        node = _node(row["o"] or "", labels.get(row["o"] or ""))
        node.extra["count"] = int(row["n"] or 0)
        nodes.append(node)
    return nodes


def _claims_about(iri: str, limit: int = 50) -> list[dict[str, Any]]:
    rows = select(f"""
SELECT ?c ?text ?p WHERE {{
  ?c pkg:about {_iri(iri)} . OPTIONAL {{ ?c schema:text ?text }}
  OPTIONAL {{ ?p pkg:makesClaim ?c }}
}} ORDER BY ?c LIMIT {limit}""")
    labels = _labels(row["p"] for row in rows if row["p"])
    return [
        {"iri": row["c"], "text": row["text"] or "", "url": page_url(row["c"] or ""),
         "paper": _node(row["p"], labels.get(row["p"])) if row["p"] else None}
        for row in rows
    ]


def _results_with(iri: str) -> list[ResultRow]:
    node = _iri(iri)
    return _result_rows(select(f"""
SELECT ?paper ?c {_RESULT_VARS} WHERE {{
  {{ ?r pkg:metric {node} }} UNION {{ ?r pkg:dataset {node} }} UNION
  {{ ?r pkg:model {node} }} UNION {{ ?r pkg:baseline {node} }}
  {_results_where("?paper pkg:makesClaim ?c . ?c pkg:result ?r .")}
}} LIMIT 500"""))


def _all_results() -> list[ResultRow]:
    return _result_rows(select(f"""
SELECT ?paper ?c {_RESULT_VARS} WHERE {{
  {_results_where("?paper pkg:makesClaim ?c . ?c pkg:result ?r .")}
}} LIMIT {RESULTS_LIMIT}"""))


def _search(q: str) -> list[Node]:
    rows = select(f"""
SELECT ?s (MIN(STR(?l)) AS ?label) (MAX(?sup) AS ?support) WHERE {{
  ?s rdfs:label|skos:altLabel|skos:prefLabel|dcterms:title ?text .
  FILTER(CONTAINS(LCASE(STR(?text)), LCASE({sparql_string(q)})))
  FILTER(STRSTARTS(STR(?s), {sparql_string(_base())}))
  OPTIONAL {{ ?s rdfs:label|skos:prefLabel|dcterms:title ?l }}
  OPTIONAL {{ ?s pkg:support ?sup }}
}} GROUP BY ?s ORDER BY DESC(?support) ?label LIMIT {SEARCH_LIMIT}""")
    nodes = []
    for row in rows:
        node = _node(row["s"] or "", row["label"])
        if node.url is None:
            continue
        node.extra["support"] = int(row["support"] or 0)
        nodes.append(node)
    return nodes


# -- routes -------------------------------------------------------------------------------------


def sparql_ui_link(query: str) -> str:
    return url_for("pages.sparql_ui") + "?" + urlencode({"query": query})


@bp.app_context_processor
def _template_globals() -> dict[str, Any]:
    return {"type_names": TYPE_NAMES, "sparql_ui_link": sparql_ui_link}


@bp.get("/")
def home() -> str:
    return render_template(
        "pages/home.html",
        counts=_counts(),
        top={t: _top(t, 8) for t in ("method", "dataset", "domain")},
        papers=_recent_papers(10),
        examples=EXAMPLE_QUERIES,
    )


@bp.get("/search")
def search() -> str:
    q = request.args.get("q", "").strip()
    hits = _search(q) if q else []
    return render_template("pages/search.html", q=q, hits=hits, limit=SEARCH_LIMIT)


@bp.get("/paper/<path:key>")
def paper(key: str) -> str:
    from graph import lookup
    from graph.namespaces import paper_key_of

    try:
        iri = lookup.paper(_store(), key, _base())
    except lookup.UnknownName as exc:
        abort(404, description=str(exc))
    key = paper_key_of(iri, _base()) or key
    record = _paper_record(iri)
    if record is None:
        abort(404, description=f"no paper with key {key!r}")
    abstract = (record.get("abstract") or [""])[0]
    spans = _mention_spans(iri)
    # Claims are sentences: underline them and mark the entities inside.
    return render_template(
        "pages/paper.html",
        key=key,
        iri=iri,
        record=record,
        title=(record.get("title") or record.get("label") or [key])[0],
        abstract=highlight(abstract, spans),
        span_types=sorted({s.type for s in spans}),
        links=_paper_links(iri),
        claims=_claims_of(iri),
        viz_url=url_for("pages.viz_neighbourhood", node=f"paper/{key}", depth=1, embed=1),
    )


@bp.get("/entity/<type_>/<slug>")
def entity(type_: str, slug: str) -> str:
    if type_ == "paper":
        return paper(slug)
    if type_ not in PAGE_TYPES:
        abort(404, description=f"no entity type {type_!r}; types: {', '.join(PAGE_TYPES)}")
    iri = f"{_base()}{type_}/{_check_part(slug)}"
    record = _entity_record(iri)
    if not record.get("type"):
        abort(404, description=f"no {type_} {slug!r}")
    label = (record.get("label") or record.get("prefLabel") or [slug])[0]
    context: dict[str, Any] = {
        "type": type_, "slug": slug, "iri": iri, "label": label, "record": record,
        "aliases": [a for a in record.get("altLabel", []) if a != label],
        "viz_url": url_for("pages.viz_neighbourhood", node=f"{type_}/{slug}", depth=1, embed=1),
    }
    if type_ == "claim":
        owner = select(f"SELECT ?p WHERE {{ ?p pkg:makesClaim {_iri(iri)} }} LIMIT 1")
        paper_iri = owner[0]["p"] if owner else None
        claims = _claims_of(paper_iri) if paper_iri else []
        context["claim"] = next((c for c in claims if c["iri"] == iri), None)
        context["paper"] = _node(paper_iri, _labels([paper_iri]).get(paper_iri)) \
            if paper_iri else None
        return render_template("pages/claim.html", **context)
    papers = _entity_papers(iri)
    broader = [_node(b, lbl) for b, lbl in _labels(record.get("broader", [])).items()]
    context.update(
        papers=papers,
        support=int((record.get("support") or [len(papers)])[0]),
        broader=broader,
        cooccurring=_cooccurring(iri),
        claims=_claims_about(iri),
        results=_results_with(iri),
    )
    return render_template("pages/entity.html", **context)


@bp.get("/results")
def results() -> str:
    rows = _all_results()
    return render_template("pages/results.html", rows=rows, limit=RESULTS_LIMIT)


@bp.get("/sparql/ui")
def sparql_ui() -> str:
    query = request.args.get("query") or EXAMPLE_QUERIES[0][1]
    return render_template(
        "pages/sparql.html",
        query=query,
        examples=EXAMPLE_QUERIES,
        prefixes=PREFIXES,
        base=_base(),
        endpoint=_sparql_endpoint(),
    )


def _sparql_endpoint() -> str:
    try:
        return url_for("sparql.sparql")
    except Exception:  # the SPARQL blueprint names its view differently or is absent
        return "/sparql"


# -- graph views --------------------------------------------------------------------------------

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
    sub, trimmed, centre = _neighbourhood(node, depth=depth, types=types, limit=limit)
    label = str(sub.nodes[centre].get("label") or node) if centre in sub else node
    html = viz.neighbourhood_html(
        sub, title=f"Neighbourhood of {label}", cap=limit, trimmed=trimmed, centre=centre,
        static_url=_static_url(), embed=request.args.get("embed") == "1", base=_base(),
    )
    return current_app.response_class(html, mimetype="text/html")


@bp.get("/viz/overview")
def viz_overview() -> Any:
    cap = _view_cap()
    limit = _int_arg("limit", cap, 2, cap)
    graph, trimmed = _overview(limit=limit)
    html = viz.overview_html(
        graph, title="Overview: top entities and their papers", cap=limit, trimmed=trimmed,
        static_url=_static_url(), embed=request.args.get("embed") == "1", base=_base(),
    )
    return current_app.response_class(html, mimetype="text/html")


def _neighbourhood(
    node: str, *, depth: int, types: list[str] | None, limit: int
) -> tuple[Any, bool, str]:
    """(subgraph, trimmed, centre) of `node` from the networkx projection."""
    try:
        return viz.neighbourhood_subgraph(
            _store(), node, depth=depth, types=types, limit=limit, base=_base()
        )
    except viz.UnknownNode as exc:
        abort(404, description=str(exc))


def _overview(*, limit: int) -> tuple[Any, bool]:
    return viz.aggregate_overview(viz.projection(_store(), base=_base()), limit, base=_base())
