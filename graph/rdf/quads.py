"""A paper's and an entity's RDF as pyoxigraph Quads, built term by term: the reference.

The build writes the same facts as N-Quads text (graph.rdf.paper_text, graph.rdf.corpus), the
fast path; tests/test_nquads_text.py holds those lines to these quads, byte for byte in
pyoxigraph's own syntax. Nothing here reads or parses that text, so the check is not circular.
Incremental updates and tests use these functions directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pyoxigraph import Literal, NamedNode, Quad

from graph.extractors.metric_direction import higher_is_better
from graph.model import Entity, Mention, PaperExtraction
from graph.model import Result as ResultRecord
from graph.nlp.text_clean import collapse
from graph.rdf.labels import (
    claim_about,
    domain_slug,
    mention_order,
    number_claims,
    paper_label,
    result_names,
    surface_index,
)
from graph.rdf.literals import confidence, decimal, integer, iri, iri_part, text, year
from graph.rdf.terms import (
    ABOUT,
    CLAIM,
    CLAIM_KIND,
    CONFIDENCE,
    DC_ABSTRACT,
    DC_CREATOR,
    DC_IDENTIFIER,
    DC_ISSUED,
    DC_TITLE,
    DEFAULT,
    ENTITY_CLASS,
    HAS_RESULT,
    HIGHER_IS_BETTER,
    IN_DOMAIN,
    LINK_PREDICATE,
    MAKES_CLAIM,
    OA_ANNOTATION,
    OA_BODY,
    OA_END,
    OA_EXACT,
    OA_POSITION,
    OA_QUOTE,
    OA_SELECTOR,
    OA_SOURCE,
    OA_SPECIFIC,
    OA_START,
    OA_TARGET,
    PAPER,
    PROPOSES,
    PROV_ACTIVITY,
    PROV_GENERATED_BY,
    PROV_SOFTWARE_AGENT,
    RDFS_LABEL,
    RESULT,
    RESULT_FIELDS,
    SCHEMA_CLAIM,
    SCHEMA_KEYWORDS,
    SCHEMA_PART_OF,
    SCHEMA_SAME_AS,
    SCHEMA_TEXT,
    SCHEMA_URL,
    SCHEME_IDS,
    SCHOLARLY_ARTICLE,
    SKOS_ALT,
    SKOS_BROADER,
    SKOS_CONCEPT,
    SUPPORT,
    UNIT,
    VALUE,
    XSD_ANYURI,
    XSD_BOOLEAN,
    A,
    claim_kind,
)
from graph.vocab import (
    DEFAULT_BASE,
    annotation_iri,
    check_base,
    claim_iri,
    entity_iri,
    extractor_iri,
    paper_iri,
    provenance_graph,
    result_iri,
)


def _entity(base: str, ref: str) -> NamedNode:
    type_, _, slug = ref.partition("/")
    return iri(entity_iri(base, type_, slug))


def entity_quads(entity: Entity, *, base: str = DEFAULT_BASE) -> list[Quad]:
    """Type, skos:Concept, rdfs:label, skos:altLabel (aliases), pkg:support and skos:broader (a
    dataset family) of one entity."""
    cls = ENTITY_CLASS.get(entity.type)
    if cls is None:
        raise ValueError(
            f"entity {entity.ref!r} has unknown type {entity.type!r}; "
            f"known types: {', '.join(ENTITY_CLASS)}"
        )
    node = iri(entity_iri(base, entity.type, entity.slug))
    label = collapse(entity.label)
    quads = [
        Quad(node, A, cls, DEFAULT),
        Quad(node, A, SKOS_CONCEPT, DEFAULT),
        Quad(node, RDFS_LABEL, text(label), DEFAULT),
        Quad(node, SUPPORT, integer(entity.support), DEFAULT),
    ]
    # labels on one line with single spaces: "unsupervised\nlearning" is one name
    for alias in sorted({collapse(alias) for alias in entity.aliases} - {label, ""}):
        quads.append(Quad(node, SKOS_ALT, text(alias), DEFAULT))
    if entity.broader:
        quads.append(Quad(node, SKOS_BROADER, _entity(base, entity.broader), DEFAULT))
    return quads


def extractor_quads(name: str, *, base: str = DEFAULT_BASE) -> list[Quad]:
    """The extractor `name` as a software agent and activity, in the provenance graph."""
    node, graph = iri(extractor_iri(name)), iri(provenance_graph(base))
    return [
        Quad(node, A, PROV_ACTIVITY, graph),
        Quad(node, A, PROV_SOFTWARE_AGENT, graph),
        Quad(node, RDFS_LABEL, text(name), graph),
    ]


def _annotation(
    ann: str, body: NamedNode, source: NamedNode, start: int, end: int, exact: str,
    conf: float, extractor: str, graph: NamedNode,
) -> list[Quad]:
    node, target = NamedNode(ann), NamedNode(ann + "#target")
    position, quote = NamedNode(ann + "#position"), NamedNode(ann + "#quote")
    return [
        Quad(node, A, OA_ANNOTATION, graph),
        Quad(node, OA_TARGET, target, graph),
        Quad(node, CONFIDENCE, confidence(conf), graph),
        Quad(node, PROV_GENERATED_BY, iri(extractor_iri(extractor)), graph),
        Quad(target, A, OA_SPECIFIC, graph),
        Quad(target, OA_SOURCE, source, graph),
        Quad(target, OA_SELECTOR, position, graph),
        Quad(target, OA_SELECTOR, quote, graph),
        Quad(position, A, OA_POSITION, graph),
        Quad(position, OA_START, integer(start), graph),
        Quad(position, OA_END, integer(end), graph),
        Quad(quote, A, OA_QUOTE, graph),
        Quad(quote, OA_EXACT, text(exact), graph),
        Quad(node, OA_BODY, body, graph),
    ]


def _result(
    node: NamedNode, result: ResultRecord, surfaces: Mapping[tuple[str, str], str], base: str,
) -> list[Quad]:
    quads = [
        Quad(node, A, RESULT, DEFAULT),
        Quad(node, VALUE, decimal(result.value), DEFAULT),
        Quad(node, SCHEMA_TEXT, text(result.text), DEFAULT),
    ]
    if result.unit:
        quads.append(Quad(node, UNIT, text(result.unit), DEFAULT))
    up = higher_is_better(result.metric) if result.metric else None
    if up is not None:
        flag = Literal("true" if up else "false", datatype=XSD_BOOLEAN)
        quads.append(Quad(node, HIGHER_IS_BETTER, flag, DEFAULT))
    for field, surface, ref in result_names(result, surfaces):
        _, iri_predicate, name_predicate = RESULT_FIELDS[field]
        if ref is not None:
            quads.append(Quad(node, iri_predicate, _entity(base, ref), DEFAULT))
        else:
            quads.append(Quad(node, name_predicate, text(surface), DEFAULT))
    return quads


def _claim(
    node: NamedNode, mention: Mention, mentions: Sequence[Mention], links: Sequence[str | None],
    surfaces: Mapping[tuple[str, str], str], base: str, key: str, n: int,
) -> list[Quad]:
    quads = [
        Quad(node, A, CLAIM, DEFAULT),
        Quad(node, A, SCHEMA_CLAIM, DEFAULT),
        Quad(node, SCHEMA_TEXT, text(mention.text), DEFAULT),
    ]
    if mention.claim_kind is not None:
        kind = claim_kind(mention.claim_kind, key)
        quads.append(Quad(node, CLAIM_KIND, kind, DEFAULT))
    quads += [Quad(node, ABOUT, _entity(base, ref), DEFAULT)
              for ref in claim_about(mention, mentions, links)]
    for m, result in enumerate(mention.results, start=1):
        result_node = NamedNode(result_iri(base, key, n, m))
        quads.append(Quad(node, HAS_RESULT, result_node, DEFAULT))
        quads += _result(result_node, result, surfaces, base)
    return quads


def _record(paper_node: NamedNode, extraction: PaperExtraction,
            venue_title: str | None) -> list[Quad]:
    """The paper's own record: class, abstract, identifiers, title, year, authors, venue..."""
    paper = extraction.paper
    quads = [
        Quad(paper_node, A, PAPER, DEFAULT),
        Quad(paper_node, A, SCHOLARLY_ARTICLE, DEFAULT),
        Quad(paper_node, DC_ABSTRACT, text(paper.abstract), DEFAULT),
        Quad(paper_node, DC_IDENTIFIER, text(paper.id or paper.key), DEFAULT),
    ]
    for name, (predicate, prefix) in SCHEME_IDS.items():
        value = getattr(paper, name)
        if value:
            quads.append(Quad(paper_node, predicate, text(value), DEFAULT))
            quads.append(Quad(paper_node, SCHEMA_SAME_AS, NamedNode(prefix + iri_part(value)),
                              DEFAULT))
    if paper.title and paper.title.strip():
        quads.append(Quad(paper_node, DC_TITLE, text(paper.title), DEFAULT))
    if paper.year is not None:
        quads.append(Quad(paper_node, DC_ISSUED, year(paper.year), DEFAULT))
    quads += [Quad(paper_node, DC_CREATOR, text(a), DEFAULT) for a in paper.authors if a.strip()]
    venue = paper.venue or venue_title
    if venue:
        quads.append(Quad(paper_node, SCHEMA_PART_OF, text(venue), DEFAULT))
    quads += [Quad(paper_node, SCHEMA_KEYWORDS, text(k), DEFAULT)
              for k in paper.keywords if k.strip()]
    if paper.url:
        quads.append(Quad(paper_node, SCHEMA_URL, Literal(paper.url, datatype=XSD_ANYURI),
                          DEFAULT))
    return quads


def paper_quads(
    extraction: PaperExtraction,
    links: Sequence[str | None],
    *,
    base: str = DEFAULT_BASE,
    entities: Mapping[str, Entity] | None = None,
    venue_title: str | None = None,
) -> list[Quad]:
    """The paper, its links, claims, results and provenance annotations, deduplicated, in the
    order `paper_lines` writes them."""
    check_base(base)
    mentions = extraction.mentions
    key = extraction.paper.key
    node = NamedNode(paper_iri(base, key))
    prov = NamedNode(provenance_graph(base))
    quads = _record(node, extraction, venue_title)
    quads.append(Quad(node, RDFS_LABEL, text(paper_label(extraction, links, entities)), DEFAULT))
    surfaces = surface_index(mentions, links, entities)
    order = mention_order(mentions)
    claim_numbers = number_claims(mentions, order)
    extractors: set[str] = set()
    annotations = 0
    for i in order:
        mention = mentions[i]
        ref = links[i] if i < len(links) else None
        if mention.type == "claim":
            n = claim_numbers[i]
            body = NamedNode(claim_iri(base, key, n))
            quads.append(Quad(node, MAKES_CLAIM, body, DEFAULT))
            quads += _claim(body, mention, mentions, links, surfaces, base, key, n)
        elif mention.type == "domain":
            body = iri(entity_iri(base, "domain", domain_slug(mention)))
            quads.append(Quad(node, IN_DOMAIN, body, DEFAULT))
        elif ref is not None:
            type_ = ref.partition("/")[0]
            body = _entity(base, ref)
            predicate = PROPOSES if mention.proposed else LINK_PREDICATE.get(type_)
            if predicate is None:
                raise ValueError(f"paper {key}: link {ref!r} has an unknown entity type")
            quads.append(Quad(node, predicate, body, DEFAULT))
        else:
            continue
        annotations += 1
        extractors.add(mention.extractor)
        quads += _annotation(annotation_iri(base, key, annotations), body, node, mention.start,
                             mention.end, mention.text, mention.confidence, mention.extractor,
                             prov)
        if mention.type == "claim":
            n = claim_numbers[i]
            for m, result in enumerate(mention.results, start=1):
                quads += _annotation(
                    annotation_iri(base, key, annotations, f"r{m}"),
                    NamedNode(result_iri(base, key, n, m)), node, result.start, result.end,
                    result.text, mention.confidence, mention.extractor, prov,
                )
    for name in sorted(extractors):
        quads += extractor_quads(name, base=base)
    return list(dict.fromkeys(quads))
