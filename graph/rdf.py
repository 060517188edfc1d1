"""ResolvedCorpus -> RDF quads, exactly as DESIGN §3 describes.

Facts go to the default graph, one `oa:Annotation` per mention to the provenance named graph.
Quads are built directly as pyoxigraph terms (no rdflib in this path) and with no blank nodes,
so the same input always gives the same quads. Literals are written in the canonical form
Oxigraph stores them in ("92.5", not "92.50"; xsd:integer offsets), so quads read back from a
store equal the quads written.
"""

from __future__ import annotations

import functools
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from pathlib import Path

from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, RdfFormat, parse

from graph.metric_direction import higher_is_better
from graph.model import (
    ENTITY_TYPES,
    Entity,
    Mention,
    Paper,
    PaperExtraction,
    ResolvedCorpus,
)
from graph.model import Result as ResultRecord
from graph.paths import TAXONOMY
from graph.slug import label_key, slugify
from graph.taxonomy import taxonomy_quads
from graph.text_clean import collapse
from graph.vocab import (
    DCTERMS,
    DEFAULT_BASE,
    OA,
    PKG,
    PROV,
    RDF,
    RDFS,
    SCHEMA,
    SKOS,
    XSD,
    annotation_iri,
    check_base,
    claim_iri,
    entity_iri,
    extractor_iri,
    paper_iri,
    provenance_graph,
    result_iri,
)

TAXONOMY_PATH = TAXONOMY
#: Words of the abstract that label a paper with neither title nor named contribution.
LABEL_WORDS = 8

DEFAULT = DefaultGraph()


def _n(ns: str, local: str) -> NamedNode:
    return NamedNode(ns + local)


A = _n(RDF, "type")
RDFS_LABEL = _n(RDFS, "label")
XSD_STRING = _n(XSD, "string")
XSD_DECIMAL = _n(XSD, "decimal")
XSD_INTEGER = _n(XSD, "integer")
XSD_GYEAR = _n(XSD, "gYear")
XSD_ANYURI = _n(XSD, "anyURI")
XSD_BOOLEAN = _n(XSD, "boolean")

SKOS_CONCEPT = _n(SKOS, "Concept")
SKOS_ALT = _n(SKOS, "altLabel")
SKOS_PREF = _n(SKOS, "prefLabel")
SKOS_IN_SCHEME = _n(SKOS, "inScheme")
SKOS_BROADER = _n(SKOS, "broader")

PAPER = _n(PKG, "Paper")
CLAIM = _n(PKG, "Claim")
RESULT = _n(PKG, "Result")
DOMAIN = _n(PKG, "Domain")
DOMAINS_SCHEME = _n(PKG, "Domains")
SUPPORT = _n(PKG, "support")

SCHOLARLY_ARTICLE = _n(SCHEMA, "ScholarlyArticle")
SCHEMA_CLAIM = _n(SCHEMA, "Claim")
SCHEMA_TEXT = _n(SCHEMA, "text")
SCHEMA_PART_OF = _n(SCHEMA, "isPartOf")
SCHEMA_KEYWORDS = _n(SCHEMA, "keywords")
SCHEMA_URL = _n(SCHEMA, "url")
SCHEMA_SAME_AS = _n(SCHEMA, "sameAs")

DC_TITLE = _n(DCTERMS, "title")
DC_ABSTRACT = _n(DCTERMS, "abstract")
DC_IDENTIFIER = _n(DCTERMS, "identifier")
DC_ISSUED = _n(DCTERMS, "issued")
DC_CREATOR = _n(DCTERMS, "creator")
#: Paper field -> (its property, the IRI prefix its schema:sameAs is written under)
SCHEME_IDS: dict[str, tuple[NamedNode, str]] = {
    "doi": (_n(PKG, "doi"), "https://doi.org/"),
    "arxiv": (_n(PKG, "arxivId"), "https://arxiv.org/abs/"),
    "openalex": (_n(PKG, "openalexId"), "https://openalex.org/"),
}

PROPOSES = _n(PKG, "proposes")
IN_DOMAIN = _n(PKG, "inDomain")
MAKES_CLAIM = _n(PKG, "makesClaim")
CLAIM_KIND = _n(PKG, "claimKind")
ABOUT = _n(PKG, "about")
HAS_RESULT = _n(PKG, "result")
VALUE = _n(PKG, "value")
UNIT = _n(PKG, "unit")
HIGHER_IS_BETTER = _n(PKG, "higherIsBetter")
CONFIDENCE = _n(PKG, "confidence")

OA_ANNOTATION = _n(OA, "Annotation")
OA_BODY = _n(OA, "hasBody")
OA_TARGET = _n(OA, "hasTarget")
OA_SOURCE = _n(OA, "hasSource")
OA_SELECTOR = _n(OA, "hasSelector")
OA_SPECIFIC = _n(OA, "SpecificResource")
OA_POSITION = _n(OA, "TextPositionSelector")
OA_QUOTE = _n(OA, "TextQuoteSelector")
OA_START = _n(OA, "start")
OA_END = _n(OA, "end")
OA_EXACT = _n(OA, "exact")

PROV_GENERATED_BY = _n(PROV, "wasGeneratedBy")
PROV_ACTIVITY = _n(PROV, "Activity")
PROV_SOFTWARE_AGENT = _n(PROV, "SoftwareAgent")

#: Entity type -> its class.
ENTITY_CLASS: dict[str, NamedNode] = {
    "method": _n(PKG, "Method"),
    "dataset": _n(PKG, "Dataset"),
    "model": _n(PKG, "Model"),
    "task": _n(PKG, "Task"),
    "metric": _n(PKG, "Metric"),
    "domain": DOMAIN,
}
#: Entity type -> the paper's link to an entity of that type it does not itself propose.
LINK_PREDICATE: dict[str, NamedNode] = {
    "method": _n(PKG, "usesMethod"),
    "dataset": _n(PKG, "usesDataset"),
    "model": _n(PKG, "usesModel"),
    "task": _n(PKG, "addressesTask"),
    "metric": _n(PKG, "reportsMetric"),
    "domain": IN_DOMAIN,
}
CLAIM_KIND_IRI: dict[str, NamedNode] = {
    "empirical": _n(PKG, "Empirical"),
    "theoretical": _n(PKG, "Theoretical"),
    "contribution": _n(PKG, "Contribution"),
}
#: Result field -> (entity types its surface string may resolve to, IRI predicate, literal one).
RESULT_FIELDS: dict[str, tuple[tuple[str, ...], NamedNode, NamedNode]] = {
    "metric": (("metric",), _n(PKG, "metric"), _n(PKG, "metricName")),
    "dataset": (("dataset",), _n(PKG, "dataset"), _n(PKG, "datasetName")),
    "model": (("model", "method"), _n(PKG, "model"), _n(PKG, "modelName")),
    "baseline": (("model", "method"), _n(PKG, "baseline"), _n(PKG, "baselineName")),
}


# -- literals ---------------------------------------------------------------------------------


def text(value: str) -> Literal:
    return Literal(value)


@functools.lru_cache(maxsize=8192)
def integer(value: int) -> Literal:
    return Literal(str(int(value)), datatype=XSD_INTEGER)


def canonical_decimal(value: Decimal | float | int | str) -> str:
    """The lexical form Oxigraph keeps for an xsd:decimal: no exponent, no trailing zeros."""
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"not a decimal number: {value!r}") from None
    if not number.is_finite():
        raise ValueError(f"not a finite decimal number: {value!r}")
    lexical = format(number, "f")
    if "." in lexical:
        lexical = lexical.rstrip("0").rstrip(".")
    return "0" if lexical in ("-0", "") else lexical


def decimal(value: Decimal | float | int | str) -> Literal:
    return Literal(canonical_decimal(value), datatype=XSD_DECIMAL)


@functools.lru_cache(maxsize=4096)
def confidence(value: float) -> Literal:
    """A confidence rounded to 3 places."""
    rounded = Decimal(repr(float(value))).quantize(Decimal("0.001"), rounding=ROUND_HALF_EVEN)
    return decimal(rounded)


def year(value: int) -> Literal:
    sign = "-" if value < 0 else ""
    return Literal(f"{sign}{abs(value):04d}", datatype=XSD_GYEAR)


# -- building blocks --------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _iri(value: str) -> NamedNode:
    return NamedNode(value)


def entity_quads(entity: Entity, *, base: str = DEFAULT_BASE) -> list[Quad]:
    """Type, skos:Concept, rdfs:label, skos:altLabel (aliases), pkg:support and skos:broader (a
    dataset family) of one entity."""
    return _parse(entity_lines(entity, base=base))


def _mention_order(mentions: Sequence[Mention]) -> list[int]:
    return sorted(
        range(len(mentions)),
        key=lambda i: (mentions[i].start, mentions[i].end, mentions[i].type, i),
    )


def _domain_slug(mention: Mention) -> str:
    return mention.label or slugify(mention.text)


def _first_words(abstract: str) -> str:
    words = abstract.split()
    label = " ".join(words[:LABEL_WORDS])
    return label + "…" if len(words) > LABEL_WORDS else label


def paper_label(
    extraction: PaperExtraction,
    links: Sequence[str | None],
    entities: Mapping[str, Entity] | None = None,
) -> str:
    """Title, else the name of what the paper proposes, else its first words.

    Of several proposed entities the paper's name for itself is the coined one ("GFN", not
    "bound propagation"): a name with capitals or digits inside it, then the one the
    abstract repeats most, then the surest, then the first.
    """
    paper = extraction.paper
    if paper.title and paper.title.strip():
        return collapse(paper.title)
    uses = Counter(ref for ref in links if ref is not None)
    best: tuple[tuple[bool, int, float, int], str] | None = None
    for order, i in enumerate(_mention_order(extraction.mentions)):
        mention = extraction.mentions[i]
        ref = links[i] if i < len(links) else None
        if not mention.proposed or ref is None:
            continue
        entity = entities.get(ref) if entities is not None else None
        label = entity.label if entity is not None else (mention.label or mention.text)
        coined = any(ch.isupper() or ch.isdigit() for ch in label[1:])
        rank = (not coined, -uses[ref], -mention.confidence, order)
        if best is None or rank < best[0]:
            best = (rank, label)
    return collapse(best[1]) if best is not None else _first_words(paper.abstract)


def _surface_index(
    mentions: Sequence[Mention],
    links: Sequence[str | None],
    entities: Mapping[str, Entity] | None,
) -> dict[tuple[str, str], str]:
    """(entity type, label key) -> ref, for every name an entity of this paper goes by."""
    names: dict[tuple[str, str], set[str]] = defaultdict(set)
    for mention, ref in zip(mentions, links, strict=False):
        if ref is None:
            continue
        type_ = ref.partition("/")[0]
        surfaces = {mention.text, *mention.aliases}
        if mention.label:
            surfaces.add(mention.label)
        entity = entities.get(ref) if entities is not None else None
        if entity is not None:
            surfaces.add(entity.label)
            surfaces.update(entity.aliases)
        for surface in surfaces:
            names[(type_, label_key(surface))].add(ref)
    # Two entities with one name: pick one the same way every time.
    return {name: min(refs) for name, refs in names.items()}


def extractor_quads(name: str, *, base: str = DEFAULT_BASE) -> list[Quad]:
    """The extractor `name` as a software agent and activity, in the provenance graph."""
    return _parse(extractor_lines(name, base=base))


def paper_quads(
    extraction: PaperExtraction,
    links: Sequence[str | None],
    *,
    base: str = DEFAULT_BASE,
    entities: Mapping[str, Entity] | None = None,
    venue_title: str | None = None,
) -> list[Quad]:
    """The paper, its links, claims, results and provenance annotations, as Quad objects.

    Parsed from `paper_lines`, the one place that writes a paper's RDF: the build streams those
    lines; incremental updates and tests want terms.
    """
    return _parse(paper_lines(extraction, links, base=base, entities=entities,
                              venue_title=venue_title))


def _parse(lines: Iterable[str]) -> list[Quad]:
    return list(parse("".join(lines), format=RdfFormat.N_QUADS))


# -- taxonomy ---------------------------------------------------------------------------------


def domain_quads(
    resolved: ResolvedCorpus, taxonomy: Sequence[Quad], base: str = DEFAULT_BASE
) -> list[Quad]:
    """Each domain a paper is in: typed, in the scheme, labelled, with its support."""
    papers_in: dict[str, set[str]] = defaultdict(set)
    for key, extraction in resolved.extractions.items():
        for mention in extraction.mentions:
            if mention.type == "domain":
                papers_in[_domain_slug(mention)].add(key)
    labelled: dict[str, dict[NamedNode, Literal]] = defaultdict(dict)
    for quad in taxonomy:
        if quad.predicate in (RDFS_LABEL, SKOS_PREF) and isinstance(quad.object, Literal):
            current = labelled[quad.subject.value].get(quad.predicate)
            if current is None or str(quad.object) < str(current):
                labelled[quad.subject.value][quad.predicate] = quad.object
    quads: list[Quad] = []
    # Every concept answers to rdfs:label too, as the other entity classes do.
    for iri in sorted(labelled):
        labels = labelled[iri]
        if SKOS_PREF in labels and RDFS_LABEL not in labels:
            quads.append(Quad(_iri(iri), RDFS_LABEL, labels[SKOS_PREF], DEFAULT))
    for slug in sorted(papers_in):
        iri = entity_iri(base, "domain", slug)
        node = _iri(iri)
        quads += [
            Quad(node, A, DOMAIN, DEFAULT),
            Quad(node, A, SKOS_CONCEPT, DEFAULT),
            Quad(node, SKOS_IN_SCHEME, DOMAINS_SCHEME, DEFAULT),
            Quad(node, SUPPORT, integer(len(papers_in[slug])), DEFAULT),
        ]
        labels = labelled.get(iri, {})
        fallback = text(slug.replace("-", " "))
        if SKOS_PREF not in labels:
            quads.append(Quad(node, SKOS_PREF, fallback, DEFAULT))
        if RDFS_LABEL not in labels:
            quads.append(Quad(node, RDFS_LABEL, labels.get(SKOS_PREF, fallback), DEFAULT))
    return quads


#: Earlier name, kept for callers that use it.
_domain_quads = domain_quads


# -- the whole corpus -------------------------------------------------------------------------


class SortedQuads(list):
    """A list of quads known to be deduplicated and in `sort_quads` order."""


def sort_quads(quads: Iterable[Quad]) -> SortedQuads:
    """Deduplicated and in a fixed order: the default graph first, then each named graph by
    name, each by its N-Quads line, which keeps a subject's statements together for
    Turtle/TriG. One `str` per quad: this runs over every quad of a build."""
    if isinstance(quads, SortedQuads):
        return quads
    default: dict[str, Quad] = {}
    named: dict[str, dict[str, Quad]] = {}
    for quad in quads:
        graph = quad.graph_name
        if isinstance(graph, DefaultGraph):
            default[str(quad)] = quad
        else:
            named.setdefault(graph.value, {})[str(quad)] = quad
    ordered = SortedQuads(default[line] for line in sorted(default))
    for name in sorted(named):
        lines = named[name]
        ordered.extend(lines[line] for line in sorted(lines))
    return ordered


def corpus_quads(
    resolved: ResolvedCorpus,
    *,
    base: str = DEFAULT_BASE,
    venue_titles: Mapping[str, str] | None = None,
    taxonomy: str | Path | None = None,
) -> list[Quad]:
    """Every quad of a build: facts, provenance, the taxonomy; deduplicated and sorted.

    `venue_titles` maps paper keys to a venue for papers whose record names none (the title
    of the corpus list they came from). `taxonomy` overrides data/taxonomy.ttl.
    """
    check_base(base)
    venue_titles = venue_titles or {}
    quads: list[Quad] = []
    for key in sorted(resolved.extractions):
        extraction = resolved.extractions[key]
        quads.extend(
            paper_quads(
                extraction,
                resolved.links.get(key, []),
                base=base,
                entities=resolved.entities,
                venue_title=venue_titles.get(key),
            )
        )
    for ref in sorted(resolved.entities):
        quads.extend(entity_quads(resolved.entities[ref], base=base))
    taxonomy_part = taxonomy_quads(taxonomy, base=base)
    quads.extend(taxonomy_part)
    quads.extend(domain_quads(resolved, taxonomy_part, base))
    return sort_quads(quads)


# -- N-Quads text -----------------------------------------------------------------------------
#
# The build's fast path: the same quads as `paper_quads` / `entity_quads`, written straight as
# canonical N-Quads lines (the bytes pyoxigraph itself writes for them), with no Quad objects.
# A build streams these lines to a file and bulk loads it; tests/test_rdf.py checks that they
# parse to exactly the quads of the functions above, which stay the reference.

#: N-Triples escapes, as Oxigraph writes them: the named ones, \uXXXX for other controls.
_ESCAPES = {i: f"\\u{i:04X}" for i in (*range(0x20), 0x7F)}
_ESCAPES.update({0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r",
                 ord('"'): '\\"', ord("\\"): "\\\\"})
_NEEDS_ESCAPE = frozenset(chr(i) for i in _ESCAPES)


def nt_string(value: str) -> str:
    """A plain (xsd:string) literal in N-Triples syntax."""
    if _NEEDS_ESCAPE.isdisjoint(value):
        return f'"{value}"'
    return f'"{value.translate(_ESCAPES)}"'


def _t(node: NamedNode) -> str:
    return f"<{node.value}>"


def nt_iri(value: str) -> str:
    """An IRI in N-Triples syntax; ValueError for one a store would refuse."""
    if not _IRI_OK.match(value):
        NamedNode(value)  # raises ValueError naming what is wrong
    return f"<{value}>"


#: What an IRI cannot hold as it is (RFC 3987 and N-Triples): percent-encoded in `iri_part`.
_IRI_UNSAFE = re.compile(r'[<>"{}|^`\\\x00-\x20\x7f]|%(?![0-9A-Fa-f]{2})')


def iri_part(text: str) -> str:
    """`text` (a DOI, say) as a piece of an IRI: characters an IRI cannot hold percent-encoded."""
    return _IRI_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), text)


_IRI_OK = re.compile(r"^[a-z][a-z0-9+.\-]*:[^<>\"{}|^`\\\x00-\x20]*$")

_A, _LABEL, _SUPPORT_T = _t(A), _t(RDFS_LABEL), _t(SUPPORT)
#: Every other IRI the lines use, in N-Triples syntax once.
_S_ABOUT = _t(ABOUT)
_S_CLAIM = _t(CLAIM)
_S_CLAIM_KIND = _t(CLAIM_KIND)
_S_CONFIDENCE = _t(CONFIDENCE)
_S_DC_ABSTRACT = _t(DC_ABSTRACT)
_S_DC_CREATOR = _t(DC_CREATOR)
_S_DC_IDENTIFIER = _t(DC_IDENTIFIER)
_S_DC_ISSUED = _t(DC_ISSUED)
_S_DC_TITLE = _t(DC_TITLE)
_S_HAS_RESULT = _t(HAS_RESULT)
_S_IN_DOMAIN = _t(IN_DOMAIN)
_S_MAKES_CLAIM = _t(MAKES_CLAIM)
_S_OA_ANNOTATION = _t(OA_ANNOTATION)
_S_OA_BODY = _t(OA_BODY)
_S_OA_END = _t(OA_END)
_S_OA_EXACT = _t(OA_EXACT)
_S_OA_POSITION = _t(OA_POSITION)
_S_OA_QUOTE = _t(OA_QUOTE)
_S_OA_SELECTOR = _t(OA_SELECTOR)
_S_OA_SOURCE = _t(OA_SOURCE)
_S_OA_SPECIFIC = _t(OA_SPECIFIC)
_S_OA_START = _t(OA_START)
_S_OA_TARGET = _t(OA_TARGET)
_S_PAPER = _t(PAPER)
_S_PROV_ACTIVITY = _t(PROV_ACTIVITY)
_S_PROV_GENERATED_BY = _t(PROV_GENERATED_BY)
_S_PROV_SOFTWARE_AGENT = _t(PROV_SOFTWARE_AGENT)
_S_RESULT = _t(RESULT)
_S_SCHEMA_CLAIM = _t(SCHEMA_CLAIM)
_S_SCHEMA_KEYWORDS = _t(SCHEMA_KEYWORDS)
_S_SCHEMA_PART_OF = _t(SCHEMA_PART_OF)
_S_SCHEMA_TEXT = _t(SCHEMA_TEXT)
_S_SCHEMA_URL = _t(SCHEMA_URL)
_S_SCHEMA_SAME_AS = _t(SCHEMA_SAME_AS)
_S_SCHOLARLY_ARTICLE = _t(SCHOLARLY_ARTICLE)
_S_SKOS_CONCEPT = _t(SKOS_CONCEPT)
_S_UNIT = _t(UNIT)
_S_HIGHER_IS_BETTER = _t(HIGHER_IS_BETTER)
_NT_TRUE, _NT_FALSE = (f'"{v}"^^{_t(XSD_BOOLEAN)}' for v in ("true", "false"))
_S_VALUE = _t(VALUE)
_S_XSD_ANYURI = _t(XSD_ANYURI)
_XSD_INT_T, _XSD_DEC_T = _t(XSD_INTEGER), _t(XSD_DECIMAL)


@functools.lru_cache(maxsize=256)
def _nt_extractor(name: str) -> str:
    return nt_iri(extractor_iri(name))


def _nt_integer(value: int) -> str:
    return f'"{int(value)}"^^{_XSD_INT_T}'


@functools.lru_cache(maxsize=4096)
def _nt_confidence(value: float) -> str:
    return str(confidence(value))


def _nt_decimal(value: Decimal | float | int | str) -> str:
    return f'"{canonical_decimal(value)}"^^{_XSD_DEC_T}'


def entity_lines(entity: Entity, *, base: str = DEFAULT_BASE) -> list[str]:
    """`entity_quads` as N-Quads lines."""
    try:
        cls = ENTITY_CLASS[entity.type]
    except KeyError:
        raise ValueError(
            f"entity {entity.ref!r} has unknown type {entity.type!r}; "
            f"known types: {', '.join(ENTITY_CLASS)}"
        ) from None
    node = nt_iri(entity_iri(base, entity.type, entity.slug))
    label = collapse(entity.label)
    lines = [
        f"{node} {_A} {_t(cls)} .\n",
        f"{node} {_A} {_S_SKOS_CONCEPT} .\n",
        f"{node} {_LABEL} {nt_string(label)} .\n",
        f"{node} {_SUPPORT_T} {_nt_integer(entity.support)} .\n",
    ]
    alt = _t(SKOS_ALT)
    # labels on one line with single spaces: "unsupervised\nlearning" is one name
    for alias in sorted({collapse(alias) for alias in entity.aliases} - {label, ""}):
        lines.append(f"{node} {alt} {nt_string(alias)} .\n")
    if entity.broader:
        # an edition of a dataset family ("IWSLT 2016 English-German" -> IWSLT)
        lines.append(broader_line(entity.ref, entity.broader, base=base))
    return lines


def broader_line(ref: str, family: str, *, base: str = DEFAULT_BASE) -> str:
    """`<entity> skos:broader <family entity>` as an N-Quads line, from two entity refs."""
    child = nt_iri(entity_iri(base, *ref.split("/", 1)))
    parent = nt_iri(entity_iri(base, *family.split("/", 1)))
    return f"{child} {_t(SKOS_BROADER)} {parent} .\n"


def _annotation_lines(
    ann: str, body: str | None, source: str, start: int, end: int, exact: str, conf: float,
    extractor: str, graph: str,
) -> list[str]:
    node, target = f"<{ann}>", f"<{ann}#target>"
    position, quote = f"<{ann}#position>", f"<{ann}#quote>"
    g = f" {graph} .\n"
    lines = [
        f"{node} {_A} {_S_OA_ANNOTATION}{g}",
        f"{node} {_S_OA_TARGET} {target}{g}",
        f"{node} {_S_CONFIDENCE} {_nt_confidence(conf)}{g}",
        f"{node} {_S_PROV_GENERATED_BY} {_nt_extractor(extractor)}{g}",
        f"{target} {_A} {_S_OA_SPECIFIC}{g}",
        f"{target} {_S_OA_SOURCE} {source}{g}",
        f"{target} {_S_OA_SELECTOR} {position}{g}",
        f"{target} {_S_OA_SELECTOR} {quote}{g}",
        f"{position} {_A} {_S_OA_POSITION}{g}",
        f"{position} {_S_OA_START} {_nt_integer(start)}{g}",
        f"{position} {_S_OA_END} {_nt_integer(end)}{g}",
        f"{quote} {_A} {_S_OA_QUOTE}{g}",
        f"{quote} {_S_OA_EXACT} {nt_string(exact)}{g}",
    ]
    if body is not None:  # None: the body is written with the links (LINKED)
        lines.append(f"{node} {_S_OA_BODY} {body}{g}")
    return lines


def extractor_lines(name: str, *, base: str = DEFAULT_BASE) -> list[str]:
    """`extractor_quads` as N-Quads lines."""
    node = nt_iri(extractor_iri(name))
    g = f" <{provenance_graph(base)}> .\n"
    return [
        f"{node} {_A} {_S_PROV_ACTIVITY}{g}",
        f"{node} {_A} {_S_PROV_SOFTWARE_AGENT}{g}",
        f"{node} {_LABEL} {nt_string(name)}{g}",
    ]


#: The two parts of a paper's lines. STATIC needs only the paper's own extraction, so a build
#: can write and load it while later papers are still being parsed; LINKED names the entities
#: the resolver chose, which needs the whole corpus. Together they are `paper_lines`.
STATIC = "static"
LINKED = "linked"
_BOTH = frozenset({STATIC, LINKED})


def _result_lines(
    node: str, result: ResultRecord, surfaces: Mapping[tuple[str, str], str] | None, base: str,
    parts: frozenset[str],
) -> list[str]:
    lines = []
    if STATIC in parts:
        lines += [
            f"{node} {_A} {_S_RESULT} .\n",
            f"{node} {_S_VALUE} {_nt_decimal(result.value)} .\n",
            f"{node} {_S_SCHEMA_TEXT} {nt_string(result.text)} .\n",
        ]
        if result.unit:
            lines.append(f"{node} {_S_UNIT} {nt_string(result.unit)} .\n")
        # the direction is the metric's, as the sentence names it: known before any resolving
        up = higher_is_better(result.metric) if result.metric else None
        if up is not None:
            lines.append(f"{node} {_S_HIGHER_IS_BETTER} {_NT_TRUE if up else _NT_FALSE} .\n")
    if LINKED not in parts:
        return lines
    for field, (types, iri_predicate, name_predicate) in RESULT_FIELDS.items():
        surface = getattr(result, field)
        if not surface:
            continue
        key = label_key(surface)
        ref = next((surfaces[(t, key)] for t in types if (t, key) in surfaces), None)
        if ref is not None:
            type_, _, slug = ref.partition("/")
            lines.append(f"{node} {_t(iri_predicate)} {nt_iri(entity_iri(base, type_, slug))} .\n")
        else:
            lines.append(f"{node} {_t(name_predicate)} {nt_string(surface)} .\n")
    return lines


def _claim_lines(
    node: str, mention: Mention, mentions: Sequence[Mention], links: Sequence[str | None],
    surfaces: Mapping[tuple[str, str], str] | None, base: str, key: str, n: int,
    parts: frozenset[str],
) -> list[str]:
    lines = []
    if STATIC in parts:
        lines += [
            f"{node} {_A} {_S_CLAIM} .\n",
            f"{node} {_A} {_S_SCHEMA_CLAIM} .\n",
            f"{node} {_S_SCHEMA_TEXT} {nt_string(mention.text)} .\n",
        ]
        if mention.claim_kind is not None:
            try:
                kind = CLAIM_KIND_IRI[mention.claim_kind]
            except KeyError:
                raise ValueError(
                    f"paper {key}: claim kind {mention.claim_kind!r} is not one of "
                    f"{', '.join(CLAIM_KIND_IRI)}"
                ) from None
            lines.append(f"{node} {_S_CLAIM_KIND} {_t(kind)} .\n")
    if LINKED in parts:
        about = sorted(
            {
                ref
                for other, ref in zip(mentions, links, strict=False)
                if ref is not None
                and other.type in ENTITY_TYPES
                and mention.start <= other.start
                and other.end <= mention.end
            }
        )
        for ref in about:
            type_, _, slug = ref.partition("/")
            lines.append(f"{node} {_S_ABOUT} {nt_iri(entity_iri(base, type_, slug))} .\n")
    for m, result in enumerate(mention.results, start=1):
        result_node = nt_iri(result_iri(base, key, n, m))
        if STATIC in parts:
            lines.append(f"{node} {_S_HAS_RESULT} {result_node} .\n")
        lines.extend(_result_lines(result_node, result, surfaces, base, parts))
    return lines


def paper_lines(
    extraction: PaperExtraction,
    links: Sequence[str | None],
    *,
    base: str = DEFAULT_BASE,
    entities: Mapping[str, Entity] | None = None,
    venue_title: str | None = None,
) -> list[str]:
    """A paper's RDF as N-Quads lines (`paper_quads` parses them), deduplicated."""
    return _paper_lines(extraction, links, base=base, entities=entities,
                        venue_title=venue_title, parts=_BOTH)


def paper_static_lines(
    extraction: PaperExtraction, *, base: str = DEFAULT_BASE, venue_title: str | None = None
) -> list[str]:
    """The lines of `paper_lines` that need no entity: the paper's metadata, its claims and
    results, its domains, and every annotation but the `oa:hasBody` of an entity mention.

    It assumes what the resolver guarantees, that every entity mention gets an entity
    (`paper_linked_lines` checks it)."""
    return _paper_lines(extraction, None, base=base, venue_title=venue_title,
                        parts=frozenset({STATIC}))


def paper_linked_lines(
    extraction: PaperExtraction,
    links: Sequence[str | None],
    *,
    base: str = DEFAULT_BASE,
    entities: Mapping[str, Entity] | None = None,
) -> list[str]:
    """The rest of `paper_lines`: the paper's label, its links to entities, the bodies of
    their annotations, what its claims are about and its results' metrics and datasets."""
    for mention, ref in zip(extraction.mentions, links, strict=True):
        if ref is None and mention.type in ENTITY_TYPES:
            raise ValueError(f"paper {extraction.paper.key}: a {mention.type} mention "
                             f"({mention.text!r}) has no entity")
    return _paper_lines(extraction, links, base=base, entities=entities,
                        parts=frozenset({LINKED}))


def linking_part(extraction: PaperExtraction) -> PaperExtraction:
    """What `paper_linked_lines` and the resolver still need of an extraction once its static
    lines are written: a build holds this for every paper until the resolver has seen them all
    (a third less memory). The paper keeps its key, title and first words (its label); claims
    and domains lose the words `paper_static_lines` wrote; names are interned, since the same
    few recur across a corpus. Taking the part of a part changes nothing."""
    paper = extraction.paper
    words = paper.abstract.split(maxsplit=LABEL_WORDS + 1)[: LABEL_WORDS + 1]
    kept = Paper(key=paper.key, abstract=" ".join(words), title=paper.title,
                 source=paper.source)
    return PaperExtraction(paper=kept, mentions=[_linking_mention(m) for m in extraction.mentions])


def _linking_mention(mention: Mention) -> Mention:
    extractor = sys.intern(mention.extractor)
    if mention.type == "claim":
        return replace(mention, text="", extractor=extractor)
    if mention.type == "domain":
        return replace(mention, text="", label=sys.intern(_domain_slug(mention)),
                       extractor=extractor)
    return replace(mention, text=sys.intern(mention.text), extractor=extractor,
                   label=None if mention.label is None else sys.intern(mention.label))


def _paper_lines(
    extraction: PaperExtraction,
    links: Sequence[str | None] | None,
    *,
    base: str,
    parts: frozenset[str],
    entities: Mapping[str, Entity] | None = None,
    venue_title: str | None = None,
) -> list[str]:
    check_base(base)
    paper = extraction.paper
    mentions = extraction.mentions
    key = paper.key
    node = nt_iri(paper_iri(base, key))
    prov = f"<{provenance_graph(base)}>"
    static, linked = STATIC in parts, LINKED in parts
    lines = []
    if static:
        lines += [
            f"{node} {_A} {_S_PAPER} .\n",
            f"{node} {_A} {_S_SCHOLARLY_ARTICLE} .\n",
            f"{node} {_S_DC_ABSTRACT} {nt_string(paper.abstract)} .\n",
            f"{node} {_S_DC_IDENTIFIER} {nt_string(paper.id or key)} .\n",
        ]
        for name, (predicate, prefix) in SCHEME_IDS.items():
            value = getattr(paper, name)
            if value:
                lines.append(f"{node} {_t(predicate)} {nt_string(value)} .\n")
                lines.append(f"{node} {_S_SCHEMA_SAME_AS} <{prefix}{iri_part(value)}> .\n")
        if paper.title and paper.title.strip():
            lines.append(f"{node} {_S_DC_TITLE} {nt_string(paper.title)} .\n")
        if paper.year is not None:
            lines.append(f"{node} {_S_DC_ISSUED} {year(paper.year)} .\n")
        for author in paper.authors:
            if author.strip():
                lines.append(f"{node} {_S_DC_CREATOR} {nt_string(author)} .\n")
        venue = paper.venue or venue_title
        if venue:
            lines.append(f"{node} {_S_SCHEMA_PART_OF} {nt_string(venue)} .\n")
        for keyword in paper.keywords:
            if keyword.strip():
                lines.append(f"{node} {_S_SCHEMA_KEYWORDS} {nt_string(keyword)} .\n")
        if paper.url:
            url = nt_string(paper.url)
            lines.append(f"{node} {_S_SCHEMA_URL} {url}^^{_S_XSD_ANYURI} .\n")
    surfaces = None
    if linked:
        assert links is not None
        lines.append(f"{node} {_LABEL} {nt_string(paper_label(extraction, links, entities))} .\n")
        surfaces = _surface_index(mentions, links, entities)

    order = _mention_order(mentions)
    claim_numbers: dict[int, int] = {}
    for i in order:
        if mentions[i].type == "claim":
            claim_numbers[i] = len(claim_numbers) + 1

    extractors: set[str] = set()
    annotation_number = 0
    for i in order:
        mention = mentions[i]
        # without links (the static part) every entity mention is taken to have its entity
        ref = links[i] if links is not None and i < len(links) else None
        entity_link = False
        if mention.type == "claim":
            n = claim_numbers[i]
            body = nt_iri(claim_iri(base, key, n))
            if static:
                lines.append(f"{node} {_S_MAKES_CLAIM} {body} .\n")
            lines.extend(_claim_lines(body, mention, mentions, links or (), surfaces, base, key,
                                      n, parts))
        elif mention.type == "domain":
            body = nt_iri(entity_iri(base, "domain", _domain_slug(mention)))
            if static:
                lines.append(f"{node} {_S_IN_DOMAIN} {body} .\n")
        elif links is None or ref is not None:
            entity_link, body = True, ""
            if ref is not None:
                type_, _, slug = ref.partition("/")
                body = nt_iri(entity_iri(base, type_, slug))
                predicate = PROPOSES if mention.proposed else LINK_PREDICATE.get(type_)
                if predicate is None:
                    raise ValueError(f"paper {key}: link {ref!r} has an unknown entity type")
                lines.append(f"{node} {_t(predicate)} {body} .\n")
        else:
            continue
        annotation_number += 1
        ann = annotation_iri(base, key, annotation_number)
        extractors.add(mention.extractor)
        if static:
            lines.extend(
                _annotation_lines(
                    ann, None if entity_link else body, node, mention.start, mention.end,
                    mention.text, mention.confidence, mention.extractor, prov,
                )
            )
        if linked and entity_link:
            lines.append(f"<{ann}> {_S_OA_BODY} {body} {prov} .\n")
        if static and mention.type == "claim":
            n = claim_numbers[i]
            for m, result in enumerate(mention.results, start=1):
                lines.extend(
                    _annotation_lines(
                        annotation_iri(base, key, annotation_number, f"r{m}"),
                        f"<{result_iri(base, key, n, m)}>", node,
                        result.start, result.end, result.text,
                        mention.confidence, mention.extractor, prov,
                    )
                )
    if static:
        for name in sorted(extractors):
            lines.extend(extractor_lines(name, base=base))
    return list(dict.fromkeys(lines))


def quad_line(quad: Quad) -> str:
    """One Quad as an N-Quads line (pyoxigraph's own syntax)."""
    return f"{quad} .\n"


def corpus_level_lines(
    resolved: ResolvedCorpus, *, base: str = DEFAULT_BASE, taxonomy: str | Path | None = None
) -> Iterable[str]:
    """The lines no single paper owns: entities with their support, the taxonomy, domains."""
    for ref in sorted(resolved.entities):
        yield from entity_lines(resolved.entities[ref], base=base)
    taxonomy_part = taxonomy_quads(taxonomy, base=base)
    for quad in taxonomy_part:
        yield quad_line(quad)
    for quad in domain_quads(resolved, taxonomy_part, base):
        yield quad_line(quad)


def corpus_lines(
    resolved: ResolvedCorpus,
    *,
    base: str = DEFAULT_BASE,
    venue_titles: Mapping[str, str] | None = None,
    taxonomy: str | Path | None = None,
) -> Iterable[str]:
    """Every line of a build, paper by paper (key order), then the corpus-level ones.

    Unsorted, and a line may repeat across papers (extractor agents): what a bulk load takes.
    """
    check_base(base)
    venue_titles = venue_titles or {}
    for key in sorted(resolved.extractions):
        yield from paper_lines(
            resolved.extractions[key], resolved.links.get(key, []), base=base,
            entities=resolved.entities, venue_title=venue_titles.get(key),
        )
    yield from corpus_level_lines(resolved, base=base, taxonomy=taxonomy)
