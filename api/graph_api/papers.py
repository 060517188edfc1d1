"""A paper as JSON (`/api/papers/<key>`): its metadata, linked entities and claims with their
results, read in three queries; the entities named are described in one batch."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyoxigraph

from api.graph_api.access import base, guard, rows
from graph.network import StoreGraph, node_id
from graph.vocab import DCTERMS, LINKS, PKG, PREFIXES, RDFS, SCHEMA


class Refs:
    """Linked nodes described in one batch: collect IRIs, then `resolve()`."""

    def __init__(self, graph: StoreGraph) -> None:
        self.graph = graph
        self.known: dict[str, dict[str, Any]] = {}

    def load(self, iris: Iterable[str]) -> None:
        self.known.update(self.graph.describe(iris))

    def __call__(self, iri: str) -> dict[str, Any]:
        if iri in self.known:
            return dict(self.known[iri])
        key = node_id(iri, base())
        return {"id": key, "iri": iri, "type": key.split("/", 1)[0] if "/" in key else None,
                "label": key.rsplit("/", 1)[-1], "support": None}


def _number(value: str) -> int | float | str:
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() and "." not in value else number


def paper_values(iri: str) -> dict[str, list[Any]]:
    """The paper's own objects by predicate IRI."""
    values: dict[str, list[Any]] = {}
    for predicate, obj in rows(f"SELECT ?p ?o WHERE {{ <{iri}> ?p ?o }}"):
        values.setdefault(predicate.value, []).append(obj)
    return values


def is_paper(values: dict[str, list[Any]]) -> bool:
    return pyoxigraph.NamedNode(PKG + "Paper") in values.get(PREFIXES["rdf"] + "type", [])


def paper_json(graph: StoreGraph, iri: str, key: str,
               values: dict[str, list[Any]]) -> dict[str, Any]:
    """The answer of `/api/papers/<key>` for the paper `iri` with its own `values`."""

    def first(predicate: str) -> str | None:
        objects = sorted(o.value for o in values.get(predicate, []))
        return objects[0] if objects else None

    refs = Refs(graph)
    linked = {name: sorted(o.value for o in values.get(PKG + name, [])
                           if isinstance(o, pyoxigraph.NamedNode)) for name in LINKS}
    facts = claim_facts(iri)
    refs_wanted = [t for targets in linked.values() for t in targets]
    for props in facts.values():
        for predicate in ("about", "metric", "dataset", "model", "baseline"):
            refs_wanted += [o.value for o in props.get(PKG + predicate, [])
                            if isinstance(o, pyoxigraph.NamedNode)]
    guard(refs.load, refs_wanted)
    links = {name: [refs(target) for target in targets]
             for name, targets in linked.items() if targets}
    return {
        "id": f"paper/{key}", "key": key, "iri": iri,
        "title": first(DCTERMS + "title"), "label": first(RDFS + "label"),
        "abstract": first(DCTERMS + "abstract"), "identifier": first(DCTERMS + "identifier"),
        "issued": first(DCTERMS + "issued"),
        "creators": sorted(o.value for o in values.get(DCTERMS + "creator", [])),
        "venue": first(SCHEMA + "isPartOf"),
        "links": links,
        "claims": claims_json(facts, refs),
    }

def claim_facts(paper_iri: str) -> dict[str, dict[str, list[Any]]]:
    found = rows(f"""SELECT ?s ?p ?o WHERE {{
  {{ <{paper_iri}> <{PKG}makesClaim> ?s . ?s ?p ?o }} UNION
  {{ <{paper_iri}> <{PKG}makesClaim> ?c . ?c <{PKG}result> ?s . ?s ?p ?o }} }}""")
    facts: dict[str, dict[str, list[Any]]] = {}
    for subject, predicate, obj in found:
        facts.setdefault(subject.value, {}).setdefault(predicate.value, []).append(obj)
    return facts


def claims_json(facts: dict[str, dict[str, list[Any]]], refs: Refs) -> list[dict[str, Any]]:
    claims = [iri for iri, props in facts.items()
              if pyoxigraph.NamedNode(PKG + "Claim") in props.get(PREFIXES["rdf"] + "type", [])]

    def one(props: dict[str, list[Any]], predicate: str) -> Any:
        objects = sorted(props.get(predicate, []), key=lambda o: o.value)
        return objects[0] if objects else None

    def entity(props: dict[str, list[Any]], predicate: str) -> dict[str, Any] | None:
        term = one(props, predicate)
        return refs(term.value) if term is not None else None

    def order(iri: str) -> tuple[int, str]:
        tail = iri.rsplit("-", 1)[-1]
        return (int(tail) if tail.isdigit() else 0, iri)

    out = []
    for claim in sorted(claims, key=order):
        props = facts[claim]
        kind, text = one(props, PKG + "claimKind"), one(props, SCHEMA + "text")
        results = []
        for result in sorted(props.get(PKG + "result", []), key=lambda o: order(o.value)):
            detail = facts.get(result.value, {})
            value, unit = one(detail, PKG + "value"), one(detail, PKG + "unit")
            quoted = one(detail, SCHEMA + "text")
            results.append({
                "id": node_id(result.value, base()), "iri": result.value,
                "metric": entity(detail, PKG + "metric"),
                "value": _number(value.value) if value is not None else None,
                "unit": unit.value if unit is not None else None,
                "dataset": entity(detail, PKG + "dataset"),
                "model": entity(detail, PKG + "model"),
                "baseline": entity(detail, PKG + "baseline"),
                "text": quoted.value if quoted is not None else None,
            })
        out.append({
            "id": node_id(claim, base()), "iri": claim,
            "kind": kind.value.rsplit("#", 1)[-1] if kind is not None else None,
            "text": text.value if text is not None else None,
            "about": [refs(o.value) for o in sorted(props.get(PKG + "about", []),
                                                    key=lambda o: o.value)],
            "results": results,
        })
    return out
