"""Parse abstracts with spaCy and run the registered extractors over each Doc."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from spacy.language import Language

from graph import extractors as registry
from graph import nlp as nlp_loader
from graph.extractors import tokens
from graph.generic import drop_generic as drop_generic_mentions
from graph.model import Mention, Paper, PaperExtraction
from graph.nlp import text_clean


def extract_doc(doc, extractor_fns, *, drop_generic: bool = True) -> list[Mention]:
    mentions: list[Mention] = []
    for fn in extractor_fns:
        mentions.extend(fn(doc))
    tokens.release(doc)
    # Generic words ("training", "neural networks") never become entity mentions: dropped here,
    # before any provenance is written, rather than at linking.
    if drop_generic:
        mentions = drop_generic_mentions(mentions, doc)
    # A stable order makes provenance numbering, and so every export, deterministic.
    mentions.sort(key=lambda m: (m.start, m.end, m.type, m.label or "", m.text))
    return mentions


def iter_extractions(
    papers: Iterable[Paper],
    *,
    nlp: Language | None = None,
    extractors: Sequence[str] = registry.DEFAULT_EXTRACTORS,
    batch_size: int = 64,
    drop_generic: bool = True,
) -> Iterator[PaperExtraction]:
    """Yield one PaperExtraction per paper, in input order. `drop_generic=False` keeps the
    mentions graph.generic calls generic (what an evaluation against gold that annotates them
    may want); a graph never does."""
    nlp = nlp or nlp_loader.load()
    extractor_fns = [registry.get(name) for name in extractors]
    # spaCy parses the abstract as a reader would see it (LaTeX read, whitespace collapsed,
    # cut at a sentence end past the size limit); mentions map back to the verbatim text.
    pairs = ((view.text, (paper, view))
             for paper in papers for view in (text_clean.extraction_view(paper.abstract),))
    for doc, (paper, view) in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        doc.user_data["paper_key"] = paper.key
        mentions = text_clean.to_verbatim(
            extract_doc(doc, extractor_fns, drop_generic=drop_generic), view, paper.abstract)
        yield PaperExtraction(paper=paper, mentions=mentions)


def extract_papers(papers: Sequence[Paper], **options) -> list[PaperExtraction]:
    return list(iter_extractions(papers, **options))
