"""One name, one type within an abstract (graph.extractors.name_types)."""

from graph.extractors import mentions
from graph.extractors.name_types import one_type_per_name
from graph.model import Mention
from graph.nlp.tagging import Span
from graph.nlp.tagging_cutoffs import Cutoffs
from tests.tagged_spans import mention

# metrics from the tagger too, as where the rules' metrics are not chosen
CUTOFFS = Cutoffs(by_type={"method": 0.5, "task": 0.5, "metric": 0.5}, rescue="same-span",
                  rule_types=())


def test_an_acronym_takes_the_type_its_definition_has_most_confidence_for():
    mentions = [
        mention("task", "grammatical error correction (GEC)", 10, 0.9,
           label="grammatical error correction", aliases=("GEC",)),
        mention("metric", "GEC", 80, 0.6),
        mention("method", "GEC", 150, 0.7),
    ]
    assert [m.type for m in one_type_per_name(mentions)] == ["task", "task", "task"]


def test_the_summed_confidence_decides_not_the_single_most_confident_mention():
    mentions = [
        mention("task", "GEC", 10, 0.9),
        mention("metric", "GEC", 80, 0.6),
        mention("metric", "GEC", 150, 0.6),
    ]
    assert [m.type for m in one_type_per_name(mentions)] == ["metric"] * 3


def test_forms_are_compared_case_separator_and_plural_blind():
    mentions = [
        mention("method", "Language Models", 0, 0.8),
        mention("task", "language-model", 40, 0.5),
    ]
    out = one_type_per_name(mentions)
    assert [m.type for m in out] == ["method", "method"]
    # only the type changes: words, span and label are the mention's own
    assert (out[1].text, out[1].start, out[1].end, out[1].label) == ("language-model", 40, 54,
                                                                     None)


def test_a_tie_goes_to_the_type_of_the_first_mention():
    mentions = [mention("metric", "BLEU", 90, 0.5), mention("method", "BLEU", 20, 0.5)]
    assert [m.type for m in one_type_per_name(mentions)] == ["method", "method"]


def test_names_that_share_no_form_and_other_kinds_of_mention_keep_their_type():
    mentions = [
        mention("task", "machine translation", 0, 0.9),
        mention("method", "Transformer", 30, 0.9),
        mention("metric", "BLEU", 60, 0.4),
        Mention(type="claim", text="Transformer improves BLEU.", start=30, end=56,
                extractor="claims.v1", confidence=0.9, claim_kind="result"),
    ]
    assert one_type_per_name(mentions) == mentions


def test_forms_join_through_a_shared_alias():
    # the bare name of "Cora dataset" is its alias; the model typed a later "Cora" a method
    mentions = [
        mention("dataset", "Cora dataset", 0, 0.8, label="Cora", aliases=("Cora",)),
        mention("method", "Cora", 50, 0.6),
        mention("dataset", "Cora", 90, 0.5),
    ]
    assert [m.type for m in one_type_per_name(mentions)] == ["dataset"] * 3


def test_combine_gives_an_acronym_and_its_definition_one_type():
    text = ("We study grammatical error correction (GEC). Reranking improves GEC quality "
            "and GEC results.")
    at = text.index
    spans = [Span(at("grammatical"), at(" (GEC)") + 6, "task", 0.9, 0.9),
             Span(at("GEC quality"), at("GEC quality") + 3, "metric", 0.7, 0.7),
             Span(at("GEC results"), at("GEC results") + 3, "method", 0.6, 0.6)]
    got = mentions.combine(text, spans, (), cutoffs=CUTOFFS)
    assert [(m.text, m.type, m.label) for m in got] == [
        ("grammatical error correction (GEC)", "task", "grammatical error correction"),
        ("GEC", "task", None),
        ("GEC", "task", None),
    ]


def test_only_the_mentions_typed_by_a_lexicon_or_a_head_word_vote_where_there_are_any():
    mentions = [
        mention("dataset", "OCID-Ref dataset", 0, 0.5, label="OCID-Ref", aliases=("OCID-Ref",)),
        mention("method", "OCID-Ref", 60, 0.9),
        mention("method", "OCID-Ref", 120, 0.9),
    ]
    assert [m.type for m in one_type_per_name(mentions, firm={0})] == ["dataset"] * 3
    # a lexicon hit on a short form outvotes even the written-out name and the dataset head
    assert [m.type for m in one_type_per_name(mentions, firm={1})] == ["method"] * 3
