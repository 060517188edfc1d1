"""The indexed attribute rules give the pipeline exactly what spaCy's Matcher-based ruler does."""

from __future__ import annotations

import pytest
from spacy.attrs import DEP, HEAD, LEMMA, MORPH, ORTH, POS, TAG

from graph import nlp as nlp_loader
from graph.nlp.attribute_rules import IndexedMatch, index_attribute_ruler

# The English rules' exceptions: contractions, "gonna", "y'all", auxiliaries and their
# dependencies, existential "there", pronoun cases, white space, a determiner as a pronoun
TEXTS = [
    "I ain't gonna lie: y'all did great, and it's what we had hoped for.",
    "There were 3 models.  That is, we'd trained them, and they'd been   tested.\n\nGot it?",
    "Let's see: you gave it to me, I gave it to you; somethin' ol' was doin' fine.",
    "We evaluate BERT-base on GSM8K. Which of these does the model get right? That which works.",
    "",
]
COLUMNS = [ORTH, TAG, POS, MORPH, LEMMA, DEP, HEAD]


@pytest.fixture(scope="module")
def pipelines():
    return nlp_loader.load(), nlp_loader.load_with_spacy_rules()


def test_load_matches_attribute_rules_through_the_index():
    assert isinstance(nlp_loader.load().get_pipe("attribute_ruler").match, IndexedMatch)


def test_indexed_and_matcher_rules_annotate_every_token_the_same(pipelines):
    indexed, stock = pipelines
    assert not isinstance(stock.get_pipe("attribute_ruler").match, IndexedMatch)
    for a, b in zip(indexed.pipe(TEXTS), stock.pipe(TEXTS), strict=True):
        assert a.to_array(COLUMNS).tolist() == b.to_array(COLUMNS).tolist(), a.text


def test_indexed_and_matcher_rules_find_the_same_matches(pipelines):
    indexed, stock = pipelines
    ruler = stock.get_pipe("attribute_ruler")
    index = indexed.get_pipe("attribute_ruler").match
    # the matches on the Doc as the ruler sees it: parsed, its own attributes not yet set
    before = stock.disable_pipes("attribute_ruler", "lemmatizer")
    try:
        docs = list(stock.pipe(TEXTS))
    finally:
        before.restore()
    found = [ruler.match(doc) for doc in docs]
    assert [index(doc) for doc in docs] == found
    # the exceptions fired, not only the tag map
    exceptions = {i for i, rule in enumerate(ruler.patterns)
                  if any(set(token) - {"TAG"} for p in rule["patterns"] for token in p)}
    fired = {rule for doc_matches in found for rule, _, _, _ in doc_matches}
    assert len(fired & exceptions) >= 10


def test_a_pattern_the_index_cannot_read_leaves_the_matcher():
    from spacy.lang.en import English

    nlp = English()
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "very", "OP": "+"}, {"POS": "ADJ"}]], {"LEMMA": "much"})
    assert index_attribute_ruler(ruler) is False
    assert "match" not in vars(ruler)
    # still the Matcher, which reads the operator
    doc = nlp.make_doc("very very good")
    doc[2].pos_ = "ADJ"
    assert [t.lemma_ for t in ruler(doc)][0] == "much"


def test_the_pipeline_pickles_with_its_index(pipelines):
    """spaCy's `nlp.pipe(n_process=N)` pickles the pipeline where processes are spawned."""
    import pickle

    indexed, stock = pipelines
    copy = pickle.loads(pickle.dumps(indexed))
    assert isinstance(copy.get_pipe("attribute_ruler").match, IndexedMatch)
    for a, b in zip(copy.pipe(TEXTS), stock.pipe(TEXTS), strict=True):
        assert a.to_array(COLUMNS).tolist() == b.to_array(COLUMNS).tolist(), a.text
