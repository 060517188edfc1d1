"""The per-Doc token columns hold exactly what spaCy's Token and Span properties return."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import spacy

from graph.extractors import tokens

GOLD = Path(__file__).resolve().parent / "gold" / "dev.json"
EXTRA = [
    "We propose Gated Flow Networks (GFN), a novel architecture. GFN (a flow model) is fast.",
    'The "Lattice Echo" model  is  evaluated on WMT\'14 English-German\n\nand ViT-B/16.',
]


@pytest.fixture(scope="module")
def nlp():
    from graph.nlp import load

    return load()


@pytest.fixture(scope="module")
def docs(nlp):
    papers = json.loads(GOLD.read_text(encoding="utf-8"))["papers"][:40]
    return list(nlp.pipe([p["abstract"] for p in papers] + EXTRA))


def test_columns_match_the_token_properties(docs):
    for doc in docs:
        t = tokens.table(doc)
        assert t.n == len(doc)
        assert t.doc_text == doc.text and t.doc_lower == doc.text.lower()
        for tok in doc:
            i = tok.i
            assert (t.text[i], t.ws[i], t.lower[i], t.pos[i], t.tag[i], t.dep[i]) == (
                tok.text, tok.whitespace_, tok.lower_, tok.pos_, tok.tag_, tok.dep_
            )
            assert (t.head[i], t.lemma[i], t.lemma_lower[i], t.idx[i]) == (
                tok.head.i, tok.lemma_, tok.lemma_.lower(), tok.idx
            )
            flags = (
                t.is_punct, t.is_alpha, t.like_num, t.is_title, t.is_stop, t.is_lower, t.is_space
            )
            assert tuple(bool(f[i]) for f in flags) == (
                tok.is_punct, tok.is_alpha, tok.like_num, tok.is_title, tok.is_stop, tok.is_lower,
                tok.is_space,
            )
            assert t.is_sent_start[i] == bool(tok.is_sent_start)
            assert list(t.kids[i]) == [c.i for c in tok.children]
            assert sorted(t.subtree(i)) == sorted(x.i for x in tok.subtree)
            assert t.left_edge(doc, i) == tok.left_edge.i
            assert (t.sent_first[i], t.sent_end[i]) == (tok.sent.start, tok.sent.end)


def test_sentences_spans_and_roots_match_spacy(docs):
    for doc in docs:
        t = tokens.table(doc)
        assert t.sents == [(s.start, s.end) for s in doc.sents]
        for start in range(len(doc)):
            for end in range(start + 1, min(start + 9, len(doc) + 1)):
                span = doc[start:end]
                assert t.span_text(start, end) == span.text
                assert t.root(start, end) == span.root.i
                assert t.end_char(end - 1) == span.end_char


def test_the_table_is_built_once_and_rebuilt_for_a_changed_doc(nlp):
    doc = nlp(EXTRA[0])
    assert tokens.table(doc) is tokens.table(doc)
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[0:2])
    assert tokens.table(doc).n == len(doc)
    assert tokens.table(doc).text[0] == doc[0].text


def test_docs_without_a_parse_or_without_words():
    blank = spacy.blank("en")
    t = tokens.table(blank("Two words."))
    assert (t.n, t.has_sents, t.sents, t.doc_text) == (3, False, [], "Two words.")
    assert t.head == [0, 1, 2] and [list(k) for k in t.kids] == [[], [], []]
    empty = tokens.table(blank(""))
    assert (empty.n, empty.doc_text, empty.sents) == (0, "", [])
    assert empty.span_text(0, 0) == ""


def test_noun_chunks_are_spacys(docs):
    from spacy.lang.en.syntax_iterators import noun_chunks

    assert docs[0].noun_chunks_iterator is noun_chunks  # the columns' path is the one tested
    for doc in docs:
        assert tokens.table(doc).noun_chunks(doc) == [(c.start, c.end) for c in doc.noun_chunks]


def test_strings_are_read_again_after_the_shared_table_is_emptied(nlp, monkeypatch):
    monkeypatch.setattr(tokens, "_MAX_STRINGS", 0)
    monkeypatch.setattr(tokens, "_strings", {1: "stale"})
    doc = nlp("Gated Flow Networks beat ResNet-50 on CIFAR-10.")
    t = tokens.Tokens(doc)
    assert t.text == [tok.text for tok in doc] and t.lemma == [tok.lemma_ for tok in doc]
    assert 1 not in tokens._strings


def test_one_extraction_pass_builds_the_columns_once_and_drops_them(nlp, monkeypatch):
    from graph import extractors as registry
    from graph.extractors.pipeline import extract_doc

    built = []
    real = tokens.Tokens
    monkeypatch.setattr(tokens, "Tokens", lambda doc: built.append(1) or real(doc))
    doc = nlp(EXTRA[0])
    mentions = extract_doc(doc, [registry.get(name) for name in registry.DEFAULT_EXTRACTORS])
    assert built == [1] and mentions
    assert tokens.KEY not in doc.user_data
