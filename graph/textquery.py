"""Render SPARQL results for a terminal or a pipe (`paperkg query`)."""

from __future__ import annotations

import pyoxigraph as ox

from graph.errors import QueryError
from graph.nlp.text_clean import collapse
from graph.sparqltext import UPDATE_KEYWORDS, explain, first_keyword, tokens
from graph.vocab import PREFIXES

_RESULT_FORMATS = {
    "json": ox.QueryResultsFormat.JSON,
    "csv": ox.QueryResultsFormat.CSV,
    "tsv": ox.QueryResultsFormat.TSV,
    "xml": ox.QueryResultsFormat.XML,
}
_GRAPH_FORMATS = {"turtle": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES}


def term_text(term: object) -> str:
    if term is None:
        return ""
    if isinstance(term, ox.Literal):
        return term.value
    if isinstance(term, ox.NamedNode):
        return term.value
    return str(term)


def _refuse_update(sparql: str) -> None:
    head = first_keyword(tokens(sparql))
    if head is not None and head.keyword in UPDATE_KEYWORDS:
        raise QueryError(f"query: {head.keyword} is an update; `paperkg query` only reads "
                         "(SELECT, ASK, CONSTRUCT, DESCRIBE): change the graph with `paperkg "
                         "build`, `build --add` or `remove`")


def render(store, sparql: str, fmt: str = "table") -> str:
    _refuse_update(sparql)
    try:
        result = store.query(sparql)
    except (SyntaxError, QueryError) as exc:
        # The store's message ends in the parser's ("error at 1:26: expected one of ...").
        if "error at " not in str(exc):
            raise
        raise QueryError(f"query: {explain(sparql, str(exc))}") from None
    if isinstance(result, ox.QueryBoolean):
        if fmt in _RESULT_FORMATS:
            return (result.serialize(format=_RESULT_FORMATS[fmt]) or b"").decode("utf-8")
        return ("true" if bool(result) else "false") + "\n"
    if isinstance(result, ox.QueryTriples):
        rdf_format = _GRAPH_FORMATS.get(fmt, ox.RdfFormat.TURTLE)
        text = ox.serialize(list(result), format=rdf_format, prefixes=PREFIXES) or b""
        return text.decode("utf-8")
    if fmt in _RESULT_FORMATS:
        return (result.serialize(format=_RESULT_FORMATS[fmt]) or b"").decode("utf-8")
    if fmt != "table":
        raise QueryError(f"--format {fmt} is for CONSTRUCT/DESCRIBE queries; use table, json, csv")
    names = [v.value for v in result.variables]
    # a table cell is one line: a verbatim sentence's line breaks would split the row
    rows = [[collapse(term_text(solution[name])) for name in names] for solution in result]
    return _table(names, rows)


def _table(names: list[str], rows: list[list[str]]) -> str:
    widths = [max([len(n)] + [len(r[i]) for r in rows]) for i, n in enumerate(names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
              for row in rows]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines) + "\n"
