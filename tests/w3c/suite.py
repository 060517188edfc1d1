"""The W3C SPARQL 1.1 and 1.0 query test manifests, read with pyoxigraph.

`tests(root)` lists every syntax and evaluation test of the query manifests below `root` (a
copy of w3c/rdf-tests' `sparql/` folder): its name, kind, query file and data files, each file
named by its W3C IRI (the base the suites' queries are written against) and by its path.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph

from api.query import analyse

# The W3C IRIs the suites resolve their files against, by folder of the copy.
BASES = {
    "sparql11": "http://www.w3.org/2009/sparql/docs/tests/data-sparql11/",
    "sparql10": "http://www.w3.org/2001/sw/DataAccess/tests/data-r2/",
}
# The manifests of query tests (not update, protocol or entailment). The federation tests
# are here because SERVICE is one of the endpoint's refusals.
ROOT_MANIFESTS = ("sparql11/manifest-sparql11-query.ttl", "sparql11/manifest-sparql11-results.ttl",
                  "sparql11/manifest-sparql11-fed.ttl", "sparql10/manifest-syntax.ttl",
                  "sparql10/manifest-evaluation.ttl", "sparql10/extended-manifest-evaluation.ttl")

MF = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
QT = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
SYNTAX_KINDS = {"PositiveSyntaxTest11": True, "PositiveSyntaxTest": True,
                "NegativeSyntaxTest11": False, "NegativeSyntaxTest": False}


@dataclass(frozen=True)
class W3cTest:
    name: str  # the manifest's folder and the test's local name: "syntax-query/test_1"
    suite: str  # sparql11 or sparql10
    kind: str  # "syntax" or "eval"
    positive: bool  # a syntax test's query is valid
    query: str  # IRI of the query file
    data: tuple[str, ...] = ()  # IRIs of the default graph's files
    graph_data: tuple[str, ...] = ()  # IRIs of the named graphs' files
    files: tuple[str, ...] = field(default=(), compare=False)  # every IRI the test reads


def path_of(root: Path, iri: str) -> Path:
    for folder, base in BASES.items():
        if iri.startswith(base):
            return root / folder / iri[len(base):]
    raise ValueError(f"{iri} is not a file of the suites")


def iri_of(root: Path, path: Path) -> str:
    relative = path.relative_to(root)
    return BASES[relative.parts[0]] + "/".join(relative.parts[1:])


class _Graph:
    def __init__(self, path: Path, base: str):
        self.out: dict[object, dict[str, list[object]]] = defaultdict(lambda: defaultdict(list))
        for quad in pyoxigraph.parse(path=str(path), format=pyoxigraph.RdfFormat.TURTLE,
                                     base_iri=base):
            self.out[quad.subject][quad.predicate.value].append(quad.object)

    def one(self, node: object, predicate: str) -> object | None:
        values = self.out[node].get(predicate)
        return values[0] if values else None

    def all(self, node: object, predicate: str) -> list[object]:
        return list(self.out[node].get(predicate, ()))

    def items(self, head: object) -> list[object]:
        found = []
        while head is not None and getattr(head, "value", None) != RDF + "nil":
            value = self.one(head, RDF + "first")
            if value is not None:
                found.append(value)
            head = self.one(head, RDF + "rest")
        return found


def _read(root: Path, manifest: Path, into: list[W3cTest]) -> None:
    base = iri_of(root, manifest)
    graph = _Graph(manifest, base)
    node = pyoxigraph.NamedNode(base)
    for included in graph.items(graph.one(node, MF + "include")):
        _read(root, path_of(root, included.value), into)  # type: ignore[attr-defined]
    folder = manifest.parent.name
    suite = manifest.relative_to(root).parts[0]
    for entry in graph.items(graph.one(node, MF + "entries")):
        kind = graph.one(entry, RDF + "type").value.rsplit("#", 1)[-1]  # type: ignore[union-attr]
        action = graph.one(entry, MF + "action")
        name = f"{suite}/{folder}/{entry.value.rsplit('#', 1)[-1]}"  # type: ignore[attr-defined]
        if kind in SYNTAX_KINDS:
            into.append(W3cTest(name, suite, "syntax", SYNTAX_KINDS[kind],
                                action.value, files=(action.value,)))  # type: ignore[union-attr]
        elif kind == "QueryEvaluationTest":
            query = graph.one(action, QT + "query").value  # type: ignore[union-attr]
            # Graphs the query names itself (FROM <data-g1.ttl>) are read too.
            text = path_of(root, query).read_text(encoding="utf-8")
            found = analyse(f"BASE <{query}>\n{text}")
            named_in_query = tuple(iri for iri in (*found.defaults, *found.named)
                                   if iri.startswith(tuple(BASES.values())))
            data = tuple(d.value for d in graph.all(action, QT + "data"))  # type: ignore[attr-defined]
            named = tuple(d.value for d in graph.all(action, QT + "graphData"))  # type: ignore[attr-defined]
            into.append(W3cTest(name, suite, "eval", True, query, data, named,
                                files=(query, *data, *named, *named_in_query)))


def tests(root: Path) -> list[W3cTest]:
    """Every query test of the suites' query manifests, in manifest order."""
    found: list[W3cTest] = []
    for manifest in ROOT_MANIFESTS:
        _read(root, root / manifest, found)
    return found


def manifests(root: Path) -> list[Path]:
    """The manifest files `tests` reads."""
    seen: list[Path] = []

    def walk(manifest: Path) -> None:
        seen.append(manifest)
        graph = _Graph(manifest, iri_of(root, manifest))
        node = pyoxigraph.NamedNode(iri_of(root, manifest))
        for included in graph.items(graph.one(node, MF + "include")):
            walk(path_of(root, included.value))  # type: ignore[attr-defined]

    for manifest in ROOT_MANIFESTS:
        walk(root / manifest)
    return seen
