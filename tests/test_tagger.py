"""The learned mention tagger: span mapping, windows, the shipped model, mentions.v2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from graph import extractors as registry
from graph.extractors import mentions
from graph.extractors.candidates import Candidate
from graph.nlp import tagging
from graph.nlp.tagging import LABELS, Span, decode, owner_of, pieces, windows
from graph.nlp.tagging_cutoffs import Cutoffs
from graph.tagger.data import scierc_docs, scirex_docs

TEXT = "We train Llama-2-7B (a decoder) on WikiText-103 for summarisation."


@pytest.fixture(scope="module")
def tokenizer():
    return tagging.load_tokenizer()


@pytest.fixture(scope="module")
def tagger():
    return tagging.Tagger(threads=1)


def one_hot(n: int, tags: dict[int, str]) -> np.ndarray:
    probs = np.full((n, len(LABELS)), 0.01, dtype=np.float32)
    for i in range(n):
        probs[i, LABELS.index(tags.get(i, "O"))] = 0.9
    return probs


def test_wordpiece_offsets_of_a_made_up_abstract(tokenizer):
    p = pieces(tokenizer, TEXT)
    # "Llama" is two wordpieces of one word; hyphens and parentheses are words of their own
    assert [TEXT[a:b] for a, b in p.offsets[2:9]] == ["Ll", "ama", "-", "2", "-", "7", "B"]
    assert p.words[2] == p.words[3] and p.words[3] != p.words[4]
    assert [TEXT[a:b] for a, b in p.offsets[9:14]] == ["(", "a", "deco", "der", ")"]


def test_bio_maps_to_exact_character_spans(tokenizer):
    p = pieces(tokenizer, TEXT)
    tags = {2: "B-method", 3: "I-method", 4: "I-method", 5: "I-method", 6: "I-method",
            7: "I-method", 8: "I-method", 15: "B-dataset", 16: "I-dataset", 17: "I-dataset",
            18: "I-dataset", 19: "I-dataset", 20: "I-dataset", 22: "B-task", 23: "I-task",
            24: "I-task"}
    spans = decode(one_hot(len(p.ids), tags), p)
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("Llama-2-7B", "method"), ("WikiText-103", "dataset"), ("summarisation", "task"),
    ]
    assert (spans[0].start, spans[0].end) == (9, 19)
    assert spans[0].confidence == pytest.approx(0.91)  # B- and I- of the type: 0.9 + 0.01


def test_a_span_tagged_inside_a_word_grows_to_the_whole_word(tokenizer):
    p = pieces(tokenizer, TEXT)
    # only "##der" of "decoder" tagged, and an I- tag with no B- before it
    spans = decode(one_hot(len(p.ids), {12: "I-method", 16: "B-dataset"}), p)
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("decoder", "method"), ("WikiText", "dataset"),
    ]


@pytest.mark.parametrize("text, tagged, name", [
    ("Results on SQuAD v2.0, and more.", "SQuAD v2", "SQuAD v2.0"),
    ("the Prague Dependency Treebank 2.0.", "Prague Dependency Treebank 2",
     "Prague Dependency Treebank 2.0"),
    ("on Human3.6M and", "Human3", "Human3.6M"),
    ("version 2. 0 of it", "version 2", "version 2"),
])
def test_a_span_that_stops_at_a_decimal_point_takes_the_decimals(text, tagged, name):
    start = text.index(tagged)
    spans = tagging.tidy(text, [Span(start, start + len(tagged), "dataset", 0.9, 0.9)])
    assert [text[s.start:s.end] for s in spans] == [name]


def test_parenthesised_span_keeps_its_brackets(tokenizer):
    p = pieces(tokenizer, TEXT)
    spans = decode(one_hot(len(p.ids), {9: "B-method", 10: "I-method", 11: "I-method",
                                        12: "I-method", 13: "I-method"}), p)
    assert [TEXT[s.start:s.end] for s in spans] == ["(a decoder)"]


def test_windows_cover_every_position_once_as_owner():
    assert windows(10, 126, 84) == [(0, 10)]
    spans = windows(300, 126, 84)
    assert spans == [(0, 126), (84, 210), (168, 294), (252, 300)]
    owners = owner_of(300, spans)
    assert owners[0] == 0 and owners[299] == 3
    # a position sits furthest from an edge in its owning window
    assert owners[104] == 0 and owners[105] == 1


def test_shipped_model_loads_and_tags(tagger):
    spans = tagger.tag(TEXT)
    assert spans, "the model finds nothing in an abstract full of names"
    for s in spans:
        assert s.type in tagging.TYPES and 0 <= s.start < s.end <= len(TEXT)
        assert 0.0 < s.confidence <= 1.0
        assert TEXT[s.start] != " " and TEXT[s.end - 1] != " "


def test_tags_are_identical_across_runs_and_sessions(tagger):
    again = tagging.Tagger(threads=1)
    assert tagger.tag(TEXT) == tagger.tag(TEXT) == again.tag(TEXT)
    p = pieces(tagger.tokenizer, TEXT)
    assert tagger.probabilities(p).tobytes() == again.probabilities(p).tobytes()


def test_long_abstract_is_tagged_window_by_window(tagger):
    long_text = " ".join([TEXT] * 20)
    p = pieces(tagger.tokenizer, long_text)
    assert len(p.ids) > 2 * tagging.WINDOW
    probs = tagger.probabilities(p)
    assert probs.shape == (len(p.ids), len(LABELS))
    assert np.allclose(probs.sum(-1), 1.0, atol=1e-4)
    # the positions the first window owns carry exactly what that window alone gives
    first = tagging.Pieces(p.ids[: tagging.WINDOW], p.offsets[: tagging.WINDOW],
                           p.words[: tagging.WINDOW])
    alone = tagger.probabilities(first)
    owned = [i for i, w in enumerate(owner_of(len(p.ids), windows(len(p.ids)))) if w == 0]
    assert np.array_equal(probs[owned], alone[owned])
    spans = tagger.tag(long_text)
    assert spans[-1].start > len(long_text) // 2, "nothing tagged after the first window"


def test_registry_runs_the_tagger_by_default():
    assert "mentions.v2" in registry.names()
    assert registry.get("mentions.v2") is mentions.extract
    assert registry.DEFAULT_EXTRACTORS[0] == "mentions.v2"
    assert not set(registry.RULE_ENTITY_EXTRACTORS) & set(registry.DEFAULT_EXTRACTORS)
    assert set(registry.RULE_ENTITY_EXTRACTORS) <= set(registry.names())


def _cand(start, end, text, etype, sources, **kw):
    return Candidate(type=etype, start=start, end=end, text=text, confidence=0.8,
                     sources=sources, **kw)


def test_combine_takes_labels_types_and_lexicon_hits_from_the_rules():
    text = ("Gated Flow Networks (GFN) beat ResNet-50 on ImageNet and a strong baseline in "
            "accuracy; we also propose Quill.")
    spans = [Span(0, 19, "method", 0.9), Span(31, 40, "method", 0.8),
             Span(78, 86, "metric", 0.7)]
    cands = (
        _cand(0, 25, "Gated Flow Networks (GFN)", "method", ("chunk",), proposed=True),
        _cand(0, 19, "Gated Flow Networks", "method", ("acronym",),
              label="Gated Flow Networks", aliases=("GFN",)),
        _cand(31, 40, "ResNet-50", "model", ("lexicon",)),
        _cand(44, 52, "ImageNet", "dataset", ("lexicon",)),
        _cand(57, 74, "a strong baseline", "method", ("chunk",)),
        _cand(78, 86, "accuracy", "metric", ("chunk",)),
        _cand(104, 109, "Quill", "method", ("name",), proposed=True),
    )
    got = mentions.combine(text, spans, cands, cutoffs=Cutoffs())
    assert [(m.text, m.type, m.label, m.aliases, m.proposed, m.extractor) for m in got] == [
        ("Gated Flow Networks", "method", "Gated Flow Networks", ("GFN",), True, "mentions.v2"),
        ("ResNet-50", "model", None, (), False, "mentions.v2"),
        # metrics are the rules' (the cutoffs' rule_types), whatever the tagger says
        ("accuracy", "metric", None, (), False, "mentions.v2"),
        ("ImageNet", "dataset", None, (), False, "mentions.v2"),
        ("Quill", "method", None, (), True, "mentions.v2"),
    ]
    no_union = mentions.combine(text, spans, cands, union=False, rule_types=frozenset())
    assert [(m.text, m.type) for m in no_union] == [
        ("Gated Flow Networks", "method"), ("ResNet-50", "model"), ("accuracy", "metric"),
    ]
    # a cutoffs record that takes metrics from the tagger: its span, under its cutoff
    tagger_metrics = Cutoffs(by_type={"metric": 0.6}, rule_types=())
    got = mentions.combine(text, spans, cands, cutoffs=tagger_metrics)
    assert [(m.text, m.type, m.confidence) for m in got if m.type == "metric"] == [
        ("accuracy", "metric", 0.7)]
    strict = Cutoffs(by_type={"metric": 0.75}, rule_types=())
    # the tagger's span is under 0.75 and the rules' "accuracy" (a chunk) is not let in
    assert [m for m in mentions.combine(text, spans, cands, cutoffs=strict)
            if m.type == "metric"] == []


def test_scierc_reader_types_and_offsets(tmp_path):
    doc = {"doc_key": "X1", "sentences": [["We", "use", "-LRB-", "CRF", "-RRB-", "on", "images",
                                           "of", "MNIST", "."]],
           "ner": [[[3, 3, "Method"], [6, 6, "Material"], [8, 8, "Material"],
                    [0, 0, "Generic"]]]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc) + "\n")
    [(key, [ex])] = list(scierc_docs(path))
    assert ex.text == "We use (CRF) on images of MNIST."
    assert [(ex.text[s:e], t) for s, e, t in ex.spans] == [("CRF", "method"), ("MNIST", "dataset")]


def test_scirex_train_reader_never_returns_dev_papers(tmp_path):
    from graph.eval.splits import SCIREX_DEV_SHARE, is_dev

    ids = [f"doc{i}" for i in range(30)]
    for i in ids:
        (tmp_path / f"{i}.json").write_text(json.dumps({"doc_id": i}))
    train = {d["doc_id"] for d in scirex_docs(tmp_path, dev=False)}
    dev = {d["doc_id"] for d in scirex_docs(tmp_path, dev=True)}
    assert train | dev == set(ids) and not train & dev
    assert all(is_dev(i, SCIREX_DEV_SHARE) for i in dev) and dev


def _tidied(text: str, *names: str) -> list[str]:
    from graph.nlp.tagging import Span, tidy

    spans = []
    for name in names:
        start = text.index(name)
        spans.append(Span(start, start + len(name), "dataset", 0.9))
    return [text[s.start:s.end] for s in tidy(text, spans)]


def test_a_span_on_a_dash_inside_a_word_grows_to_the_whole_word():
    text = "We test on ACME-WordBench and FooNet-B/16, then Quux-R2-7B."
    assert _tidied(text, "-WordBench", "FooNet-", "-R2-7B") == [
        "ACME-WordBench", "FooNet-B/16", "Quux-R2-7B",
    ]


def test_stray_edges_are_trimmed_and_a_span_naming_nothing_is_dropped():
    text = "the Widget Contest (WC) - with 16 problems, 5- shot, and Large parser (LP) here"
    assert _tidied(text, "Widget Contest (", " - ", "16", "5-", "Large parser (LP") == [
        "Widget Contest", "Large parser (LP)",
    ]


def test_joining_words_at_a_span_edge_are_trimmed():
    text = ("We parse the Fooz Treebank and the Quux corpus, Acme's Wordbook and the detection "
            "of a widget, and or.")
    assert _tidied(text, "Fooz Treebank and", "s Wordbook", "detection of a", "and or") == [
        "Fooz Treebank", "Wordbook", "detection",
    ]
    # a capital is no joining word, nor is a word inside the name
    text = "Model A and Bag of Words"
    assert _tidied(text, "Model A", "Bag of Words") == ["Model A", "Bag of Words"]


def test_a_span_that_lists_names_is_cut_into_them():
    text = ("We train on Foo 2016 English–German and Bar 2017 English–Czech, then test on "
            "ZapSet-10, ZapSet-100 and QuuxNet.")
    assert _tidied(text, "Foo 2016 English–German and Bar 2017 English–Czech",
                   "ZapSet-10, ZapSet-100 and QuuxNet") == [
        "Foo 2016 English–German", "Bar 2017 English–Czech", "ZapSet-10", "ZapSet-100",
        "QuuxNet",
    ]


def test_two_spans_of_one_type_with_only_a_space_between_are_one_name():
    from graph.nlp.tagging import tidy

    text = "on Foo 2016 English–German for parsing and generation"
    spans = [Span(3, 11, "dataset", 0.9, 0.8), Span(12, 26, "dataset", 0.5, 0.4),
             Span(31, 38, "task", 0.9), Span(39, 42, "task", 0.6), Span(43, 53, "task", 0.9)]
    got = tidy(text, spans)
    assert [(text[s.start:s.end], s.type) for s in got] == [
        ("Foo 2016 English–German", "dataset"), ("parsing", "task"), ("generation", "task"),
    ]
    # the joined span's confidence is the length-weighted mean, its floor the lower
    assert got[0].confidence == pytest.approx((0.9 * 8 + 0.5 * 14) / 22)
    assert got[0].floor == 0.4


def test_an_acronym_in_brackets_stays_inside_its_name():
    from graph.nlp.tagging import tidy

    text = ("a gated widget network (GWN) language model, the Foo Bank (FB) corpus, "
            "the (QB) dataset and the (XY) set here, then the ZN) tail, "
            "sparse widget factoring (SWF) and (ACR)")

    def at(name: str, typ: str, conf: float = 0.9) -> Span:
        start = text.index(name)
        return Span(start, start + len(name), typ, conf, conf)

    spans = [at("gated widget network", "task", 0.6), at("GWN) language model", "method"),
             at("Foo Bank", "dataset"), at("(FB) corpus", "dataset"),
             at("(QB) dataset", "dataset"), at("(XY) set", "dataset"),
             at("ZN) tail", "method"), at("sparse widget factoring", "method"),
             at("SWF)", "method")]
    got = tidy(text, spans)
    assert [(text[s.start:s.end], s.type) for s in got] == [
        # the later span gives the type: its head word names the thing
        ("gated widget network (GWN) language model", "method"),
        ("Foo Bank (FB) corpus", "dataset"),
        # no tagged name before the bracket: the acronym alone
        ("QB", "dataset"), ("XY", "dataset"), ("ZN", "method"),
        # a long form and its acronym stay two names; the stray bracket goes
        ("sparse widget factoring", "method"), ("SWF", "method"),
    ]
    assert got[0].confidence == pytest.approx((0.6 * 20 + 0.9 * 19) / 39)
    assert got[0].floor == 0.6


def test_a_comma_list_cuts_a_title_case_name_from_a_coined_one():
    text = ("on ZAPNET, Quux Street House Numbers and Foo Face, on Widget, Fooz Corpus, "
            "and on Zap & Quux paradigm")
    assert _tidied(text, "ZAPNET, Quux Street House Numbers and Foo Face",
                   "Widget, Fooz Corpus", "Zap & Quux paradigm") == [
        "ZAPNET", "Quux Street House Numbers", "Foo Face",
        # no part is a name by its form: a title-case phrase may be one name with a comma
        "Widget, Fooz Corpus",
        # no comma: an "&" or an "and" may sit inside one name
        "Zap & Quux paradigm",
    ]


def test_a_common_phrase_with_an_and_stays_whole():
    text = ("question answering and reasoning, Vision and Language Navigation, "
            "Widget VOC 2007 and 2012, WidgetNet (Doe et al., 2016)")
    names = ["question answering and reasoning", "Vision and Language Navigation",
             "Widget VOC 2007 and 2012", "WidgetNet (Doe et al., 2016)"]
    assert _tidied(text, *names) == names


def test_a_span_that_lists_whole_phrases_is_cut_into_them():
    from graph.nlp.tagging import tidy

    text = ("widget sorting and gadget summarization; sprocket alignment, cog parsing or "
            "gear tagging; widget representation and recognition; syntactic and pragmatic "
            "gadgets; identification of 2-widget and 3-widget names; widget sorting and gadget "
            "ranking methods; widget parsing (WP) and gadget sorting")
    names = ["widget sorting and gadget summarization",
             "sprocket alignment, cog parsing or gear tagging",
             "widget representation and recognition", "syntactic and pragmatic gadgets",
             "identification of 2-widget and 3-widget names",
             "widget sorting and gadget ranking methods", "widget parsing (WP) and gadget sorting"]
    spans = []
    for name in names:
        start = text.index(name)
        spans.append(Span(start, start + len(name), "task", 0.8, 0.7))
    got = tidy(text, spans)
    assert [text[s.start:s.end] for s in got] == [
        "widget sorting", "gadget summarization", "sprocket alignment", "cog parsing",
        "gear tagging",
        # one word shares its head or modifier with its neighbour
        "widget representation and recognition", "syntactic and pragmatic gadgets",
        # a preposition ties the parts; so does a head the last part shares
        "identification of 2-widget and 3-widget names",
        "widget sorting and gadget ranking methods",
        # brackets are left to the acronym rules
        "widget parsing (WP) and gadget sorting",
    ]
    assert all((s.type, s.confidence, s.floor) == ("task", 0.8, 0.7) for s in got)


def test_a_name_headed_by_a_dataset_word_is_a_dataset():
    text = "the Widget QA dataset, Gadget Treebank, Named Sprocket corpora and dataset pruning"
    names = [("Widget QA dataset", "task"), ("Gadget Treebank", "method"),
             ("Named Sprocket corpora", "task"), ("dataset pruning", "task")]
    spans = [Span(text.index(n), text.index(n) + len(n), t, 0.9, 0.9) for n, t in names]
    got = mentions.combine(text, spans, (), union=False, cutoffs=Cutoffs())
    assert [(m.text, m.type) for m in got] == [
        ("Widget QA dataset", "dataset"), ("Gadget Treebank", "dataset"),
        ("Named Sprocket corpora", "dataset"), ("dataset pruning", "task"),
    ]


def test_a_dataset_written_with_its_class_word_is_also_its_bare_name():
    assert mentions.without_class_word("Widgetscapes dataset") == ("Widgetscapes",)
    assert mentions.without_class_word("Gadget Discourse corpus") == ("Gadget Discourse",)
    # a function word or a lower-case word before the class word names nothing
    assert mentions.without_class_word("Our dataset") == ()
    assert mentions.without_class_word("large dataset") == ()
    assert mentions.without_class_word("Widgetscapes") == ()
    # a method's class words are its own: "network", "module", "approach" …
    assert mentions.without_class_word("Bi-Gadget Flow network", "method") == ("Bi-Gadget Flow",)
    assert mentions.without_class_word("GADGET module", "method") == ("GADGET",)
    assert mentions.without_class_word("Widgetscapes dataset", "method") == ()
    assert mentions.without_class_word("statistical model", "method") == ()
    # a capitalised class word is part of the name
    assert mentions.without_class_word("Gadget Flow Networks", "method") == ()
    text = "on the Widgetscapes dataset and the Sprocket benchmarks"
    spans = [Span(text.index(n), text.index(n) + len(n), "dataset", 0.9, 0.9)
             for n in ("Widgetscapes dataset", "Sprocket benchmarks")]
    got = mentions.combine(text, spans, (), union=False, cutoffs=Cutoffs())
    # the node takes the bare name, as other papers write it
    assert [(m.text, m.label, m.aliases) for m in got] == [
        ("Widgetscapes dataset", "Widgetscapes", ("Widgetscapes",)),
        ("Sprocket benchmarks", "Sprocket", ("Sprocket",)),
    ]


def test_a_variant_of_a_lexicon_name_is_kept_where_the_tagger_cut_it_under_its_cutoff():
    text = "We prompt Gizmo-2-70B and Gizmo-2-7B on the task."
    big, small = text.index("Gizmo-2-70B"), text.index("Gizmo-2-7B")
    # the tagger stops at the size and is unsure of the rest; the rules read both whole
    spans = [Span(big, big + 7, "method", 0.6, 0.5), Span(big + 8, big + 11, "metric", 0.5, 0.5)]
    cands = (_cand(big, big + 11, "Gizmo-2-70B", "model", ("chunk", "lexicon-variant")),
             _cand(small, small + 10, "Gizmo-2-7B", "model", ("name",)))
    got = mentions.combine(text, spans, cands, cutoffs=Cutoffs(by_type={"method": 0.7}))
    assert [(m.text, m.type) for m in got] == [("Gizmo-2-70B", "model")]


def test_a_tagged_span_of_function_words_is_no_mention():
    text = "the segmentation of the images"
    spans = [Span(0, 16, "task", 0.9), Span(17, 19, "task", 0.6), Span(17, 23, "task", 0.6)]
    got = mentions.combine(text, spans, (), union=False)
    assert [m.text for m in got] == ["the segmentation"]


def test_the_shipped_tagger_gives_two_datasets_for_a_list_of_two_qualified_names():
    text = ("We evaluate on IWSLT 2016 English–German and WMT 2016 English–Romanian, and our "
            "model outperforms the baseline by 1.2 BLEU.")
    names = [(s.type, text[s.start:s.end]) for s in tagging.shared().tag(text)]
    assert ("dataset", "IWSLT 2016 English–German") in names
    assert ("dataset", "WMT 2016 English–Romanian") in names
    assert not any(" and " in name for _, name in names)


def test_a_name_the_lexicon_lists_takes_the_lexicons_type():
    text = "We compare Llama 2 with BM25 on language modeling"
    spans = [Span(11, 18, "dataset", 0.9), Span(24, 28, "dataset", 0.9),
             Span(32, 49, "method", 0.9)]
    got = mentions.combine(text, spans, (), union=False)
    # "language modeling" is a common phrase: the sentence, not the lexicon, types it
    assert [(m.text, m.type) for m in got] == [
        ("Llama 2", "model"), ("BM25", "method"), ("language modeling", "method"),
    ]


def test_a_variant_of_a_lexicon_name_takes_the_lexicons_type():
    text = "Quill beats Llama-2-13B-chat and Zork-7B on COCO-Stuff"
    names = ("Llama-2-13B-chat", "Zork-7B", "COCO-Stuff")
    spans = [Span(text.index(n), text.index(n) + len(n), "dataset", 0.9) for n in names]
    cands = (_cand(12, 28, "Llama-2-13B-chat", "model", ("name", "lexicon-variant")),
             _cand(33, 40, "Zork-7B", "model", ("name",)),
             _cand(44, 54, "COCO-Stuff", "dataset", ("name", "lexicon-variant")))
    got = mentions.combine(text, spans, cands, union=False, cutoffs=Cutoffs())
    # a coined name the rules do not tie to a lexicon name keeps the tagger's type
    assert [(m.text, m.type) for m in got] == [
        ("Llama-2-13B-chat", "model"), ("Zork-7B", "dataset"), ("COCO-Stuff", "dataset"),
    ]


def test_a_span_that_stops_inside_a_known_name_grows_to_it():
    text = "We fine-tune wav2vec 2.0 and ViT-B/16 on Zork 2012, then Zork again"
    spans = [Span(13, 20, "method", 0.9), Span(29, 34, "method", 0.9),
             Span(41, 45, "dataset", 0.9), Span(57, 61, "dataset", 0.9)]
    cands = (_cand(13, 24, "wav2vec 2.0", "model", ("lexicon",)),
             _cand(29, 37, "ViT-B/16", "model", ("name", "lexicon-variant")),
             _cand(41, 50, "Zork 2012", "dataset", ("name",)),
             _cand(57, 61, "Zork", "dataset", ("name", "lexicon-variant")))
    got = mentions.combine(text, spans, cands, union=False, cutoffs=Cutoffs())
    # "Zork 2012" is no lexicon name nor a variant of one: the tagged span stays as it is
    assert [(m.text, m.type) for m in got] == [
        ("wav2vec 2.0", "model"), ("ViT-B/16", "model"), ("Zork", "dataset"),
        ("Zork", "dataset"),
    ]


def test_a_dataset_name_loses_the_modifiers_before_it():
    text = "on the large-scale ZapSet-1B corpus, image-based QuuxReID and public health data"
    spans = [Span(text.index(n), text.index(n) + len(n), "dataset", 0.9) for n in (
        "large-scale ZapSet-1B corpus", "image-based QuuxReID", "public health data")]
    got = mentions.combine(text, spans, (), union=False)
    # "public health data" has no name after the modifier: it stays as tagged
    assert [m.text for m in got] == ["ZapSet-1B corpus", "QuuxReID", "public health data"]
    assert [text[m.start:m.end] for m in got] == [m.text for m in got]


def test_a_tagged_name_that_defines_an_acronym_is_its_long_form_also_the_acronym():
    text = ("widget sorting (WS) with a gated widget network (GWN) language model, "
            "a Quux Widget (Challenge 4) and a widget set (singular case)")
    names = ["widget sorting (WS)", "gated widget network (GWN) language model",
             "Quux Widget (Challenge 4)", "widget set (singular case)"]
    spans = [Span(text.index(n), text.index(n) + len(n), "task", 0.9) for n in names]
    got = mentions.combine(text, spans, (), union=False)
    assert [(m.text, m.label, m.aliases) for m in got] == [
        ("widget sorting (WS)", "widget sorting", ("WS",)),
        ("gated widget network (GWN) language model", "gated widget network language model",
         ("GWN language model",)),
        # no acronym of the words before the bracket: the name stays as it is
        ("Quux Widget (Challenge 4)", None, ()),
        ("widget set (singular case)", None, ()),
    ]


def test_a_name_with_its_acronym_links_with_the_same_name_without_it():
    from graph.model import Paper, PaperExtraction
    from graph.resolve import resolve

    text = "We study widget sorting (WS)."
    start = text.index("widget")
    spans = [Span(start, start + len("widget sorting (WS)"), "task", 0.9)]
    first = mentions.combine(text, spans, (), union=False)
    second = mentions.combine("Widget sorting is hard.", [Span(0, 14, "task", 0.9)], (),
                              union=False)
    corpus = resolve([PaperExtraction(paper=Paper(key="a", abstract=text, title=""),
                                      mentions=first),
                      PaperExtraction(paper=Paper(key="b", abstract="", title=""),
                                      mentions=second)])
    assert {(e.ref, e.label, frozenset(e.aliases), frozenset(e.papers))
            for e in corpus.entities.values()} == {
        ("task/widget-sorting", "widget sorting", frozenset({"WS", "widget sorting (WS)"}),
         frozenset({"a", "b"})),
    }
