"""Every number a claim states becomes a Result, with its unit kept; counts of things, years
and citations do not (graph.extractors.results, on made-up sentences)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from graph.extractors.results import results_in


def _r(sentence: str) -> list[tuple]:
    return [(r.text, r.value, r.unit, r.metric, r.dataset, r.model, r.baseline)
            for r in results_in(sentence)]


@pytest.mark.parametrize(("sentence", "expected"), [
    # LaTeX: the unit after the closing "$" is kept, with the formula's text
    ("Our model improves accuracy by $4.4$ points on SQuAD.",
     [("$4.4$ points", Decimal("4.4"), "points", "accuracy", "SQuAD", None, None)]),
    ("It reaches $44$\\% accuracy on ImageNet.",
     [("$44$\\%", Decimal("44"), "%", "accuracy", "ImageNet", None, None)]),
    ("It reaches 44\\% accuracy.", [("44\\%", Decimal("44"), "%", "accuracy", None, None, None)]),
    ("We get $4.4\\%$ higher recall.",
     [("$4.4\\%$", Decimal("4.4"), "%", "recall", None, None, None)]),
    # ranges: both ends, with the unit written once and what the sentence says of either
    ("The error drops by 12-15% over the baseline.",
     [("12", Decimal("12"), "%", "error", None, None, "baseline"),
      ("15%", Decimal("15"), "%", "error", None, None, "baseline")]),
    ("Accuracy ranges from 85% to 92% across 12 languages.",
     [("85%", Decimal("85"), "%", "Accuracy", None, None, None),
      ("92%", Decimal("92"), "%", "Accuracy", None, None, None)]),
    # x-fold and times
    ("Training is 3-fold faster and inference runs 2.5x faster than BERT.",
     [("3-fold", Decimal("3"), "×", "speedup", None, None, None),
      ("2.5x", Decimal("2.5"), "x", "speedup", None, None, "BERT")]),
    ("It gives a tenfold speedup.",
     [("tenfold", Decimal("10"), "×", "speedup", None, None, None)]),
    ("The majority of users (77.63 per cent) were engaged.",
     [("77.63 per cent", Decimal("77.63"), "%", None, None, None, None)]),
    # decimals with their metric
    ("We obtain 27.3 BLEU on WMT.",
     [("27.3", Decimal("27.3"), None, "BLEU", "WMT", None, None)]),
    # a time is a result, but never in accuracy
    ("Training takes 30 minutes to reach 90% accuracy.",
     [("30 minutes", Decimal("30"), "min", None, None, None, None),
      ("90%", Decimal("90"), "%", "accuracy", None, None, None)]),
])
def test_numbers_become_results(sentence, expected):
    assert _r(sentence) == expected


@pytest.mark.parametrize("sentence", [
    # counts of things
    "We evaluate on 8 tasks and 21 datasets.",
    "We collected 1,200 annotated images from 300 users.",
    "The corpus holds 1.2M images.",
    "It uses 3-4 layers.",
    # years and citations
    "In 2019, the challenge was won by a large margin.",
    "As shown by Smith et al. [12], results vary.",
    "This follows earlier work (Lee et al., 2021).",
])
def test_counts_years_and_citations_are_not_results(sentence):
    assert _r(sentence) == []


def test_result_spans_index_the_abstract():
    sentence = "We reach $44$\\% accuracy."
    offset = 100
    (result,) = results_in(sentence, offset)
    assert (result.start - offset, result.end - offset) == (9, 15)
    assert sentence[result.start - offset : result.end - offset] == result.text
