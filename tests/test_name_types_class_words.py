"""A method written with its class word is not the name before it (graph.extractors.name_types)."""

from graph.extractors import mentions
from graph.extractors.mentions import CLASS_WORDS
from graph.extractors.name_types import one_type_per_name
from graph.model import Paper, PaperExtraction
from graph.nlp.tagging import Span
from graph.nlp.tagging_cutoffs import Cutoffs
from graph.resolve import resolve
from tests.tagged_spans import mention

CUTOFFS = Cutoffs(by_type={"method": 0.5, "task": 0.5, "metric": 0.5}, rescue="same-span",
                  rule_types=())
WORDS = CLASS_WORDS["method"]


def test_models_for_a_task_do_not_outvote_the_task():
    found = [
        mention("task", "Grammatical Error Correction", 0, 0.8, aliases=("GEC",)),
        mention("task", "GEC", 30, 0.7, label="Grammatical Error Correction", aliases=("GEC",)),
        mention("method", "GEC models", 90, 0.9, aliases=("GEC",)),
        mention("method", "GEC model", 150, 0.9, aliases=("GEC",)),
    ]
    got = one_type_per_name(found, class_words=WORDS)
    assert [(m.type, m.aliases) for m in got] == [
        ("task", ("GEC",)), ("task", ("GEC",)), ("method", ()), ("method", ())]
    # without the class words, as before: one name, the methods' summed confidence wins
    assert [m.type for m in one_type_per_name(found)] == ["method"] * 4


def test_a_method_keeps_its_bare_name_where_nothing_else_is_named_so():
    found = [mention("method", "BERT model", 0, 0.9, aliases=("BERT",)),
             mention("method", "BERT", 40, 0.8),
             mention("task", "question answering", 60, 0.8)]
    got = one_type_per_name(found, class_words=WORDS)
    assert got == found


def test_the_bare_name_of_another_type_is_dropped_as_an_alias_only():
    found = [mention("task", "WSI", 0, 0.8, label="word sense induction", aliases=("WSI",)),
             mention("method", "WSI algorithm", 50, 0.96, aliases=("WSI",))]
    got = one_type_per_name(found, class_words=WORDS)
    assert [(m.type, m.text, m.aliases) for m in got] == [
        ("task", "WSI", ("WSI",)), ("method", "WSI algorithm", ())]
    # so the graph keeps the algorithm apart from the task it is for
    paper = Paper(key="p", abstract="", title="", id="p")
    corpus = resolve([PaperExtraction(paper=paper, mentions=got)])
    assert sorted((e.type, e.label) for e in corpus.entities.values()) == [
        ("method", "WSI algorithm"), ("task", "word sense induction")]


def test_combine_keeps_the_task_of_an_abstract_that_names_its_models():
    text = ("We study grammatical error correction (GEC). Recent GEC models rely on parallel "
            "corpora, and our GEC model does not.")
    at = text.index
    spans = [Span(at("grammatical"), at(" (GEC)"), "task", 0.8, 0.8),
             Span(at("GEC)"), at("GEC)") + 3, "task", 0.7, 0.7),
             Span(at("GEC models"), at("GEC models") + 10, "method", 0.9, 0.9),
             Span(at("GEC model "), at("GEC model ") + 9, "method", 0.9, 0.9)]
    got = mentions.combine(text, spans, (), cutoffs=CUTOFFS)
    assert [(m.text, m.type) for m in got] == [
        ("grammatical error correction", "task"), ("GEC", "task"),
        ("GEC models", "method"), ("GEC model", "method")]
    assert [m.aliases for m in got if m.type == "method"] == [(), ()]
