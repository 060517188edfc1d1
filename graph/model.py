"""Plain records passed between the pipeline stages.

Papers, mentions and results use slots: a build holds every mention of the corpus until the
resolver has seen them all (100,000 papers have millions), so each record is kept small.

corpus -> Paper; extractors -> Mention (with Result for numeric claims);
pipeline -> PaperExtraction; resolve -> Entity and ResolvedCorpus.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from graph.vocab import CLAIM_KINDS, CONCEPT_TYPES, ENTITY_TYPES

__all__ = [
    "CLAIM_KINDS", "ENTITY_TYPES", "MENTION_TYPES", "Entity", "Mention", "Paper",
    "PaperExtraction", "ResolvedCorpus", "Result",
]

#: Every mention type an extractor may emit: the concept types and claims.
MENTION_TYPES: tuple[str, ...] = CONCEPT_TYPES + ("claim",)


@dataclass(frozen=True, slots=True)
class Paper:
    """One record of a corpus. `abstract` is verbatim; all spans index into it."""

    key: str
    abstract: str
    title: str | None = None
    id: str | None = None
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    keywords: tuple[str, ...] = ()
    url: str | None = None
    #: identifiers in other schemes, without their prefix ("10.1234/x", "2101.00001", "W123")
    doi: str | None = None
    arxiv: str | None = None
    openalex: str | None = None
    #: fields of the record paperkg does not map, as given (non-text values JSON-encoded)
    extra: Mapping[str, str] = field(default_factory=dict)
    #: where the record starts, "path:line", for messages
    source: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """A number a claim reports, with whatever the sentence says about it."""

    value: Decimal
    text: str
    start: int
    end: int
    unit: str | None = None
    metric: str | None = None
    dataset: str | None = None
    model: str | None = None
    baseline: str | None = None


@dataclass(frozen=True, slots=True)
class Mention:
    """One extracted mention: the exact words, where they are, who found them, how sure.

    For entity types `label` is the preferred surface (a long form for an acronym, say) and
    `aliases` other names the abstract gives it ("FD" for "Free decompression").
    For `domain`, `label` is the slug of a concept in data/taxonomy.ttl and the span is the
    evidence. For `claim`, the span is the sentence, `claim_kind` one of CLAIM_KINDS and
    `results` the numbers it reports.
    """

    type: str
    text: str
    start: int
    end: int
    extractor: str
    confidence: float
    label: str | None = None
    aliases: tuple[str, ...] = ()
    proposed: bool = False
    claim_kind: str | None = None
    results: tuple[Result, ...] = ()


@dataclass(slots=True)
class PaperExtraction:
    paper: Paper
    mentions: list[Mention]


@dataclass
class Entity:
    """One real thing across the corpus, as the resolver decided."""

    type: str
    slug: str
    label: str
    aliases: set[str] = field(default_factory=set)
    papers: set[str] = field(default_factory=set)
    #: ref of the entity this one is an edition of ("IWSLT 2016 English-German" -> IWSLT)
    broader: str | None = None

    @property
    def support(self) -> int:
        return len(self.papers)

    @property
    def ref(self) -> str:
        return f"{self.type}/{self.slug}"


@dataclass
class ResolvedCorpus:
    """What the RDF stage needs: papers with mentions, entities, and mention -> entity refs.

    `links[paper_key][i]` is the entity ref ("method/free-decompression") of
    `extractions[paper_key].mentions[i]`, or None for domains/claims/dropped mentions.
    """

    extractions: dict[str, PaperExtraction]
    entities: dict[str, Entity]
    links: dict[str, list[str | None]]
    #: papers merged as duplicates: (kept key, dropped source)
    duplicates: list[tuple[str, str]] = field(default_factory=list)
