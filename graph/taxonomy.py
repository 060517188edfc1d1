"""The research-area taxonomy (data/taxonomy.ttl): SKOS concepts, their labels and hierarchy.

The file is read one way, here: parsed once per version of it (`read_quads`), then seen as
concepts (`parse`, `load`), as the quads a build puts in the graph under its base
(`taxonomy_quads`), or as the broader links alone (`broader_links`).

Concepts are keyed by slug, the last path segment of their IRI, so the taxonomy reads the same
whatever instance base a build rewrites it to.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, RdfFormat, Store
from pyoxigraph import parse as parse_rdf

from graph.errors import InputError
from graph.paths import TAXONOMY
from graph.vocab import DEFAULT_BASE, PKG, RDF, SKOS, rebase

DEFAULT_PATH = TAXONOMY
SCHEME = PKG + "Domains"
_TYPE, _CONCEPT, _IN_SCHEME = RDF + "type", SKOS + "Concept", SKOS + "inScheme"


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


def read_quads(path: Path | str = DEFAULT_PATH) -> tuple[Quad, ...]:
    """The triples of the Turtle file at `path`, as parsed (relative IRIs against the default
    base); InputError naming the file when it cannot be read."""
    try:
        stat = Path(path).stat()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the taxonomy: {exc}") from exc
    return _read(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _read(path: str, mtime_ns: int, size: int) -> tuple[Quad, ...]:
    # keyed by mtime and size too, so an edited file is read again
    try:
        with open(path, "rb") as handle:
            return tuple(parse_rdf(handle, format=RdfFormat.TURTLE, base_iri=DEFAULT_BASE))
    except (OSError, SyntaxError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the taxonomy: {exc}") from exc


def taxonomy_quads(path: str | Path | None = None, *, base: str = DEFAULT_BASE) -> list[Quad]:
    """The taxonomy in the default graph, its `id/domain/…` IRIs moved under `base`, literals in
    the canonical form a store gives them.

    A missing file gives no quads (the build still links domains, without labels from it).
    """
    source = Path(path) if path is not None else DEFAULT_PATH
    if not source.exists():
        return []
    stat = source.stat()
    return list(_rebased(str(source), stat.st_mtime_ns, stat.st_size, base))


@lru_cache(maxsize=8)
def _rebased(path: str, mtime_ns: int, size: int, base: str) -> tuple[Quad, ...]:
    # Through a store, so the literals take the canonical form a store would give them.
    store = Store()
    graph = DefaultGraph()
    for quad in _read(path, mtime_ns, size):
        subject, obj = quad.subject, quad.object
        if isinstance(subject, NamedNode):
            subject = NamedNode(rebase(subject.value, base))
        if isinstance(obj, NamedNode):
            obj = NamedNode(rebase(obj.value, base))
        store.add(Quad(subject, quad.predicate, obj, graph))
    return tuple(store)


def parse(path: Path | str = DEFAULT_PATH) -> Taxonomy:
    """Read a SKOS concept scheme from Turtle; errors name the file."""
    path = Path(path)
    # (subject, predicate) -> objects, each term once, as a graph holds them
    values: dict[tuple[str, str], dict[object, None]] = defaultdict(dict)
    for quad in read_quads(path):
        if isinstance(quad.subject, NamedNode):
            values[(quad.subject.value, quad.predicate.value)][quad.object] = None

    def objects(iri: str, local: str) -> list:
        return list(values.get((iri, SKOS + local), ()))

    def strings(iri: str, local: str) -> tuple[str, ...]:
        return tuple(sorted(o.value for o in objects(iri, local)))

    concepts: dict[str, Concept] = {}
    for iri in sorted({s for (s, p), objs in values.items()
                       if p == _TYPE and NamedNode(_CONCEPT) in objs}):
        if NamedNode(SCHEME) not in values.get((iri, _IN_SCHEME), {}):
            continue
        slug = slug_of(iri)
        prefs = [o.value for o in objects(iri, "prefLabel") if isinstance(o, Literal)]
        if not prefs:
            raise InputError(f"{path}: concept {slug!r} has no skos:prefLabel")
        matches = objects(iri, "exactMatch") + objects(iri, "closeMatch")
        concepts[slug] = Concept(
            slug=slug,
            iri=iri,
            pref_label=sorted(prefs)[0],
            alt_labels=strings(iri, "altLabel"),
            hidden_labels=strings(iri, "hiddenLabel"),
            broader=tuple(sorted(slug_of(o.value) for o in objects(iri, "broader"))),
            arxiv=tuple(sorted(slug_of(o.value) for o in matches
                               if "arxiv.org/list/" in o.value)),
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


def broader_links(path: Path | str = DEFAULT_PATH) -> Callable[[str], tuple[str, ...]] | None:
    """slug -> the slugs its concept is directly narrower than (none for a slug the taxonomy does
    not know), from the taxonomy at `path`; None when there is no such file."""
    if not Path(path).exists():
        return None
    concepts = load(str(path)).concepts
    return lambda slug: concepts[slug].broader if slug in concepts else ()
