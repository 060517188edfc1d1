"""One way to name a paper or node, for every command and route: name in, IRI out.

A name is tried, in order, as
1. an IRI of a node in the store;
2. "type/slug" or "paper/key" (the node ids the API and pages use);
3. a paper's key (the last segment of its IRI);
4. a paper's id as its corpus gave it (``B1tC-LT6W``, exactly: ids that differ in case are
   different papers), its DOI (``10.1234/abc``, ``doi:…``, ``https://doi.org/…``, any case,
   as DOIs are), arXiv id
   (``2401.04321``, ``arXiv:…``, ``https://arxiv.org/abs/…``) or OpenAlex id
   (``W4391234567``, ``https://openalex.org/…``);
5. a label or alias ("ResNet", a paper's title), ignoring case, spacing and hyphens; of
   several nodes so named, the best supported.

A name none of these finds raises `UnknownName` whose one-line message suggests the closest
names (difflib) that would have been found. Only SPARQL is used, so any store works.
"""

from __future__ import annotations

import difflib

from pyoxigraph import NamedNode

from graph.errors import PaperkgError
from graph.slug import label_key
from graph.store import Store, solutions
from graph.vocab import DCTERMS, NODE_TYPES, PKG, RDFS, SKOS, paper_iri

#: (property, prefixes users put before the id) of the paper identifiers a name may be
_SCHEMES = (
    (PKG + "doi", ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:")),
    (PKG + "arxivId", ("https://arxiv.org/abs/", "http://arxiv.org/abs/", "arxiv:")),
    (PKG + "openalexId", ("https://openalex.org/", "http://openalex.org/")),
)
SUGGESTIONS = 3


class UnknownName(PaperkgError):
    """No paper or node has this name; `suggestions` are the closest names that exist."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


def _literal(text: str) -> str:
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\r", "\\r"))
    return f'"{escaped}"'


def _first(store: Store, sparql: str) -> str | None:
    for row in solutions(store, sparql):
        return row[0].value
    return None


def _exists(store: Store, iri: str) -> bool:
    try:
        NamedNode(iri)
    except ValueError:
        return False  # not an IRI at all, so no node's
    return _first(store, f"SELECT ?t WHERE {{ <{iri}> a ?t }} LIMIT 1") is not None


def _by_identifier(store: Store, name: str) -> str | None:
    paper = f"<{PKG}Paper>"
    found = _first(store, f"SELECT ?p WHERE {{ ?p a {paper} ; <{DCTERMS}identifier> "
                          f"{_literal(name)} }} ORDER BY ?p LIMIT 1")
    if found:
        return found
    lowered = name.casefold()
    for predicate, prefixes in _SCHEMES:
        bare = next((name[len(p):] for p in prefixes if lowered.startswith(p)), name)
        found = _first(store, f"SELECT ?p WHERE {{ ?p <{predicate}> ?id "
                              f"FILTER(LCASE(STR(?id)) = LCASE({_literal(bare)})) }} "
                              "ORDER BY ?p LIMIT 1")
        if found:
            return found
    # an original id matches only as given: ids that differ in case are different papers
    return None


def _by_label(store: Store, name: str, papers_only: bool) -> str | None:
    # label_key in SPARQL: case folded, runs of spaces, hyphens, underscores, slashes as one space
    kind = f"?n a <{PKG}Paper> ." if papers_only else ""
    rows = solutions(store, f"""
        SELECT ?n (MAX(?s) AS ?support) WHERE {{
          {kind}
          ?n <{RDFS}label>|<{SKOS}altLabel>|<{SKOS}prefLabel>|<{DCTERMS}title> ?label .
          FILTER(isIRI(?n) && REPLACE(LCASE(STR(?label)), "[\\\\s_/‐-–—-]+", " ")
                 = {_literal(label_key(name))})
          OPTIONAL {{ ?n <{PKG}support> ?s }}
        }} GROUP BY ?n""")
    named = [(row[0].value, int(row[1].value) if row[1] is not None else 0) for row in rows]
    if not named:
        return None
    return min(named, key=lambda m: (-m[1], m[0]))[0]


def resolve(store: Store, name: str, base: str, *, papers_only: bool = False) -> str:
    """The IRI `name` names (see the module doc); UnknownName with suggestions if none."""
    text = name.strip()
    if not text:
        raise UnknownName("empty name: give a paper's key or id, an IRI or type/slug", [])
    if text.startswith(("http://", "https://")) and _exists(store, text):
        if not papers_only or _is_paper(store, text):
            return text
    type_, slash, rest = text.partition("/")
    if slash and type_ in NODE_TYPES and rest and (type_ == "paper" or not papers_only):
        if _exists(store, base + text):
            return base + text
    if _exists(store, paper_iri(base, text)) and _is_paper(store, paper_iri(base, text)):
        return paper_iri(base, text)
    found = _by_identifier(store, text) or _by_label(store, text, papers_only)
    if found:
        return found
    what = "paper" if papers_only else "paper or node"
    close = suggest(store, text, base, papers_only=papers_only)
    hint = f"; did you mean {', '.join(repr(s) for s in close)}?" if close else ""
    raise UnknownName(f"no {what} named {name!r}{hint}", close)


def paper(store: Store, name: str, base: str) -> str:
    """The IRI of the paper `name` names (key, original id, DOI, arXiv or OpenAlex id,
    title, IRI or paper/key)."""
    return resolve(store, name, base, papers_only=True)


def _is_paper(store: Store, iri: str) -> bool:
    return _first(store, f"SELECT ?t WHERE {{ <{iri}> a ?t FILTER(?t = <{PKG}Paper>) }}") \
        is not None


def suggest(store: Store, name: str, base: str, *, papers_only: bool = False,
            n: int = SUGGESTIONS) -> list[str]:
    """Up to `n` names, closest first, that `resolve` would find and that look like `name`."""
    paper_class = f"<{PKG}Paper>"
    kind = f"?n a {paper_class} ." if papers_only else "?n a ?t ."
    rows = solutions(store, f"""
        SELECT DISTINCT ?n ?id ?label WHERE {{
          {kind}
          FILTER(isIRI(?n) && STRSTARTS(STR(?n), {_literal(base)}))
          OPTIONAL {{ ?n <{DCTERMS}identifier> ?id }}
          OPTIONAL {{ ?n <{RDFS}label> ?label }}
        }}""")
    # what the user may have meant to type -> the name to suggest for it
    choices: dict[str, set[str]] = {}
    for row in rows:
        node = row[0].value[len(base):]
        type_ = node.partition("/")[0]
        if type_ not in NODE_TYPES:
            continue
        shown = row[1].value if type_ == "paper" and row[1] is not None else node
        for form in (node, node.partition("/")[2], shown, row[2].value if row[2] else None):
            if form:
                choices.setdefault(form.casefold(), set()).add(shown)
    close = difflib.get_close_matches(name.strip().casefold(), list(choices), n=n * 4,
                                      cutoff=0.6)
    return list(dict.fromkeys(shown for c in close for shown in sorted(choices[c])))[:n]
