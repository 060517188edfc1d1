"""Names listed under a word for their kind (graph.extractors.lists), on made-up sentences."""

from __future__ import annotations

import pytest

from graph.extractors import candidates, decide, lexicon, lists
from graph.extractors.tokens import table


@pytest.fixture(scope="module")
def nlp():
    from graph.nlp import load

    return load()


def found(nlp, text: str) -> list[tuple[str, str, list[str], str | None]]:
    doc = nlp(text)
    t = table(doc)
    known = {(h.span.start, h.span.end): h.type for h in lexicon.find(doc)}
    return [
        (named.type, named.anchor, [t.span_text(s, e) for s, e in named.items],
         None if named.kind_after is None else t.text[named.kind_after])
        for named in lists.find(t, known)
    ]


def test_a_list_after_including_is_typed_by_the_kind_word_before_it(nlp):
    text = "We evaluate on three benchmarks including Zorbix-7, QRX2019 and FlorpNet."
    assert found(nlp, text) == [("dataset", "kind", ["Zorbix-7", "QRX2019", "FlorpNet"], None)]


def test_a_parenthesised_list_keeps_names_of_several_words(nlp):
    text = "Experiments on three face datasets (KWAK Album 3, TRV-VS and GL-NET) show gains."
    assert found(nlp, text) == [("dataset", "kind", ["KWAK Album 3", "TRV-VS", "GL-NET"], None)]


def test_a_list_before_the_kind_word_keeps_that_word(nlp):
    text = "Our model sets a new state of the art on the BLORP and Quixel benchmarks."
    assert found(nlp, text) == [("dataset", "kind", ["BLORP", "Quixel"], "benchmarks")]


def test_the_list_ends_with_the_name_after_and(nlp):
    text = "On two benchmarks, QQDB and ZAPPER SET, Face Q-NET reaches the best accuracy."
    assert found(nlp, text) == [("dataset", "kind", ["QQDB", "ZAPPER SET"], None)]


def test_known_names_lend_their_kind_to_an_unknown_one(nlp):
    text = "We report results on MNIST, CIFAR-10, Zentro and SVHN."
    assert found(nlp, text) == [
        ("dataset", "peers", ["MNIST", "CIFAR-10", "Zentro", "SVHN"], None)
    ]


def test_metrics_such_as(nlp):
    text = "We score the captions with metrics such as BLEU, Glimmer and CIDEr."
    assert found(nlp, text) == [("metric", "kind", ["BLEU", "Glimmer", "CIDEr"], None)]


def test_an_edition_year_is_no_name_and_the_kind_word_is_not_its_wording(nlp):
    text = "We train on the PASCAL VOC 2007 and 2012 datasets."
    assert found(nlp, text) == [("dataset", "kind", ["PASCAL VOC 2007"], None)]


def test_lists_of_other_kinds_and_names_inside_longer_names_are_left_alone(nlp):
    assert found(nlp, "We compare ResNet, VGG and Inception on image classification.") == []
    assert found(nlp, "Results on the Animals with Attributes and Caltech Birds datasets.") == []


def test_listed_names_get_the_kind_as_evidence_and_the_wording_as_an_alias(nlp):
    doc = nlp("Our model sets a new state of the art on the BLORP and Quixel benchmarks.")
    drafts = {d.text: d for d in candidates.drafts_of(doc)[0]}
    assert max(drafts["BLORP"].evidence["dataset"]) == pytest.approx(0.8)
    assert max(drafts["Quixel"].evidence["dataset"]) == pytest.approx(0.8)
    assert "Quixel benchmarks" in drafts["Quixel"].surface
    assert drafts["BLORP"].surface == []


def test_an_article_before_a_listed_name_is_skipped(nlp):
    text = "We train on CelebA, CIFAR-10, LSUN Bedrooms, and the One Gorp Word Benchmark."
    assert found(nlp, text) == [
        ("dataset", "peers", ["CelebA", "CIFAR-10", "LSUN Bedrooms", "One Gorp Word Benchmark"],
         None)
    ]


def test_a_name_typed_as_a_dataset_keeps_its_wording_with_the_kind_word(nlp):
    doc = nlp("We report the best accuracy on the ZORBLAX database so far.")
    drafts = {d.text: d for d in candidates.drafts_of(doc)[0]}
    assert "ZORBLAX database" in decide.aliases_as(drafts["ZORBLAX"], "dataset")
    # the kind word of another type is not the name's wording
    assert decide.aliases_as(drafts["ZORBLAX"], "method") == ()


def test_tasks_are_listed_as_phrases(nlp):
    text = "We evaluate the model on three tasks: glyph ordering, scene parsing and style transfer."
    assert found(nlp, text) == [
        ("task", "kind", ["glyph ordering", "scene parsing", "style transfer"], None)
    ]
    text = "It applies to many problems, including glyph ordering, and scene parsing."
    assert found(nlp, text) == [("task", "kind", ["glyph ordering", "scene parsing"], None)]


def test_an_adjective_sharing_the_last_tasks_head_noun_is_no_task(nlp):
    text = "The regularizer helps unsupervised and semi-supervised learning tasks alike."
    assert found(nlp, text) == [("task", "kind", ["semi-supervised learning"], "tasks")]


def test_a_task_word_is_no_word_for_tasks(nlp):
    # "segmentation" names a task; the names before it are not a list of tasks
    assert found(nlp, "We study Quux and Zorb segmentation in depth.") == []


def test_a_kind_word_read_as_an_adjective_still_gives_the_wording(nlp):
    doc = nlp("We report the AUC-100 metric on the test set.")
    t = table(doc)
    assert t.text[4] == "metric" and t.pos[4] == "ADJ"  # the tagger's reading this test needs
    drafts = {d.text: d for d in candidates.drafts_of(doc)[0]}
    assert "AUC-100 metric" in decide.aliases_as(drafts["AUC-100"], "metric")


def test_a_kind_word_read_as_a_verb_still_opens_its_list(nlp):
    # the parser reads "benchmarks" after "detection" as a verb
    text = "We obtain results on public face detection benchmarks like Zorbix and QQDB."
    doc = nlp(text)
    assert [x.pos_ for x in doc if x.text == "benchmarks"] == ["VERB"]
    assert found(nlp, text) == [("dataset", "kind", ["Zorbix", "QQDB"], None)]
    # a verb with no list after it types nothing
    assert found(nlp, "Our tool benchmarks Zorbix against QQDB.") == []
