"""The result formats the runner produces, by media type, and what a query returns."""

from __future__ import annotations

from dataclasses import dataclass

from graph.sparqltext import QUERY_FORMS

# Media types the runner can produce, by query form.
RESULTS_MEDIA_TYPES: dict[str, str] = {
    "application/sparql-results+json": "JSON",
    "application/sparql-results+xml": "XML",
    "text/csv": "CSV",
    "text/tab-separated-values": "TSV",
}
GRAPH_MEDIA_TYPES: dict[str, str] = {
    "text/turtle": "TURTLE",
    "application/n-triples": "N_TRIPLES",
    "application/ld+json": "JSON_LD",
    "application/rdf+xml": "RDF_XML",
}


@dataclass(frozen=True)
class QueryResult:
    body: bytes
    media_type: str
    form: str  # SELECT, ASK, CONSTRUCT or DESCRIBE
    rows: int  # solutions or triples sent (1 for ASK; -1 when not counted)
    truncated: bool


def formats_for(media_type: str | None) -> tuple[str, str]:
    """(results format, graph format) of a query asking for `media_type`: the one it names,
    the default for the other form."""
    results_format, graph_format = "JSON", "TURTLE"
    if media_type in RESULTS_MEDIA_TYPES:
        results_format = RESULTS_MEDIA_TYPES[media_type]
    if media_type in GRAPH_MEDIA_TYPES:
        graph_format = GRAPH_MEDIA_TYPES[media_type]
    return results_format, graph_format


def result_of(payload: tuple[bytes, str, int, bool], form: str | None,
              results_format: str, graph_format: str) -> QueryResult:
    """The QueryResult of a worker's `payload` (body, form, rows, truncated)."""
    body, result_form, rows, truncated = payload
    chosen = media_type_of(result_form, results_format, graph_format)
    if form in QUERY_FORMS and result_form == "CONSTRUCT":
        result_form = form  # CONSTRUCT or DESCRIBE
    return QueryResult(body, chosen, result_form, rows, truncated)


def media_type_of(form: str | None, results_format: str, graph_format: str) -> str:
    """The media type of the answer of a query of `form` written in the formats chosen."""
    if form == "SELECT" or form == "ASK":
        return _media_type_for(RESULTS_MEDIA_TYPES, results_format)
    return _media_type_for(GRAPH_MEDIA_TYPES, graph_format)


def _media_type_for(table: dict[str, str], name: str) -> str:
    return next(media for media, fmt in table.items() if fmt == name)
