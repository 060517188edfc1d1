"""The RDF no single paper owns, and whole corpora: entities with their support, the domains
papers are in, the taxonomy (graph.taxonomy), the ordering of a build's quads.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, Triple

from graph.model import Entity, ResolvedCorpus
from graph.nlp.text_clean import collapse
from graph.rdf.labels import domain_slug
from graph.rdf.literals import integer, iri, text
from graph.rdf.ntriples import (
    NT_A,
    NT_LABEL,
    NT_SKOS_CONCEPT,
    NT_SUPPORT,
    nt,
    nt_integer,
    nt_iri,
    nt_string,
    quad_line,
)
from graph.rdf.paper_text import paper_lines
from graph.rdf.quads import entity_quads, paper_quads
from graph.rdf.terms import (
    DEFAULT,
    DOMAIN,
    DOMAINS_SCHEME,
    ENTITY_CLASS,
    RDFS_LABEL,
    SKOS_ALT,
    SKOS_BROADER,
    SKOS_CONCEPT,
    SKOS_IN_SCHEME,
    SKOS_PREF,
    SUPPORT,
    A,
)
from graph.taxonomy import taxonomy_quads
from graph.vocab import DEFAULT_BASE, check_base, entity_iri


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
        f"{node} {NT_A} {nt(cls)} .\n",
        f"{node} {NT_A} {NT_SKOS_CONCEPT} .\n",
        f"{node} {NT_LABEL} {nt_string(label)} .\n",
        f"{node} {NT_SUPPORT} {nt_integer(entity.support)} .\n",
    ]
    alt = nt(SKOS_ALT)
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
    return f"{child} {nt(SKOS_BROADER)} {parent} .\n"



def domain_quads(
    resolved: ResolvedCorpus, taxonomy: Sequence[Quad], base: str = DEFAULT_BASE
) -> list[Quad]:
    """Each domain a paper is in: typed, in the scheme, labelled, with its support."""
    papers_in: dict[str, set[str]] = defaultdict(set)
    for key, extraction in resolved.extractions.items():
        for mention in extraction.mentions:
            if mention.type == "domain":
                papers_in[domain_slug(mention)].add(key)
    labelled: dict[str, dict[NamedNode, Literal]] = defaultdict(dict)
    for quad in taxonomy:
        subject = quad.subject
        if (quad.predicate in (RDFS_LABEL, SKOS_PREF) and isinstance(quad.object, Literal)
                and not isinstance(subject, Triple)):
            current = labelled[subject.value].get(quad.predicate)
            if current is None or str(quad.object) < str(current):
                labelled[subject.value][quad.predicate] = quad.object
    quads: list[Quad] = []
    # Every concept answers to rdfs:label too, as the other entity classes do.
    for concept in sorted(labelled):
        labels = labelled[concept]
        if SKOS_PREF in labels and RDFS_LABEL not in labels:
            quads.append(Quad(iri(concept), RDFS_LABEL, labels[SKOS_PREF], DEFAULT))
    for slug in sorted(papers_in):
        concept = entity_iri(base, "domain", slug)
        node = iri(concept)
        quads += [
            Quad(node, A, DOMAIN, DEFAULT),
            Quad(node, A, SKOS_CONCEPT, DEFAULT),
            Quad(node, SKOS_IN_SCHEME, DOMAINS_SCHEME, DEFAULT),
            Quad(node, SUPPORT, integer(len(papers_in[slug])), DEFAULT),
        ]
        labels = labelled.get(concept, {})
        fallback = text(slug.replace("-", " "))
        if SKOS_PREF not in labels:
            quads.append(Quad(node, SKOS_PREF, fallback, DEFAULT))
        if RDFS_LABEL not in labels:
            quads.append(Quad(node, RDFS_LABEL, labels.get(SKOS_PREF, fallback), DEFAULT))
    return quads



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
