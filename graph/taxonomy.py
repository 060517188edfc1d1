"""The research-area taxonomy (data/taxonomy.ttl): SKOS concepts, their labels and hierarchy.

Concepts are keyed by slug, the last path segment of their IRI, so the taxonomy reads the same
whatever instance base a build rewrites it to.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, SKOS

from graph.errors import InputError

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "taxonomy.ttl"
PKG = "https://w3id.org/paperkg/ns#"
SCHEME = URIRef(PKG + "Domains")


@dataclass(frozen=True)
class Concept:
    slug: str
    iri: str
    pref_label: str
    alt_labels: tuple[str, ...] = ()
    hidden_labels: tuple[str, ...] = ()
    broader: tuple[str, ...] = ()
    #: arXiv category codes ("cs.LG") from skos:exactMatch/closeMatch links to arxiv.org
    arxiv: tuple[str, ...] = ()

    @property
    def is_top(self) -> bool:
        return not self.broader


def slug_of(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1]


class Taxonomy:
    """Concepts by slug with transitive broader/narrower lookups."""

    def __init__(self, concepts: dict[str, Concept]) -> None:
        self.concepts = concepts
        self._narrower: dict[str, set[str]] = {slug: set() for slug in concepts}
        for concept in concepts.values():
            for parent in concept.broader:
                self._narrower[parent].add(concept.slug)
        self._ancestors = {
            slug: self._closure(slug, lambda s: concepts[s].broader) for slug in concepts
        }
        self._descendants = {
            slug: self._closure(slug, lambda s: self._narrower[s]) for slug in concepts
        }

    @staticmethod
    def _closure(start: str, step) -> frozenset[str]:
        seen: set[str] = set()
        todo = list(step(start))
        while todo:
            slug = todo.pop()
            if slug not in seen:
                seen.add(slug)
                todo.extend(step(slug))
        seen.discard(start)
        return frozenset(seen)

    def __contains__(self, slug: object) -> bool:
        return slug in self.concepts

    def __iter__(self) -> Iterator[Concept]:
        return iter(self.concepts.values())

    def __len__(self) -> int:
        return len(self.concepts)

    def __getitem__(self, slug: str) -> Concept:
        return self.concepts[slug]

    def top_concepts(self) -> list[str]:
        return sorted(slug for slug, c in self.concepts.items() if c.is_top)

    def broader(self, slug: str) -> tuple[str, ...]:
        return self.concepts[slug].broader

    def narrower(self, slug: str) -> tuple[str, ...]:
        return tuple(sorted(self._narrower[slug]))

    def ancestors(self, slug: str) -> frozenset[str]:
        """Every concept reachable by skos:broader from `slug`, not `slug` itself."""
        return self._ancestors[slug]

    def descendants(self, slug: str) -> frozenset[str]:
        return self._descendants[slug]

    def is_broader_or_narrower(self, a: str, b: str) -> bool:
        """True when `a` and `b` are the same concept or one is transitively broader than the
        other. Unknown slugs are related only to themselves."""
        if a == b:
            return True
        if a not in self.concepts or b not in self.concepts:
            return False
        return b in self._ancestors[a] or a in self._ancestors[b]


def parse(path: Path | str = DEFAULT_PATH) -> Taxonomy:
    """Read a SKOS concept scheme from Turtle; errors name the file."""
    path = Path(path)
    graph = Graph()
    try:
        graph.parse(path, format="turtle")
    except (OSError, SyntaxError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the taxonomy: {exc}") from exc
    concepts: dict[str, Concept] = {}
    for iri in sorted(set(graph.subjects(RDF.type, SKOS.Concept))):
        if (iri, SKOS.inScheme, SCHEME) not in graph:
            continue
        slug = slug_of(str(iri))
        prefs = [str(o) for o in graph.objects(iri, SKOS.prefLabel) if isinstance(o, Literal)]
        if not prefs:
            raise InputError(f"{path}: concept {slug!r} has no skos:prefLabel")
        matches = list(graph.objects(iri, SKOS.exactMatch)) + list(
            graph.objects(iri, SKOS.closeMatch)
        )
        concepts[slug] = Concept(
            slug=slug,
            iri=str(iri),
            pref_label=sorted(prefs)[0],
            alt_labels=tuple(sorted(str(o) for o in graph.objects(iri, SKOS.altLabel))),
            hidden_labels=tuple(sorted(str(o) for o in graph.objects(iri, SKOS.hiddenLabel))),
            broader=tuple(sorted(slug_of(str(o)) for o in graph.objects(iri, SKOS.broader))),
            arxiv=tuple(sorted(slug_of(str(o)) for o in matches if "arxiv.org/list/" in str(o))),
        )
    for concept in concepts.values():
        for parent in concept.broader:
            if parent not in concepts:
                raise InputError(
                    f"{path}: concept {concept.slug!r} has skos:broader {parent!r}, "
                    "which is not a concept of the scheme"
                )
    return Taxonomy(concepts)


@lru_cache(maxsize=4)
def load(path: str | None = None) -> Taxonomy:
    """The taxonomy at `path` (default data/taxonomy.ttl), parsed once per process."""
    return parse(path or DEFAULT_PATH)


def is_broader_or_narrower(a: str, b: str) -> bool:
    """`Taxonomy.is_broader_or_narrower` on the default taxonomy."""
    return load().is_broader_or_narrower(a, b)
