"""One node for the forms of one name; qualified dataset names stay whole and link to their
family with skos:broader, in a build and through adding and removing papers."""

from __future__ import annotations

import pytest
from pyoxigraph import DefaultGraph, NamedNode, Quad

from graph.build.incremental import add_papers, remove_paper
from graph.model import Mention, Paper, PaperExtraction
from graph.name_forms import bare_name, form_tokens, network_stem
from graph.rdf import entity_quads
from graph.resolve import families, merge_key, resolve
from graph.slug import slugify
from graph.store import EmbeddedStore
from tests.scale.graphs import BASE, corpus_quads

BROADER = NamedNode("http://www.w3.org/2004/02/skos/core#broader")


def _paper(key: str, *names: tuple[str, str], aliases: dict[str, tuple[str, ...]] | None = None):
    text = " ; ".join(name for _, name in names) + "."
    mentions, at = [], 0
    for kind, name in names:
        start = text.index(name, at)
        mentions.append(Mention(kind, name, start, start + len(name), "test.v1", 0.9,
                                aliases=(aliases or {}).get(name, ())))
        at = start + len(name)
    return PaperExtraction(Paper(key, text), mentions)


def _node(ref: str) -> NamedNode:
    return NamedNode(BASE + ref)


def _broader(ref: str, family: str) -> Quad:
    return Quad(_node(ref), BROADER, _node(family), DefaultGraph())


def test_forms_of_years_and_language_pairs():
    assert form_tokens("wmt'14 en de") == ["wmt", "14", "en", "de"]
    assert form_tokens("wmt 2014 english german") == ["wmt", "14", "en", "de"]
    assert form_tokens("ilsvrc2012") == ["ilsvrc", "12"]
    assert form_tokens("english") == ["english"]  # a language alone is not a pair
    assert network_stem(["recurrent", "neural", "network"]) == ["recurrent", "\u00b7net"]
    assert network_stem(["neural", "network"]) == ["neural", "network"]
    assert network_stem(["network"]) == ["network"]


@pytest.mark.parametrize("names", [
    ("recurrent models", "recurrent networks", "recurrent neural networks", "recurrent nets"),
    ("ILSVRC-12", "ILSVRC2012", "ILSVRC 2012", "ImageNet"),
    ("WMT'14 En-De", "WMT 2014 English–German", "WMT14 English-German"),
])
def test_variants_share_a_merge_key_or_a_lexicon_entry(names):
    resolved = resolve([_paper(f"p{i}", ("dataset", name)) for i, name in enumerate(names)])
    assert len(resolved.entities) == 1, resolved.entities


def test_recurrent_forms_are_one_method_named_by_the_lexicon_form():
    resolved = resolve([
        _paper("a", ("method", "recurrent neural networks"),
               aliases={"recurrent neural networks": ("RNNs",)}),
        _paper("b", ("method", "recurrent models")),
        _paper("c", ("method", "recurrent networks")),
        _paper("d", ("method", "RNNs")),
    ])
    assert list(resolved.entities) == ["method/recurrent-neural-networks"]
    entity = resolved.entities["method/recurrent-neural-networks"]
    assert entity.papers == {"a", "b", "c", "d"}
    assert entity.aliases == {"RNNs", "recurrent models", "recurrent networks"}


def test_different_heads_of_different_names_stay_apart():
    assert merge_key("language model") != merge_key("large language model")
    assert merge_key("CIFAR-10") != merge_key("CIFAR-100")
    assert merge_key("graph neural network") == merge_key("graph networks")


@pytest.mark.parametrize(("name", "bare"), [
    ("BERT model", "BERT"), ("BERT neural network", "BERT"), ("GPT-2 models", "GPT-2"),
    ("COCO dataset", "COCO"), ("CIFAR-10 data set", "CIFAR-10"), ("KITTI benchmark", "KITTI"),
    ("BLEU score", "BLEU"), ("F1 scores", "F1"), ("NER task", "NER"),
    ("recurrent model", None), ("Hidden Markov model", None), ("Siamese network", None),
    ("Penn Treebank dataset", None), ("BERT", None), ("model", None),
    ("benchmark CIFAR-10", "CIFAR-10"), ("dataset RVL-CDIP", "RVL-CDIP"),
    ("Benchmarks MPII Human Pose", "MPII Human Pose"), ("Dataset 2", None),
    ("corpus of text", None), ("Database Systems", None), ("model A", None),
])
def test_a_name_before_a_class_word_is_the_name_where_its_form_says_name(name, bare):
    assert bare_name(name) == bare


def test_a_name_and_the_name_with_its_class_word_are_one_node_named_without_it():
    resolved = resolve([
        _paper("a", ("model", "BERT model"), ("dataset", "COCO dataset")),
        _paper("b", ("model", "BERT model"), ("dataset", "COCO dataset")),
        _paper("c", ("model", "BERT"), ("dataset", "COCO"), ("metric", "BLEU score")),
        _paper("d", ("metric", "BLEU"), ("method", "recurrent model")),
    ])
    assert sorted(resolved.entities) == ["dataset/coco", "method/recurrent-model",
                                         "metric/bleu", "model/bert"]
    bert = resolved.entities["model/bert"]
    assert (bert.label, bert.aliases, bert.papers) == ("BERT", {"BERT model"}, {"a", "b", "c"})
    assert resolved.entities["dataset/coco"].aliases == {"COCO dataset"}
    assert resolved.entities["metric/bleu"].papers == {"c", "d"}


def _ccs_and_users(users: int) -> list[PaperExtraction]:
    return [_paper("a", ("method", "Contrastive Context Sharing"), ("dataset", "COCO"),
                   aliases={"Contrastive Context Sharing": ("COCO",)}),
            *(_paper(f"u{i}", ("dataset", "COCO")) for i in range(users))]


def test_one_papers_meaning_of_a_common_acronym_stays_in_that_paper():
    resolved = resolve(_ccs_and_users(10))
    assert sorted(resolved.entities) == ["dataset/coco", "method/contrastive-context-sharing"]
    assert resolved.entities["dataset/coco"].papers == {f"u{i}" for i in range(10)}
    assert resolved.entities["method/contrastive-context-sharing"].papers == {"a"}
    assert resolved.links["a"] == ["method/contrastive-context-sharing"] * 2


def test_an_acronym_defined_once_and_used_by_a_few_others_takes_the_definition():
    resolved = resolve(_ccs_and_users(9))  # (typed by the votes of its mentions)
    assert sorted(resolved.entities) == ["dataset/contrastive-context-sharing"]
    assert resolved.entities["dataset/contrastive-context-sharing"].papers == \
        {"a", *(f"u{i}" for i in range(9))}


def test_added_papers_keep_a_common_acronyms_meaning_as_a_full_build_does():
    full = resolve(_ccs_and_users(12))
    first = resolve(_ccs_and_users(11))
    added = resolve([_paper("u11", ("dataset", "COCO"))], known=first.entities)
    assert added.links["u11"] == full.links["u11"] == ["dataset/coco"]


def test_a_name_is_labelled_by_its_commonest_case_unless_a_long_form_is_there():
    resolved = resolve([_paper("a", ("dataset", "KITTI")), _paper("b", ("dataset", "KITTI")),
                        _paper("c", ("dataset", "Kitti"))])
    assert [e.label for e in resolved.entities.values()] == ["KITTI"]
    # a name that holds the acronym is no long form of it; one that does not is
    resolved = resolve([*(_paper(k, ("dataset", "COCO")) for k in "abd"),
                        _paper("c", ("dataset", "COCO detection"),
                               aliases={"COCO detection": ("COCO",)})])
    assert [e.label for e in resolved.entities.values()] == ["COCO"]
    resolved = resolve([*(_paper(k, ("method", "CNN")) for k in "abd"),
                        _paper("c", ("method", "convolutional neural network"),
                               aliases={"convolutional neural network": ("CNN",)})])
    assert [e.label for e in resolved.entities.values()] == ["convolutional neural network"]


def test_qualified_dataset_stays_whole_and_links_to_its_family():
    resolved = resolve([
        _paper("a", ("dataset", "IWSLT 2016 English–German"), ("dataset", "IWSLT")),
        _paper("b", ("dataset", "WMT 2016 English–Romanian"), ("dataset", "WMT")),
        _paper("c", ("dataset", "WMT'16")),
        _paper("d", ("dataset", "CIFAR-10"), ("method", "IWSLT 2017")),
    ])
    refs = sorted(resolved.entities)
    wmt16 = "dataset/" + slugify("WMT'16")
    assert "dataset/iwslt-2016-english-german" in refs and "dataset/iwslt" in refs
    assert families(resolved.entities) == {
        "dataset/iwslt-2016-english-german": "dataset/iwslt",
        "dataset/wmt-2016-english-romanian": wmt16,
        wmt16: "dataset/wmt",
    }
    quads = entity_quads(resolved.entities["dataset/iwslt-2016-english-german"], base=BASE)
    assert _broader("dataset/iwslt-2016-english-german", "dataset/iwslt") in quads
    assert not [q for q in entity_quads(resolved.entities["dataset/iwslt"], base=BASE)
                if q.predicate == BROADER]


@pytest.fixture
def store(tmp_path):
    opened = EmbeddedStore(str(tmp_path / "store"))
    yield opened
    opened.close()


def _extract_from(extractions):
    by_key = {e.paper.key: e for e in extractions}
    return lambda papers: [by_key[p.key] for p in papers]


def _broader_quads(store) -> set[Quad]:
    # the taxonomy's own hierarchy (domain/...) is not what these tests are about
    return {q for q in store.quads()
            if q.predicate == BROADER and q.subject.value.startswith(BASE + "dataset/")}


def test_broader_stays_right_as_papers_come_and_go(store):
    edition = _paper("a", ("dataset", "IWSLT 2016 English–German"))
    family = _paper("b", ("dataset", "IWSLT"))
    link = _broader("dataset/iwslt-2016-english-german", "dataset/iwslt")

    store.replace_all(corpus_quads([edition]))
    assert _broader_quads(store) == set()
    # the family arrives after its edition
    add_papers(store, [family.paper], base=BASE, extract=_extract_from([family]))
    assert _broader_quads(store) == {link}
    assert set(store.quads()) == set(corpus_quads([edition, family]))
    # the family leaves: no link to a node that is gone
    assert remove_paper(store, "b", base=BASE)
    assert _broader_quads(store) == set()
    assert set(store.quads()) == set(corpus_quads([edition]))
    # the edition arrives under a stored family, then leaves
    store.replace_all(corpus_quads([family]))
    add_papers(store, [edition.paper], base=BASE, extract=_extract_from([edition]))
    assert _broader_quads(store) == {link}
    assert remove_paper(store, "a", base=BASE)
    assert _broader_quads(store) == set()
    assert set(store.quads()) == set(corpus_quads([family]))
