"""Claim sentences (graph.extractors.claims) and the numbers they report (extractors.results)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from graph import nlp as nlp_loader
from graph.extractors import claim_model, claims
from graph.extractors.results import find_quantities, results_in


@pytest.fixture(scope="module")
def nlp():
    return nlp_loader.load()


SEGMENTATION = (
    "Semantic segmentation of aerial scenes is a core problem in computer vision. Existing "
    "methods struggle with thin structures. We propose StripeNet, a segmentation network with "
    "direction-aware pooling. On the Vaihingen benchmark, StripeNet improves mIoU from 71.2 to "
    "74.9 and runs 2.3$\\times$ faster than DeepLab."
)
THEORY = (
    "Stochastic gradient descent is widely used to train overparameterized models. We prove "
    "that, for smooth nonconvex objectives, a variant with adaptive step sizes converges to a "
    "stationary point at the optimal rate. We further establish a matching lower bound on the "
    "oracle complexity."
)
NO_NUMBERS = (
    "Protein structure prediction has long been a challenge in computational biology. In this "
    "work we present a graph neural network that reasons over residue contacts. Our model "
    "outperforms previous methods on held-out protein families."
)
DESCRIPTION = (
    "Existing retrieval models fail on long documents. We propose ChunkRank, a hierarchical "
    "ranker for long documents. We then aggregate the chunk scores with a learned pooling layer. "
    "The encoder is shared across chunks. ChunkRank outperforms strong baselines on three "
    "collections while using 42% less memory."
)


@pytest.fixture
def rules_only(monkeypatch):
    """The hand-written rules alone, as with PAPERKG_CLAIM_MODEL=off."""
    monkeypatch.setenv(claim_model.ENV_SWITCH, "off")
    claim_model.shipped.cache_clear()
    yield
    claim_model.shipped.cache_clear()


def _claims(nlp, text: str):
    return claims.extract(nlp(text))


def _sentences(text: str, mentions) -> list[tuple[str, str]]:
    return [(text[m.start : m.end], m.claim_kind) for m in mentions]


def test_contribution_and_empirical_claims_with_results(nlp):
    mentions = _claims(nlp, SEGMENTATION)
    assert _sentences(SEGMENTATION, mentions) == [
        (
            "We propose StripeNet, a segmentation network with direction-aware pooling.",
            "contribution",
        ),
        (
            "On the Vaihingen benchmark, StripeNet improves mIoU from 71.2 to 74.9 and runs "
            "2.3$\\times$ faster than DeepLab.",
            "empirical",
        ),
    ]
    contribution, empirical = mentions
    assert contribution.results == ()
    assert all(m.type == "claim" and m.extractor == "claims.v1" for m in mentions)
    assert all(m.text == SEGMENTATION[m.start : m.end] for m in mentions)
    first, second = empirical.results
    # "from A to B": one Result, B, whose baseline is A
    assert (first.value, first.text, first.unit, first.metric, first.dataset, first.baseline) == (
        Decimal("74.9"),
        "74.9",
        None,
        "mIoU",
        "Vaihingen",
        "71.2",
    )
    assert SEGMENTATION[first.start : first.end] == "74.9"
    assert (second.value, second.text, second.unit, second.metric, second.baseline) == (
        Decimal("2.3"),
        "2.3$\\times$",
        "×",
        "speedup",
        "DeepLab",
    )
    assert SEGMENTATION[second.start : second.end] == "2.3$\\times$"


def test_background_sentences_are_not_claims(nlp):
    texts = [m.text for m in _claims(nlp, SEGMENTATION)]
    assert not any(t.startswith(("Semantic segmentation of", "Existing methods")) for t in texts)
    assert (
        _claims(
            nlp,
            "Transformers are widely used in language processing. Existing methods "
            "fail to scale to long inputs.",
        )
        == []
    )


def test_theoretical_claims(nlp):
    mentions = _claims(nlp, THEORY)
    assert [m.claim_kind for m in mentions] == ["theoretical", "theoretical"]
    assert mentions[0].text.startswith("We prove that")
    assert mentions[1].text == (
        "We further establish a matching lower bound on the oracle complexity."
    )
    assert all(m.results == () for m in mentions)


def test_paper_without_numbers(nlp, rules_only):
    mentions = _claims(nlp, NO_NUMBERS)
    assert _sentences(NO_NUMBERS, mentions) == [
        (
            "In this work we present a graph neural network that reasons over residue contacts.",
            "contribution",
        ),
        ("Our model outperforms previous methods on held-out protein families.", "empirical"),
    ]
    assert all(m.results == () for m in mentions)


def test_method_description_is_not_a_claim(nlp, rules_only):
    mentions = _claims(nlp, DESCRIPTION)
    assert [m.claim_kind for m in mentions] == ["contribution", "empirical"]
    assert mentions[1].text.startswith("ChunkRank outperforms")  # the paper's own name anchors it
    (result,) = mentions[1].results
    assert (result.value, result.text, result.unit) == (Decimal("42"), "42%", "%")


def test_span_has_no_trailing_whitespace(nlp, rules_only):
    text = "We introduce a sparse attention kernel.   \n\n"
    (mention,) = _claims(nlp, text)
    assert mention.text == "We introduce a sparse attention kernel."
    assert mention.end == mention.start + len(mention.text)


# ---------------------------------------------------------------------------- numbers


def _q(text: str) -> list[tuple[str, Decimal, str | None]]:
    return [(q.text, q.value, q.unit) for q in find_quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a gain of 21% overall", [("21%", Decimal("21"), "%")]),
        ("up to 5.7\\% higher", [("5.7\\%", Decimal("5.7"), "%")]),
        ("an error of $4.4$ on average", [("$4.4$", Decimal("4.4"), None)]),
        ("runs 1.5$\\times$ faster", [("1.5$\\times$", Decimal("1.5"), "×")]),
        ("runs $1.5\\times$ faster", [("$1.5\\times$", Decimal("1.5"), "×")]),
        (
            "a 3x speedup and a 2.5× gain",
            [("3x", Decimal("3"), "x"), ("2.5×", Decimal("2.5"), "×")],
        ),
        (
            "in 3 seconds and 12 ms",
            [("3 seconds", Decimal("3"), "s"), ("12 ms", Decimal("12"), "ms")],
        ),
        (
            "from 42M to 1.6B parameters",
            [("42M", Decimal("42"), "M"), ("1.6B", Decimal("1.6"), "B")],
        ),
        ("1,024 GPUs", [("1,024", Decimal("1024"), None)]),
        ("by 2.1 points", [("2.1 points", Decimal("2.1"), "points")]),
        (
            "a millionfold and a hundredfold",
            [("millionfold", Decimal(10**6), "×"), ("hundredfold", Decimal(100), "×")],
        ),
        (
            "one billion words in ten minutes",
            [("one billion", Decimal(1), "B"), ("ten minutes", Decimal(10), "min")],
        ),
        ("+0.9dB PSNR", [("0.9dB", Decimal("0.9"), "dB")]),
        ("secured 2nd place", [("2nd place", Decimal(2), "place")]),
    ],
)
def test_quantity_forms(text, expected):
    assert _q(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "several orders of magnitude faster",
        "ResNet-50 and CIFAR-10 with top-1 and Hits@10",
        "on VOC 2007 and Atari 2600 since 2017",
        "as shown in Table 3 and [12, 14]",
        "3D shapes in 512x512 images with 3 × 3 kernels",
        "(1) we collect data; 2) we train",
    ],
)
def test_names_years_references_and_sizes_are_not_quantities(text):
    assert find_quantities(text) == []


def test_result_offsets_and_context():
    sentence = "It reaches 84.1% top-1 accuracy on ImageNet with ViT-B/16, 2.4 points over DeiT."
    offset = 100
    first, second = results_in(sentence, offset)
    assert (first.text, first.start, first.end) == ("84.1%", 111, 116)
    assert (first.metric, first.dataset, first.model) == ("top-1 accuracy", "ImageNet", "ViT-B/16")
    assert (second.value, second.unit, second.baseline) == (Decimal("2.4"), "points", "DeiT")


def test_improvement_from_a_to_b_keeps_the_baseline():
    (result,) = results_in("Our sampler reduces FID from 8.26 to 6.27 on ImageNet-256.")
    assert (result.value, result.metric, result.baseline, result.dataset) == (
        Decimal("6.27"),
        "FID",
        "8.26",
        "ImageNet-256",
    )


VERITAS = (
    "Large language models often hallucinate facts. We propose Veritas, a contrastive decoding "
    "method for factual generation. On TruthfulQA, Veritas raises truthfulness from 41.2% to "
    "58.7% with Llama 2 13B."
)


def test_a_plain_capitalised_name_the_paper_coins_anchors_its_results(nlp):
    mentions = _claims(nlp, VERITAS)
    kinds = [(m.claim_kind, m.text.split(",")[0]) for m in mentions]
    assert kinds == [("contribution", "We propose Veritas"), ("empirical", "On TruthfulQA")]
    # the "13B" of the model's name is part of the name, not a result
    assert [r.text for r in mentions[1].results] == ["41.2%", "58.7%"]


@pytest.mark.parametrize(
    "sentence",
    [
        "ReasoNet wins.", "ReasoNets win.", "ReasoNet's gain.", "ReasoNet’s gain.",
        "The ReasoNet-2 model.", "Pre-ReasoNet is old.", "ReasoNetwork is another.",
        "xReasoNet", "(ReasoNet)", "ReasoNet", "ReasoNets's", "ReasoNet_s", "ReasoNet'",
        "ReasoNet, ReasoNetX and ReasoNet.", "ReasoNetX then ReasoNet", "ReasoNetés",
        "ReasoNet9", "A ReasoNet s", "", "Reaso",
    ],
)
def test_a_name_is_found_as_the_regular_expression_finds_it(sentence):
    import re

    from graph.extractors.claims import mentions_name

    name = "ReasoNet"
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?:s|'s|’s)?(?![\w-])")
    assert mentions_name(sentence, name) == bool(pattern.search(sentence))
