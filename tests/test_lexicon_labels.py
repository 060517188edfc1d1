"""A node is named by its lexicon's name where the papers write that name, not by the long
form that an acronym otherwise yields to (graph.resolve)."""

from __future__ import annotations

from graph.model import Paper, PaperExtraction
from graph.resolve import resolve
from tests.tagged_spans import mention


def _paper(key: str, *mentions) -> PaperExtraction:
    return PaperExtraction(paper=Paper(key=key, abstract="", title=None, id=key),
                           mentions=list(mentions))


def test_a_benchmark_is_named_as_the_lexicon_names_it():
    corpus = resolve([
        _paper("a", mention("dataset", "general language understanding evaluation", 0, 0.9,
                            aliases=("GLUE",)),
               mention("dataset", "GLUE", 50, 0.9,
                       label="general language understanding evaluation", aliases=("GLUE",))),
        _paper("b", mention("dataset", "GLUE", 0, 0.9)),
    ])
    [glue] = corpus.entities.values()
    assert (glue.ref, glue.label, glue.papers) == ("dataset/glue", "GLUE", {"a", "b"})
    assert glue.aliases == {"general language understanding evaluation"}


def test_a_method_keeps_its_long_form_which_is_the_lexicons_name():
    corpus = resolve([
        _paper("a", mention("method", "convolutional neural network", 0, 0.9, aliases=("CNN",)),
               mention("method", "CNN", 50, 0.9, label="convolutional neural network")),
        _paper("b", mention("method", "CNN", 0, 0.9)),
    ])
    [cnn] = corpus.entities.values()
    assert (cnn.label, cnn.papers) == ("convolutional neural network", {"a", "b"})


def test_the_long_form_stays_where_no_paper_writes_the_lexicons_name():
    corpus = resolve([_paper("a", mention("dataset", "General Language Understanding "
                                                    "Evaluation", 0, 0.9))])
    [glue] = corpus.entities.values()
    assert glue.label == "General Language Understanding Evaluation"


def test_an_acronym_is_not_shortened_beside_its_own_words_spaced():
    # "CIFAR $10$" reads "CIFAR 10": the same name, which had named the node of 210 papers
    # over their "CIFAR-10" in the 16k build
    corpus = resolve([_paper(str(i), mention("dataset", "CIFAR-10", 0, 0.9)) for i in range(5)]
                     + [_paper("x", mention("dataset", "CIFAR 10", 0, 0.9))])
    [cifar] = corpus.entities.values()
    assert (cifar.label, len(cifar.papers)) == ("CIFAR-10", 6)
