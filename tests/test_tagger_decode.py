"""BIO decoding when the model changes its mind about a name's type halfway through it."""

from __future__ import annotations

import numpy as np
import pytest

from graph.nlp import tagging
from graph.nlp.tagging import LABELS, decode, pieces

TEXT = "To guide large pretrained language models, we train a reader on SQuAD."


@pytest.fixture(scope="module")
def p():
    return pieces(tagging.load_tokenizer(), TEXT)


def _mixed(p, words: dict[str, dict[str, float]]) -> np.ndarray:
    """Each listed word's wordpieces with the label shares given (O takes what is left)."""
    probs = np.zeros((len(p.ids), len(LABELS)), dtype=np.float32)
    probs[:, LABELS.index("O")] = 1.0
    for word, shares in words.items():
        start = TEXT.index(word)
        first = next(i for i, (a, _) in enumerate(p.offsets) if a == start)
        for i in range(first, len(p.ids)):
            if p.words[i] != p.words[first]:
                break
            probs[i, :] = 0.0
            for label, share in shares.items():
                probs[i, LABELS.index(label)] = share
            probs[i, LABELS.index("O")] = 1.0 - sum(shares.values())
    return probs


def test_an_inside_tag_of_another_type_continues_the_span(p):
    # "large pretrained" task, "language" method, "models" task: one name, typed by the most
    # probability over its wordpieces
    probs = _mixed(p, {"large": {"B-task": 0.9}, "pretrained": {"I-task": 0.9},
                       "language": {"I-method": 0.6}, "models": {"I-task": 0.8}})
    spans = decode(probs, p)
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("large pretrained language models", "task")]
    # the confidence is the chosen type's, so the method piece pulls it down
    assert spans[0].confidence < 0.85


def test_the_type_with_the_most_probability_wins_whichever_comes_first(p):
    probs = _mixed(p, {"large": {"B-task": 0.6}, "pretrained": {"I-method": 0.9},
                       "language": {"I-method": 0.9}, "models": {"I-method": 0.9}})
    spans = decode(probs, p)
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("large pretrained language models", "method")]


def test_a_begin_tag_still_opens_a_new_span(p):
    probs = _mixed(p, {"reader": {"B-method": 0.9}, "on": {"B-task": 0.9},
                       "SQuAD": {"B-dataset": 0.9}})
    spans = decode(probs, p)
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("reader", "method"), ("on", "task"), ("SQuAD", "dataset")]


def test_a_task_grows_by_the_neighbouring_words_its_type_nearly_won(p):
    probs = _mixed(p, {"large": {"B-task": 0.2}, "pretrained": {"B-task": 0.35},
                       "language": {"B-task": 0.9}, "models": {"I-task": 0.9},
                       ",": {"I-task": 0.4}, "SQuAD": {"B-dataset": 0.9}, "on": {"B-dataset": 0.4}})
    spans = tagging.widen(TEXT, probs, p, decode(probs, p))
    # "pretrained" (0.35) is taken, "large" (0.2) is not; the comma has no letter, and a
    # dataset does not grow
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("pretrained language models", "task"), ("SQuAD", "dataset")]
    # the confidence is the decoded span's own
    assert spans[0].confidence == pytest.approx(0.9)


def test_a_task_does_not_grow_into_another_span(p):
    probs = _mixed(p, {"pretrained": {"B-method": 0.9, "B-task": 0.05},
                       "language": {"B-task": 0.9, "B-method": 0.05},
                       "models": {"I-task": 0.6, "B-method": 0.35}})
    spans = tagging.widen(TEXT, probs, p, decode(probs, p))
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("pretrained", "method"), ("language models", "task")]
