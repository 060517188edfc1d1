"""Vocabularies, prefixes and the IRI scheme of paperkg's graph (DESIGN §3).

Instances live under a configurable base (default `https://w3id.org/paperkg/id/`):
`paper/{key}`, `{type}/{slug}`, `claim/{key}-{n}`, `result/{key}-{n}-{m}`,
`annotation/{key}-{n}`, and the provenance named graph `graph/provenance`.
"""

from __future__ import annotations

PKG = "https://w3id.org/paperkg/ns#"
DEFAULT_BASE = "https://w3id.org/paperkg/id/"

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
OWL = "http://www.w3.org/2002/07/owl#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
DCTERMS = "http://purl.org/dc/terms/"
SCHEMA = "https://schema.org/"
OA = "http://www.w3.org/ns/oa#"
PROV = "http://www.w3.org/ns/prov#"
SH = "http://www.w3.org/ns/shacl#"

#: Prefixes every serializer and the SPARQL endpoint use. The instance base is added per build
#: by `prefixes(base)`, since it is configurable.
PREFIXES: dict[str, str] = {
    "pkg": PKG,
    "rdf": RDF,
    "rdfs": RDFS,
    "xsd": XSD,
    "owl": OWL,
    "skos": SKOS,
    "dcterms": DCTERMS,
    "schema": SCHEMA,
    "oa": OA,
    "prov": PROV,
    "sh": SH,
}

#: Short prefixes for the instance namespaces, relative to the base.
INSTANCE_PREFIXES: dict[str, str] = {
    "paper": "paper/",
    "method": "method/",
    "dataset": "dataset/",
    "model": "model/",
    "task": "task/",
    "metric": "metric/",
    "domain": "domain/",
    "claim": "claim/",
    "result": "result/",
    "annotation": "annotation/",
}


def prefixes(base: str = DEFAULT_BASE) -> dict[str, str]:
    """PREFIXES plus `paper:`, `method:` … for the instances under `base`, and `extractor:`."""
    result = dict(PREFIXES)
    result["extractor"] = PKG + "extractor/"
    for name, path in INSTANCE_PREFIXES.items():
        result[name] = check_base(base) + path
    return result


def check_base(base: str) -> str:
    """`base` if it can prefix instance IRIs (absolute, ending in / or #); ValueError if not."""
    if not (base.startswith("http://") or base.startswith("https://")) or base[-1] not in "/#":
        raise ValueError(
            f"base IRI {base!r} must start with http:// or https:// and end with '/' or '#'"
        )
    return base


def entity_iri(base: str, type: str, slug: str) -> str:
    """`{base}{type}/{slug}` for method, dataset, model, task, metric and domain nodes."""
    return f"{base}{type}/{slug}"


def paper_iri(base: str, key: str) -> str:
    return f"{base}paper/{key}"


def claim_iri(base: str, key: str, n: int) -> str:
    """The `n`th claim (1-based, in text order) of paper `key`."""
    return f"{base}claim/{key}-{n}"


def result_iri(base: str, key: str, n: int, m: int) -> str:
    """The `m`th result (1-based) of the `n`th claim of paper `key`."""
    return f"{base}result/{key}-{n}-{m}"


def annotation_iri(base: str, key: str, n: int, suffix: str = "") -> str:
    """The `n`th provenance annotation (1-based, in text order) of paper `key`.

    `suffix` distinguishes annotations hanging off one mention (a claim's results: "r1", …).
    Selectors and targets are fragments of it (`#target`, `#position`, `#quote`).
    """
    tail = f"-{suffix}" if suffix else ""
    return f"{base}annotation/{key}-{n}{tail}"


def extractor_iri(name: str) -> str:
    """`pkg:extractor/methods-v1` for the extractor registered as "methods.v1"."""
    return f"{PKG}extractor/{name.replace('.', '-')}"


def provenance_graph(base: str) -> str:
    return f"{base}graph/provenance"


def rebase(iri: str, base: str) -> str:
    """An IRI written under DEFAULT_BASE (data/taxonomy.ttl) moved under `base`."""
    if base != DEFAULT_BASE and iri.startswith(DEFAULT_BASE):
        return base + iri[len(DEFAULT_BASE) :]
    return iri


def paper_key_of(iri: str, base: str = DEFAULT_BASE) -> str | None:
    """The key of a paper IRI under `base`, or None if `iri` is not one."""
    prefix = f"{base}paper/"
    return iri[len(prefix) :] if iri.startswith(prefix) and len(iri) > len(prefix) else None
