"""What the public endpoint refuses, decided on the query's tokens before it runs.

The refusals (docs/security.md) are exactly:

* an update (the text's first keyword after its `BASE`/`PREFIX` lines is `INSERT`, `DELETE`,
  `LOAD`, `CLEAR`, `DROP`, `CREATE`, `ADD`, `MOVE`, `COPY` or `WITH`): `UpdateRefused`;
* a `SERVICE` keyword anywhere (the store would call another server): `QueryRefused`;
* `FROM` / `FROM NAMED` with an IRI that is not one of the store's named graphs (the IRI
  resolved as the engine resolves it: prefixed names expanded, relative IRIs against the
  query's `BASE` or the endpoint's own URL): `QueryRefused`.

The decision is made on the tokens of the SPARQL grammar (`graph.sparqltext.tokens`), so a
variable `?from`, a comment `# service`, a string or an IRI holding those words is never
taken for the keyword; in a query the grammar accepts, the `SERVICE` keyword only opens a
service pattern and `FROM` only a dataset clause, so the tokens say exactly what the parsed
query holds. Everything else, syntax included, is the engine's to decide when it runs the
query (pyoxigraph, whose parse errors `graph.sparqltext.explain` turns into one line).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pyoxigraph

from graph.errors import QueryError
from graph.sparqltext import (
    QUERY_FORMS,
    UPDATE_KEYWORDS,
    Token,
    first_keyword,
    prologue,
    tokens,
)


class QueryRefused(QueryError):
    """A query that asks for something this endpoint never does (SERVICE, remote FROM)."""


class UpdateRefused(QueryError):
    """An update sent to the read-only endpoint."""


class QuerySyntaxError(QueryError):
    """A query that does not parse; the message gives the line and column."""


@dataclass(frozen=True)
class Analysis:
    form: str | None  # SELECT, ASK, CONSTRUCT, DESCRIBE, UPDATE, or None (neither)
    update_keyword: str | None
    services: tuple[str, ...]  # what follows each SERVICE keyword, as written
    defaults: tuple[str, ...]  # FROM IRIs, resolved
    named: tuple[str, ...]  # FROM NAMED IRIs, resolved
    limit: int | None  # the outer query's LIMIT when the query ends with it
    varying: bool  # calls a function whose value changes from run to run (VARYING)


def resolve_iri(iri: str, base: str | None) -> str:
    """`iri` resolved against `base` (RFC 3987, as the engine does); as given without one."""
    if base is None:
        return iri
    try:
        triple = next(iter(pyoxigraph.parse(
            f"<{iri}> <urn:x:p> <urn:x:o> .".encode(), format=pyoxigraph.RdfFormat.TURTLE,
            base_iri=base)))
    except (SyntaxError, ValueError, StopIteration):
        return iri  # the engine will refuse it as a syntax error
    return triple.subject.value  # type: ignore[union-attr]


def _unescape_iri(text: str) -> str:
    # \u and \U escapes may spell any character of an IRIREF (§19.2 applies them first).
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape") \
        if "\\u" in text or "\\U" in text else text


def _unescape_local(text: str) -> str:
    # PN_LOCAL's reserved-character escapes stand for the character itself (§19.8).
    out, index = [], 0
    while index < len(text):
        if text[index] == "\\" and index + 1 < len(text):
            out.append(text[index + 1])
            index += 2
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


def _term_iri(token: Token, prefixes: dict[str, str], base: str | None) -> str | None:
    if token.kind == "iri":
        return resolve_iri(_unescape_iri(token.text[1:-1]), base)
    if token.kind == "pname":
        prefix, _, local = token.text.partition(":")
        if prefix in prefixes:
            return prefixes[prefix] + _unescape_local(local)
    return None


#: SPARQL's functions whose value is new at each run: a query calling one may give a different
#: number of rows on the same data (`FILTER(RAND() < 0.5)`).
VARYING = frozenset({"RAND", "NOW", "UUID", "STRUUID"})


def _outer_limit(found: list[Token]) -> int | None:
    """n when the query ends with `LIMIT n` or `LIMIT n OFFSET m`; a subquery or a VALUES
    block ends with `}`, so a LIMIT among the last tokens is the outer query's."""

    def number(index: int) -> bool:
        return len(found) >= -index and found[index].kind == "number" \
            and found[index].text.isdigit()

    if len(found) >= 2 and found[-2].keyword == "LIMIT" and number(-1):
        return int(found[-1].text)
    if (len(found) >= 4 and found[-4].keyword == "LIMIT" and number(-3)
            and found[-2].keyword == "OFFSET" and number(-1)):
        return int(found[-3].text)
    return None


@functools.lru_cache(maxsize=512)
def analyse(sparql: str, base_iri: str | None = None) -> Analysis:
    found = tokens(sparql)
    head = first_keyword(found)
    word = head.keyword if head is not None else None
    form = word if word in QUERY_FORMS else ("UPDATE" if word in UPDATE_KEYWORDS else None)
    # The prologue's prefixes and base, each resolved against the base before it.
    prefixes: dict[str, str] = {}
    base = base_iri
    for index in range(prologue(found).start):
        token = found[index]
        if token.keyword == "BASE":
            base = resolve_iri(_unescape_iri(found[index + 1].text[1:-1]), base)
        elif token.keyword == "PREFIX":
            prefixes[found[index + 1].text[:-1]] = resolve_iri(
                _unescape_iri(found[index + 2].text[1:-1]), base)
    services: list[str] = []
    defaults: list[str] = []
    named: list[str] = []
    for index, token in enumerate(found):
        keyword = token.keyword
        if keyword == "SERVICE":
            following = found[index + 1:index + 3]
            target = next((t.text for t in following if t.keyword != "SILENT"), "")
            services.append(target)
        elif keyword == "FROM" and index + 1 < len(found):
            is_named = found[index + 1].keyword == "NAMED"
            term = found[index + 2] if is_named and index + 2 < len(found) else found[index + 1]
            iri = _term_iri(term, prefixes, base)
            if iri is not None:
                (named if is_named else defaults).append(iri)
    return Analysis(form, word if form == "UPDATE" else None, tuple(services),
                    tuple(defaults), tuple(named), _outer_limit(found),
                    any(token.keyword in VARYING for token in found))


def query_form(sparql: str) -> str | None:
    """SELECT, ASK, CONSTRUCT, DESCRIBE, UPDATE, or None when the text starts with neither."""
    return analyse(sparql).form


def outer_limit(sparql: str) -> int | None:
    """The LIMIT of the outermost query when the text ends with it, else None."""
    return analyse(sparql).limit


def varies(sparql: str) -> bool:
    """Whether two runs of `sparql` on the same data may give different numbers of rows."""
    return analyse(sparql).varying


def check_query(sparql: str, *, graphs: Callable[[], Iterable[str]] | None = None,
                base_iri: str | None = None) -> str | None:
    """Refuse an update or an unsafe query before it runs; return its form (see `query_form`).

    `graphs` lists the named graphs of the store: FROM and FROM NAMED may only name those.
    `base_iri` is the base the query runs with (relative FROM IRIs resolve against it).
    """
    found = analyse(sparql, base_iri)
    if found.form == "UPDATE":
        raise UpdateRefused(
            f"{found.update_keyword} is an update, and this endpoint is read-only: it answers "
            "SELECT, ASK, CONSTRUCT and DESCRIBE queries only")
    if found.services:
        raise QueryRefused(
            f"SERVICE is not allowed (SERVICE {found.services[0]}): "
            "this endpoint never sends queries to other servers")
    if found.defaults or found.named:
        known = set(graphs()) if graphs is not None else set()
        for clause, iris in (("FROM", found.defaults), ("FROM NAMED", found.named)):
            for iri in iris:
                if iri not in known:
                    raise QueryRefused(
                        f"{clause} <{iri}> names a graph that is not in this store; "
                        "this endpoint never fetches remote graphs")
    return found.form
