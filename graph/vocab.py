"""The one table of paperkg's vocabulary (DESIGN §3): node types, their classes, the links from a
paper to what it names, the namespaces, and the IRI scheme. Every stage reads these names here.

Instances live under a configurable base (default `https://w3id.org/paperkg/id/`):
`paper/{key}`, `{type}/{slug}`, `claim/{key}-{n}`, `result/{key}-{n}-{m}`,
`annotation/{key}-{n}`, and the provenance named graph `graph/provenance`.
"""

from __future__ import annotations

# -- namespaces --------------------------------------------------------------------------------

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

# -- types and classes -------------------------------------------------------------------------

#: Entity types: the things the resolver merges across the corpus (IRIs id/{type}/{slug}).
ENTITY_TYPES: tuple[str, ...] = ("method", "dataset", "model", "task", "metric")
#: Concept types: every kind of node a paper links to, typed skos:Concept — the entity types and
#: `domain`, the research areas, which come from data/taxonomy.ttl, not from the resolver. The
#: graph API, the pages and the search index call these nodes "entities".
CONCEPT_TYPES: tuple[str, ...] = ENTITY_TYPES + ("domain",)
#: Nodes of the paper network: papers and the concepts they link to.
NODE_TYPES: tuple[str, ...] = ("paper", *CONCEPT_TYPES)
#: Claim kinds (`Mention.claim_kind`) -> their class (local name under pkg:).
CLAIM_KIND_CLASSES: dict[str, str] = {
    "empirical": "Empirical",
    "theoretical": "Theoretical",
    "contribution": "Contribution",
}
CLAIM_KINDS: tuple[str, ...] = tuple(CLAIM_KIND_CLASSES)
#: Node type -> its class (local name under pkg:).
CLASSES: dict[str, str] = {
    "paper": "Paper",
    "method": "Method",
    "dataset": "Dataset",
    "model": "Model",
    "task": "Task",
    "metric": "Metric",
    "domain": "Domain",
    "claim": "Claim",
    "result": "Result",
}

# -- links (properties under pkg:) ------------------------------------------------------------

#: A paper's links to the concepts it names: (local name, the concept type it reaches, the verb
#: a page shows for it). `proposes` (the paper's own contribution) reaches any concept type;
#: every other concept a paper names is linked by the one link of its type.
LINK_TABLE: tuple[tuple[str, str | None, str], ...] = (
    ("proposes", None, "proposes"),
    ("usesMethod", "method", "uses"),
    ("usesDataset", "dataset", "uses"),
    ("usesModel", "model", "uses"),
    ("addressesTask", "task", "addresses"),
    ("reportsMetric", "metric", "reports"),
    ("inDomain", "domain", "in"),
)
PROPOSES = "proposes"
#: Every paper -> concept link, in the order above.
LINKS: tuple[str, ...] = tuple(name for name, _, _ in LINK_TABLE)
#: Concept type -> the paper's link to a concept of that type it does not itself propose.
LINK_OF_TYPE: dict[str, str] = {type_: name for name, type_, _ in LINK_TABLE if type_}
#: Link -> the verb a page shows for it ("uses", "addresses", ...).
LINK_VERBS: dict[str, str] = {name: verb for name, _, verb in LINK_TABLE}
#: Paper -> claim, claim -> result, claim -> the concepts it names, concept -> its papers' count.
MAKES_CLAIM = "makesClaim"
HAS_RESULT = "result"
ABOUT = "about"
SUPPORT = "support"
#: A result's fields: (the types its surface string may resolve to, the link to the concept
#: it resolves to, the literal property that keeps the surface string when none).
RESULT_FIELDS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "metric": (("metric",), "metric", "metricName"),
    "dataset": (("dataset",), "dataset", "datasetName"),
    "model": (("model", "method"), "model", "modelName"),
    "baseline": (("model", "method"), "baseline", "baselineName"),
}
#: Paper field -> (its identifier property, the IRI prefix its schema:sameAs is written under).
SCHEME_IDS: dict[str, tuple[str, str]] = {
    "doi": ("doi", "https://doi.org/"),
    "arxiv": ("arxivId", "https://arxiv.org/abs/"),
    "openalex": ("openalexId", "https://openalex.org/"),
}

#: The links' and classes' full IRIs.
LINK_IRIS: frozenset[str] = frozenset(PKG + name for name in LINKS)
#: Class IRI -> node type, for the nodes of the paper network.
CLASS_TYPES: dict[str, str] = {PKG + CLASSES[type_]: type_ for type_ in NODE_TYPES}

# -- prefixes and the IRI scheme --------------------------------------------------------------

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
