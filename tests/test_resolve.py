from hypothesis import given, settings
from hypothesis import strategies as st

from graph.model import Entity, Mention, Paper, PaperExtraction
from graph.resolve import is_acronym, merge_key, resolve


def mention(kind, text, *, label=None, aliases=(), confidence=0.9):
    return Mention(kind, text, 0, len(text), "test.v1", confidence, label=label, aliases=aliases)


def paper(key, *mentions):
    return PaperExtraction(Paper(key, f"abstract {key}"), list(mentions))


def test_acronym_definition_links_undefined_uses_in_other_papers():
    resolved = resolve([
        paper("a", mention("method", "Free decompression", aliases=("FD",))),
        paper("b", mention("method", "FD")),
    ])
    entity = resolved.entities["method/free-decompression"]
    assert entity.label == "Free decompression"
    assert entity.aliases == {"FD"}
    assert entity.papers == {"a", "b"}
    assert resolved.links == {"a": ["method/free-decompression"], "b": ["method/free-decompression"]}


def test_ambiguous_acronym_stays_with_its_own_definitions():
    resolved = resolve([
        paper("a", mention("method", "Policy Search", aliases=("PS",)), mention("method", "PS")),
        paper("b", mention("method", "Power Sampling", aliases=("PS",)), mention("method", "PS")),
        paper("c", mention("method", "PS")),
    ])
    assert resolved.links["a"] == ["method/policy-search", "method/policy-search"]
    assert resolved.links["b"] == ["method/power-sampling", "method/power-sampling"]
    assert resolved.links["c"] == ["method/ps"]
    assert resolved.entities["method/ps"].papers == {"c"}


def test_spelling_and_plural_variants_are_one_entity():
    resolved = resolve([
        paper("a", mention("dataset", "CIFAR-10"), mention("method", "graph neural networks")),
        paper("b", mention("dataset", "CIFAR10"), mention("method", "Graph Neural Network")),
    ])
    assert set(resolved.entities) == {"dataset/cifar-10", "method/graph-neural-network"}
    assert resolved.entities["dataset/cifar-10"].aliases == {"CIFAR10"}
    assert resolved.entities["dataset/cifar-10"].support == 2
    # A plural is not worth an alias.
    assert resolved.entities["method/graph-neural-network"].aliases == set()


def test_type_is_decided_by_confidence_votes():
    resolved = resolve([
        paper("a", mention("model", "BERT", confidence=0.9)),
        paper("b", mention("method", "BERT", confidence=0.4)),
        paper("c", mention("model", "BERT", confidence=0.8)),
    ])
    assert list(resolved.entities) == ["model/bert"]
    assert resolved.links["b"] == ["model/bert"]


def test_domains_and_claims_are_not_entities():
    resolved = resolve([paper("a", mention("domain", "vision", label="computer-vision"),
                              mention("claim", "We show X."), mention("task", "segmentation"))])
    assert resolved.links["a"] == [None, None, "task/segmentation"]
    assert list(resolved.entities) == ["task/segmentation"]


def test_known_entities_keep_their_iri_and_gain_support():
    known = {"method/free-decompression": Entity("method", "free-decompression",
                                                 "Free decompression", {"FD"}, {"old"})}
    resolved = resolve([paper("new", mention("method", "FD"))], known=known)
    entity = resolved.entities["method/free-decompression"]
    assert entity.papers == {"old", "new"}
    assert resolved.links["new"] == ["method/free-decompression"]


def test_acronym_detection():
    assert is_acronym("FD") and is_acronym("GANs") and is_acronym("RL-PPO")
    assert not is_acronym("Transformer") and not is_acronym("graph network")
    assert merge_key("Graph Neural Networks") == merge_key("graph-neural network")


NAMES = ["Free decompression", "FD", "free decompressions", "CIFAR-10", "CIFAR10", "ImageNet",
         "Policy Search", "PS", "Power Sampling", "BERT", "graph neural networks", "GNN"]


@st.composite
def corpora(draw):
    papers = []
    for index in range(draw(st.integers(1, 5))):
        mentions = []
        for _ in range(draw(st.integers(0, 4))):
            text = draw(st.sampled_from(NAMES))
            aliases = tuple(draw(st.lists(st.sampled_from(["FD", "PS", "GNN"]), max_size=1)))
            kind = draw(st.sampled_from(["method", "dataset", "model"]))
            mentions.append(mention(kind, text, aliases=aliases if not is_acronym(text) else ()))
        papers.append(paper(f"p{index}", *mentions))
    return papers


@settings(max_examples=60, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_resolution_does_not_depend_on_order(papers, random):
    shuffled = [PaperExtraction(p.paper, random.sample(p.mentions, len(p.mentions))) for p in papers]
    random.shuffle(shuffled)
    first, second = resolve(papers), resolve(shuffled)
    assert first.entities == second.entities
    for key, extraction in first.extractions.items():
        by_mention = dict(zip(map(id, extraction.mentions), first.links[key]))
        reordered = second.extractions[key]
        for m, ref in zip(reordered.mentions, second.links[key]):
            assert by_mention[id(m)] == ref
