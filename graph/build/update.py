"""The one SPARQL Update of a paper's facts: what a paper owns in a store, and the request
that swaps its old quads for new ones (none, to remove it) while keeping every entity's
`pkg:support` right and dropping the entities, domain nodes, family links and extractor
descriptions no paper needs any more.

`graph.build.incremental` adds and removes papers with it; it works on every store backend,
since it reads with SPARQL and writes one update request (one transaction on the server).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pyoxigraph import DefaultGraph, NamedNode, Quad

from graph import rdf
from graph.model import Mention, Paper, PaperExtraction, ResolvedCorpus
from graph.store import Store, data_block, solutions
from graph.store.remote import is_internal_graph
from graph.vocab import (
    CLASSES,
    ENTITY_TYPES,
    HAS_RESULT,
    LINK_IRIS,
    LINK_OF_TYPE,
    LINKS,
    MAKES_CLAIM,
    OA,
    PKG,
    SUPPORT,
    entity_iri,
)

SUPPORT_IRI = PKG + SUPPORT
_SKOS_BROADER = "http://www.w3.org/2004/02/skos/core#broader"
_IN_DOMAIN = PKG + LINK_OF_TYPE["domain"]
_PAPER_CLASS = PKG + CLASSES["paper"]
_ENTITY_CLASSES = tuple(CLASSES[type_] for type_ in ENTITY_TYPES)
_IRI_SAFE = re.compile(r"^[^<>\"{}|^`\\\x00-\x20]*$")


def _batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def replace_paper(store: Store, iri: str, quads: Iterable[Quad], *, base: str) -> bool:
    """Replace the facts and provenance the paper `iri` owns (its claims, results and
    annotations with it) by `quads` in one update request, moving the support of every entity
    it linked before or links now; entities and domain nodes left without a paper go. A
    pkg:support in `quads` is left out: the store keeps the counts. With no `quads` this
    removes the paper, and a paper the store does not hold is left alone. True if the store
    held the paper."""
    old = owned_quads(store, iri)
    paper = NamedNode(iri)
    held = any(q.subject == paper for q in old)
    new = [q for q in dict.fromkeys(quads) if q.predicate.value != SUPPORT_IRI]
    if not held and not new:
        return False
    deltas = support_deltas({iri: links_of(old, iri)}, {iri: links_of(new, iri)})
    kept = set(new)
    apply_update(store, change_update([q for q in old if q not in kept], new, deltas, base=base))
    return held


def owned_quads(store: Store, paper: str) -> list[Quad]:
    """Quads about a paper and the nodes only it owns (claims, results, annotations with their
    targets and selectors), in any graph, read with SPARQL: works on every store backend."""
    p = f"<{paper}>"
    has_source, has_target, has_selector = (f"<{OA}hasSource>", f"<{OA}hasTarget>",
                                            f"<{OA}hasSelector>")
    makes_claim, result = f"<{PKG}{MAKES_CLAIM}>", f"<{PKG}{HAS_RESULT}>"

    def anywhere(pattern: str) -> str:
        return f"{{ {pattern} }} UNION {{ GRAPH ?h {{ {pattern} }} }}"

    # The paper itself is added below, not as a `{ VALUES ?x { p } }` branch of the UNION:
    # Virtuoso 7.2 answers nothing at all to a UNION with a VALUES branch.
    subjects_query = f"""SELECT DISTINCT ?x WHERE {{
  {{ {anywhere(f"{p} {makes_claim} ?x")} }}
  UNION {{ {anywhere(f"{p} {makes_claim} ?c . ?c {result} ?x")} }}
  UNION {{ {anywhere(f"?x {has_source} {p}")} }}
  UNION {{ {anywhere(f"?t {has_source} {p} . ?t {has_selector} ?x")} }}
  UNION {{ {anywhere(f"?t {has_source} {p} . ?x {has_target} ?t")} }}
}}"""
    subjects = [NamedNode(paper)] + [row["x"] for row in solutions(store, subjects_query)
                                     if isinstance(row["x"], NamedNode)]
    subjects = list(dict.fromkeys(subjects))
    owned: list[Quad] = []
    for part in _batches(subjects, 500):
        values = " ".join(str(s) for s in part)
        rows = solutions(
            store,
            f"SELECT ?s ?p ?o ?g WHERE {{ VALUES ?s {{ {values} }} "
            "{ ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
        )
        for row in rows:
            graph = row["g"]
            if is_internal_graph(graph):
                continue
            owned.append(Quad(row["s"], row["p"], row["o"], graph or DefaultGraph()))
    return list(dict.fromkeys(owned))


def links_of(quads: Iterable[Quad], paper: str) -> set[str]:
    """The entities (and domains) `paper` links in `quads`."""
    node = NamedNode(paper)
    return {
        q.object.value for q in quads
        if q.subject == node and q.predicate.value in LINK_IRIS and isinstance(q.object, NamedNode)
    }


def support_deltas(before: dict[str, set[str]], after: dict[str, set[str]]) -> dict[str, int]:
    """Per entity: papers that link it in `after` but not `before`, minus the reverse. Both
    map a paper to every entity it links (a paper absent from one side links nothing there)."""
    deltas: dict[str, int] = {}
    for paper in before.keys() | after.keys():
        old, new = before.get(paper, set()), after.get(paper, set())
        for entity in new - old:
            deltas[entity] = deltas.get(entity, 0) + 1
        for entity in old - new:
            deltas[entity] = deltas.get(entity, 0) - 1
    return {entity: delta for entity, delta in deltas.items() if delta}


def adjust_support(deltas: dict[str, int]) -> list[str]:
    """SPARQL Update operations that move pkg:support of each entity by its delta, leave no
    support on a node no paper is left in, and drop entity nodes (not taxonomy domains) that
    no paper links any more.

    Moving the stored count costs the same at any size of graph, where counting an entity's
    links again grows with its papers (2.6 s for the entities of ten papers at 10,000 papers,
    against 0.02 s; bench/README.md).
    The count stays right because every change goes through here with the paper's links
    before and after it (`replace_paper`, `graph.build.incremental`).
    """
    rows = " ".join(f"(<{iri}> {delta})" for iri, delta in sorted(deltas.items())
                    if delta and _IRI_SAFE.match(iri))
    if not rows:
        return []
    support = f"<{PKG}support>"
    # ?new stays unbound when nothing is left (IF's error), so no "0" is written: a build
    # writes no support for a domain without papers.
    operations = [
        f"""DELETE {{ ?e {support} ?old }} INSERT {{ ?e {support} ?new }} WHERE {{
  VALUES (?e ?delta) {{ {rows} }}
  OPTIONAL {{ ?e {support} ?old }}
  BIND(COALESCE(?old, 0) + ?delta AS ?sum)
  BIND(IF(?sum > 0, ?sum, ?none) AS ?new) }}"""
    ]
    fewer = " ".join(f"<{iri}>" for iri, delta in sorted(deltas.items())
                     if delta < 0 and _IRI_SAFE.match(iri))
    if fewer:
        classes = ", ".join(f"<{PKG}{name}>" for name in _ENTITY_CLASSES)
        links = ", ".join(f"<{PKG}{name}>" for name in LINKS)
        # The links as a FILTER on `?paper ?link ?e`, not a VALUES list: with ?e bound,
        # Oxigraph reads each entity's incoming links from its object index and stops at the
        # first. Full IRIs: Oxigraph wants a request's prefixes before its first operation.
        operations.append(f"""DELETE {{ ?e ?p ?o }} WHERE {{
  VALUES ?e {{ {fewer} }} ?e a ?class . FILTER(?class IN ({classes}))
  FILTER NOT EXISTS {{ ?paper ?link ?e . FILTER(?link IN ({links}))
    FILTER EXISTS {{ ?paper a <{_PAPER_CLASS}> }} }}
  ?e ?p ?o }}""")
    return operations


def _domain_only_quads(slugs: Iterable[str], base: str) -> dict[str, list[Quad]]:
    """Per domain: the quads a build adds for it beyond data/taxonomy.ttl, support left out."""
    taxonomy = rdf.taxonomy_quads(base=base)
    # What every build has, papers or not: the taxonomy and whatever the build derives from it.
    empty = ResolvedCorpus(extractions={}, entities={}, links={})
    in_taxonomy = set(taxonomy) | set(rdf.domain_quads(empty, taxonomy, base))
    result: dict[str, list[Quad]] = {}
    for slug in slugs:
        probe = PaperExtraction(
            paper=Paper(key="probe", abstract="probe"),
            mentions=[Mention(type="domain", text=slug, start=0, end=1, extractor="domains.v1",
                              confidence=1.0, label=slug)],
        )
        corpus = ResolvedCorpus(extractions={"probe": probe}, entities={}, links={})
        node = NamedNode(entity_iri(base, "domain", slug))
        result[slug] = [
            q for q in rdf.domain_quads(corpus, taxonomy, base)
            if q.subject == node and q.predicate.value != SUPPORT_IRI
            and q not in in_taxonomy
        ]
    return result


def _prune_domains(domains: dict[str, list[Quad]], base: str) -> list[str]:
    """Updates that drop a domain's build-only quads once no paper is in it."""
    operations = []
    for slug, quads in sorted(domains.items()):
        if not quads:
            continue
        node = entity_iri(base, "domain", slug)
        operations.append(
            f"DELETE {{ {data_block(quads)} }} WHERE {{ FILTER NOT EXISTS {{ "
            f"?paper <{_IN_DOMAIN}> <{node}> . ?paper a <{_PAPER_CLASS}> }} }}"
        )
    return operations


def change_update(delete: Sequence[Quad], insert: Sequence[Quad], deltas: dict[str, int],
                  *, base: str) -> str:
    """One SPARQL Update request: delete, insert, move the support of entities by `deltas`
    (`support_deltas`), remove entities and domain nodes no paper links any more."""
    domain_prefix = entity_iri(base, "domain", "")
    domains = sorted(iri[len(domain_prefix):] for iri, delta in deltas.items()
                     if delta < 0 and iri.startswith(domain_prefix))
    operations = []
    if delete:
        operations.append(f"DELETE DATA {{\n{data_block(delete)}\n}}")
    if insert:
        operations.append(f"INSERT DATA {{\n{data_block(insert)}\n}}")
    operations.extend(adjust_support(deltas))
    operations.extend(_prune_broader(deltas))
    operations.extend(_prune_domains(_domain_only_quads(domains, base), base))
    operations.extend(_prune_extractors(delete))
    return " ;\n".join(operations)


def _prune_broader(deltas: dict[str, int]) -> list[str]:
    """Updates that drop `skos:broader` links to entities the change removed (their own
    statements go with them; the links of their editions point at them from outside)."""
    fewer = " ".join(f"<{iri}>" for iri, delta in sorted(deltas.items()) if delta < 0)
    if not fewer:
        return []
    return [f"DELETE {{ ?x <{_SKOS_BROADER}> ?e }} WHERE {{ VALUES ?e {{ {fewer} }} "
            f"?x <{_SKOS_BROADER}> ?e FILTER NOT EXISTS {{ ?e a ?class }} }}"]


def _prune_extractors(deleted: Sequence[Quad]) -> list[str]:
    """Updates that drop an extractor's agent description once no annotation names it."""
    generated_by = "http://www.w3.org/ns/prov#wasGeneratedBy"
    agents = sorted({(q.object.value, str(q.graph_name)) for q in deleted
                     if q.predicate.value == generated_by and isinstance(q.object, NamedNode)
                     and not isinstance(q.graph_name, DefaultGraph)})
    return [
        f"DELETE {{ GRAPH {graph} {{ <{agent}> ?p ?o }} }} WHERE {{ GRAPH {graph} "
        f"{{ <{agent}> ?p ?o }} FILTER NOT EXISTS "
        f"{{ GRAPH ?g {{ ?a <{generated_by}> <{agent}> }} }} }}"
        for agent, graph in agents
    ]


def apply_update(store: Store, sparql: str) -> None:
    """Run one update request on the store as one write (one transaction, one generation)."""
    if sparql:
        store.update(sparql)
