"""A short form the abstract defines means what the abstract says, not what a lexicon lists it
as: after "Expectation Maximization (EM)", "EM" is no "exact match"."""

from __future__ import annotations

import pytest

from graph.extractors import candidates
from graph.model import Paper
from graph.resolve import resolve

EM_ALGORITHM = ("Expectation Maximization (EM) is among the most popular algorithms for maximum "
                "likelihood estimation. We show that over-parameterization can help EM avoid "
                "spurious local optima in the log-likelihood.")


@pytest.fixture(scope="module")
def nlp():
    from graph.nlp import load

    return load()


def _em_candidates(nlp, text: str) -> list[tuple[str, str, str | None]]:
    return [(c.text, c.type, c.label) for c in candidates.candidates(nlp(text)) if c.text == "EM"]


def test_a_short_form_defined_as_another_name_is_not_the_lexicon_entry(nlp):
    found = _em_candidates(nlp, EM_ALGORITHM)
    assert len(found) == 2  # the definition and the later use
    assert all(label != "exact match" and etype != "metric" for _, etype, label in found)


def test_a_short_form_defined_as_the_lexicon_name_keeps_it(nlp):
    text = "We report Exact Match (EM) and F1 on SQuAD. Our reader improves EM by two points."
    found = _em_candidates(nlp, text)
    assert found and all(etype == "metric" and label == "exact match" for _, etype, label in found)


def test_plural_and_hyphenated_long_forms_are_the_same_name(nlp):
    text = ("We report Word Error Rates (WER) and Intersection-over-Union (IoU); WER falls by "
            "a tenth.")
    labels = {(c.text, c.label) for c in candidates.candidates(nlp(text))
              if c.text in ("WER", "IoU")}
    assert ("WER", "word error rate") in labels
    assert ("IoU", "intersection over union") in labels


def test_the_graph_of_an_em_abstract_has_no_exact_match_metric():
    from graph.extractors.pipeline import extract_papers

    paper = Paper(key="em", abstract=EM_ALGORITHM, title=None, id="em")
    extractions = extract_papers([paper])
    # every mention of the name is the defined method, none a metric by the lexicon's "EM"
    assert {(m.text, m.type) for m in extractions[0].mentions
            if m.label == "expectation maximization"} == {("Expectation Maximization", "method"),
                                                          ("EM", "method")}
    entities = resolve(extractions).entities
    assert "metric/exact-match" not in entities
    assert entities["method/expectation-maximization"].aliases == {"EM"}
