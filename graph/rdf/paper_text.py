"""A paper's RDF as N-Quads lines, as the build writes them (graph.rdf.quads builds the same
facts as Quad objects, the reference these lines are tested against).

A paper's lines come in two parts. STATIC needs only the paper's own extraction, so a build can
write and load it while later papers are still being parsed; LINKED names the entities the
resolver chose, which needs the whole corpus. Together they are `paper_lines`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graph.extractors.metric_direction import higher_is_better
from graph.model import Entity, Mention, PaperExtraction
from graph.model import Result as ResultRecord
from graph.rdf.labels import (
    claim_about,
    domain_slug,
    mention_order,
    number_claims,
    paper_label,
    result_names,
    surface_index,
)
from graph.rdf.literals import iri_part, year
from graph.rdf.ntriples import (
    NT_A,
    NT_ABOUT,
    NT_CLAIM,
    NT_CLAIM_KIND,
    NT_CONFIDENCE,
    NT_DC_ABSTRACT,
    NT_DC_CREATOR,
    NT_DC_IDENTIFIER,
    NT_DC_ISSUED,
    NT_DC_TITLE,
    NT_FALSE,
    NT_HAS_RESULT,
    NT_HIGHER_IS_BETTER,
    NT_IN_DOMAIN,
    NT_LABEL,
    NT_MAKES_CLAIM,
    NT_OA_ANNOTATION,
    NT_OA_BODY,
    NT_OA_END,
    NT_OA_EXACT,
    NT_OA_POSITION,
    NT_OA_QUOTE,
    NT_OA_SELECTOR,
    NT_OA_SOURCE,
    NT_OA_SPECIFIC,
    NT_OA_START,
    NT_OA_TARGET,
    NT_PAPER,
    NT_PROV_ACTIVITY,
    NT_PROV_GENERATED_BY,
    NT_PROV_SOFTWARE_AGENT,
    NT_RESULT,
    NT_SCHEMA_CLAIM,
    NT_SCHEMA_KEYWORDS,
    NT_SCHEMA_PART_OF,
    NT_SCHEMA_SAME_AS,
    NT_SCHEMA_TEXT,
    NT_SCHEMA_URL,
    NT_SCHOLARLY_ARTICLE,
    NT_TRUE,
    NT_UNIT,
    NT_VALUE,
    NT_XSD_ANYURI,
    nt,
    nt_confidence,
    nt_decimal,
    nt_extractor,
    nt_integer,
    nt_iri,
    nt_string,
)
from graph.rdf.terms import LINK_PREDICATE, PROPOSES, RESULT_FIELDS, SCHEME_IDS, claim_kind
from graph.vocab import (
    DEFAULT_BASE,
    ENTITY_TYPES,
    annotation_iri,
    check_base,
    claim_iri,
    entity_iri,
    extractor_iri,
    paper_iri,
    provenance_graph,
    result_iri,
)


def _annotation_lines(
    ann: str, body: str | None, source: str, start: int, end: int, exact: str, conf: float,
    extractor: str, graph: str,
) -> list[str]:
    node, target = f"<{ann}>", f"<{ann}#target>"
    position, quote = f"<{ann}#position>", f"<{ann}#quote>"
    g = f" {graph} .\n"
    lines = [
        f"{node} {NT_A} {NT_OA_ANNOTATION}{g}",
        f"{node} {NT_OA_TARGET} {target}{g}",
        f"{node} {NT_CONFIDENCE} {nt_confidence(conf)}{g}",
        f"{node} {NT_PROV_GENERATED_BY} {nt_extractor(extractor)}{g}",
        f"{target} {NT_A} {NT_OA_SPECIFIC}{g}",
        f"{target} {NT_OA_SOURCE} {source}{g}",
        f"{target} {NT_OA_SELECTOR} {position}{g}",
        f"{target} {NT_OA_SELECTOR} {quote}{g}",
        f"{position} {NT_A} {NT_OA_POSITION}{g}",
        f"{position} {NT_OA_START} {nt_integer(start)}{g}",
        f"{position} {NT_OA_END} {nt_integer(end)}{g}",
        f"{quote} {NT_A} {NT_OA_QUOTE}{g}",
        f"{quote} {NT_OA_EXACT} {nt_string(exact)}{g}",
    ]
    if body is not None:  # None: the body is written with the links (LINKED)
        lines.append(f"{node} {NT_OA_BODY} {body}{g}")
    return lines


def extractor_lines(name: str, *, base: str = DEFAULT_BASE) -> list[str]:
    """`extractor_quads` as N-Quads lines."""
    node = nt_iri(extractor_iri(name))
    g = f" <{provenance_graph(base)}> .\n"
    return [
        f"{node} {NT_A} {NT_PROV_ACTIVITY}{g}",
        f"{node} {NT_A} {NT_PROV_SOFTWARE_AGENT}{g}",
        f"{node} {NT_LABEL} {nt_string(name)}{g}",
    ]


#: The two parts of a paper's lines (see above).
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
            f"{node} {NT_A} {NT_RESULT} .\n",
            f"{node} {NT_VALUE} {nt_decimal(result.value)} .\n",
            f"{node} {NT_SCHEMA_TEXT} {nt_string(result.text)} .\n",
        ]
        if result.unit:
            lines.append(f"{node} {NT_UNIT} {nt_string(result.unit)} .\n")
        # the direction is the metric's, as the sentence names it: known before any resolving
        up = higher_is_better(result.metric) if result.metric else None
        if up is not None:
            lines.append(f"{node} {NT_HIGHER_IS_BETTER} {NT_TRUE if up else NT_FALSE} .\n")
    if LINKED not in parts:
        return lines
    for field, surface, ref in result_names(result, surfaces or {}):
        _, iri_predicate, name_predicate = RESULT_FIELDS[field]
        if ref is not None:
            type_, _, slug = ref.partition("/")
            lines.append(f"{node} {nt(iri_predicate)} {nt_iri(entity_iri(base, type_, slug))} .\n")
        else:
            lines.append(f"{node} {nt(name_predicate)} {nt_string(surface)} .\n")
    return lines


def _claim_lines(
    node: str, mention: Mention, mentions: Sequence[Mention], links: Sequence[str | None],
    surfaces: Mapping[tuple[str, str], str] | None, base: str, key: str, n: int,
    parts: frozenset[str],
) -> list[str]:
    lines = []
    if STATIC in parts:
        lines += [
            f"{node} {NT_A} {NT_CLAIM} .\n",
            f"{node} {NT_A} {NT_SCHEMA_CLAIM} .\n",
            f"{node} {NT_SCHEMA_TEXT} {nt_string(mention.text)} .\n",
        ]
        if mention.claim_kind is not None:
            kind = claim_kind(mention.claim_kind, key)
            lines.append(f"{node} {NT_CLAIM_KIND} {nt(kind)} .\n")
    if LINKED in parts:
        for ref in claim_about(mention, mentions, links):
            type_, _, slug = ref.partition("/")
            lines.append(f"{node} {NT_ABOUT} {nt_iri(entity_iri(base, type_, slug))} .\n")
    for m, result in enumerate(mention.results, start=1):
        result_node = nt_iri(result_iri(base, key, n, m))
        if STATIC in parts:
            lines.append(f"{node} {NT_HAS_RESULT} {result_node} .\n")
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
    """A paper's RDF as N-Quads lines, deduplicated: what `paper_quads` builds as Quads."""
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
            f"{node} {NT_A} {NT_PAPER} .\n",
            f"{node} {NT_A} {NT_SCHOLARLY_ARTICLE} .\n",
            f"{node} {NT_DC_ABSTRACT} {nt_string(paper.abstract)} .\n",
            f"{node} {NT_DC_IDENTIFIER} {nt_string(paper.id or key)} .\n",
        ]
        for name, (predicate, prefix) in SCHEME_IDS.items():
            value = getattr(paper, name)
            if value:
                lines.append(f"{node} {nt(predicate)} {nt_string(value)} .\n")
                lines.append(f"{node} {NT_SCHEMA_SAME_AS} <{prefix}{iri_part(value)}> .\n")
        if paper.title and paper.title.strip():
            lines.append(f"{node} {NT_DC_TITLE} {nt_string(paper.title)} .\n")
        if paper.year is not None:
            lines.append(f"{node} {NT_DC_ISSUED} {year(paper.year)} .\n")
        for author in paper.authors:
            if author.strip():
                lines.append(f"{node} {NT_DC_CREATOR} {nt_string(author)} .\n")
        venue = paper.venue or venue_title
        if venue:
            lines.append(f"{node} {NT_SCHEMA_PART_OF} {nt_string(venue)} .\n")
        for keyword in paper.keywords:
            if keyword.strip():
                lines.append(f"{node} {NT_SCHEMA_KEYWORDS} {nt_string(keyword)} .\n")
        if paper.url:
            url = nt_string(paper.url)
            lines.append(f"{node} {NT_SCHEMA_URL} {url}^^{NT_XSD_ANYURI} .\n")
    surfaces = None
    if linked:
        if links is None:
            raise ValueError(f"paper {key}: its linked lines need its links")
        lines.append(f"{node} {NT_LABEL} {nt_string(paper_label(extraction, links, entities))} .\n")
        surfaces = surface_index(mentions, links, entities)

    order = mention_order(mentions)
    claim_numbers = number_claims(mentions, order)

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
                lines.append(f"{node} {NT_MAKES_CLAIM} {body} .\n")
            lines.extend(_claim_lines(body, mention, mentions, links or (), surfaces, base, key,
                                      n, parts))
        elif mention.type == "domain":
            body = nt_iri(entity_iri(base, "domain", domain_slug(mention)))
            if static:
                lines.append(f"{node} {NT_IN_DOMAIN} {body} .\n")
        elif links is None or ref is not None:
            entity_link, body = True, ""
            if ref is not None:
                type_, _, slug = ref.partition("/")
                body = nt_iri(entity_iri(base, type_, slug))
                link = PROPOSES if mention.proposed else LINK_PREDICATE.get(type_)
                if link is None:
                    raise ValueError(f"paper {key}: link {ref!r} has an unknown entity type")
                lines.append(f"{node} {nt(link)} {body} .\n")
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
            lines.append(f"<{ann}> {NT_OA_BODY} {body} {prov} .\n")
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
