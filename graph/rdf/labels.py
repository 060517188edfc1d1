"""What a paper and its entities are called in its RDF: the paper's label, the names its
entities go by (which a claim's results resolve against), the order its mentions are numbered in.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from graph.model import Entity, Mention, PaperExtraction, Result
from graph.nlp.text_clean import collapse
from graph.slug import label_key, slugify
from graph.vocab import ENTITY_TYPES, RESULT_FIELDS

#: Words of the abstract that label a paper with neither title nor named contribution.
LABEL_WORDS = 8


def mention_order(mentions: Sequence[Mention]) -> list[int]:
    """The mentions' indexes in text order: claims and annotations are numbered in it."""
    return sorted(
        range(len(mentions)),
        key=lambda i: (mentions[i].start, mentions[i].end, mentions[i].type, i),
    )


def number_claims(mentions: Sequence[Mention], order: Sequence[int]) -> dict[int, int]:
    """Mention index -> the number (1-based, in text order) of each claim: its IRI's `n`."""
    numbers: dict[int, int] = {}
    for i in order:
        if mentions[i].type == "claim":
            numbers[i] = len(numbers) + 1
    return numbers


def claim_about(claim: Mention, mentions: Sequence[Mention],
                links: Sequence[str | None]) -> list[str]:
    """The refs of the entities named inside a claim's sentence, sorted."""
    return sorted({
        ref
        for other, ref in zip(mentions, links, strict=False)
        if ref is not None and other.type in ENTITY_TYPES
        and claim.start <= other.start and other.end <= claim.end
    })


def result_names(result: Result,
                 surfaces: Mapping[tuple[str, str], str]) -> list[tuple[str, str, str | None]]:
    """(field, the name the sentence gives, the ref it resolves to or None) for each field of a
    result that names something: its metric, dataset, model, baseline."""
    named = []
    for field, (types, _, _) in RESULT_FIELDS.items():
        surface = getattr(result, field)
        if surface:
            key = label_key(surface)
            ref = next((surfaces[(t, key)] for t in types if (t, key) in surfaces), None)
            named.append((field, surface, ref))
    return named


def domain_slug(mention: Mention) -> str:
    """The taxonomy slug a domain mention names."""
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
    for order, i in enumerate(mention_order(extraction.mentions)):
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


def surface_index(
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
