"""Names written with their class word: a tagged dataset takes the class word after it in ("the
Caltech benchmark"), a capitalised word that alone only modifies is a dataset before it, and
the forms a bracket gives lose the class word too ("the BiDAF network" is BiDAF)."""

from __future__ import annotations

import spacy

from graph.extractors import mentions
from graph.extractors.candidates import Candidate
from graph.generic import drop_generic, is_generic_mention
from graph.model import Mention
from graph.nlp.tagging import Span
from graph.nlp.tagging_cutoffs import Cutoffs

CUTOFFS = Cutoffs(by_type={"dataset": 0.7}, rescue="same-span")


def _dataset(text: str, name: str, confidence: float = 0.9) -> Span:
    start = text.index(name)
    return Span(start, start + len(name), "dataset", confidence, confidence)


def test_a_tagged_dataset_takes_in_the_class_word_after_it():
    text = "We report results on the Caltech benchmark and on KITTI datasets."
    spans = [_dataset(text, "Caltech"), _dataset(text, "KITTI")]
    got = mentions.combine(text, spans, (), cutoffs=CUTOFFS)
    assert [(m.text, m.label, m.aliases) for m in got] == [
        ("Caltech benchmark", "Caltech", ("Caltech",)),
        ("KITTI datasets", "KITTI", ("KITTI",)),
    ]


def test_a_class_word_that_modifies_the_next_word_is_not_taken_in():
    text = "We use KITTI benchmark-based splits and KITTI benchmarking code."
    first, second = text.index("KITTI"), text.rindex("KITTI")
    spans = [Span(first, first + 5, "dataset", 0.9), Span(second, second + 5, "dataset", 0.9)]
    got = mentions.combine(text, spans, (), cutoffs=CUTOFFS)
    assert [m.text for m in got] == ["KITTI", "KITTI"]


def test_the_rules_whole_name_with_its_class_word_keeps_a_span_under_its_cutoff():
    text = "Using the Atari 2600 benchmarks, we show gains."
    whole = text.index("Atari 2600 benchmarks")
    cand = Candidate(type="dataset", start=whole, end=whole + 21, text="Atari 2600 benchmarks",
                     confidence=0.8, sources=("chunk",))
    unsure = [_dataset(text, "Atari 2600", confidence=0.65)]
    assert [m.text for m in mentions.combine(text, unsure, (cand,), cutoffs=CUTOFFS)] == [
        "Atari 2600 benchmarks"]
    # without the rules' whole name the unsure span goes, class word or not
    assert mentions.combine(text, unsure, (), cutoffs=CUTOFFS) == []


def _mention(text: str, name: str, label: str | None = None) -> Mention:
    start = text.index(name)
    return Mention(type="dataset", text=name, start=start, end=start + len(name),
                   extractor="x", confidence=0.9, label=label)


def test_a_modifier_word_is_a_dataset_before_its_class_word_but_not_alone():
    text = "Caltech Pedestrian is large. We test on the Caltech benchmark. Caltech benchmark runs."
    mid = text.index("the Caltech benchmark") + 4
    alone = _mention(text, "Caltech")
    written = Mention(type="dataset", text="Caltech benchmark", start=mid, end=mid + 17,
                      extractor="x", confidence=0.9, label="Caltech")
    assert is_generic_mention(alone)
    assert not is_generic_mention(written)
    # at a sentence's start the capital may be the sentence's: judged by its label as before
    assert is_generic_mention(written, sentence_start=True)
    # a field's name with a class word stays generic: judged by the words as written
    field = _mention("on an NLP benchmark", "NLP benchmark", label="NLP")
    assert is_generic_mention(field)
    doc = spacy.blank("en")(text)
    assert drop_generic([alone, written], doc) == [written]


def test_the_forms_a_bracket_gives_are_also_named_without_their_class_word():
    text = "We introduce the Bi-Directional Attention Flow (BiDAF) network for comprehension."
    name = "Bi-Directional Attention Flow (BiDAF) network"
    start = text.index(name)
    spans = [Span(start, start + len(name), "method", 0.9, 0.9)]
    [got] = mentions.combine(text, spans, (), cutoffs=CUTOFFS)
    assert got.label == "Bi-Directional Attention Flow network"
    assert got.aliases == ("BiDAF network", "Bi-Directional Attention Flow", "BiDAF")
