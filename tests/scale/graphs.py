"""Small hand-made extractions for the scale tests: no spaCy needed to make their graph."""

from __future__ import annotations

from decimal import Decimal

from graph.model import Mention, Paper, PaperExtraction, Result

BASE = "https://example.org/kg/"


def _mention(abstract: str, surface: str, type_: str, *, proposed: bool = False,
             label: str | None = None, aliases: tuple[str, ...] = (),
             occurrence: int = 0) -> Mention:
    start = -1
    for _ in range(occurrence + 1):
        start = abstract.index(surface, start + 1)
    return Mention(type=type_, text=surface, start=start, end=start + len(surface),
                   extractor=f"{type_}s.v1", confidence=0.9, label=label, aliases=aliases,
                   proposed=proposed)


def _claim(abstract: str, sentence: str, kind: str, results: tuple[Result, ...] = ()) -> Mention:
    start = abstract.index(sentence)
    return Mention(type="claim", text=sentence, start=start, end=start + len(sentence),
                   extractor="claims.v1", confidence=0.8, claim_kind=kind, results=results)


def two_papers() -> list[PaperExtraction]:
    """Paper a proposes Alpha Network and uses BetaSet; paper b uses both plus GammaSet."""
    a_text = "We propose Alpha Network, evaluated on BetaSet. It improves accuracy by 3.2%."
    b_text = "Alpha Network is strong on BetaSet and GammaSet."
    claim_a = "It improves accuracy by 3.2%."
    value_at = a_text.index("3.2%")
    result = Result(value=Decimal("3.2"), text="3.2%", start=value_at, end=value_at + 4,
                    unit="%", metric="accuracy")
    a = PaperExtraction(
        paper=Paper(key="paper-a", abstract=a_text, title="Alpha Network", id="paper-a",
                    year=2024, authors=("A. Author",)),
        mentions=[
            _mention(a_text, "Alpha Network", "method", proposed=True),
            _mention(a_text, "BetaSet", "dataset"),
            _mention(a_text, "accuracy", "metric"),
            _claim(a_text, claim_a, "empirical", (result,)),
        ],
    )
    b = PaperExtraction(
        paper=Paper(key="paper-b", abstract=b_text, title="On Alpha", id="paper-b"),
        mentions=[
            _mention(b_text, "Alpha Network", "method"),
            _mention(b_text, "BetaSet", "dataset"),
            _mention(b_text, "GammaSet", "dataset"),
        ],
    )
    return [a, b]


def corpus_quads(extractions: list[PaperExtraction], base: str = BASE) -> list:
    from graph.rdf import corpus_quads as make
    from graph.resolve import resolve

    return make(resolve(extractions), base=base)


def _paper(key: str, text: str, title: str, mentions: list[tuple]) -> PaperExtraction:
    """`mentions`: (surface, type, options) triples, options as for `_mention`."""
    return PaperExtraction(
        paper=Paper(key=key, abstract=text, title=title, id=key),
        mentions=[_mention(text, surface, type_, **options)
                  for surface, type_, options in mentions],
    )


def five_papers() -> list[PaperExtraction]:
    """Five papers whose names are used the same way throughout: no label vote, acronym or
    merge depends on which papers are present, so any subset resolves like the whole."""
    return [
        _paper("p1", "We propose Alpha Network for image segmentation on BetaSet.", "P one", [
            ("Alpha Network", "method", {"proposed": True}),
            ("image segmentation", "task", {}),
            ("BetaSet", "dataset", {}),
            ("image segmentation", "domain", {"label": "computer-vision"}),
        ]),
        _paper("p2", "Alpha Network beats Delta Model on BetaSet in accuracy.", "P two", [
            ("Alpha Network", "method", {}),
            ("Delta Model", "model", {}),
            ("BetaSet", "dataset", {}),
            ("accuracy", "metric", {}),
        ]),
        _paper("p3", "Delta Model is evaluated on GammaSet for image segmentation.", "P three", [
            ("Delta Model", "model", {}),
            ("GammaSet", "dataset", {}),
            ("image segmentation", "task", {}),
            ("image segmentation", "domain", {"label": "computer-vision"}),
        ]),
        # Added later: an existing method under a new alias, an existing dataset, a new one.
        _paper("p4", "Alpha Network (AN) transfers from BetaSet to EpsilonSet.", "P four", [
            ("Alpha Network", "method", {"aliases": ("AN",)}),
            ("BetaSet", "dataset", {}),
            ("EpsilonSet", "dataset", {}),
        ]),
        _paper("p5", "We propose Zeta Search for protein folding, scored by accuracy.", "P five", [
            ("Zeta Search", "method", {"proposed": True}),
            ("protein folding", "task", {}),
            ("accuracy", "metric", {}),
            ("protein folding", "domain", {"label": "computational-biology"}),
        ]),
    ]
