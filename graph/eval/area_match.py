"""When a predicted research area is right: it equals a gold area's slug, or is narrower or
broader than one in the taxonomy (data/taxonomy.ttl)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from graph import paths
from graph import taxonomy as taxonomy_file
from graph.eval.scores import DomainScore

#: `broader(slug)` gives the slugs of the concepts directly (or transitively) broader than it.
Broader = Callable[[str], Iterable[str]]
TAXONOMY = paths.TAXONOMY


def taxonomy_broader(path: Path = TAXONOMY) -> Broader | None:
    """`broader` from the skos:broader links of a taxonomy file (slug = last IRI segment)."""
    return taxonomy_file.broader_links(path)


def ancestors_of(broader: Broader | None) -> Callable[[str], set[str]]:
    """slug -> every slug transitively broader than it (none without a `broader`), cached."""
    cache: dict[str, set[str]] = {}

    def ancestors(slug: str) -> set[str]:
        if broader is None:
            return set()
        if slug not in cache:
            cache[slug] = set()
            todo, seen = list(broader(slug)), set()
            while todo:
                s = todo.pop()
                if s in seen or s == slug:
                    continue
                seen.add(s)
                todo.extend(broader(s))
            cache[slug] = seen
        return cache[slug]

    return ancestors


def domain_correct(pred: str, gold: Iterable[str], ancestors: Callable[[str], set[str]]) -> bool:
    """Equal to a gold slug, or narrower/broader than one in the taxonomy."""
    return any(pred == g or g in ancestors(pred) or pred in ancestors(g) for g in gold)


def score_areas(
    acc: DomainScore, gold: Sequence[str], got: Sequence[str], ancestors: Callable[[str], set[str]]
) -> list[str]:
    """Add one paper's predicted areas to `acc`; the ones that are right."""
    correct = [d for d in got if domain_correct(d, gold, ancestors)]
    acc.papers += 1
    acc.papers_hit += bool(correct)
    acc.predicted += len(got)
    acc.correct += len(correct)
    return correct
