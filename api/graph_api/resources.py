"""Linked-data resources (`/id/<type>/<slug>`): the resource's triples in the RDF format the
Accept header asks for; browsers are sent to the resource's web page, or get a minimal HTML
page (templates/resource.html) for types the pages do not show."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import pyoxigraph
from flask import Response, redirect, render_template, request, url_for
from werkzeug.routing import BuildError

from api.context import services
from api.errors import ApiError
from api.graph_api.access import base
from api.graph_api.params import iri_of
from graph.vocab import DCTERMS, NODE_TYPES, PREFIXES, RDFS, SKOS

RESOURCE_TYPES = (*NODE_TYPES, "claim", "result", "annotation")
PAGE_TYPES = (*NODE_TYPES, "claim")  # types the web pages show
RESOURCE_FORMATS = {"text/turtle": "TURTLE", "application/ld+json": "JSON_LD",
                    "application/n-triples": "N_TRIPLES", "application/rdf+xml": "RDF_XML"}
OFFERED = ["text/turtle", "text/html", "application/ld+json", "application/n-triples",
           "application/rdf+xml"]


def description(iri: str) -> list[pyoxigraph.Triple]:
    """The resource's own triples plus the labels and titles of what it links to."""
    labels = f"<{RDFS}label> <{SKOS}prefLabel> <{DCTERMS}title>"
    found = services().store.query(f"""CONSTRUCT {{ <{iri}> ?p ?o . ?o ?lp ?l }} WHERE {{
  <{iri}> ?p ?o OPTIONAL {{ VALUES ?lp {{ {labels} }} ?o ?lp ?l FILTER(isIRI(?o)) }} }}""")
    triples = list(cast(Iterable[pyoxigraph.Triple], found))
    subject = pyoxigraph.NamedNode(iri)
    # Own triples first, then the labels, each in a stable order.
    return sorted(triples, key=lambda t: (t.subject != subject, str(t.subject),
                                          str(t.predicate), str(t.object)))


def _page_url(type_: str, slug: str) -> str | None:
    if type_ not in PAGE_TYPES:
        return None
    try:
        if type_ == "paper":
            return url_for("pages.paper", key=slug)
        return url_for("pages.entity", type_=type_, slug=slug)
    except BuildError:
        return None


def _cell(term: Any, base_iri: str) -> dict[str, str | None]:
    """A term as the page shows it: its text, and a link when it is one of our resources."""
    if isinstance(term, pyoxigraph.NamedNode):
        parts = term.value[len(base_iri):].split("/")
        href = None
        if term.value.startswith(base_iri) and len(parts) == 2 and parts[0] in RESOURCE_TYPES:
            href = url_for("graph.resource", type_=parts[0], slug=parts[1])
        return {"text": term.value, "href": href}
    if isinstance(term, pyoxigraph.Literal):
        return {"text": term.value, "href": None}
    return {"text": str(term), "href": None}


def html_resource(iri: str, triples: list[pyoxigraph.Triple]) -> Response:
    """The minimal HTML page of a resource: its own triples as a table."""
    base_iri = base()
    subject = pyoxigraph.NamedNode(iri)
    rows = [(_cell(t.predicate, base_iri), _cell(t.object, base_iri))
            for t in triples if t.subject == subject]
    title = next((t.object.value for t in triples if t.subject == subject
                  and not isinstance(t.object, pyoxigraph.Triple) and t.predicate.value
                  in {RDFS + "label", SKOS + "prefLabel", DCTERMS + "title"}), iri)
    body = render_template("resource.html", title=title, iri=iri, rows=rows)
    return Response(body, mimetype="text/html")


def resource(type_: str, slug: str) -> Response:
    if type_ not in RESOURCE_TYPES:
        raise ApiError(404, f"no resource type {type_!r}; types: {', '.join(RESOURCE_TYPES)}")
    iri = iri_of(type_, slug)
    media_type = request.accept_mimetypes.best_match(OFFERED) if request.headers.get(
        "Accept") else "text/turtle"
    if media_type is None:
        raise ApiError(406, f"cannot answer with any type in Accept: "
                       f"{request.headers.get('Accept')}; offered: {', '.join(OFFERED)}")
    triples = description(iri)
    if not triples:
        raise ApiError(404, f"no {type_} {slug!r}")
    if media_type == "text/html":
        page = _page_url(type_, slug)
        if page is not None:
            response = redirect(page, code=303)
        else:
            response = html_resource(iri, triples)
    else:
        fmt = getattr(pyoxigraph.RdfFormat, RESOURCE_FORMATS[media_type])
        prefixes = PREFIXES if media_type in {"text/turtle", "application/rdf+xml"} else None
        body = pyoxigraph.serialize(triples, format=fmt, prefixes=prefixes)
        response = Response(body, content_type=f"{media_type}; charset=utf-8")
    response.headers["Vary"] = "Accept"
    return response  # type: ignore[return-value]
