"""Research-area taxonomy (data/taxonomy.ttl, graph.taxonomy) and the domain extractor."""

from __future__ import annotations

import pytest

from graph import nlp as nlp_loader
from graph import taxonomy
from graph.errors import InputError
from graph.extractors import domains

#: Slugs that the gold set uses; the taxonomy must keep every one.
GOLD_SLUGS = (
    "machine-learning deep-learning computer-vision natural-language-processing speech-and-audio "
    "reinforcement-learning robotics graph-learning generative-models optimization learning-theory "
    "probabilistic-methods information-retrieval recommender-systems multimodal-learning "
    "medical-imaging time-series knowledge-graphs data-mining security-and-privacy "
    "fairness-and-ethics hci computational-biology physical-sciences neuroscience "
    "theory-of-computation systems-and-efficiency datasets-and-benchmarks multi-agent-systems "
    "question-answering machine-translation object-detection semantic-segmentation "
    "image-generation representation-learning transfer-learning few-shot-learning "
    "self-supervised-learning adversarial-robustness interpretability"
).split()


@pytest.fixture(scope="module")
def nlp():
    return nlp_loader.load()


@pytest.fixture(scope="module")
def tax() -> taxonomy.Taxonomy:
    return taxonomy.load()


# ---------------------------------------------------------------------------- taxonomy


def test_taxonomy_has_every_gold_slug(tax):
    assert [slug for slug in GOLD_SLUGS if slug not in tax] == []


def test_every_concept_has_a_pref_label_and_existing_broader(tax):
    for concept in tax:
        assert concept.pref_label.strip(), concept.slug
        for parent in concept.broader:
            assert parent in tax, (concept.slug, parent)


def test_roots_are_top_concepts_and_hierarchy_is_acyclic(tax):
    roots = tax.top_concepts()
    assert "machine-learning" in roots and "computer-vision" in roots
    assert "deep-learning" not in roots
    for concept in tax:
        assert concept.slug not in tax.ancestors(concept.slug)
        # every concept reaches a root
        assert concept.is_top or any(a in roots for a in tax.ancestors(concept.slug))


def test_broader_narrower_and_closure(tax):
    assert tax.broader("few-shot-learning") == ("transfer-learning",)
    assert "few-shot-learning" in tax.narrower("transfer-learning")
    assert tax.ancestors("few-shot-learning") == {"transfer-learning", "machine-learning"}
    assert "object-detection" in tax.descendants("computer-vision")


def test_is_broader_or_narrower(tax):
    assert taxonomy.is_broader_or_narrower("machine-learning", "few-shot-learning")
    assert taxonomy.is_broader_or_narrower("few-shot-learning", "machine-learning")
    assert taxonomy.is_broader_or_narrower("question-answering", "question-answering")
    # medical imaging sits under both vision and health
    assert tax.is_broader_or_narrower("medical-imaging", "computer-vision")
    assert tax.is_broader_or_narrower("health-and-medicine", "medical-imaging")
    assert not tax.is_broader_or_narrower("computer-vision", "question-answering")
    assert not tax.is_broader_or_narrower("object-detection", "semantic-segmentation")
    assert not tax.is_broader_or_narrower("no-such-area", "computer-vision")


def test_arxiv_categories_come_from_matches(tax):
    assert tax["machine-learning"].arxiv == ("cs.LG", "stat.ML")
    assert tax["computer-vision"].arxiv == ("cs.CV",)
    assert tax["natural-language-processing"].arxiv == ("cs.CL",)


def test_cue_labels_are_not_shared_between_concepts(tax):
    owners: dict[str, str] = {}
    for concept in tax:
        for label in concept.alt_labels + concept.hidden_labels:
            key = label if label != label.lower() else label.lower()
            assert owners.setdefault(key, concept.slug) == concept.slug, label


def test_broken_taxonomy_names_the_file(tmp_path):
    bad = tmp_path / "tax.ttl"
    bad.write_text(
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
        "@prefix pkg: <https://w3id.org/paperkg/ns#> .\n"
        "<https://example.org/domain/a> a skos:Concept ; skos:inScheme pkg:Domains ;\n"
        '  skos:prefLabel "A" ; skos:broader <https://example.org/domain/missing> .\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"tax\.ttl.*'a'.*'missing'"):
        taxonomy.parse(bad)
    bad.write_text("this is not turtle", encoding="utf-8")
    with pytest.raises(InputError, match=r"tax\.ttl"):
        taxonomy.parse(bad)


def test_slugs_follow_the_last_iri_segment_whatever_the_base(tmp_path):
    ttl = tmp_path / "tax.ttl"
    ttl.write_text(
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
        "@prefix pkg: <https://w3id.org/paperkg/ns#> .\n"
        "<https://kg.example.org/id/domain/vision> a skos:Concept ; skos:inScheme pkg:Domains ;\n"
        '  skos:prefLabel "Vision"@en ; skos:topConceptOf pkg:Domains .\n'
        "<https://kg.example.org/id/domain/detection> a skos:Concept ;\n"
        "  skos:inScheme pkg:Domains ;\n"
        '  skos:prefLabel "Detection"@en ; skos:altLabel "object detection"@en ;\n'
        "  skos:broader <https://kg.example.org/id/domain/vision> .\n",
        encoding="utf-8",
    )
    tax = taxonomy.parse(ttl)
    assert sorted(c.slug for c in tax) == ["detection", "vision"]
    assert tax["detection"].alt_labels == ("object detection",)
    assert tax.is_broader_or_narrower("vision", "detection")


# ---------------------------------------------------------------------------- extractor


SEGMENTATION = (
    "Semantic segmentation of aerial scenes is a core problem in computer vision. Existing "
    "methods struggle with thin structures. We propose StripeNet, a segmentation network with "
    "direction-aware pooling. On the Vaihingen benchmark, StripeNet improves mIoU from 71.2 to "
    "74.9 and runs 2.3$\\times$ faster than DeepLab."
)
TRANSLATION = (
    "Neural machine translation systems degrade on low-resource language pairs. We present a "
    "data augmentation scheme based on back-translation. Our approach improves BLEU by 2.1 points "
    "over a strong Transformer baseline on WMT English-German."
)
PROTEINS = (
    "Protein structure prediction has long been a challenge in computational biology. In this "
    "work we present a graph neural network that reasons over residue contacts. Our model "
    "outperforms previous methods on held-out protein families."
)
NEW_BENCHMARK = (
    "Spoken dialogue agents are rarely evaluated on noisy speech. We introduce a new benchmark "
    "of 4,000 recorded conversations with transcripts and intent labels, and evaluate ten "
    "speech recognition systems on it."
)


def _labels(nlp, text: str) -> list[str]:
    return [m.label for m in domains.rule_areas(nlp(text))]


def test_vision_paper_gets_its_field_and_subfield(nlp):
    mentions = domains.rule_areas(nlp(SEGMENTATION))
    assert [m.label for m in mentions] == ["computer-vision", "semantic-segmentation"]
    first = mentions[0]
    assert (first.type, first.text, first.extractor) == ("domain", "computer vision", "domains.v1")
    assert SEGMENTATION[first.start : first.end] == "computer vision"
    assert SEGMENTATION[mentions[1].start : mentions[1].end] == "Semantic segmentation"
    assert all(0.3 < m.confidence <= 0.95 for m in mentions)


def test_translation_paper(nlp):
    mentions = domains.rule_areas(nlp(TRANSLATION))
    assert [m.label for m in mentions] == ["machine-translation"]
    assert mentions[0].text == "Neural machine translation"


def test_background_field_does_not_outrank_the_papers_own(nlp):
    # computational biology is named in a background sentence, the GNN in the contribution
    labels = _labels(nlp, PROTEINS)
    assert labels[0] == "computational-biology"
    assert set(labels) <= {"computational-biology", "graph-learning"}


def test_contributed_benchmark_is_a_datasets_paper(nlp):
    labels = _labels(nlp, NEW_BENCHMARK)
    assert "datasets-and-benchmarks" in labels
    assert "speech-and-audio" in labels


def test_using_a_benchmark_is_not_a_datasets_paper(nlp):
    labels = _labels(nlp, TRANSLATION.replace("on WMT English-German", "on two benchmark datasets"))
    assert "datasets-and-benchmarks" not in labels


def test_longer_cue_wins_over_the_phrase_inside_it(nlp):
    # "neural networks" inside "graph neural networks" is graph learning, not deep learning
    mentions = domains.rule_areas(nlp("We study graph neural networks for node classification."))
    assert mentions[0].label == "graph-learning"
    assert "deep-learning" not in [m.label for m in mentions]


def test_plural_and_acronym_variants_match(nlp):
    assert _labels(nlp, "We train GANs that synthesize faces.")[0] == "generative-models"
    assert _labels(nlp, "Our recommender systems rank items for users.")[0] == "recommender-systems"


def test_no_cue_falls_back_to_machine_learning_with_low_confidence(nlp):
    text = "The committee met on Tuesday to discuss the budget. Nothing was decided."
    mentions = domains.rule_areas(nlp(text))
    assert len(mentions) == 1
    m = mentions[0]
    assert m.label == "machine-learning" and m.confidence == domains.FALLBACK_CONFIDENCE
    assert text[m.start : m.end] == m.text == "The committee met on Tuesday to discuss the budget."


def test_empty_text_gives_nothing(nlp):
    assert domains.rule_areas(nlp("   ")) == []


def test_at_most_three_areas_each_a_taxonomy_concept(nlp, tax):
    text = (
        "We propose a multimodal model for visual question answering, image captioning, "
        "speech recognition, machine translation and object detection, trained with "
        "reinforcement learning on robots."
    )
    mentions = domains.rule_areas(nlp(text))
    assert 1 <= len(mentions) <= domains.MAX_AREAS
    assert all(m.label in tax for m in mentions)
    assert len({m.label for m in mentions}) == len(mentions)


def test_works_without_a_parser():
    import spacy

    blank = spacy.blank("en")
    mentions = domains.rule_areas(blank(TRANSLATION))
    assert mentions[0].label == "machine-translation"


# -- the trained classifier and how it meets the rules ------------------------------------------


def _tiny_model(tmp_path):
    from sklearn.linear_model import LogisticRegression

    from graph.extractors import areas

    texts = ["images pixels segmentation camera", "pixels images detection camera",
             "sentences words parsing translation", "words translation sentences tokens",
             "regret bandits convergence bounds", "bounds convergence gradient regret"]
    labels = ["computer-vision", "computer-vision", "natural-language-processing",
              "natural-language-processing", "machine-learning", "machine-learning"]
    settings = {"ngram_range": [1, 1], "min_df": 1, "max_features": 100,
                "relative_floor": 0.5, "min_probability": 0.2}
    vec = areas.vectorizer(settings)
    features = vec.fit_transform(texts)
    model = LogisticRegression(C=10.0, random_state=0).fit(features, labels)
    path = tmp_path / "areas.json.gz"
    areas.write(path, areas.to_json(vec, model.classes_, model.coef_, model.intercept_, settings))
    return path


def test_area_model_round_trips_and_writes_the_same_bytes(tmp_path):
    from graph.extractors import areas

    path = _tiny_model(tmp_path)
    first = path.read_bytes()
    model = areas.parse(path)
    assert model.classes == ("computer-vision", "machine-learning", "natural-language-processing")
    assert model.predict("camera images and pixels")[0][0] == "computer-vision"
    assert model.predict("translation of sentences")[0][0] == "natural-language-processing"
    assert all(0 < p <= 1 for _, p in model.predict("regret bounds"))
    for text in ("camera images and pixels", "Regret: bounds, bounds and bounds!", "", "zzz"):
        assert model.fast_probabilities(text) == pytest.approx(model.probabilities([text])[0],
                                                               abs=1e-12)
    (tmp_path / "again").mkdir()
    assert _tiny_model(tmp_path / "again").read_bytes() == first


def test_broken_area_model_names_the_file(tmp_path):
    from graph.errors import InputError
    from graph.extractors import areas

    path = tmp_path / "areas.json.gz"
    path.write_bytes(b"not gzip")
    with pytest.raises(InputError, match="areas.json.gz: cannot read the areas model"):
        areas.parse(path)


def test_choose_keeps_close_runners_up_only():
    from graph.extractors.areas import choose

    classes = ("a", "b", "c", "d")
    assert choose([0.5, 0.3, 0.15, 0.05], classes, 0.5, 0.2) == [("a", 0.5), ("b", 0.3)]
    assert choose([0.9, 0.05, 0.03, 0.02], classes, 0.5, 0.2) == [("a", 0.9)]
    assert [s for s, _ in choose([0.3, 0.3, 0.3, 0.1], classes, 0.5, 0.2)] == ["a", "b", "c"]


def test_classifier_field_is_refined_by_the_rules_subfield(nlp):
    rules = domains.rule_areas(nlp(SEGMENTATION))
    combined = domains._combine([("computer-vision", 0.8)], rules, nlp(SEGMENTATION))
    # the rules' best evidence under computer vision names the field itself
    assert [(m.label, m.confidence) for m in combined] == [("computer-vision", 0.8)]
    combined = domains._combine([("natural-language-processing", 0.7)],
                                domains.rule_areas(nlp(TRANSLATION)), nlp(TRANSLATION))
    assert [(m.label, m.text, m.confidence) for m in combined] == [
        ("machine-translation", "Neural machine translation", 0.7)]


def test_a_field_only_the_rules_find_is_not_added(nlp):
    rules = domains.rule_areas(nlp(PROTEINS))
    assert [(m.label, m.confidence) for m in rules] == [("computational-biology", 0.845)]
    combined = domains._combine([("machine-learning", 0.6)], rules, nlp(PROTEINS))
    assert [(m.label, m.confidence, m.text) for m in combined] == [
        ("machine-learning", 0.6, PROTEINS.split(". ")[0] + ".")]


def test_classifier_area_without_a_cue_points_at_the_opening_sentence(nlp):
    text = "The committee met on Tuesday to discuss the budget. Nothing was decided."
    combined = domains._combine([("robotics", 0.55)], domains.rule_areas(nlp(text)), nlp(text))
    assert [(m.label, m.text, m.confidence) for m in combined] == [
        ("robotics", "The committee met on Tuesday to discuss the budget.", 0.55)]
