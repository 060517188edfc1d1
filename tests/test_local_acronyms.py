"""One paper's acronym does not join two names of the graph (graph.resolve): an abstract that
defines "visual question answering (QA)" and elsewhere reads "QA" as "question answering", or
that writes "QA model" for its own QA, had joined visual, open-domain and plain question
answering into one node of 316 papers in the 16k build."""

from __future__ import annotations

from graph.model import Paper, PaperExtraction
from graph.resolve import resolve
from tests.tagged_spans import mention


def _paper(key: str, *mentions) -> PaperExtraction:
    return PaperExtraction(paper=Paper(key=key, abstract="", title=None, id=key),
                           mentions=list(mentions))


def _nodes(extractions) -> list[tuple[str, list[str]]]:
    return sorted((ref, sorted(e.papers)) for ref, e in resolve(extractions).entities.items())


# QA is defined with two long forms across the corpus, so each paper's QA is its own
PLAIN = [_paper(f"qa{i}", mention("task", "question answering (QA)", 0, 0.9,
                                  label="question answering", aliases=("QA",)))
         for i in range(2)]


def test_an_acronym_read_two_ways_in_one_paper_stays_with_its_definition():
    visual = _paper("v", mention("task", "visual question answering (QA)", 0, 0.9,
                                 label="visual question answering", aliases=("QA",)),
                    mention("task", "QA", 60, 0.8, label="question answering", aliases=("QA",)))
    assert _nodes([*PLAIN, visual]) == [
        ("task/question-answering", ["qa0", "qa1", "v"]),
        ("task/visual-question-answering", ["v"])]


def test_an_acronym_with_its_class_word_is_as_local_as_the_acronym():
    open_domain = _paper("o", mention("task", "open-domain question answering (QA)", 0, 0.9,
                                      label="open-domain question answering", aliases=("QA",)),
                         mention("method", "QA model", 60, 0.8, aliases=("QA",)))
    # another paper's "QA model", with its own QA, is the other end of the bridge
    system = _paper("s", mention("task", "question answering (QA)", 0, 0.9,
                                 label="question answering", aliases=("QA",)),
                    mention("method", "QA model", 60, 0.8, aliases=("QA",)))
    nodes = dict(_nodes([*PLAIN, open_domain, system]))
    assert nodes["task/open-domain-question-answering"] == ["o"]
    assert "o" not in nodes["task/question-answering"]

