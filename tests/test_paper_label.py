from graph.model import Mention, Paper, PaperExtraction
from graph.rdf import paper_label


def mention(text, start, *, proposed=True, confidence=0.8):
    return Mention("method", text, start, start + len(text), "methods.v1", confidence,
                   proposed=proposed)


def test_title_wins():
    paper = PaperExtraction(Paper("k", "We propose GFN.", title="A Title"), [mention("GFN", 11)])
    assert paper_label(paper, ["method/gfn"]) == "A Title"


def test_the_coined_name_wins_over_a_description():
    text = "We derive bound propagation and present GFN, a solver. GFN is fast."
    paper = PaperExtraction(Paper("k", text), [
        mention("bound propagation", 10, confidence=0.9),
        mention("GFN", 40, confidence=0.7),
        mention("GFN", 55, proposed=False),
    ])
    assert paper_label(paper, ["method/bound-propagation", "method/gfn", "method/gfn"]) == "GFN"


def test_without_a_proposal_the_first_words():
    paper = PaperExtraction(Paper("k", "Graphs are everywhere in science and beyond it."), [])
    assert paper_label(paper, []).startswith("Graphs are everywhere")
